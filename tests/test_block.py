"""block_if_array: identical assertions on every matrix row."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
from jaxcompat import block_if_array


class Spy:
    """A jax Array stand-in is not needed: this records whether anything touched it."""

    touched = False

    def block_until_ready(self):
        Spy.touched = True
        return self


@pytest.mark.parametrize("value", [1, 2.5, None, "text", np.ones(3), np.float32(1), b"x", Spy()])
def test_leaves_non_arrays_alone(value):
    Spy.touched = False
    assert block_if_array(value) is value
    assert block_if_array([value]) is not None
    assert Spy.touched is False


def test_returns_the_same_object_and_waits_for_every_array():
    tree = {"a": jnp.ones(3) * 2, "b": 3, "c": [np.ones(2), None, 2.5, jnp.zeros(2)], "d": "s"}
    assert block_if_array(tree) is tree
    single = jnp.arange(10) + 1
    assert block_if_array(single) is single


def test_waits_for_sharded_arrays():
    devices = jax.devices()
    assert len(devices) >= 2, "run with XLA_FLAGS=--xla_force_host_platform_device_count=8"
    mesh = jax.sharding.Mesh(np.array(devices), ("x",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))
    array = jax.device_put(jnp.arange(8.0 * len(devices)), sharding)
    result = jax.jit(lambda a: a * 2)(array)
    assert len(result.sharding.device_set) == len(devices)
    assert block_if_array(result) is result
    assert block_if_array([result, 1]) is not None
    assert float(result.sum()) == float(2 * array.sum())


@pytest.mark.parametrize(
    "transform",
    [
        lambda f, x: jax.jit(f)(x),
        lambda f, x: jax.grad(f)(x),
        lambda f, x: jax.vmap(f)(jnp.stack([x, x])),
        lambda f, x: jax.make_jaxpr(f)(x),
    ],
)
def test_does_nothing_for_tracers(transform):
    def body(x):
        assert block_if_array(x) is x
        assert block_if_array({"t": x, "n": 1}) is not None
        return x * 2.0

    transform(body, jnp.float32(3.0))


def test_skips_deleted_and_donated_arrays():
    deleted = jnp.ones(3) + 0
    deleted.delete()
    assert block_if_array(deleted) is deleted
    assert block_if_array([deleted, jnp.ones(2)]) is not None

    donated = jnp.ones(4) + 0
    jax.jit(lambda x: x + 1, donate_argnums=0)(donated)
    assert donated.is_deleted()
    assert block_if_array(donated) is donated
    assert block_if_array({"gone": donated, "live": jnp.zeros(1) + 1}) is not None


def test_computation_errors_propagate():
    def fail(x):
        raise ValueError("boom from the computation")

    def host(x):
        return jax.pure_callback(fail, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    with pytest.raises(Exception, match="boom from the computation"):
        block_if_array(jax.jit(host)(jnp.ones(2)))


def test_seed_inline_jit_called_inside_another_jit():
    # Equinox's filter_jit(inline=True) crash: a marker constant-folded to a Python int.
    @jaxcompat.jit(inline=True)
    def inner(x):
        return x + 1, 0

    @jaxcompat.jit
    def outer(x):
        value, marker = inner(x)
        return value, marker

    result = outer(jnp.ones(3))
    assert block_if_array(result) is result
    marker = inner(jnp.ones(3))[1]
    assert block_if_array(marker) is marker
    assert block_if_array((marker, 0, result)) is not None
