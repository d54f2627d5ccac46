"""``jaxcompat.nn.dot_product_attention``: the newest JAX's attention on every release.

Contract tests: the same inputs and assertions on every matrix row. From JAX 0.10.1 it is
JAX's own function, so these tests also show that the backport used before it gives what
the newest JAX gives. Expected results come from a NumPy float64 formula written per head,
never from the function under test.
"""

import jax
import jax.numpy as jnp
import jax.test_util
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jaxcompat
import jaxcompat.nn as nn
from tests._backport_helpers import assert_same, few


def attention64(
    q,
    k,
    v,
    bias=None,
    mask=None,
    *,
    scale=None,
    causal=False,
    q_lengths=None,
    kv_lengths=None,
    window=None,
):
    """Attention of ``BTNH`` queries and ``BSKH`` keys/values, head by head, and its
    logsumexp (``BTN``). Masked positions are left out of the softmax; the output of a
    query past its length is zero."""
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    B, T, N, H = q.shape
    S, K = k.shape[1], k.shape[2]
    scale = 1 / np.sqrt(H) if scale is None else scale
    out = np.zeros((B, T, N, H))
    lse = np.zeros((B, T, N))
    for b in range(B):
        for n in range(N):
            kv_head = n // (N // K)
            logits = q[b, :, n] @ k[b, :, kv_head].T * scale
            if bias is not None:
                logits = logits + np.broadcast_to(bias, (B, N, T, S))[b, n]
            keep = np.ones((T, S), bool)
            if mask is not None:
                keep &= np.broadcast_to(mask, (B, N, T, S))[b, n]
            t, s = np.arange(T)[:, None], np.arange(S)[None, :]
            if causal:
                keep &= s <= t
            if window is not None:
                keep &= (t - window[0] <= s) & (s <= t + window[1])
            if kv_lengths is not None:
                keep &= s < kv_lengths[b]
            logits = np.where(keep, logits, -np.inf)
            top = logits.max(axis=-1, keepdims=True)
            weights = np.exp(logits - top)
            out[b, :, n] = weights @ v[b, :, kv_head] / weights.sum(-1, keepdims=True)
            lse[b, :, n] = np.log(weights.sum(-1)) + top[:, 0]
            if q_lengths is not None:
                out[b, q_lengths[b] :, n] = 0
    return out, lse


def qkv(seed, B=2, T=3, S=4, N=2, K=2, H=4, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return tuple(
        rng.normal(size=shape).astype(dtype) for shape in ((B, T, N, H), (B, S, K, H), (B, S, K, H))
    )


@few
@given(st.integers(0, 2**16), st.sampled_from([1, 2]), st.booleans())
def test_plain_and_grouped_query_heads(seed, K, causal):
    # Two query heads share each key head when K is 1 (multi-query attention).
    q, k, v = qkv(seed, K=K, T=4, S=4)
    expected, _ = attention64(q, k, v, causal=causal)
    result = nn.dot_product_attention(q, k, v, is_causal=causal)
    assert_same(result, expected.astype(np.float32), rtol=1e-5, atol=1e-6)


def test_bias_mask_scale_window_and_lengths():
    q, k, v = qkv(1, T=4, S=5)
    rng = np.random.default_rng(2)
    bias = rng.normal(size=(2, 1, 4, 5)).astype(np.float32)
    mask = rng.random((2, 2, 4, 5)) < 0.8
    mask[..., 0] = True  # every query keeps a key, so no row is masked out entirely
    q_lengths = np.array([4, 2], np.int32)
    kv_lengths = np.array([5, 3], np.int32)
    expected, lse = attention64(
        q, k, v, bias, mask, scale=0.3, window=(2, 1), q_lengths=q_lengths, kv_lengths=kv_lengths
    )
    out, residual = nn.dot_product_attention(
        q,
        k,
        v,
        bias,
        mask,
        scale=0.3,
        local_window_size=(2, 1),
        query_seq_lengths=q_lengths,
        key_value_seq_lengths=kv_lengths,
        return_residual=True,
    )
    assert_same(out, expected.astype(np.float32), rtol=1e-5, atol=1e-6)
    # The residual of a padded query is the logsumexp of its masked logits: not compared.
    inside = np.arange(4)[None, :] < q_lengths[:, None]
    assert residual.dtype == np.float32 and residual.shape == (2, 4, 2)
    np.testing.assert_allclose(np.asarray(residual)[inside], lse[inside], rtol=1e-5)


def test_a_symmetric_window_and_three_dimensional_inputs():
    # T and S of test_bias_mask_scale_window_and_lengths: its window's eager ops are reused.
    q, k, v = (a[0] for a in qkv(3, T=4, S=5))
    expected, _ = attention64(q[None], k[None], v[None], window=(1, 1))
    result = nn.dot_product_attention(q, k, v, local_window_size=1, implementation="xla")
    assert_same(result, expected[0].astype(np.float32), rtol=1e-5, atol=1e-6)


def test_half_precision_keeps_its_dtype():
    q, k, v = qkv(4, dtype=np.float32)
    expected, _ = attention64(q, k, v)
    result = nn.dot_product_attention(*(a.astype(jnp.bfloat16) for a in (q, k, v)))
    assert result.dtype == jnp.bfloat16 and result.shape == q.shape
    np.testing.assert_allclose(np.asarray(result, np.float32), expected, rtol=0.05, atol=0.05)


def test_a_fully_masked_float64_row_averages_the_values():
    # 0.10.1 keeps float64's masked logits finite in the float32 softmax: a query with no
    # key left averages all values, where older releases gave NaN.
    with jaxcompat.enable_x64(True):
        q, k, v = qkv(5, B=1, N=1, K=1, dtype=np.float64)
        mask = np.ones((1, 1, 3, 4), bool)
        mask[0, 0, 1] = False
        result = nn.dot_product_attention(q, k, v, mask=mask)
        assert result.dtype == np.float64
        np.testing.assert_allclose(np.asarray(result)[0, 1, 0], v[0, :, 0].mean(0), rtol=1e-6)


def causal_and_batched(q, k, v, is_causal):
    # The jit and vmap checks in one program: the result with a static is_causal, and the
    # vmapped function (one batch row) without it.
    return (
        nn.dot_product_attention(q, k, v, is_causal=is_causal),
        jax.vmap(nn.dot_product_attention)(q[None], k[None], v[None]),
    )


def causal_attention(q, k, v):
    return nn.dot_product_attention(q, k, v, is_causal=True)


def test_jit_vmap_and_gradients():
    q, k, v = qkv(6, B=1, T=2, S=3, N=2, K=1, H=2)
    jitted = jaxcompat.jit(causal_and_batched, static_argnames="is_causal")
    result, batched = jitted(q, k, v, is_causal=True)
    expected, _ = attention64(q, k, v, causal=True)
    assert_same(result, expected.astype(np.float32), rtol=1e-5, atol=1e-6)
    # Indexed in NumPy: indexing the array would compile two programs.
    assert batched.shape == (1, *q.shape)
    batched = np.asarray(batched)[0]
    assert_same(batched, attention64(q, k, v)[0].astype(np.float32), rtol=1e-5, atol=1e-6)
    with jaxcompat.enable_x64(True):
        q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
        # Differentiated under jit: the derivatives and the finite differences each compile
        # once, where eagerly every operation of the composed backport compiles on its own.
        # The softmax is computed in float32 even for float64 inputs, hence the tolerance.
        jax.test_util.check_grads(
            jax.jit(causal_attention),
            (q64, k64, v64),
            order=1,
            modes=["fwd", "rev"],
            atol=2e-3,
            rtol=2e-3,
        )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"value": np.zeros((2, 4, 2, 4), np.float16)},
            "value dtype should be float32, but got float16",
        ),
        (
            {"query": np.zeros((2, 3, 2, 5), np.float32)},
            r"query shape should be \[2, -1, -1, 4\]: but got \(2, 3, 2, 5\)",
        ),
        ({"mask": np.ones((2, 2, 3, 4), np.int32)}, "mask dtype should be bool, but got int32"),
        (
            {"query_seq_lengths": np.array([1, 2], np.int16)},
            "query_seq_lengths dtype should be int32, but got int16",
        ),
        (
            {
                "query": np.zeros((2, 3, 3, 4), np.float32),
                "key": np.zeros((2, 4, 2, 4), np.float32),
            },
            "The number of query heads must be a multiple of key/value heads, but got 3 vs 2",
        ),
        ({"implementation": "flash"}, "Unsupported implementation option: flash"),
    ],
)
def test_bad_input_is_refused_with_the_newest_message(change, message):
    q, k, v = qkv(7)
    arguments = {"query": q, "key": k, "value": v, **change}
    with pytest.raises(ValueError, match=message):
        nn.dot_product_attention(**arguments)


def test_cudnn_is_jax_own_kernel():
    # A fused kernel cannot be composed: it is the release's own, which needs a GPU here.
    q, k, v = qkv(8)
    if hasattr(jax.nn, "dot_product_attention"):
        with pytest.raises(RuntimeError, match="cuDNN is not detected"):
            nn.dot_product_attention(q, k, v, implementation="cudnn")
    else:
        with pytest.raises(ValueError, match=r"implementation='cudnn' needs JAX 0\.4\.31 or newer"):
            nn.dot_product_attention(q, k, v, implementation="cudnn")
