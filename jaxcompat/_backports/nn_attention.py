"""``jax.nn.dot_product_attention`` as of JAX 0.10.1, for every older release.

JAX's own function appeared in 0.4.31 and kept changing until 0.10.1:
- ``query_seq_lengths``/``key_value_seq_lengths`` (0.4.33), ``local_window_size`` (0.4.34)
  and ``return_residual`` (0.8.1) were added;
- half-precision logits got an explicit float32-accumulating dot algorithm (0.5.1);
- 0.10.1 capped the "large negative" of masked logits at the float32 range: before it a
  float64 logit was masked with -0.7 * float64's maximum, which is -inf once the softmax
  casts it to float32, so a row with every position masked gave NaN instead of a uniform
  average.

The XLA path below is composed of the release's own ``jax.numpy`` operations in the same
order as 0.10.1's, so it gives its results, dtypes and derivatives. cuDNN's fused kernel is
JAX's own: it is passed to the release's function where there is one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._version import JAX_VERSION_STRING

__all__ = ["dot_product_attention"]

Window = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class _Options:
    """The static choices of one call."""

    is_causal: bool
    scale: float
    window: Window | None
    return_residual: bool


# jax.numpy's finfo knows bfloat16; it is untyped.
_finfo: Any = jnp.finfo


def _ensure_4d(t: Any) -> jax.Array:
    t = jnp.asarray(t)
    missing = 4 - t.ndim
    return jnp.expand_dims(t, axis=tuple(range(missing))) if missing > 0 else t


def _check_shape_and_dtype(
    t: jax.Array | None, shape: Sequence[int], dtype: Any, name: str
) -> None:
    # The newest JAX's checks and messages, word for word.
    if t is None:
        return
    if t.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {t.ndim}")
    if dtype is not None and t.dtype != dtype:
        raise ValueError(f"{name} dtype should be {dtype}, but got {t.dtype}")
    for i in range(t.ndim):
        if shape[i] != -1 and t.shape[i] != shape[i]:
            raise ValueError(f"{name} shape should be {shape}: but got {t.shape}")


def _large_negative(dtype: Any) -> jax.Array:
    # Capped at float32's range (0.10.1), so that it stays finite in the float32 softmax.
    largest = min(float(_finfo(dtype).max), float(np.finfo(np.float32).max))
    return jnp.asarray(-0.7 * largest, dtype=dtype)


def _logits_mask(
    logits: jax.Array,
    mask: jax.Array | None,
    is_causal: bool,
    q_seqlen: jax.Array | None,
    kv_seqlen: jax.Array | None,
    local_window_size: Window | None,
) -> jax.Array | None:
    """Which logits (``BNTS``) take part, or None when all do."""
    if (
        mask is None
        and not is_causal
        and q_seqlen is None
        and kv_seqlen is None
        and local_window_size is None
    ):
        return None
    combined = jnp.ones_like(logits, dtype=bool)
    if mask is not None:
        combined = jnp.logical_and(combined, mask)
    T, S = logits.shape[2], logits.shape[3]
    if is_causal:
        combined = jnp.logical_and(combined, jnp.tril(jnp.ones((T, S), dtype=bool))[None, None])
    if local_window_size is not None:
        left, right = local_window_size
        query_pos = jnp.array(range(T))[:, None]
        key_pos = jnp.array(range(S))[None, :]
        window = jnp.logical_and(query_pos >= key_pos - right, query_pos <= key_pos + left)
        combined = jnp.logical_and(combined, window[None, None])
    if q_seqlen is not None or kv_seqlen is not None:
        padding: Any = True
        if q_seqlen is not None:
            padding = jnp.arange(0, T)[None, :, None] < q_seqlen[:, None, None]
        if kv_seqlen is not None:
            kv_inside = jnp.arange(0, S)[None, None, :] < kv_seqlen[:, None, None]
            padding = jnp.logical_and(padding, kv_inside)
        combined = jnp.logical_and(combined, padding[:, None, :, :])
    return combined


def _logits(query: jax.Array, key: jax.Array) -> jax.Array:
    logits_dtype = jnp.promote_types(query.dtype, np.float32)
    # Half-precision inputs accumulate in float32 (0.5.1, jax-ml/jax#24047). A release
    # without dot algorithms (before 0.4.35) or a platform without this one falls back to
    # the default precision, as JAX does.
    presets = getattr(lax, "DotAlgorithmPreset", None)
    precision: Any = None
    if presets is not None and query.dtype == jnp.bfloat16:
        precision = presets.BF16_BF16_F32
    elif presets is not None and query.dtype == np.float16:
        precision = presets.F16_F16_F32
    if precision is not None:
        try:
            return jnp.einsum(
                "BTNH,BSNH->BNTS",
                query,
                key,
                precision=precision,
                preferred_element_type=logits_dtype,
            )
        except Exception:
            pass
    return jnp.einsum("BTNH,BSNH->BNTS", query, key, preferred_element_type=logits_dtype)


def _attend(
    query: jax.Array,
    key: jax.Array,
    value: jax.Array,
    bias: jax.Array | None,
    mask: jax.Array | None,
    q_seqlen: jax.Array | None,
    kv_seqlen: jax.Array | None,
    *,
    options: _Options,
) -> Any:
    """One group of query heads: ``query`` is ``BTKH``, ``key`` and ``value`` ``BSKH``."""
    logits = _logits(query, key)
    logits = logits * jnp.array(options.scale, dtype=logits.dtype)
    if bias is not None:
        logits = (logits + bias).astype(logits.dtype)
    keep = _logits_mask(logits, mask, options.is_causal, q_seqlen, kv_seqlen, options.window)
    if keep is not None:
        logits = jnp.where(keep, logits, _large_negative(logits.dtype))
    # The softmax is always computed in float32.
    logits = logits.astype(np.float32)
    probs = jax.nn.softmax(logits, axis=-1).astype(key.dtype)
    encoded = jnp.einsum("BNTS,BSNH->BTNH", probs, value)
    if q_seqlen is not None:
        inside = jnp.arange(0, encoded.shape[1])[None, :] < q_seqlen[:, None]
        encoded = encoded * inside[:, :, None, None].astype(encoded.dtype)
    if options.return_residual:
        residual = jax.nn.logsumexp(logits, axis=-1).astype(key.dtype)
        return encoded, lax.stop_gradient(jnp.transpose(residual, (0, 2, 1)))
    return encoded


def _grouped(t: jax.Array | None, N: int, K: int) -> jax.Array | None:
    """A ``BNTS`` bias or mask as ``B K G T S``: the ``N`` query heads fall into ``K`` groups
    of ``G = N // K``, one per key head (a single head is broadcast to all)."""
    if t is None:
        return None
    G = N // K
    tB, tN, tT, tS = t.shape
    if tN == 1:
        return jnp.broadcast_to(t[:, :, None, :, :], (tB, tN, G, tT, tS))
    if tN != N:
        raise ValueError(f"bias and mask must have 1 or {N} (the query's) heads, but got {tN}")
    return jnp.reshape(t, (tB, K, G, tT, tS))


def _cudnn(query: Any, key: Any, value: Any, bias: Any, mask: Any, **options: Any) -> Any:
    """The release's own cuDNN attention: a fused kernel cannot be composed."""
    native = getattr(jax.nn, "dot_product_attention", None)
    if native is None:
        raise ValueError(
            f"implementation='cudnn' needs JAX 0.4.31 or newer (installed: JAX "
            f"{JAX_VERSION_STRING}): it has no cuDNN attention. Use implementation='xla' or "
            "None, or upgrade JAX."
        )
    # Options at their defaults are left out, so a release without one still runs; one it
    # lacks and that is set is its TypeError.
    defaults = {
        "scale": None,
        "is_causal": False,
        "query_seq_lengths": None,
        "key_value_seq_lengths": None,
        "local_window_size": None,
        "return_residual": False,
    }
    chosen = {name: v for name, v in options.items() if v is not defaults[name]}
    return native(query, key, value, bias=bias, mask=mask, implementation="cudnn", **chosen)


def dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    bias: Any = None,
    mask: Any = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: Any = None,
    key_value_seq_lengths: Any = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: str | None = None,
    return_residual: bool = False,
) -> Any:
    """Scaled dot-product attention, as ``jax.nn.dot_product_attention`` of JAX 0.10.1+.

    ``query`` is ``BTNH`` (or ``TNH``), ``key`` and ``value`` ``BSKH`` (or ``SKH``), with
    ``N`` a multiple of ``K``; the result has the query's shape, and with
    ``return_residual=True`` comes with the logsumexp of the logits (``BTN``).
    """
    if implementation == "cudnn":
        return _cudnn(
            query,
            key,
            value,
            bias,
            mask,
            scale=scale,
            is_causal=is_causal,
            query_seq_lengths=query_seq_lengths,
            key_value_seq_lengths=key_value_seq_lengths,
            local_window_size=local_window_size,
            return_residual=return_residual,
        )
    output_shape = jnp.asarray(query).shape
    query_arr = _ensure_4d(query)
    key_arr = _ensure_4d(key)
    value_arr = _ensure_4d(value)
    bias_arr = None if bias is None else _ensure_4d(bias)
    mask_arr = None if mask is None else _ensure_4d(mask)
    q_seqlen = None if query_seq_lengths is None else jnp.asarray(query_seq_lengths)
    kv_seqlen = None if key_value_seq_lengths is None else jnp.asarray(key_value_seq_lengths)
    window: Window | None
    if isinstance(local_window_size, int):
        window = (local_window_size, local_window_size)
    else:
        window = local_window_size

    B, S, K, H = key_arr.shape
    _check_shape_and_dtype(value_arr, [B, S, K, H], key_arr.dtype, "value")
    _check_shape_and_dtype(query_arr, [B, -1, -1, H], key_arr.dtype, "query")
    _check_shape_and_dtype(mask_arr, [-1] * 4, np.dtype(bool), "mask")
    _check_shape_and_dtype(bias_arr, [-1] * 4, None, "bias")
    _check_shape_and_dtype(q_seqlen, [B], np.dtype("int32"), "query_seq_lengths")
    _check_shape_and_dtype(kv_seqlen, [B], np.dtype("int32"), "key_value_seq_lengths")
    if query_arr.shape[-2] % K != 0:
        raise ValueError(
            "The number of query heads must be a multiple of key/value heads, but got "
            f"{query_arr.shape[-2]} vs {K}"
        )
    if implementation not in ("xla", None):
        raise ValueError(f"Unsupported implementation option: {implementation}")

    options = _Options(
        is_causal=is_causal,
        scale=(1.0 / np.sqrt(H)) if scale is None else scale,
        window=window,
        return_residual=return_residual,
    )
    # Batched over the G query heads of each group; the sequence lengths are per batch row.
    T, N = query_arr.shape[1], query_arr.shape[2]
    attend = jax.vmap(
        functools.partial(_attend, options=options),
        in_axes=(3, None, None, 2, 2, None, None),
        out_axes=3,
    )
    out = attend(
        jnp.reshape(query_arr, (B, T, K, N // K, H)),
        key_arr,
        value_arr,
        _grouped(bias_arr, N, K),
        _grouped(mask_arr, N, K),
        q_seqlen,
        kv_seqlen,
    )
    if return_residual:
        encoded, residual = out
        return jnp.reshape(encoded, output_shape), jnp.reshape(residual, output_shape[:-1])
    return jnp.reshape(out, output_shape)
