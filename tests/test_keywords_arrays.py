"""Newest keywords of the functions that place, build and save arrays, on every row:
device_put(donate=, may_alias=), make_array_from_*(dtype=), dtypes.canonicalize_dtype(
allow_extended_dtype=), numpy.savez(allow_pickle=) and checkpoint(static_argnames=)."""

import io

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat


def _buffer(array):
    return array.addressable_data(0).unsafe_buffer_pointer()


def test_device_put_may_alias_false_is_a_copy():
    x = jnp.arange(4.0)
    copied = jaxcompat.device_put(x, may_alias=False)
    assert copied is not x
    assert _buffer(copied) != _buffer(x)
    np.testing.assert_array_equal(copied, [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(x, [0.0, 1.0, 2.0, 3.0])  # the input stays valid


def test_device_put_flags_per_subtree_and_device():
    x, y = jnp.arange(3.0), jnp.ones(2)
    device = jax.devices()[-1]
    placed = jaxcompat.device_put(
        {"x": x, "y": y}, device, may_alias={"x": False, "y": True}, donate={"x": False, "y": False}
    )
    assert placed["x"].devices() == {device} and placed["y"].devices() == {device}
    np.testing.assert_array_equal(placed["x"], x)
    np.testing.assert_array_equal(placed["y"], y)
    assert _buffer(placed["x"]) != _buffer(x)


def test_device_put_donated_gives_the_value():
    placed = jaxcompat.device_put(jnp.arange(3), donate=True)
    np.testing.assert_array_equal(placed, [0, 1, 2])


def test_device_put_may_alias_and_donate_both_true_is_the_newest_error():
    with pytest.raises(
        ValueError, match=r"^may_alias and donate cannot be True at the same time\.$"
    ):
        jaxcompat.device_put(jnp.ones(2), may_alias=True, donate=True)


def test_device_put_copies_under_jit_and_grad():
    def f(x):
        return (jaxcompat.device_put(x, may_alias=False) ** 2).sum()

    np.testing.assert_allclose(jax.jit(f)(jnp.arange(3.0)), 5.0)
    np.testing.assert_allclose(jax.grad(f)(jnp.arange(3.0)), [0.0, 2.0, 4.0])


def _sharding():
    return jax.sharding.SingleDeviceSharding(jax.devices()[0])


def test_make_array_from_callback_takes_the_shards_dtype():
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    built = jaxcompat.make_array_from_callback(
        (2, 3), _sharding(), lambda index: data[index], dtype=jnp.float32
    )
    assert built.dtype == np.float32
    np.testing.assert_array_equal(built, data)
    with pytest.raises(ValueError, match=r"^If `dtype` is provided") as error:
        jaxcompat.make_array_from_callback(
            (2, 3), _sharding(), lambda index: data[index], dtype="int32"
        )
    assert str(error.value) == (
        "If `dtype` is provided to `jax.make_array_from_callback`, it must match the dtype of "
        "the addressable shards. Got dtype=int32 and shard dtype=float32`."
    )


def test_make_array_from_single_device_arrays_takes_the_shards_dtype():
    shard = jax.device_put(jnp.arange(3, dtype=jnp.int32), jax.devices()[0])
    built = jaxcompat.make_array_from_single_device_arrays(
        (3,), _sharding(), [shard], dtype=np.int32
    )
    np.testing.assert_array_equal(built, [0, 1, 2])
    with pytest.raises(ValueError, match=r"Got dtype=float32 and shard dtype=int32`\.$"):
        jaxcompat.make_array_from_single_device_arrays((3,), _sharding(), [shard], dtype="float32")


def test_canonicalize_dtype_allows_an_extended_dtype_when_asked():
    key_dtype = jaxcompat.random.key(0).dtype  # key<fry>, an extended dtype
    assert jaxcompat.dtypes.canonicalize_dtype(key_dtype, allow_extended_dtype=True) == key_dtype
    assert jaxcompat.dtypes.canonicalize_dtype(np.float64, allow_extended_dtype=False) == (
        np.float64 if jax.config.jax_enable_x64 else np.float32
    )


def test_savez_allow_pickle():
    saved = io.BytesIO()
    jaxcompat.numpy.savez(saved, jnp.arange(3), b=np.ones(2), allow_pickle=True)
    saved.seek(0)
    with np.load(saved) as found:
        assert sorted(found.files) == ["arr_0", "b"]  # the flag is not saved as an array
        np.testing.assert_array_equal(found["arr_0"], [0, 1, 2])
    jaxcompat.numpy.savez(io.BytesIO(), np.ones(2), allow_pickle=False)
    with pytest.raises(
        ValueError, match=r"^Object arrays cannot be saved when allow_pickle=False$"
    ):
        jaxcompat.numpy.savez(io.BytesIO(), np.array([None, 1]), allow_pickle=False)


def test_checkpoint_static_argnames_traces_keywords_as_the_newest_does():
    # Outside jax_remat3 the newest JAX reads static_argnames no more than older releases.
    def f(x, *, scale):
        return jnp.sin(x) * scale

    remat = jaxcompat.checkpoint(f, static_argnames=("scale",))
    x = jnp.arange(3.0)
    np.testing.assert_allclose(remat(x, scale=2.0), f(x, scale=2.0), rtol=1e-6)
    np.testing.assert_allclose(
        jax.grad(lambda v: remat(v, scale=2.0).sum())(x), 2.0 * jnp.cos(x), rtol=1e-6
    )


def test_savez_of_a_numpy_without_allow_pickle_never_saves_the_flag(monkeypatch):
    # NumPy 2.0 and 2.1 (installable with any JAX from 0.4.26) have savez(file, *args,
    # **kwds): the flag must not reach it, whatever the JAX release.
    from jaxcompat._keywords import adapter as keywords

    monkeypatch.setattr(keywords, "_numpy_from", lambda release: False)
    assert keywords.keywords_to_adapt("jax.numpy.savez")["allow_pickle"][1].default is True
    saved = []

    def numpy_2_0_savez(file, *args, **kwds):
        saved.append((file, args, kwds))

    adapted = keywords.accept_newest_keywords("numpy.savez", "jax.numpy.savez", numpy_2_0_savez)
    adapted("f.npz", 1, b=2, allow_pickle=False)
    assert saved == [("f.npz", (1,), {"b": 2})]
    with pytest.raises(ValueError, match=r"^Object arrays cannot be saved when allow_pickle"):
        adapted("f.npz", np.array([None]), allow_pickle=False)


def test_device_put_given_a_value_that_contains_itself_is_a_clear_error():
    from jaxcompat._keywords import adapter as keywords

    if not keywords.keywords_to_adapt("jax.device_put"):
        pytest.skip(f"JAX {jaxcompat.JAX_VERSION_STRING}'s own device_put takes may_alias=")
    cyclic = [1.0]
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match=r"^jaxcompat.device_put: ") as error:
        jaxcompat.device_put(cyclic, may_alias=False)  # flattened by jaxcompat: never a crash
    assert str(error.value) == (
        "jaxcompat.device_put: args[0][1] refers back to an enclosing list: a pytree that "
        "contains itself cannot be staged on any JAX release (JAX "
        f"{jaxcompat.JAX_VERSION_STRING} would crash or raise an internal error). Break the "
        "cycle before passing it."
    )


@pytest.mark.parametrize("name", ["donate", "may_alias"])
def test_device_put_given_flags_that_contain_themselves_is_a_clear_error(name):
    from jaxcompat._keywords import adapter as keywords

    if not keywords.keywords_to_adapt("jax.device_put"):
        pytest.skip(f"JAX {jaxcompat.JAX_VERSION_STRING}'s own device_put takes {name}=")
    flags = [False]
    flags.append(flags)
    with pytest.raises(ValueError, match=r"^jaxcompat.device_put: ") as error:
        jaxcompat.device_put([jnp.zeros(2), jnp.ones(2)], **{name: flags})
    assert str(error.value) == (
        f"jaxcompat.device_put: {name}[1] refers back to an enclosing list: a pytree that "
        "contains itself cannot be staged on any JAX release (JAX "
        f"{jaxcompat.JAX_VERSION_STRING} would crash or raise an internal error). Break the "
        "cycle before passing it."
    )
