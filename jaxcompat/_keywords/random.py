"""Newest keywords of ``jax.random``'s samplers, composed from the installed release's own
samplers (the rules are in ``_keywords/rules/functions.py``): gumbel, bernoulli, categorical
and choice(mode=), categorical(replace=) and orthogonal(m=).

The samples are the newest JAX's for the same key, bit for bit where the release draws the
same bits (under ``jax_threefry_partitionable``, True by default from JAX 0.5.0 on), since
each is built from the same uniform or random bits as the newest builds it.

Each helper takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs),
as every helper does (``adapter.helper``).
"""

from __future__ import annotations

import importlib
import inspect
import math
import operator
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._version import JAX_VERSION_STRING

__all__ = [
    "drawn_by_mode",
    "dtype_as_impl",
    "orthogonal_to_size",
    "sampled_as_asked",
    "seeded_with_impl",
]

_GUMBEL_MODES = ("highest", "high", "low")


def _call(function: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _release_result(function: Any, *args: Any, **kwargs: Any) -> Any:
    """The shape and dtype of the release's own call, which makes its checks (shapes and
    other static arguments stay Python values: the call is closed over, not traced)."""
    return jax.eval_shape(lambda: function(*args, **kwargs))


def _as_low(function: Any) -> dict[str, str] | None:
    """The keywords that make the release's sampler draw in mode "low": mode="low" where it
    takes mode= (gumbel from JAX 0.5.3, categorical and choice from 0.6.2), whose default
    follows jax_high_dynamic_range_gumbel (0.5.3); none where it does not, unless that
    option is on (0.5.3-0.6.1's categorical and choice then draw "high"): None then."""
    if "mode" in inspect.signature(function).parameters:
        return {"mode": "low"}
    if getattr(jax.config, "jax_high_dynamic_range_gumbel", False):
        return None
    return {}


def _gumbel(key: Any, shape: tuple[int, ...], dtype: Any, mode: str) -> Any:
    """Gumbel samples as the newest draws them in each mode: "low" is every release's
    gumbel; "high" and "highest" (float32) use twice the random bits, for a wider range."""
    if mode not in _GUMBEL_MODES:
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    if mode == "low":
        release_gumbel: Any = jax.random.gumbel
        return release_gumbel(key, shape, dtype, **(_as_low(release_gumbel) or {}))
    return _wide_gumbel(key, shape, jnp.dtype(dtype), mode)


# Jitted as the newest's own sampler is, so that XLA rounds the same fused program alike
# (run op by op, log(-log1p(-x)) can differ from it in the last bit).
@partial(jax.jit, static_argnums=(1, 2, 3))
def _wide_gumbel(key: Any, shape: tuple[int, ...], dtype: Any, mode: str) -> Any:
    info = jnp.finfo(dtype)  # type: ignore[no-untyped-call]
    if dtype == jnp.float32 and mode == "highest":
        bits = jax.random.bits(key, (2, *shape), jnp.uint32)
        negated = ~bits
        # 1 - bits, as a 64-bit fixed-point number in two 32-bit words.
        negated = negated + jnp.stack(
            [negated[1] == np.uint32(0xFFFFFFFF), jnp.ones_like(negated[1])]
        ).astype(jnp.uint32)
        below_half = bits[0] < np.uint32(1 << 31)
        x = _unit_float32(jnp.where(below_half, bits, negated))
        return jnp.where(below_half, -jnp.log(-jnp.log1p(-x)), -jnp.log(-jnp.log(x)))
    high, low = jax.random.uniform(key, (2, *shape), dtype)
    least = max(2.0 ** -(2 * info.nmant + 1), float(info.tiny))
    x = jnp.where(high >= 0.5, high, high + 2.0**-info.nmant * low + least)
    return -jnp.log(-jnp.log1p(-x))


def _unit_float32(bits: Any) -> Any:
    """Two 32-bit words of a 64-bit fixed-point number in (0, 1), as the float32 nearest
    below it: its leading zeros give the exponent, the next 23 bits the mantissa."""
    high_zeros, low_zeros = jax.lax.clz(bits)
    high, low = bits
    mantissa = jax.lax.shift_left(high, high_zeros) | jnp.where(
        high_zeros == 32,
        jax.lax.shift_left(low, low_zeros),
        jax.lax.shift_right_logical(low, np.uint32(32) - high_zeros),
    )
    mantissa = jax.lax.shift_right_logical(mantissa, np.uint32(8)) & np.uint32((1 << 23) - 1)
    exponent = jax.lax.shift_left(
        np.uint32(126) - jnp.where(high_zeros == 32, 32 + low_zeros, high_zeros), np.uint32(23)
    ) & np.uint32((1 << 30) - (1 << 22))
    return jax.lax.bitcast_convert_type(exponent | mantissa, jnp.float32)


def drawn_by_mode(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """gumbel (JAX 0.5.3) and bernoulli (0.6.1) with mode=: "low" is the release's own
    sampler; "high" (and gumbel's "highest") draws as the newest does."""
    mode = values["mode"]
    call = _call(function, *args, **kwargs)
    if path == "jax.random.bernoulli":
        if mode not in ("high", "low"):
            raise ValueError(f"got {mode=}, expected 'high' or 'low'")
        if mode == "low":
            return function(*args, **kwargs)
        # The release's own call gives its checks of key, p and shape, and the result shape.
        shape = _release_result(function, *args, **kwargs).shape
        return _wide_bernoulli(call["key"], jnp.asarray(call["p"]), shape)
    if mode == "low":
        return function(*args, **kwargs, **(_as_low(function) or {}))  # gumbel: never None
    result = _release_result(function, *args, **kwargs)  # the release's checks
    if mode not in _GUMBEL_MODES:
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    samples = _gumbel(call["key"], result.shape, result.dtype, mode)
    # JAX 0.7.1-0.9.2's own gumbel takes out_sharding= (and lacks "highest"): the samples
    # are placed as asked, as the newest places them.
    if call.get("out_sharding") is not None:
        samples = jax.sharding.reshard(  # type: ignore[attr-defined,no-untyped-call,unused-ignore]
            samples, call["out_sharding"]
        )
    return samples


@partial(jax.jit, static_argnums=(2,))
def _wide_bernoulli(key: Any, p: Any, shape: tuple[int, ...]) -> Any:
    """bernoulli's mode "high", jitted as the newest's is: a uniform sample with twice the
    random bits, compared with p."""
    first, second = jax.random.uniform(key, (2, *shape), p.dtype)
    second = second * 2.0 ** -jnp.finfo(p.dtype).nmant  # type: ignore[no-untyped-call]
    return second < p - first


def sampled_as_asked(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """categorical with replace= (JAX 0.5.3) and mode= (0.6.2), and choice with mode= (0.6.2),
    as the newest samples: with the Gumbel noise of the mode asked, and without replacement
    by the top k of one noisy copy of the logits (the Gumbel top-k trick)."""
    call = _call(function, *args, **kwargs)
    mode = values.get("mode") or "low"
    if mode not in _GUMBEL_MODES:
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    low = _as_low(function) if mode == "low" else None
    if path == "jax.random.choice":
        if call["p"] is None or call["replace"]:
            return function(*args, **kwargs)  # mode is used only with p, without replacement
        if low is not None:
            return function(*args, **kwargs, **low)
        array = jnp.asarray(call["a"])
        axis = call["axis"]
        # The release's own call gives its checks of a, p, shape and axis, and the result.
        result = _release_result(function, *args, **kwargs)
        count = operator.index(call["a"]) if array.ndim == 0 else array.shape[axis % array.ndim]
        draws = math.prod(call["shape"])
        if draws == 0:
            return jnp.zeros(result.shape, result.dtype)
        p = jnp.asarray(call["p"])
        p = p.astype(jnp.result_type(p, float))
        noisy = _gumbel(call["key"], (count,), p.dtype, mode) + jnp.log(p)
        chosen = jax.lax.top_k(noisy, draws)[1].astype(int)
        if array.ndim == 0:
            return chosen.reshape(result.shape)
        return jnp.take(array, chosen, axis % array.ndim).reshape(result.shape)
    # JAX 0.5.3-0.6.1's own categorical takes replace=, and 0.4.13-0.5.2's lacks it.
    replace = values.get("replace", call.get("replace", True))
    if replace and low is not None:
        return function(*args, **kwargs, **low)
    key, axis = call["key"], call["axis"]
    logits = jnp.asarray(call["logits"])
    batch_shape = tuple(np.delete(logits.shape, axis))
    shape = batch_shape if call["shape"] is None else tuple(call["shape"])
    _release_result(function, key, logits, axis, shape)  # the release's checks
    prefix = shape[: len(shape) - len(batch_shape)]
    if replace:
        axis = axis - logits.ndim if axis >= 0 else axis
        noise_shape = list(shape[len(shape) - len(batch_shape) :])
        noise_shape.insert(axis % logits.ndim, logits.shape[axis])
        noise = _gumbel(key, (*prefix, *noise_shape), logits.dtype, mode)
        return jnp.argmax(noise + jnp.expand_dims(logits, tuple(range(len(prefix)))), axis=axis)
    noisy = logits + _gumbel(key, logits.shape, logits.dtype, mode)
    draws = math.prod(prefix)
    if draws > logits.shape[axis]:
        raise ValueError(
            f"Number of samples without replacement ({draws}) cannot exceed number of "
            f"categories ({logits.shape[axis]})."
        )
    _, chosen = jax.lax.top_k(jnp.moveaxis(noisy, axis, -1), draws)
    return jax.lax.reshape(chosen, shape, (chosen.ndim - 1, *range(chosen.ndim - 1)))


def orthogonal_to_size(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """orthogonal before JAX 0.5.3, with m= (the number of columns): an n-by-m matrix with
    orthonormal rows (n <= m) or columns (m <= n), from the QR factors of a normal sample
    of the larger by the smaller size, as the newest draws it."""
    call = _call(function, *args, **kwargs)
    n, m = operator.index(call["n"]), operator.index(values["m"])
    if m == n:
        return function(*args, **kwargs)
    # The release's own square sample gives its checks of key, shape and dtype, and the dtype.
    dtype = _release_result(function, *args, **kwargs).dtype
    shape = tuple(call["shape"])
    sample = jax.random.normal(call["key"], (*shape, max(n, m), min(n, m)), dtype)
    q, r = jnp.linalg.qr(sample)
    signs = jnp.sign(jnp.diagonal(r, axis1=-2, axis2=-1))
    x = q * jnp.expand_dims(signs, -2)
    return jnp.swapaxes(x, -1, -2) if n < m else x


def dtype_as_impl(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """key and wrap_key_data before JAX 0.10.1, with dtype= (a key dtype, or the name of a
    PRNG implementation): impl= under another name, which every release from 0.4.16 takes
    (on 0.4.13, jaxcompat's impl=: ``seeded_with_impl``). A key dtype is passed as its
    implementation's name, which JAX 0.4.16-0.4.35 resolve (0.4.18's key(impl=) silently
    makes a threefry key of the implementation object itself, measured); the key made is
    checked to have the dtype asked."""
    name = path.rpartition(".")[2]
    dtype = values["dtype"]
    call = inspect.signature(function).bind(*args, **kwargs).arguments
    if call.get("impl") is not None:
        raise ValueError(f"Cannot specify both `impl` and `dtype` arguments to jax.random.{name}")
    # A key dtype's implementation: its "_impl" from JAX 0.4.21 on, "impl" before.
    implementation = getattr(dtype, "_impl", None) or getattr(dtype, "impl", None)
    impl = getattr(implementation, "name", dtype) if implementation is not None else dtype
    if "impl" in inspect.signature(function).parameters:
        key = function(*args, **{**kwargs, "impl": impl})
        as_asked = implementation is None or key.dtype == dtype
    else:  # JAX 0.4.13: impl= is jaxcompat's (seeded_with_impl), given here or already
        if getattr(function, "func", None) is seeded_with_impl:
            raise ValueError(
                f"Cannot specify both `impl` and `dtype` arguments to jax.random.{name}"
            )
        key = seeded_with_impl(function, path, {"impl": impl}, *args, **kwargs)
        as_asked = implementation is None or key.dtype == dtype
    if not as_asked:
        raise TypeError(
            f"jaxcompat.random.{name}(dtype={dtype}) needs JAX 0.10.1 or newer for that "
            f"dtype: on JAX {JAX_VERSION_STRING} it made a key of dtype {key.dtype}. Leave "
            "dtype out, or upgrade JAX."
        )
    return key


def seeded_with_impl(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """key and PRNGKey on JAX 0.4.13, with impl= (JAX 0.4.16): a key of that implementation,
    seeded by the release's own seeding (``jax._src.prng.seed_with_impl``, which its key and
    PRNGKey call with the default implementation), so the key data are the newest's. impl
    is a name, an implementation object or a key dtype, as the newest resolves it; PRNGKey
    hands back the key data, as the release's PRNGKey does."""
    name = path.rpartition(".")[2]
    prng: Any = importlib.import_module("jax._src.prng")
    release_random: Any = importlib.import_module("jax._src.random")
    impl = _release_implementation(values["impl"], prng, release_random.PRNG_IMPLS)
    seed = inspect.signature(function).bind(*args, **kwargs).arguments["seed"]
    if isinstance(seed, prng.PRNGKeyArray) or isinstance(getattr(seed, "dtype", None), prng.KeyTy):
        raise TypeError(f"{name} accepts a scalar seed, but was given a PRNG key.")
    if np.ndim(seed):
        raise TypeError(
            f"{name} accepts a scalar seed, but was given an array of shape {np.shape(seed)} "
            "!= (). Use jax.vmap for batching"
        )
    key = prng.seed_with_impl(impl, seed)
    if name == "PRNGKey":
        return release_random._return_prng_keys(True, key)
    return key


def _release_implementation(spec: Any, prng: Any, by_name: dict[str, Any]) -> Any:
    """The release's implementation object for ``spec``, with the newest's errors. The names
    are the release's: philox and threefry4x32 came in JAX 0.10.2, and every release from
    0.4.16 to 0.10.1 refuses them with this same error."""
    if type(spec) is prng.PRNGImpl:
        return spec
    if isinstance(spec, prng.KeyTy):
        return spec.impl
    if type(spec) is str:
        if spec in by_name:
            return by_name[spec]
        names = ", ".join(f'"{known}"' for known in by_name)
        raise ValueError(
            f'unrecognized PRNG implementation "{spec}". Did you mean one of: {names}?'
        )
    raise TypeError(f"unrecognized type {type(spec)} for specifying PRNG implementation.")
