"""Newest keywords of linalg.svd and lax.conv_transpose, on every row: svd(subset_by_index=)
and conv_transpose(use_consistent_padding=)."""

import jax
import numpy as np
import pytest

import jaxcompat.numpy as cnp
from jaxcompat import lax as clax

RNG = np.random.RandomState(1)
MATRIX = RNG.randn(4, 3).astype(np.float32)


def test_svd_of_the_whole_range_is_every_singular_value():
    u, s, vh = cnp.linalg.svd(MATRIX, full_matrices=False, subset_by_index=(0, 3))
    np.testing.assert_allclose(s, np.linalg.svd(MATRIX, compute_uv=False), rtol=1e-5)
    np.testing.assert_allclose((u * s) @ vh, MATRIX, atol=1e-5)
    values = cnp.linalg.svd(MATRIX, compute_uv=False, subset_by_index=(0, 3))
    np.testing.assert_allclose(values, s, rtol=1e-6)


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        (
            {"subset_by_index": (0, 2)},
            ValueError,
            "full_matrices and subset_by_index cannot both be set",
        ),
        (
            {"subset_by_index": (1, 3), "full_matrices": False},
            NotImplementedError,
            "subset_by_index not implemented for CPU and GPU",
        ),
    ],
)
def test_svd_of_a_part_is_the_newest_error_on_cpu(keywords, error, message):
    if jax.default_backend() != "cpu":
        pytest.skip("the newest computes a part of the singular values on TPU")
    with pytest.raises(error, match="subset_by_index") as raised:
        cnp.linalg.svd(MATRIX, **keywords)
    assert str(raised.value).split("\n")[0] == message


@pytest.mark.parametrize(
    ("padding", "stride", "dilation"),
    [((1, 2), 2, 1), ((0, 0), 1, 2), ((2, 1), 3, 1), ((1, 1), 2, 2)],
)
def test_conv_transpose_with_consistent_padding_is_the_gradient_of_the_convolution(
    padding, stride, dilation
):
    # PyTorch's meaning, which use_consistent_padding gives: the transpose of the forward
    # convolution with that padding, i.e. its gradient with respect to the input.
    size, kernel_size = 5, 4
    dilated = (kernel_size - 1) * dilation + 1
    forward_size = (size - 1) * stride + dilated - sum(padding)
    kernel = RNG.randn(kernel_size, 3, 2).astype(np.float32)
    layout = ("NHC", "HIO", "NHC")

    def convolve(x):
        return jax.lax.conv_general_dilated(
            x, kernel, (stride,), [padding], rhs_dilation=(dilation,), dimension_numbers=layout
        )

    _, transpose = jax.vjp(convolve, np.zeros((1, forward_size, 3), np.float32))
    cotangent = RNG.randn(1, size, 2).astype(np.float32)
    (expected,) = transpose(cotangent)
    result = clax.conv_transpose(
        cotangent,
        kernel,
        (stride,),
        [padding],
        rhs_dilation=(dilation,),
        dimension_numbers=layout,
        transpose_kernel=True,
        use_consistent_padding=True,
    )
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)


def test_conv_transpose_named_padding_is_consistent_either_way():
    x, kernel = RNG.randn(1, 6, 2).astype(np.float32), RNG.randn(3, 2, 4).astype(np.float32)
    for padding in ("SAME", "VALID"):
        np.testing.assert_array_equal(
            clax.conv_transpose(x, kernel, (2,), padding, use_consistent_padding=True),
            clax.conv_transpose(x, kernel, (2,), padding),
        )
