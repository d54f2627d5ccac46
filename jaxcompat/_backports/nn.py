"""``jax.nn`` functions added in JAX 0.4.21-0.7.1, and ``standardize`` as of 0.10.1.

Each is composed of the installed release's own ``jax.numpy`` and ``jax.nn`` operations, so
it traces, jits, vmaps and differentiates as the native one does, with the newest JAX's
signature, results and dtypes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

from .._version import JAX_VERSION_STRING

__all__ = [
    "identity",
    "log1mexp",
    "logmeanexp",
    "mish",
    "one_hot",
    "sparse_plus",
    "sparse_sigmoid",
    "squareplus",
    "standardize",
]

Axis = int | Sequence[int] | None


def _array(name: str, x: Any) -> jax.Array:
    """``x`` as an array; like JAX's own functions, lists and tuples are refused."""
    if isinstance(x, (list, tuple)):
        raise TypeError(
            f"{name} requires ndarray or scalar arguments, got {type(x)} at position 0."
        )
    return jnp.asarray(x)


def _inexact(x: jax.Array) -> jax.Array:
    """``x`` promoted to the default float dtype if it is not inexact (JAX's promotion)."""
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return x
    return x.astype(jnp.result_type(float))


def identity(x: Any) -> jax.Array:
    """``jax.nn.identity`` (JAX 0.6.0): the argument unmodified, as an array."""
    return _array("identity", x)


def squareplus(x: Any, b: Any = 4) -> jax.Array:
    """``jax.nn.squareplus`` (JAX 0.4.21): ``(x + sqrt(x**2 + b)) / 2``."""
    x = _array("squareplus", x)
    b = _array("squareplus", b)
    y: jax.Array = x + jnp.sqrt(jnp.square(x) + b)
    return y / 2


def sparse_plus(x: Any) -> jax.Array:
    """``jax.nn.sparse_plus`` (JAX 0.4.26): 0 below -1, x above 1, ``(x + 1)**2 / 4`` between."""
    x = _array("sparse_plus", x)
    result: jax.Array = jnp.where(x <= -1.0, 0.0, jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))
    return result


def sparse_sigmoid(x: Any) -> jax.Array:
    """``jax.nn.sparse_sigmoid`` (JAX 0.4.27): ``clip(x + 1, 0, 2) / 2``."""
    result: jax.Array = 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)
    return result


def mish(x: Any) -> jax.Array:
    """``jax.nn.mish`` (JAX 0.4.27): ``x * tanh(softplus(x))``."""
    x = _array("mish", x)
    result: jax.Array = x * jnp.tanh(jax.nn.softplus(x))
    return result


@jax.custom_jvp
def _log1mexp(x: jax.Array) -> jax.Array:
    c = jnp.log(2.0)
    return jnp.where(x < c, jnp.log(-jnp.expm1(-x)), jnp.log1p(-jnp.exp(-x)))


_log1mexp.defjvps(lambda g, ans, x: g / jnp.expm1(x))  # type: ignore[no-untyped-call, unused-ignore]


def log1mexp(x: Any) -> jax.Array:
    """``jax.nn.log1mexp`` (JAX 0.7.1): ``log(1 - exp(-x))``, accurate for small and large x."""
    result: jax.Array = _log1mexp(_array("log1mexp", x))
    return result


def _masked_logsumexp(
    x: jax.Array, axis: int | tuple[int, ...] | None, where: jax.Array, keepdims: bool
) -> jax.Array:
    """``logsumexp`` over the elements where ``where`` is true (-inf where none is)."""
    masked = jnp.where(where, x, -jnp.inf)
    peak = lax.stop_gradient(jnp.max(masked, axis=axis, keepdims=True))
    peak = jnp.where(jnp.isfinite(peak), peak, jnp.zeros_like(peak))
    total = jnp.sum(jnp.exp(masked - peak), axis=axis, keepdims=True, where=where)
    result = jnp.log(total) + peak
    if not keepdims:
        result = jnp.squeeze(result, axis=axis)
    return result


def logmeanexp(
    x: Any, axis: Axis = None, where: Any | None = None, keepdims: bool = False
) -> jax.Array:
    """``jax.nn.logmeanexp`` (JAX 0.7.1): ``logsumexp(x) - log(n)`` over ``axis``."""
    if isinstance(axis, Sequence):
        axis = tuple(axis)
    x = _inexact(_array("logmeanexp", x))
    if where is None:
        lse: jax.Array = jax.nn.logsumexp(x, axis=axis, keepdims=keepdims)  # type: ignore[arg-type, unused-ignore]
        axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        count = jnp.asarray(math.prod(x.shape[a] for a in axes), dtype=lse.dtype)
    else:
        mask = jnp.broadcast_to(jnp.asarray(where, dtype=bool), x.shape)
        lse = _masked_logsumexp(x, axis, mask, keepdims)
        count = jnp.sum(mask, axis=axis, keepdims=keepdims, dtype=lse.dtype)
    return lse - jnp.log(count)


# Jitted as the newest is: op by op, its variance rounds otherwise than under jit, so eager
# calls would give other values than the newest JAX's (JAX 0.10.1 jits it the same way).
@functools.partial(jax.jit, static_argnames=("axis", "algorithm"))
def standardize(
    x: Any,
    axis: Axis = -1,
    mean: Any | None = None,
    variance: Any | None = None,
    epsilon: Any = 1e-5,
    where: Any | None = None,
    *,
    algorithm: str = "fast",
) -> jax.Array:
    """``jax.nn.standardize`` with ``algorithm=`` (JAX 0.10.1).

    Before JAX 0.8.2 the "fast" variance ``mean(x**2) - mean(x)**2`` was not clipped at 0, so
    rounding could make it negative and the result NaN; the variance is computed here as the
    newest JAX computes it and handed to the release's own function.
    """
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = jnp.mean(jnp.square(jnp.subtract(x, mean)), axis, keepdims=True, where=where)
        elif algorithm == "fast":
            variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
            variance = jnp.clip(variance, 0)
        else:
            raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    result: jax.Array = jax.nn.standardize(x, axis, mean, variance, epsilon, where)
    return result


def one_hot(
    x: Any,
    num_classes: int,
    *,
    dtype: Any | None = None,
    axis: int | str = -1,
    out_sharding: Any | None = None,
) -> jax.Array:
    """``jax.nn.one_hot`` with ``out_sharding=`` (JAX 0.11.0); only None can be honoured."""
    if out_sharding is not None:
        # The output sharding is part of the type (sharding in types), which older releases
        # do not have: ignoring it would silently lay the result out differently.
        raise NotImplementedError(
            f"jax.nn.one_hot(out_sharding=...) needs JAX 0.11.0 or newer; JAX "
            f"{JAX_VERSION_STRING} is installed. Upgrade JAX, or leave out_sharding=None and "
            "place the result with jax.device_put or jax.lax.with_sharding_constraint."
        )
    if dtype is None:
        result: jax.Array = jax.nn.one_hot(x, num_classes, axis=axis)
    else:
        result = jax.nn.one_hot(x, num_classes, dtype=dtype, axis=axis)
    return result
