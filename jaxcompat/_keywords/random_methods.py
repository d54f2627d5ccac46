"""``method="approximate"`` of ``jax.random``'s gamma, loggamma, beta, chisquare and poisson
before JAX 0.11.1, which added it: the newest's loop-free samplers, composed from the
installed release's own normal and exponential samplers (the rule is in
``_keywords/rules/functions.py``).

The samples are the newest JAX's for the same key, to the last bit or two of float32 where
the release draws the same bits (under ``jax_threefry_partitionable``, True by default from
JAX 0.5.0 on): each draws the same normal and exponential variates as the newest draws, and
maps them by the same formulas. They differentiate with respect to the shape parameters as
the newest's do (the map from the draws is smooth). ``method="exact"``, the default, is the
release's own sampler.

The two algorithms, as the newest documents them:

* gamma: a base draw at the boosted shape ``a + 4`` from the chi-square quantile series
  (Goldstein's Algorithm 451, with the leading constant 1), carried down to ``a`` by Stuart's
  identity ``log G_a = log G_(a+4) + sum_k log U_k / (a + k)``; loggamma, beta and
  chisquare are built on its log-space draw, as the newest builds them.
* poisson: a normal draw mapped to a count by inverting the truncated cdf below a mean of
  7, and the Peizer-Pratt normal approximation of the cdf above.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .random import _call, _release_result

__all__ = ["sampled_by_method"]

_METHODS = ("exact", "approximate")

# Coefficients of the chi-square quantile series: row k holds the coefficients of
# t^k (t = x / sqrt(nu), x a standard normal draw), each a quadratic in 1 / nu. The leading
# constant is exactly 1 (the published 1.0000886 biases every draw), as in the newest.
_CHI2_QUANTILE_ROWS = (
    (1.0, -0.2237368, -0.01513904),
    (0.4713941, 0.02607083, -0.008986007),
    (0.0001348028, 0.01128186, 0.02277679),
    (-0.008553069, -0.01153761, -0.01323293),
    (0.00312558, 0.005169654, -0.006950356),
    (-0.0008426812, 0.00253001, 0.001060438),
    (0.00009780499, -0.001450117, 0.001565326),
)
_BOOSTS = 4  # the base draw's shape a + 4 >= 4, where the series is accurate
_POISSON_SPLIT = 7.0  # below this mean, the truncated cdf is inverted
_POISSON_TERMS = 20  # of the truncated pmf
_PEIZER_PRATT_EPS = 0.02  # continuity correction


def sampled_by_method(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """gamma, loggamma, beta, chisquare and poisson with method=: "exact" is the release's
    own sampler, "approximate" the newest's loop-free one."""
    name = path.rpartition(".")[2]
    method = values["method"]
    if method not in _METHODS:
        raise ValueError(
            f"method argument to `{name}` must be one of {{'exact', 'approximate'}}, got {method!r}"
        )
    if method == "exact":
        return function(*args, **kwargs)
    call = _call(function, *args, **kwargs)
    if name == "poisson":
        samples = _poisson(call["key"], call["lam"], call["shape"], call["dtype"])
    else:
        # The release's own call gives its checks of key, parameters, shape and dtype, and
        # the result's shape and dtype.
        result = _release_result(function, *args, **kwargs)
        shape, dtype = tuple(result.shape), result.dtype
        key = call["key"]
        if name in ("gamma", "loggamma"):
            samples = _gamma(key, call["a"], shape, dtype, name == "loggamma")
        elif name == "beta":
            samples = _beta(key, call["a"], call["b"], shape, dtype)
        else:
            samples = _chisquare(key, call["df"], shape, dtype)
    # JAX 0.10.1-0.11.0's own samplers take out_sharding=: the samples are placed as asked.
    if call.get("out_sharding") is not None:
        samples = jax.sharding.reshard(  # type: ignore[attr-defined,no-untyped-call,unused-ignore]
            samples, call["out_sharding"]
        )
    return samples


def _log_gamma_series(key: Any, a: Any) -> Any:
    """log Gamma(a, 1), as chi2(2a) / 2 from the quantile series: a degree-6 polynomial in
    t = x / sqrt(2a), cubed, each coefficient a quadratic in 1 / (2a) (Horner's rule in both,
    the order of the newest's lax.polynomial)."""
    nu = 2 * a
    x = jax.random.normal(key, np.shape(a), a.dtype)
    u = 1 / nu
    t = x * jax.lax.rsqrt(nu)
    rows = [c0 + u * (c1 + u * c2) for c0, c1, c2 in _CHI2_QUANTILE_ROWS]
    poly = rows[-1]
    for row in reversed(rows[:-1]):
        poly = row + t * poly
    # Never reached for a normal draw; kept positive as the newest keeps it.
    poly = jnp.maximum(poly, jnp.finfo(a.dtype).tiny)  # type: ignore[no-untyped-call]
    return jnp.log(a) + 3 * jnp.log(poly)


# Jitted as the newest's samplers are, so that XLA rounds the same fused program alike.
@partial(jax.jit, static_argnums=(2, 3, 4))
def _gamma(key: Any, a: Any, shape: tuple[int, ...], dtype: Any, log_space: bool) -> Any:
    # At least float32: the cost is the random bits and the transcendentals either way.
    compute_dtype = jnp.float32 if jnp.finfo(dtype).bits < 32 else dtype  # type: ignore[no-untyped-call]
    a = jax.lax.convert_element_type(a, compute_dtype)
    if np.shape(a) != shape:
        a = jnp.broadcast_to(a, shape)
    key_base, key_boost = jax.random.split(key)
    log_base = _log_gamma_series(key_base, a + _BOOSTS)
    k = jnp.arange(_BOOSTS, dtype=compute_dtype).reshape((_BOOSTS,) + (1,) * len(shape))
    log_u = -jax.random.exponential(key_boost, (_BOOSTS, *shape), compute_dtype)
    log_sample = log_base + jnp.sum(log_u / (a[None, ...] + k), axis=0)
    out = log_sample if log_space else jnp.exp(log_sample)
    return jax.lax.convert_element_type(out, dtype)


@partial(jax.jit, static_argnums=(3, 4))
def _beta(key: Any, a: Any, b: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    key_a, key_b = jax.random.split(key)
    a = jnp.broadcast_to(jax.lax.convert_element_type(a, dtype), shape)
    b = jnp.broadcast_to(jax.lax.convert_element_type(b, dtype), shape)
    log_gamma_a = _gamma(key_a, a, shape, dtype, True)
    log_gamma_b = _gamma(key_b, b, shape, dtype, True)
    # gamma_a / (gamma_a + gamma_b), without losing precision.
    log_max = jax.lax.max(log_gamma_a, log_gamma_b)
    gamma_a_scaled = jnp.exp(log_gamma_a - log_max)
    gamma_b_scaled = jnp.exp(log_gamma_b - log_max)
    return gamma_a_scaled / (gamma_a_scaled + gamma_b_scaled)


@partial(jax.jit, static_argnums=(2, 3))
def _chisquare(key: Any, df: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    df = jax.lax.convert_element_type(df, dtype)
    two = jnp.asarray(2, dtype)
    log_g = _gamma(key, df / two, shape, dtype, True)
    return jnp.exp(log_g) * two


def _poisson(key: Any, lam: Any, shape: Any, dtype: Any) -> Any:
    """poisson's checks, as the newest makes them for method="approximate", then its
    sampler."""
    dtype = jax.dtypes.canonicalize_dtype(int if dtype is None else dtype)
    shape = np.shape(lam) if shape is None else tuple(shape)
    if jax.lax.broadcast_shapes(np.shape(lam), shape) != shape:
        raise ValueError(
            "lam shape must be broadcastable to shape argument; "
            f"got lam.shape {np.shape(lam)}, shape {shape}"
        )
    return _poisson_approximate(key, lam, shape, dtype)


@partial(jax.jit, static_argnums=(2, 3))
def _poisson_approximate(key: Any, lam: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    # float64 where lam or the counts are 64-bit: above 2**24 the float32 lattice is too
    # coarse for the counts.
    lam_dtype = jnp.result_type(lam)
    lam_is_64 = jnp.issubdtype(lam_dtype, jnp.floating) and jnp.finfo(lam_dtype).bits > 32  # type: ignore[no-untyped-call]
    wide = lam_is_64 or np.dtype(dtype).itemsize > 4
    compute_dtype = jnp.float64 if wide else jnp.float32
    lam = jax.lax.convert_element_type(lam, compute_dtype)
    lam = jax.lax.expand_dims(lam, tuple(range(len(shape) - np.ndim(lam))))
    z = jax.random.normal(key, shape, compute_dtype)
    small = _poisson_cdf_inversion(jax.scipy.special.ndtr(z), lam)
    large = _poisson_peizer_pratt(z, lam)
    return jax.lax.convert_element_type(jnp.where(lam < _POISSON_SPLIT, small, large), dtype)


def _poisson_cdf_inversion(u: Any, lam: Any) -> Any:
    """The count whose truncated cdf first reaches u, the pmf's recurrence unrolled."""
    pmf = jnp.exp(-lam)
    cdf = pmf
    count = jax.lax.convert_element_type(cdf < u, u.dtype)
    for k in range(1, _POISSON_TERMS - 1):
        pmf *= lam / k
        cdf += pmf
        count += jax.lax.convert_element_type(cdf < u, u.dtype)
    return count


def _poisson_peizer_pratt(z: Any, lam: Any) -> Any:
    """The smallest integer x with z(x) >= z (the Peizer-Pratt z(x)): chosen among the two
    integers below the ceiling of an analytic guess, shifted to centre its error."""
    s = jnp.sqrt(lam)
    guess = lam + s * z - 2 / 3 + jnp.square(z) / 6 + z * (1 - jnp.square(z)) / (72 * s)
    c = jnp.ceil(guess + 0.6)

    def at_least(count: Any) -> Any:
        z_count = jnp.where(count < 0, -np.inf, _peizer_pratt_z(jnp.maximum(count, 0.0), lam))
        return jax.lax.convert_element_type(z_count >= z, guess.dtype)

    return jnp.maximum(c + 1 - at_least(c) - at_least(c - 1), 0.0)


def _peizer_pratt_z(x: Any, lam: Any) -> Any:
    """z(x) with Pr[X <= x] about ndtr(z(x)), for x > -1/2."""
    t = _peizer_pratt_t((x + 0.5) / lam)
    return (x - lam + 2 / 3 + _PEIZER_PRATT_EPS / (x + 1)) * jnp.sqrt((1 + t) / lam)


def _peizer_pratt_t(y: Any) -> Any:
    """(1 - y^2 + 2 y log y) / (1 - y)^2, by its series within 1/4 of y = 1."""
    d = y - 1
    near_one = jnp.abs(d) < 0.25
    series = jnp.zeros_like(d)
    for k in reversed(range(1, 10)):
        series = d * (2 * (-1) ** k / ((k + 1) * (k + 2)) + series)
    y_safe = jnp.where(near_one, 2.0, y)
    d_safe = jnp.where(near_one, 1.0, d)
    direct = (1 - jnp.square(y_safe) + 2 * y_safe * jnp.log(y_safe)) / jnp.square(d_safe)
    return jnp.where(near_one, series, direct)
