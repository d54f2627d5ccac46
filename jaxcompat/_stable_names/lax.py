"""Stable names of ``jax.lax``: backported functions, and what cannot be had."""

from __future__ import annotations

from ._schema import Source, StableName

BACKPORTS = "jaxcompat._backports.lax"

# Varying manual axes (the "vma" of shard_map's types, JAX 0.6.0 on) record in a value's type
# over which mesh axes it varies; the casts between them mean nothing without those types.
NO_VARYING_AXES = "shard_map's types do not track varying manual axes before it"

NAMES: tuple[StableName, ...] = (
    # --- functions added from 0.4.18 on, backported where they are missing ---------------------
    *(
        StableName(f"lax.{name}", (Source(f"jax.lax:{name}"), Source(f"{BACKPORTS}:{name}")))
        for name in (
            "split",  # 0.4.38
            "scatter_sub",  # 0.4.35
            "axis_size",  # 0.6.1
            "empty",  # 0.7.2 (0.7.2 has out_sharding= already)
            "tile",  # 0.9.0
            "broadcast_like",  # 0.10.0
            "stack",  # 0.10.1
            "unstack",  # 0.10.1
            "mulhi",  # 0.10.2
            "log2",  # 0.11.2
            "one_minus_square",  # 0.11.2
            "polynomial",  # 0.12.0
        )
    ),
    # exp2 came in 0.4.18 and took accuracy= from 0.6.0, keyword-only from 0.9.2.
    StableName(
        "lax.exp2",
        (
            Source("jax.lax:exp2", releases=">=0.9.2"),
            Source(
                "jax.lax:exp2", adapter="lax_adapters:keyword_only_accuracy", releases=">=0.6.0"
            ),
            Source("jax.lax:exp2", adapter="lax_adapters:without_accuracy"),
            Source(f"{BACKPORTS}:exp2"),
        ),
    ),
    # Unary functions that gained accuracy= in 0.6.0, keyword-only from 0.9.2.
    *(
        StableName(
            f"lax.{name}",
            (
                Source(f"jax.lax:{name}", releases=">=0.9.2"),
                Source(
                    f"jax.lax:{name}",
                    adapter="lax_adapters:keyword_only_accuracy",
                    releases=">=0.6.0,<0.9.2",
                ),
                Source(f"jax.lax:{name}", adapter="lax_adapters:without_accuracy"),
            ),
        )
        for name in (
            "cbrt",
            "cos",
            "exp",
            "expm1",
            "log",
            "log1p",
            "logistic",
            "rsqrt",
            "sin",
            "sqrt",
            "tan",
            "tanh",
        )
    ),
    # erfc took accuracy= (keyword-only) in 0.12.0.
    StableName(
        "lax.erfc",
        (
            Source("jax.lax:erfc", releases=">=0.12.0"),
            Source("jax.lax:erfc", adapter="lax_adapters:without_accuracy"),
        ),
    ),
    # The reductions were public from 0.5.1; before, jax.lax.lax has the same functions (they
    # bind the same primitives) under private names. reduce_sum gained out_sharding= in
    # 0.8.0, reduce_max and reduce_min in 0.11.1.
    *(
        StableName(
            f"lax.{name}",
            (
                Source(f"jax.lax:{name}", releases=f">={release}"),
                Source(f"jax.lax:{name}", adapter="lax_adapters:without_out_sharding"),
                Source(f"jax._src.lax.lax:_{name}", adapter="lax_adapters:without_out_sharding"),
            ),
        )
        for name, release in (
            ("reduce_sum", "0.8.0"),
            ("reduce_max", "0.11.1"),
            ("reduce_min", "0.11.1"),
        )
    ),
    *(
        StableName(
            f"lax.{name}",
            (Source(f"jax.lax:{name}"), Source(f"jax._src.lax.lax:_{name}")),
        )
        for name in ("reduce_and", "reduce_or", "reduce_prod", "reduce_xor")
    ),
    # The type alias of precision= arguments, exported in 0.4.22.
    StableName(
        "lax.PrecisionLike",
        (Source("jax.lax:PrecisionLike"), Source("jax._src.lax.lax:PrecisionLike")),
    ),
    # The accuracy= types of 0.6.0's elementwise functions, exported in 0.7.2.
    *(
        StableName(
            f"lax.{name}",
            (Source(f"jax.lax:{name}"), Source(f"jax._src.lax.lax:{name}")),
            first="0.6.0",
            reason="elementwise functions have no accuracy= option before it",
        )
        for name in ("AccuracyMode", "Tolerance")
    ),
    # --- what older releases cannot have ----------------------------------------------------
    StableName(
        "lax.optimization_barrier",
        (Source("jax.lax:optimization_barrier", releases=">=0.5.3"),),
        first="0.5.3",
        reason=(
            "its optimization barrier has no derivative rule (and before 0.4.38 no batching rule)"
        ),
    ),
    StableName(
        "lax.platform_dependent",
        (Source("jax.lax:platform_dependent"),),
        first="0.4.21",
        reason="JAX cannot stage out a choice of code by the platform compiled for before it",
    ),
    # FftType became JAX's own IntEnum in 0.4.35 (jaxlib's xla_client.FftType before, which
    # lax.fft no longer takes); the backport has its members and values.
    StableName(
        "lax.FftType",
        (
            Source("jax.lax:FftType", releases=">=0.4.35"),
            Source("jaxcompat._backports.lax_fft:FftType"),
        ),
    ),
    StableName(
        "lax.fft",
        (
            Source("jax.lax:fft", releases=">=0.4.35"),
            Source("jax.lax:fft", adapter="lax_fft:fft_taking_fft_type"),
        ),
    ),
    # In 0.4.34 an algorithm was dot_general's algorithm= argument; from 0.4.35 on it is
    # passed as precision=.
    StableName(
        "lax.DotAlgorithm",
        (Source("jax.lax:DotAlgorithm", releases=">=0.4.35"),),
        first="0.4.35",
        reason="dot_general does not take an algorithm as its precision= before it",
    ),
    StableName(
        "lax.DotAlgorithmPreset",
        (Source("jax.lax:DotAlgorithmPreset"),),
        first="0.4.35",
        reason="dot_general does not take an algorithm as its precision= before it",
    ),
    StableName(
        "lax.polygamma",
        (Source("jax.lax:polygamma"),),
        first="0.4.18",
        reason=(
            "it has no polygamma primitive: jax.scipy.special.polygamma promotes its arguments"
            " and has no derivative rule of its own"
        ),
    ),
    StableName(
        "lax.zeta",
        (Source("jax.lax:zeta"),),
        first="0.4.18",
        reason=(
            "it has no zeta primitive: jax.scipy.special.zeta promotes its arguments and"
            " differentiates its truncated series instead of the closed-form derivative"
        ),
    ),
    StableName(
        "lax.pbroadcast",
        (Source("jax.lax:pbroadcast"),),
        first="0.4.26",
        reason="it has no collective broadcast from one device of an axis",
    ),
    StableName(
        "lax.pcast",
        (Source("jax.lax:pcast"),),
        first="0.8.2",
        reason=NO_VARYING_AXES,
    ),
    # ragged_dot (0.4.29) had no derivative until 0.4.31, no batching rule until 0.4.35, and
    # the newest checks of group_sizes from 0.5.3; the backport is composed as the newest JAX
    # computes it on CPU.
    StableName(
        "lax.ragged_dot",
        (
            Source("jax.lax:ragged_dot", releases=">=0.10.1"),
            Source(
                "jax.lax:ragged_dot",
                adapter="lax_adapters:without_out_sharding",
                releases=">=0.5.3",
            ),
            Source("jaxcompat._backports.lax_ragged:ragged_dot"),
        ),
    ),
    *(
        StableName(
            f"lax.{name}",
            (Source(f"jax.lax:{name}"),),
            first="0.5.3",
            reason="ragged matrix products with general dimension numbers do not exist before it",
        )
        for name in ("RaggedDotDimensionNumbers",)
    ),
    StableName(
        "lax.ragged_dot_general",
        (
            Source("jax.lax:ragged_dot_general", releases=">=0.10.1"),
            Source("jax.lax:ragged_dot_general", adapter="lax_adapters:without_out_sharding"),
        ),
        first="0.5.3",
        reason="ragged matrix products with general dimension numbers do not exist before it",
    ),
    # The ragged_all_to_all of 0.4.38 and 0.5.0 had no axis_name.
    StableName(
        "lax.ragged_all_to_all",
        (Source("jax.lax:ragged_all_to_all", releases=">=0.5.1"),),
        first="0.5.1",
        reason="XLA's ragged all-to-all collective over a named axis does not exist before it",
    ),
    StableName(
        "lax.psum_scatter_start",
        (Source("jax.lax:psum_scatter_start"),),
        first="0.12.0",
        reason="collectives cannot be started asynchronously from JAX before it",
    ),
    StableName(
        "lax.composite",
        (Source("jax.lax:composite"),),
        first="0.5.0",
        reason="StableHLO composite operations cannot be emitted before it",
    ),
    StableName(
        "lax.dce_sink",
        (Source("jax.lax:dce_sink", releases=">=0.10.0"),),
        first="0.10.0",
        reason="it has no dce_sink with prevent_mlir_dce= to keep a value alive",
    ),
    StableName(
        "lax.scaled_dot",
        (Source("jax.lax:scaled_dot"),),
        first="0.9.1",
        reason="block-scaled matrix products (with scale operands) do not exist before it",
    ),
    # shape_as_value (0.6.0) gave int64 vectors until 0.7.2, and before 0.6.0 it is private
    # and gives a JAX array for a constant shape.
    StableName(
        "lax.shape_as_value",
        (
            Source("jax.lax:shape_as_value", releases=">=0.7.2"),
            Source("jaxcompat._backports.lax:shape_as_value"),
        ),
    ),
    StableName(
        "lax.stage",
        (Source("jax.lax:stage"),),
        first="0.10.1",
        reason="it has no primitive that lifts a value into the active trace",
    ),
    # JAX 0.5.0 solves tridiagonal systems of any size and of complex values, and
    # differentiates them; before, real systems of three rows or more, and no derivative.
    # perturb_singular= came in 0.10.0.
    StableName(
        "lax.linalg.tridiagonal_solve",
        (
            Source("jax.lax.linalg:tridiagonal_solve", releases=">=0.10.0"),
            Source(
                "jax.lax.linalg:tridiagonal_solve",
                adapter="lax_linalg:without_perturb_singular",
                releases=">=0.5.0",
            ),
            Source("jaxcompat._backports.lax_linalg:tridiagonal_solve"),
        ),
    ),
)
