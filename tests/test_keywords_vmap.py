"""``jaxcompat.vmap(sum_match=)`` on every row, as the newest JAX's: an output whose
out_axes is None is summed over the mapped axis where it varies along it and returned as it
is where it does not; under jit, grad and a nested vmap too. NumPy gives the references."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
from jaxcompat._keywords import adapter as keywords

X = np.arange(1.0, 4.0, dtype=np.float32)


def test_the_docstring_example():
    assert jaxcompat.vmap(lambda x: 2.0 * x, out_axes=None, sum_match=True)(X) == 12.0


def test_only_the_outputs_that_vary_are_summed():
    def per_row(x, c):
        return x * c, c * 2.0, x + 1

    summed, constant, mapped = jaxcompat.vmap(
        per_row, in_axes=(0, None), out_axes=(None, None, 0), sum_match=True
    )(X, 5.0)
    np.testing.assert_allclose(summed, (X * 5.0).sum())
    assert constant == 10.0
    np.testing.assert_allclose(mapped, X + 1)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "float16", "float32"])
def test_a_summed_output_has_the_dtype_of_jnp_sum(dtype):
    def per_row(x):
        return x > 1.5 if dtype == "bool" else x.astype(dtype)

    summed = jaxcompat.vmap(per_row, out_axes=None, sum_match=True)(X)
    expected = jnp.sum(jax.vmap(per_row)(X), axis=0)
    assert summed.dtype == expected.dtype
    np.testing.assert_array_equal(summed, expected)


def test_a_dict_of_out_axes_and_a_python_constant():
    found = jaxcompat.vmap(
        lambda x: {"a": x, "b": 1.0}, out_axes={"a": None, "b": None}, sum_match=True
    )(X)
    np.testing.assert_allclose(found["a"], X.sum())
    assert found["b"] == 1.0


def test_it_jits_differentiates_and_nests():
    summing = jaxcompat.vmap(lambda x: (x * x, 3), out_axes=None, sum_match=True)
    squares, three = jax.jit(summing)(X)
    np.testing.assert_allclose(squares, (X * X).sum())
    assert three == 3
    # d/dc sum(c * x) = sum(x); an output that does not vary is not summed: d/dc (2c) = 2.
    gradient = jax.grad(
        lambda c: jaxcompat.vmap(lambda x: c * x, out_axes=None, sum_match=True)(X)
    )(2.0)
    np.testing.assert_allclose(gradient, X.sum())
    unvarying = jax.grad(
        lambda c: jaxcompat.vmap(lambda x: c * 2.0, out_axes=None, sum_match=True)(X)
    )(2.0)
    assert unvarying == 2.0
    inner = jaxcompat.vmap(lambda a, b: a * b, in_axes=(0, None), out_axes=None, sum_match=True)
    np.testing.assert_allclose(jax.vmap(inner, in_axes=(None, 0))(X, X), X.sum() * X)


def test_collectives_see_the_axis_name_given():
    summed, total = jaxcompat.vmap(
        lambda x: (2.0 * x, jax.lax.psum(x, "i")), out_axes=None, sum_match=True, axis_name="i"
    )(X)
    assert (summed, total) == (12.0, 6.0)


def test_without_sum_match_a_varying_output_is_still_an_error():
    with pytest.raises(ValueError, match="out_axes"):
        jaxcompat.vmap(lambda x: 2.0 * x, out_axes=None, sum_match=False)(X)


def test_a_tuple_axis_name_is_taken_or_a_clear_error():
    def summed():
        doubled = jaxcompat.vmap(lambda x: 2.0 * x, out_axes=None, sum_match=True, axis_name=("a",))
        return doubled(X)

    if "sum_match" not in keywords.keywords_to_adapt("jax.vmap"):
        assert summed() == 12.0
        return
    with pytest.raises(TypeError) as error:
        summed()
    assert str(error.value) == (
        "jaxcompat.vmap(sum_match=True) with a tuple as axis_name needs JAX 0.9.0 or newer: "
        f"on JAX {jaxcompat.JAX_VERSION_STRING} jaxcompat finds the outputs to sum through "
        "lax.axis_index, which reads a tuple as the names of several axes. Name the axis with "
        "a string, or upgrade JAX."
    )


def test_an_argument_or_output_that_holds_itself_is_refused_first():
    # jaxlib 0.4.13's flatten overflows the C stack on one (a segfault); later releases
    # raise an internal error. jaxcompat's vmap flattens them itself where it sums.
    if "sum_match" not in keywords.keywords_to_adapt("jax.vmap"):
        # JAX's own vmap (whose own flatten is not guarded: see the README).
        assert jaxcompat.vmap is jax.vmap
        return
    looped = [1.0]
    looped.append(looped)
    with pytest.raises(ValueError, match="refers back to an enclosing list") as error:
        jaxcompat.vmap(lambda x: looped, out_axes=None, sum_match=True)(X)
    assert str(error.value).startswith(
        "jaxcompat.vmap: the output[1] refers back to an enclosing list: a pytree that "
        "contains itself cannot be staged on any JAX release"
    )
    with pytest.raises(ValueError, match="refers back to an enclosing list") as error:
        jaxcompat.vmap(lambda x, y: x, in_axes=(0, None), out_axes=None, sum_match=True)(X, looped)
    assert str(error.value).startswith("jaxcompat.vmap: args[1][1] refers back")
