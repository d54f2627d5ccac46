"""pure_callback(vmap_method=) on every row, as the newest JAX batches the callback: the
arguments each call sees (their shapes, so the number of calls too) and the results, under
vmap, nested vmaps, jit, scan and custom_jvp, and the error of differentiating a callback."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat

METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"]


class Recorded:
    """A callback sin(x) * y that records the shapes of the arguments of each call."""

    def __init__(self):
        self.calls = []

    def __call__(self, x, y):
        self.calls.append((np.shape(x), np.shape(y)))
        return np.asarray(np.sin(np.asarray(x)) * np.asarray(y), np.float32)

    def taken(self):
        calls, self.calls = self.calls, []
        return calls


def _sin_times(callback, method):
    def sin_times(x, y):
        result = jax.ShapeDtypeStruct(jnp.broadcast_shapes(jnp.shape(x), jnp.shape(y)), jnp.float32)
        return jaxcompat.pure_callback(callback, result, x, y, vmap_method=method)

    return sin_times


def _expected(x, y):
    return np.sin(np.asarray(x, np.float32)) * np.asarray(y, np.float32)


X = jnp.arange(3.0)
Y = jnp.arange(1.0, 3.0)


@pytest.mark.parametrize(
    ("method", "seen"),
    [
        ("sequential", [((), ())] * 3),
        ("sequential_unrolled", [((), ())] * 3),
        ("expand_dims", [((3,), (1,))]),  # the unbatched argument gains an axis of size 1
        ("broadcast_all", [((3,), (3,))]),  # ... of the batch size
        ("legacy_vectorized", [((3,), ())]),  # ... none
    ],
)
def test_vmap_calls_the_callback_as_the_method_asks(method, seen):
    callback = Recorded()
    sin_times = _sin_times(callback, method)
    out = jax.vmap(sin_times, in_axes=(0, None))(X, 2.0)
    np.testing.assert_allclose(out, _expected(X, 2.0), rtol=1e-6)
    assert callback.taken() == seen
    assert float(sin_times(1.0, 2.0)) == pytest.approx(float(_expected(1.0, 2.0)))
    assert callback.taken() == [((), ())]  # unbatched: one call, whatever the method


@pytest.mark.parametrize(
    ("method", "seen"),
    [
        ("sequential", [((), ())] * 6),
        ("sequential_unrolled", [((), ())] * 6),
        # The outer vmap's axis first, then the inner's; size 1 where an argument has neither.
        ("expand_dims", [((1, 3), (2, 1))]),
        ("broadcast_all", [((2, 3), (2, 3))]),
    ],
)
def test_nested_vmaps_under_jit_add_one_axis_each(method, seen):
    callback = Recorded()
    inner = jax.vmap(_sin_times(callback, method), in_axes=(0, None))
    out = jax.jit(jax.vmap(inner, in_axes=(None, 0)))(X, Y)
    np.testing.assert_allclose(out, _expected(X[None, :], Y[:, None]), rtol=1e-6)
    assert callback.taken() == seen


@pytest.mark.parametrize("method", METHODS)
def test_vmap_of_a_jitted_callback_batches_both_arguments(method):
    callback = Recorded()
    out = jax.vmap(jax.jit(_sin_times(callback, method)))(X, X)
    np.testing.assert_allclose(out, _expected(X, X), rtol=1e-6)
    looped = method in ("sequential", "sequential_unrolled")
    assert callback.taken() == ([((), ())] * 3 if looped else [((3,), (3,))])


@pytest.mark.parametrize("method", ["sequential", "expand_dims", "broadcast_all"])
def test_callback_in_a_vmapped_scan(method):
    callback = Recorded()
    sin_times = _sin_times(callback, method)

    def total(xs):
        return jax.lax.scan(lambda carry, x: (carry + sin_times(x, carry), None), 1.0, xs)[0]

    xs = jnp.arange(6.0).reshape(2, 3)
    out = jax.vmap(total)(xs)
    expected = [1.0, 1.0]
    for step in range(3):
        expected = [c + float(_expected(xs[row, step], c)) for row, c in enumerate(expected)]
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    seen = [((), ())] * 6 if method == "sequential" else [((2,), (2,))] * 3
    assert callback.taken() == seen


@pytest.mark.parametrize("method", METHODS)
def test_differentiating_a_callback_is_the_newest_error(method):
    gradient = jax.grad(lambda x: _sin_times(Recorded(), method)(x, 2.0))
    for differentiate, at in ((gradient, 1.0), (jax.vmap(gradient), X)):
        with pytest.raises(ValueError, match="JVP") as raised:
            differentiate(at)
        assert str(raised.value) == (
            "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks "
            "while taking gradients."
        )


@pytest.mark.parametrize("method", ["expand_dims", "broadcast_all"])
def test_vmap_of_the_gradient_of_a_custom_jvp_around_a_callback(method):
    callback = Recorded()
    sin_times = _sin_times(callback, method)

    @jax.custom_jvp
    def twice_sin(x):
        return sin_times(x, 2.0)

    @twice_sin.defjvp
    def twice_sin_jvp(primals, tangents):
        (x,), (dx,) = primals, tangents
        return twice_sin(x), 2.0 * jnp.cos(x) * dx

    values, grads = jax.vmap(jax.value_and_grad(twice_sin))(X)
    np.testing.assert_allclose(values, _expected(X, 2.0), rtol=1e-6)
    np.testing.assert_allclose(grads, 2.0 * np.cos(np.asarray(X)), rtol=1e-6)
    assert callback.taken() == [((3,), (1,) if method == "expand_dims" else (3,))]


def test_pytrees_and_keywords_reach_the_callback_batched_as_asked():
    seen = []

    def callback(tree, scale):
        seen.append((np.shape(tree["u"]), np.shape(tree["v"]), np.shape(scale)))
        u, v = np.asarray(tree["u"]), np.asarray(tree["v"])
        return {
            "a": np.asarray(u * np.asarray(scale), np.float32),
            "b": np.asarray(u * 0 + v + 1, np.int32),
        }

    def call(tree, scale):
        shapes = {
            "a": jax.ShapeDtypeStruct(jnp.shape(tree["u"]), jnp.float32),
            "b": jax.ShapeDtypeStruct(jnp.shape(tree["v"]), jnp.int32),
        }
        return jaxcompat.pure_callback(
            callback, shapes, tree, scale=scale, vmap_method="expand_dims"
        )

    tree = {"u": jnp.ones((2, 3)), "v": jnp.arange(2)}
    out = jax.vmap(call, in_axes=({"u": 1, "v": None}, None), out_axes=1)(tree, 3.0)
    np.testing.assert_array_equal(out["a"], np.full((2, 3), 3.0))
    np.testing.assert_array_equal(out["b"], [[1, 1, 1], [2, 2, 2]])
    assert seen == [((3, 2), (1, 2), (1,))]
