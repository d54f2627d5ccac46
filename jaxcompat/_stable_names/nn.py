"""Stable names of ``jax.nn``: backported activations, and what cannot be had."""

from __future__ import annotations

from ._schema import Source, StableName

# Block-scaled matrix products need the float8_e8m0fnu and float4_e2m1fn scale dtypes and
# the block-scaled dot of the XLA that came with them; older releases have neither.
NO_BLOCK_SCALING = (
    "block-scaled matrix products (mxfp8/nvfp4 scale dtypes and their dot) do not exist before it"
)

NAMES: tuple[StableName, ...] = (
    # --- jax.nn: activations added from 0.4.21 on, backported where they are missing --------
    *(
        StableName(
            f"nn.{name}",
            (Source(f"jax.nn:{name}"), Source(f"jaxcompat._backports.nn:{name}")),
        )
        for name in (
            "identity",  # 0.6.0
            "log1mexp",  # 0.7.1
            "logmeanexp",  # 0.7.1
            "mish",  # 0.4.27
            "sparse_plus",  # 0.4.26
            "sparse_sigmoid",  # 0.4.27
            "squareplus",  # 0.4.21
        )
    ),
    # standardize gained algorithm= in 0.10.1; before 0.8.2 its variance was not clipped at 0.
    StableName(
        "nn.standardize",
        (
            Source("jax.nn:standardize", releases=">=0.10.1"),
            Source("jaxcompat._backports.nn:standardize"),
        ),
    ),
    # one_hot gained out_sharding= in 0.11.0 (sharding in types); None is the only value an
    # older release can honour.
    StableName(
        "nn.one_hot",
        (
            Source("jax.nn:one_hot", releases=">=0.11.0"),
            Source("jaxcompat._backports.nn:one_hot"),
        ),
    ),
    # dot_product_attention (0.4.31) gained keywords until 0.8.1, and 0.10.1 keeps float64
    # masked logits finite in its float32 softmax; the backport is its XLA path as of 0.10.1.
    StableName(
        "nn.dot_product_attention",
        (
            Source("jax.nn:dot_product_attention", releases=">=0.10.1"),
            Source("jaxcompat._backports.nn_attention:dot_product_attention"),
        ),
    ),
    StableName(
        "nn.scaled_matmul",
        (Source("jax.nn:scaled_matmul"),),
        first="0.5.3",
        reason=NO_BLOCK_SCALING,
    ),
    StableName(
        "nn.scaled_dot_general",
        (Source("jax.nn:scaled_dot_general"),),
        first="0.5.3",
        reason=NO_BLOCK_SCALING,
    ),
    StableName(
        "nn.get_scaled_dot_general_config",
        (Source("jax.nn:get_scaled_dot_general_config"),),
        first="0.6.0",
        reason=NO_BLOCK_SCALING,
    ),
)
