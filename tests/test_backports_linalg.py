"""The newest ``jax.numpy.linalg`` array-API functions on every release.

Contract tests: the same inputs and assertions on every matrix row. Where the release has a
function and it gives the newest result, ``jaxcompat.numpy.linalg.<name>`` is JAX's own, so
these tests also show that the backports give what the newest JAX gives. Expected results
come from NumPy's long-standing functions (NumPy 1.x has no ``linalg.vector_norm`` and the
like), never from the function under test.
"""

from __future__ import annotations

import inspect
import re

import jax
import numpy as np
import pytest

import jaxcompat.numpy as jnp
from tests._backport_helpers import assert_same

MATRICES = np.array(
    [[[3.0, -1.0, 2.0], [0.5, 4.0, -2.0]], [[1.0, 2.0, 0.0], [-3.0, 1.0, 5.0]]], np.float32
)  # two 2x3 matrices
VECTORS = np.array([[1.0, -2.0, 3.0], [0.0, 4.0, -1.0]], np.float32)
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}


def exactly(message: str) -> str:
    """A ``match`` pattern for the whole message."""
    return f"^{re.escape(message)}$"


def test_products_are_the_numpy_products_over_the_last_axes():
    other = VECTORS[::-1] * 2
    assert_same(jnp.linalg.cross(VECTORS, other), np.cross(VECTORS, other), **TOLERANCE)
    assert_same(jnp.linalg.cross(VECTORS.T, other.T, axis=0), np.cross(VECTORS.T, other.T, axis=0))
    assert_same(jnp.linalg.outer(VECTORS[0], VECTORS[1]), np.outer(VECTORS[0], VECTORS[1]))
    square = MATRICES[0] @ MATRICES[0].T
    assert_same(jnp.linalg.matmul(MATRICES, MATRICES[0].T), MATRICES @ MATRICES[0].T, **TOLERANCE)
    assert_same(jnp.linalg.tensordot(square, square), np.tensordot(square, square), **TOLERANCE)
    assert_same(
        jnp.linalg.tensordot(MATRICES, VECTORS[0], axes=1),
        np.tensordot(MATRICES, VECTORS[0], axes=1),
        **TOLERANCE,
    )
    assert_same(jnp.linalg.vecdot(VECTORS, other), np.einsum("ij,ij->i", VECTORS, other))
    z = np.array([1 + 2j, 3 - 1j], np.complex64)
    assert_same(jnp.linalg.vecdot(z, z * 1j), np.vdot(z, z * 1j))  # conjugates the first


def test_products_take_the_preferred_element_type():
    small = np.array([[100, 100], [100, 100]], np.int8)
    expected = np.full((2, 2), 20_000, np.int32)  # past int8: summed in int32
    assert_same(jnp.linalg.matmul(small, small, preferred_element_type=np.int32), expected)
    assert_same(
        jnp.linalg.tensordot(small, small, axes=1, preferred_element_type=np.int32), expected
    )
    assert_same(
        jnp.linalg.vecdot(small, small, preferred_element_type=np.int32), np.int32([20_000] * 2)
    )


def test_matrix_functions_take_the_last_two_axes():
    assert_same(jnp.linalg.matrix_transpose(MATRICES), np.swapaxes(MATRICES, -1, -2))
    assert_same(jnp.linalg.diagonal(MATRICES), np.diagonal(MATRICES, axis1=-2, axis2=-1))
    assert_same(
        jnp.linalg.diagonal(MATRICES, offset=1),
        np.diagonal(MATRICES, offset=1, axis1=-2, axis2=-1),
    )
    assert_same(jnp.linalg.trace(MATRICES), np.trace(MATRICES, axis1=-2, axis2=-1))
    assert_same(
        jnp.linalg.trace(MATRICES, offset=-1, dtype=np.int32), np.int32([0, -3])
    )  # the elements below the diagonal, converted first as jnp.trace does
    assert_same(jnp.linalg.trace(np.arange(12, dtype=np.int32).reshape(3, 4)), np.int32(15))
    singular = np.linalg.svd(MATRICES, compute_uv=False)
    assert_same(jnp.linalg.svdvals(MATRICES), singular, **TOLERANCE)
    assert_same(
        jnp.linalg.matrix_norm(MATRICES), np.linalg.norm(MATRICES, axis=(-2, -1)), **TOLERANCE
    )
    assert_same(
        jnp.linalg.matrix_norm(MATRICES, ord=1, keepdims=True),
        np.linalg.norm(MATRICES, ord=1, axis=(-2, -1), keepdims=True),
        **TOLERANCE,
    )
    assert_same(jnp.linalg.matrix_norm(MATRICES, ord=2), singular[:, 0], **TOLERANCE)


@pytest.mark.parametrize("order", [2, 1, 0, 3, np.inf, -np.inf])
def test_vector_norm_over_any_axes(order):
    # Over every axis, and over a two-axis tuple, it is the norm of the flattened vectors:
    # never a matrix norm (JAX 0.4.24-0.4.35's own takes one over two axes).
    def reference(x, axis):
        moved = np.moveaxis(x, axis, range(-len(axis), 0))
        flat = moved.reshape(*moved.shape[: x.ndim - len(axis)], -1)
        return np.linalg.norm(flat, ord=order, axis=-1).astype(np.float32)

    everything = tuple(range(MATRICES.ndim))
    assert_same(jnp.linalg.vector_norm(MATRICES, ord=order), reference(MATRICES, everything))
    assert_same(
        jnp.linalg.vector_norm(MATRICES, axis=(1, 2), ord=order), reference(MATRICES, (1, 2))
    )
    assert_same(jnp.linalg.vector_norm(MATRICES, axis=-1, ord=order), reference(MATRICES, (2,)))


def test_vector_norm_keeps_dims_and_refuses_a_str_order():
    kept = jnp.linalg.vector_norm(MATRICES, axis=(0, 2), keepdims=True)
    assert kept.shape == (1, 2, 1)
    np.testing.assert_allclose(kept.ravel(), np.sqrt((MATRICES**2).sum(axis=(0, 2))), **TOLERANCE)
    message = "Invalid order 'inf' for vector norm.Use 'jax.numpy.inf' instead."
    with pytest.raises(ValueError, match=exactly(message)):
        jnp.linalg.vector_norm(VECTORS, ord="inf")


def test_transforms():
    @jax.jit
    def jitted(x):
        return jnp.linalg.vector_norm(x, axis=(0, 1)), jnp.linalg.svdvals(x[0])

    norm, singular = jitted(MATRICES)
    np.testing.assert_allclose(norm, np.sqrt((MATRICES**2).sum(axis=(0, 1))), **TOLERANCE)
    np.testing.assert_allclose(singular, np.linalg.svd(MATRICES[0], compute_uv=False), **TOLERANCE)
    batched = jax.vmap(jnp.linalg.outer)(VECTORS, VECTORS)
    np.testing.assert_allclose(batched, np.einsum("bi,bj->bij", VECTORS, VECTORS))
    gradient = jax.grad(lambda x: jnp.linalg.vector_norm(x))(VECTORS[0])
    np.testing.assert_allclose(gradient, VECTORS[0] / np.linalg.norm(VECTORS[0]), **TOLERANCE)
    gradient = jax.grad(lambda x: jnp.linalg.trace(jnp.linalg.matrix_transpose(x)))(MATRICES[0])
    np.testing.assert_allclose(gradient, np.eye(2, 3, dtype=np.float32))


def test_errors_are_the_newest_jax_errors():
    message = (
        "Both input arrays must be (arrays of) 3-dimensional vectors, "
        "but they have x1.shape[axis]=2 and x2.shape[axis]=3"
    )
    with pytest.raises(ValueError, match=exactly(message)):
        jnp.linalg.cross(np.ones(2), np.ones(3))
    message = "Input arrays must be one-dimensional, but they are x1.ndim=2 x2.ndim=1"
    with pytest.raises(ValueError, match=exactly(message)):
        jnp.linalg.outer(np.ones((2, 2)), np.ones(2))
    # JAX's own function spells it "requres" until the release that fixed the typo.
    with pytest.raises(
        ValueError, match=r"^matrix_transpose requi?res at least 2 dimensions; got ndim=1$"
    ):
        jnp.linalg.matrix_transpose(np.ones(3))
    with pytest.raises(TypeError) as raised:
        jnp.linalg.svdvals([[1.0, 2.0]])
    assert str(raised.value) == (
        "jnp.linalg.svdvals requires ndarray or scalar arguments, got <class 'list'> at position 0."
    )


# --- jax.lax.linalg.tridiagonal_solve (JAX 0.5.0: any number of rows, complex, derivatives) ---


def _tridiagonal(rows, dtype, batch=()):
    draw = np.random.RandomState(rows)
    below, on, above = (draw.randn(*batch, rows) for _ in range(3))
    on = on + 4.0
    if np.dtype(dtype).kind == "c":
        below, on, above = below + 1j * draw.randn(*batch, rows), on - 0.5j, above + 0.25j
    below[..., 0] = above[..., -1] = 0.0  # not read
    sides = draw.randn(*batch, rows, 2) + (1j if np.dtype(dtype).kind == "c" else 0)
    return tuple(np.asarray(a, dtype) for a in (below, on, above, sides))


def _dense(below, on, above):
    rows = on.shape[-1]
    return (
        on[..., :, None] * np.eye(rows)
        + below[..., :, None] * np.eye(rows, k=-1)
        + above[..., :, None] * np.eye(rows, k=1)
    )


@pytest.mark.parametrize(
    ("rows", "dtype", "batch"),
    [
        (1, np.float32, ()),
        (2, np.float32, ()),
        (5, np.float32, ()),
        (4, np.complex64, ()),
        (5, np.float32, (3,)),
        (2, np.complex64, (2,)),
    ],
)
def test_tridiagonal_solve_solves_any_system_the_newest_jax_solves(rows, dtype, batch):
    import jaxcompat

    below, on, above, sides = _tridiagonal(rows, dtype, batch)
    solved = jaxcompat.lax.linalg.tridiagonal_solve(below, on, above, sides)
    assert (solved.dtype, solved.shape) == (np.dtype(dtype), sides.shape)
    expected = np.linalg.solve(_dense(below, on, above), sides)
    np.testing.assert_allclose(np.asarray(solved), expected, rtol=1e-4, atol=1e-5)


def test_tridiagonal_solve_differentiates_in_every_input():
    import jaxcompat

    below, on, above, sides = _tridiagonal(5, np.float32)

    def through(solve):
        return lambda *system: solve(*system).sum()

    def dense_solve(below, on, above, sides):
        return jax.numpy.linalg.solve(
            jax.numpy.diag(on) + jax.numpy.diag(below[1:], -1) + jax.numpy.diag(above[:-1], 1),
            sides,
        )

    arguments = (0, 1, 2, 3)
    got = jax.grad(through(jaxcompat.lax.linalg.tridiagonal_solve), arguments)(
        below, on, above, sides
    )
    want = jax.grad(through(dense_solve), arguments)(below, on, above, sides)
    for leaf, expected in zip(got[1:], want[1:], strict=True):
        np.testing.assert_allclose(np.asarray(leaf), np.asarray(expected), rtol=1e-4, atol=1e-5)
    # The entries that are not read have no derivative.
    np.testing.assert_allclose(np.asarray(got[0])[1:], np.asarray(want[0])[1:], rtol=1e-4)
    assert float(got[0][0]) == 0.0
    tangent = jax.jvp(
        lambda on: jaxcompat.lax.linalg.tridiagonal_solve(below, on, above, sides),
        (on,),
        (np.ones_like(on),),
    )[1]
    expected = jax.jvp(lambda on: dense_solve(below, on, above, sides), (on,), (np.ones_like(on),))
    np.testing.assert_allclose(np.asarray(tangent), np.asarray(expected[1]), rtol=1e-4, atol=1e-5)


def test_tridiagonal_solve_of_two_rows_batches_under_vmap_and_jit():
    import jaxcompat

    below, on, above, sides = _tridiagonal(2, np.float32)
    solve = jaxcompat.lax.linalg.tridiagonal_solve
    batched = jax.jit(jax.vmap(lambda b: solve(below, on, above, b)))(np.stack([sides, 2 * sides]))
    expected = np.linalg.solve(_dense(below, on, above), sides)
    np.testing.assert_allclose(np.asarray(batched[1]), 2 * expected, rtol=1e-4, atol=1e-5)


def test_tridiagonal_solve_takes_perturb_singular_or_names_the_release_that_does():
    import jaxcompat

    system = _tridiagonal(4, np.float32)
    solve = jaxcompat.lax.linalg.tridiagonal_solve
    np.testing.assert_allclose(
        np.asarray(solve(*system, perturb_singular=False)), np.asarray(solve(*system)), rtol=1e-6
    )
    from jax.lax import linalg as jax_linalg

    own = jax_linalg.tridiagonal_solve  # JAX's own, which takes it from 0.10.0
    if "perturb_singular" in inspect.signature(own).parameters:
        np.testing.assert_allclose(
            np.asarray(solve(*system, perturb_singular=True)), np.asarray(solve(*system)), rtol=1e-5
        )
    else:
        with pytest.raises(TypeError) as refused:
            solve(*system, perturb_singular=True)
        assert str(refused.value) == (
            "jaxcompat.lax.linalg.tridiagonal_solve(perturb_singular=...) needs JAX 0.10.0 or "
            f"newer; JAX {jaxcompat.JAX_VERSION_STRING} has no perturbed pivots for a singular "
            "system. Leave perturb_singular out."
        )
