"""``jax.random`` names missing from older releases, as the newest JAX has them.

The samplers are composed of the installed release's own ``jax.random`` building blocks
(``uniform``, ``normal``, ``split``) and ``jax.lax`` control flow, following the newest JAX's
algorithms step by step, so that they trace, jit, vmap and differentiate as the native ones do
and give the newest JAX's samples bit for bit for the same key where the release draws the
newest's bits: with ``jax_threefry_partitionable`` True, the default from JAX 0.5.0 on and
an opt-in before (``python -m jaxcompat`` says which holds).
"""

from __future__ import annotations

import functools
import math
import typing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._version import JAX_VERSION_STRING

__all__ = [
    "Key",
    "binomial",
    "clone",
    "key_dtype",
    "key_impl_name",
    "lognormal",
    "multinomial",
    "split_into_shape",
    "triangular",
]

#: ``jax.random.Key`` (JAX 0.12.0): the type of key arrays, a ``typing.NewType`` of
#: ``jax.Array`` for annotations (calling it hands its argument back).
Key = typing.NewType("Key", jax.Array)

_K = TypeVar("_K")

Shape = Sequence[int]


def clone(key: _K) -> _K:
    """``jax.random.clone``: a key that may be reused.

    Releases before JAX 0.4.26 have no key-reuse checker, so every key may be reused and
    the key itself is what ``clone`` observably returns.
    """
    return key


# --- checks, with the newest JAX's messages -------------------------------------------------


def _check_key(name: str, key: Any) -> None:
    """One key, typed or raw (uint32 key data), as the newest JAX accepts it."""
    if not hasattr(key, "dtype") and not isinstance(key, (np.ndarray, np.generic)):
        raise TypeError(f"unexpected PRNG key type {type(key)}")
    typed = not isinstance(key.dtype, np.dtype)  # a key<impl> dtype, not a NumPy one
    if (key.ndim if typed else np.ndim(key) - 1) > 0:
        raise ValueError(
            f"{name} accepts a single key, but was given a key array of shape "
            f"{np.shape(key)} != (). Use jax.vmap for batching."
        )


def _float_dtype(name: str, dtype: Any, kind: type, what: str) -> np.dtype[Any]:
    """The requested dtype, canonical (float64 only with x64), checked to be ``kind``."""
    canonical = np.dtype(jax.dtypes.canonicalize_dtype(float if dtype is None else dtype))
    if not jnp.issubdtype(canonical, kind):
        raise ValueError(f"dtype argument to `{name}` must be a {what}, got {canonical}")
    return canonical


def _shape(name: str, shape: Shape | None, *args: Any) -> tuple[int, ...]:
    """The result shape: ``shape``, which the arguments must broadcast to, else theirs."""
    arg_shapes = [np.shape(a) for a in args]
    if shape is None:
        return tuple(lax.broadcast_shapes(*arg_shapes)) if arg_shapes else ()
    shape = tuple(int(d) for d in shape)
    if arg_shapes:
        broadcast = tuple(lax.broadcast_shapes(shape, *arg_shapes))
        if broadcast != shape:
            raise ValueError(
                f"{name} parameter shapes must be broadcast-compatible with shape argument, "
                "and the result of broadcasting the shapes must equal the shape argument, "
                f"but got result {broadcast} for shape argument {shape}."
            )
    return shape


def _check_safe_to_cast(name: str, dtype: np.dtype[Any], *args: Any) -> None:
    """The newest JAX refuses parameters that the sample dtype cannot hold without loss."""
    for arg in args:
        arg_dtype = jnp.result_type(arg)
        if arg_dtype != dtype and jnp.result_type(arg, dtype) != dtype:
            raise _TYPE_PROMOTION_ERROR(
                f"In arguments to {name}, cannot safely cast argument of type "
                f"{jnp.asarray(arg).dtype} to {dtype}"
            )


#: The newest JAX raises its TypePromotionError (a ValueError), which older releases have
#: only in their private dtypes module.
_TYPE_PROMOTION_ERROR: type[ValueError] = getattr(
    jax.dtypes, "TypePromotionError", getattr(jax._src.dtypes, "TypePromotionError", ValueError)
)


def _no_out_sharding(name: str, out_sharding: Any, release: str) -> None:
    if out_sharding is not None:
        # The output sharding is part of the result's type (sharding in types), which older
        # releases do not have: ignoring it would silently lay the result out differently.
        raise TypeError(
            f"jax.random.{name}(out_sharding=...) needs JAX {release} or newer; JAX "
            f"{JAX_VERSION_STRING} is installed. Upgrade JAX, or leave out_sharding=None and "
            "place the result with jax.device_put or jax.lax.with_sharding_constraint."
        )


# --- lognormal and triangular (missing from JAX 0.4.13) ----------------------------------


_ONE = np.float32(1)


def _rounded(x: jax.Array, dtype: np.dtype[Any]) -> jax.Array:
    """``x`` rounded to a 16-bit float ``dtype``, as each operation of the newest JAX rounds.

    The XLA of some releases (JAX 0.4.30 and 0.4.31 among them) keeps bfloat16 and float16
    intermediates in float32 within a fused computation, so a chain of operations rounds once
    at the end and the samples differ from the newest JAX's; reduce_precision is kept by XLA.
    """
    if dtype.itemsize != 2 or not jnp.issubdtype(dtype, jnp.floating):
        return x
    info = jnp.finfo(dtype)  # type: ignore[no-untyped-call, unused-ignore]
    return lax.reduce_precision(x, exponent_bits=info.nexp, mantissa_bits=info.nmant)


@functools.partial(jax.jit, static_argnums=(2, 3))
def _lognormal(key: Any, sigma: Any, shape: tuple[int, ...], dtype: np.dtype[Any]) -> jax.Array:
    sigma = lax.convert_element_type(sigma, dtype)
    return lax.exp(_rounded(jax.random.normal(key, shape, dtype) * sigma, dtype))


def lognormal(
    key: Any,
    sigma: Any = _ONE,
    shape: Shape | None = None,
    dtype: Any | None = None,
    *,
    out_sharding: Any | None = None,
) -> jax.Array:
    """``jax.random.lognormal`` (missing from JAX 0.4.13; ``out_sharding=`` JAX 0.10.1).

    ``exp(sigma * normal(key, shape, dtype))``, compiled as one function as in the newest JAX.
    """
    _check_key("lognormal", key)
    dtype = _float_dtype("lognormal", dtype, np.inexact, "float or complex dtype")
    shape = _shape("lognormal", shape, sigma)
    _no_out_sharding("lognormal", out_sharding, "0.10.1")
    _check_safe_to_cast("lognormal", dtype, sigma)
    result: jax.Array = _lognormal(key, sigma, shape, dtype)
    return result


@functools.partial(jax.jit, static_argnums=(4, 5))
def _triangular(
    key: Any, left: Any, mode: Any, right: Any, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> jax.Array:
    # Inverse transform sampling: the CDF is quadratic on each side of the mode.
    left = jnp.broadcast_to(lax.convert_element_type(left, dtype), shape)
    right = jnp.broadcast_to(lax.convert_element_type(right, dtype), shape)
    mode = jnp.broadcast_to(lax.convert_element_type(mode, dtype), shape)
    r = functools.partial(_rounded, dtype=dtype)
    width, rise, fall = r(right - left), r(mode - left), r(right - mode)
    at_mode = r(rise / width)
    u = jax.random.uniform(key, shape, dtype)
    below = r(left + r(lax.sqrt(r(r(u * width) * rise))))
    above = r(right - r(lax.sqrt(r(r(r(1 - u) * width) * fall))))
    return lax.select(u < at_mode, below, above)


def triangular(
    key: Any,
    left: Any,
    mode: Any,
    right: Any,
    shape: Shape | None = None,
    dtype: Any | None = None,
    *,
    out_sharding: Any | None = None,
) -> jax.Array:
    """``jax.random.triangular`` (missing from JAX 0.4.13; ``out_sharding=`` JAX 0.10.2)."""
    _check_key("triangular", key)
    dtype = _float_dtype("triangular", dtype, np.floating, "float dtype")
    shape = _shape("triangular", shape, left, mode, right)
    _no_out_sharding("triangular", out_sharding, "0.10.2")
    _check_safe_to_cast("triangular", dtype, left, mode, right)
    result: jax.Array = _triangular(key, left, mode, right, shape, dtype)
    return result


# --- binomial (JAX 0.4.21) and multinomial (JAX 0.5.3) --------------------------------------

# Stirling's approximation error log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]
# for k = 0..9, beyond which its series is used (the newest JAX's table).
_STIRLING_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def _stirling_tail(k: jax.Array) -> jax.Array:
    table = jnp.array(_STIRLING_TAIL, dtype=k.dtype)
    small = k <= 9
    k = lax.clamp(jnp.zeros((), k.dtype), k, jnp.full((), 9.0, k.dtype))
    kp1sq = (k + 1) * (k + 1)
    series = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    return lax.select(small, table[jnp.asarray(jnp.floor(k), dtype="int32")], series)


def _binomial_inversion(
    key: Any, count: jax.Array, prob: jax.Array, shape: tuple[int, ...], limit: Any
) -> jax.Array:
    """Small ``count * prob``: count geometric waiting times until they pass ``count``."""
    log1m_prob = jnp.log1p(-prob)

    def body(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        i, num_geom, geom_sum, key = carry
        subkey, key = jax.random.split(key)
        num_geom = lax.select(geom_sum <= count, num_geom + 1, num_geom)
        u = jax.random.uniform(subkey, shape, prob.dtype)
        geom_sum = geom_sum + jnp.ceil(jnp.log(u) / log1m_prob)
        return i + 1, num_geom, geom_sum, key

    def cond(carry: tuple[Any, ...]) -> Any:
        return (carry[2] <= count).any() & (carry[0] < limit)

    zeros = jnp.zeros(shape, prob.dtype)
    result: jax.Array = lax.while_loop(cond, body, (0, zeros, zeros, key))[1]
    return result - 1


def _btrs(
    key: Any, count: jax.Array, prob: jax.Array, shape: tuple[int, ...], limit: Any
) -> jax.Array:
    """Large ``count * prob``: Hormann's transformed rejection with squeeze (BTRS, 1993)."""
    stddev = jnp.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = jnp.floor((count + 1) * prob)

    def body(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        i, k_out, accepted, key = carry
        key, subkey_u, subkey_v = jax.random.split(key, 3)
        u = jax.random.uniform(subkey_u, shape, prob.dtype) - 0.5
        v = jax.random.uniform(subkey_v, shape, prob.dtype)
        us = 0.5 - jnp.abs(u)
        squeeze = (us >= 0.07) & (v <= v_r)
        k = jnp.floor((2 * a / us + b) * u + c)
        outside = (k < 0) | (k > count)
        v = jnp.log(v * alpha / (a / (us * us) + b))
        bound = (
            (m + 0.5) * jnp.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * jnp.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * jnp.log(r * (count - k + 1) / (k + 1))
            + _stirling_tail(m)
            + _stirling_tail(count - m)
            - _stirling_tail(k)
            - _stirling_tail(count - k)
        )
        accept = squeeze | (~outside & (v <= bound))
        return i + 1, lax.select(accept, k, k_out), accepted | accept, key

    def cond(carry: tuple[Any, ...]) -> Any:
        return (~carry[2]).any() & (carry[0] < limit)

    start = (0, jnp.full(shape, -1, prob.dtype), jnp.full(shape, False, bool), key)
    result: jax.Array = lax.while_loop(cond, body, start)[1]
    return result


def _inexact(x: Any) -> jax.Array:
    """``x`` as an array of its inexact dtype (integers and bools: the default float)."""
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return x  # type: ignore[no-any-return, unused-ignore]
    return x.astype(jnp.result_type(float))  # type: ignore[no-any-return, unused-ignore]


@functools.partial(jax.jit, static_argnums=(3, 4))
def _binomial(
    key: Any, count: Any, prob: Any, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> jax.Array:
    # As TensorFlow and the newest JAX: inversion for count * p <= 10, else BTRS, both run on
    # every element and the result selected; p > 1/2 samples the failures instead.
    prob = _inexact(prob)
    count = jnp.broadcast_to(lax.convert_element_type(count, prob.dtype), shape)
    prob = jnp.broadcast_to(prob, shape)
    p_lt_half = prob < 0.5
    q = lax.select(p_lt_half, prob, 1.0 - prob)
    count_nan_or_neg = (count != count) | (count < 0.0)
    count_inf = jnp.isinf(count)
    q_is_nan = q != q
    q_lt_0 = q < 0.0
    q = lax.select(q_is_nan | q_lt_0, jnp.full_like(q, 0.01), q)
    use_inversion = count_nan_or_neg | (count * q <= 10.0)
    count = jnp.floor(count)  # a float count is floored, as NumPy's binomial does
    count_inv = lax.select(use_inversion, count, jnp.zeros_like(count))
    count_btrs = lax.select(use_inversion, jnp.full_like(count, 1e4), count)
    q_btrs = lax.select(use_inversion, jnp.full_like(q, 0.5), q)
    limit = dtype.type(jnp.finfo(dtype).max)  # type: ignore[no-untyped-call, unused-ignore]
    samples = lax.select(
        use_inversion,
        _binomial_inversion(key, count_inv, q, shape, limit).astype(dtype),
        _btrs(key, count_btrs, q_btrs, shape, limit).astype(dtype),
    )
    invalid = q_lt_0 | q_is_nan | count_nan_or_neg
    samples = lax.select(invalid, jnp.full_like(samples, np.nan, dtype), samples)
    samples = lax.select(count_inf & ~invalid, jnp.full_like(samples, np.inf, dtype), samples)
    return lax.select(
        p_lt_half | count_nan_or_neg | q_is_nan | count_inf,
        samples,
        count.astype(dtype) - samples,
    )


def _check_arraylike(name: str, *args: Any) -> None:
    for position, arg in enumerate(args):
        if not (
            isinstance(arg, (jax.Array, np.ndarray, np.generic, bool, int, float, complex))
            or hasattr(arg, "__jax_array__")
            or isinstance(arg, jax.core.Tracer)
        ):
            raise TypeError(
                f"{name} requires ndarray or scalar arguments, got {type(arg)} at position "
                f"{position}."
            )


def binomial(
    key: Any,
    n: Any,
    p: Any,
    shape: Shape | None = None,
    dtype: Any | None = None,
) -> jax.Array:
    """``jax.random.binomial`` (JAX 0.4.21): samples of the number of successes, as floats."""
    _check_key("binomial", key)
    _check_arraylike("binomial", n, p)
    dtype = _float_dtype("binomial", dtype, np.floating, "float dtype")
    shape = _shape("binomial", shape, n, p)
    result: jax.Array = _binomial(key, n, p, shape, dtype)
    return result


@functools.partial(jax.jit, static_argnums=(3, 4, 5))
def _multinomial(
    key: Any, n: jax.Array, p: jax.Array, batch: tuple[int, ...], dtype: Any, unroll: int | bool
) -> jax.Array:
    n = jnp.broadcast_to(n, batch)
    p = jnp.moveaxis(jnp.broadcast_to(p, (*batch, p.shape[-1])), -1, 0)
    left = lax.cumsum(p, 0, reverse=True)
    ratios = p / jnp.where(left == 0, 1, left)

    def draw(remainder: jax.Array, ratio_key: tuple[jax.Array, Any]) -> tuple[Any, jax.Array]:
        ratio, outcome_key = ratio_key
        count = binomial(outcome_key, remainder, ratio.clip(0, 1), dtype=remainder.dtype)
        return remainder - count, count

    keys = jax.random.split(key, ratios.shape[0])
    _, counts = lax.scan(draw, n, (ratios, keys), unroll=unroll)
    return jnp.moveaxis(counts, 0, -1).astype(dtype)


def multinomial(
    key: Any,
    n: Any,
    p: Any,
    *,
    shape: Shape | None = None,
    dtype: Any | None = None,
    unroll: int | bool = 1,
) -> jax.Array:
    """``jax.random.multinomial`` (JAX 0.5.3): counts per outcome, outcomes on the last axis.

    As the newest JAX: outcome by outcome, a binomial draw of the trials left, with the
    outcome's share of the probability left, in a ``lax.scan``. Compiled as one function so
    that a call with the same shapes does not trace the scan again.
    """
    _check_key("multinomial", key)
    _check_arraylike("multinomial", n, p)
    common = jnp.result_type(n, p)
    if not jnp.issubdtype(common, jnp.inexact):
        common = jnp.result_type(float)
    n, p = jnp.asarray(n, common), jnp.asarray(p, common)
    batch = p.shape[:-1] if shape is None else _shape("multinomial", shape, n, p[..., 0])
    # Like the newest JAX's astype(dtype): None is the default float dtype, any dtype goes.
    result_dtype = np.dtype(jax.dtypes.canonicalize_dtype(float if dtype is None else dtype))
    result: jax.Array = _multinomial(key, n, p, batch, result_dtype, unroll)
    return result


# --- key functions ----------------------------------------------------------------------------


def key_dtype(impl_spec: Any | None = None) -> Any:
    """``jax.random.key_dtype`` (JAX 0.10.1): the dtype of keys of a PRNG implementation.

    It is the dtype of a key made with ``impl=impl_spec``; a key dtype names its own
    implementation.
    """
    if type(impl_spec).__name__ == "KeyTy":  # already a key dtype
        return impl_spec
    return jax.eval_shape(lambda: jax.random.key(0, impl=impl_spec)).dtype  # type: ignore[call-arg, unused-ignore]


def split_into_shape(jax_split: Callable[..., Any]) -> Callable[..., Any]:
    """``jax.random.split`` as of JAX 0.4.14, whose ``num`` may be a shape: JAX 0.4.13 takes
    a count only. The keys of a shape are the keys of its size, reshaped (the newest's
    threefry split draws them so), with a raw key's trailing axis kept."""

    def split(key: Any, num: int | tuple[int, ...] = 2) -> Any:
        if not isinstance(num, Sequence):  # a count, as the newest reads it
            return jax_split(key, num)
        shape = tuple(num)
        keys = jax_split(key, math.prod(shape))
        return keys.reshape(shape + keys.shape[1:])

    split.__doc__ = jax_split.__doc__
    return split


def key_impl_name(jax_key_impl: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``jax.random.key_impl`` as of JAX 0.4.36: the implementation's name where it has one.

    Before 0.4.36 the result is always a ``PRNGSpec`` wrapping the implementation, even for
    the built-in ones that the newest JAX names by a string ("threefry2x32", "rbg", ...).
    """

    def key_impl(keys: Any) -> Any:
        spec = jax_key_impl(keys)
        # PRNGSpec's implementation and its name, as every release from 0.4.16 to 0.4.35 has
        # them; the name stands for the implementation if a key made with impl=name has it.
        name = getattr(getattr(spec, "_impl", None), "name", None)
        if isinstance(name, str) and _key_dtype_or_none(name) == _key_dtype_or_none(spec):
            return name
        return spec

    key_impl.__doc__ = jax_key_impl.__doc__
    return key_impl


def _key_dtype_or_none(impl: Any) -> Any:
    """The dtype of keys made with ``impl=impl``; None if there is no such implementation."""
    try:
        return jax.eval_shape(lambda: jax.random.key(0, impl=impl)).dtype  # type: ignore[call-arg, unused-ignore]
    except (ValueError, TypeError):
        return None
