"""all_gather(to=) (JAX 0.8.2) on every row: "invarying" gathers the same values, typed as the
same on every device, so that shard_map's check takes the result as an unmapped output."""

import inspect

import jax
import numpy as np
import pytest

import jaxcompat
from jaxcompat.sharding import NamedSharding
from jaxcompat.sharding import PartitionSpec as P

MESH = jaxcompat.make_mesh((4,), ("x",))


def gathered_on_every_device(x, **options):
    """all_gather(to="invarying") of x's four blocks along its first axis, in shard_map with
    the check on and an unmapped output: jitted (early releases' eager shard_map has no
    axis_index)."""

    def gather(block):
        return jaxcompat.lax.all_gather(block, "x", to="invarying", **options)

    mapped = jaxcompat.shard_map(gather, mesh=MESH, in_specs=P("x"), out_specs=P())
    return np.asarray(jax.jit(mapped)(jax.device_put(x, NamedSharding(MESH, P("x")))))


def test_invarying_gathers_every_block_to_the_bit():
    x = np.arange(24, dtype=np.float32).reshape(8, 3)
    x[1, 1], x[2, 2], x[5, 0] = -0.0, np.nan, np.inf
    tiled = gathered_on_every_device(x, tiled=True)
    assert tiled.shape == (8, 3)
    np.testing.assert_array_equal(tiled.view(np.uint32), x.view(np.uint32))
    stacked = gathered_on_every_device(x)
    np.testing.assert_array_equal(stacked.view(np.uint32), x.reshape(4, 2, 3).view(np.uint32))
    along_1 = gathered_on_every_device(x, axis=1)
    np.testing.assert_array_equal(along_1, np.moveaxis(x.reshape(4, 2, 3), 0, 1))
    tiled_1 = gathered_on_every_device(x, axis=-1, tiled=True)
    np.testing.assert_array_equal(tiled_1, np.concatenate(np.split(x, 4), axis=1))


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float16, np.complex64])
def test_invarying_keeps_the_dtype(dtype):
    x = (np.arange(8) % 3 == 1).astype(dtype) if dtype is np.bool_ else np.arange(8).astype(dtype)
    if dtype is np.complex64:
        x = x + 1j * x[::-1]
    gathered = gathered_on_every_device(x, tiled=True)
    assert gathered.dtype == dtype
    np.testing.assert_array_equal(gathered, x)


def test_invarying_under_pmap_is_the_gather():
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    gathered = jax.pmap(lambda b: jaxcompat.lax.all_gather(b, "i", to="invarying"), "i")(x)
    np.testing.assert_array_equal(gathered, np.broadcast_to(x, (4, 4, 3)))


def test_unknown_to_is_the_newests_error():
    with pytest.raises(ValueError, match="unexpected") as raised:
        jax.pmap(lambda b: jaxcompat.lax.all_gather(b, "i", to="replicated"), "i")(np.ones(4))
    # The newest lists its allowed values as a set, in no fixed order. JAX 0.8.2-0.9.2's own
    # all_gather, which takes to= but not "invarying", gives its own error, without it.
    message = str(raised.value)
    prefix = "Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: "
    assert message.startswith(prefix)
    listed = sorted(message.removeprefix(prefix).strip("{}").split(", "))
    assert listed in (["'invarying'", "'reduced'", "'varying'"], ["'reduced'", "'varying'"])


def test_reduced_needs_reduced_axes():
    if "to" in inspect.signature(jax.lax.all_gather).parameters:
        pytest.skip(f"JAX {jax.__version__}'s own all_gather takes to=")
    with pytest.raises(TypeError, match="reduced") as raised:
        jax.pmap(lambda b: jaxcompat.lax.all_gather(b, "i", to="reduced"), "i")(np.ones(4))
    assert str(raised.value) == (
        "jaxcompat.lax.all_gather(to='reduced') needs JAX 0.8.2 or newer: JAX "
        f"{jaxcompat.JAX_VERSION_STRING} has no reduced axes to type the result with. Pass "
        "to='varying' (the default) or to='invarying', or upgrade JAX."
    )


def test_a_tree_that_contains_itself_is_refused():
    if jaxcompat.lax.all_gather is jax.lax.all_gather:
        pytest.skip(f"JAX {jax.__version__}'s own all_gather takes to='invarying' (JAX's flatten)")
    looped = [np.ones(4, np.float32)]
    looped.append(looped)

    def gather(block):
        return jaxcompat.lax.all_gather([block, looped], "x", to="invarying")

    mapped = jaxcompat.shard_map(gather, mesh=MESH, in_specs=P("x"), out_specs=P())
    with pytest.raises(ValueError, match=r"^jaxcompat.lax.all_gather: ") as error:
        jax.jit(mapped)(jax.device_put(np.ones(8, np.float32), NamedSharding(MESH, P("x"))))
    assert str(error.value) == (
        "jaxcompat.lax.all_gather: args[0][1][1] refers back to an enclosing list: a pytree "
        "that contains itself cannot be staged on any JAX release (JAX "
        f"{jaxcompat.JAX_VERSION_STRING} would crash or raise an internal error). Break the "
        "cycle before passing it."
    )
