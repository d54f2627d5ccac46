"""Stable names of primitives: ``jax.extend.core.primitives`` and the ``*_p`` names of
``jax.lax`` and ``jax.custom_derivatives``.

``jax.extend.core.primitives`` first appears in JAX 0.4.27. It gathered primitives that older
releases already had, most of them public in ``jax.lax``: there, the release's own primitive
object is the one its jaxprs contain, so it is what the newest path names. Primitives that a
release does not have at all cannot be had: its jaxprs compute the operation with other
primitives, so no rule written for the new primitive would ever see it.
"""

from __future__ import annotations

from ._schema import NEW_PRIMITIVE, Source, StableName

# Primitives ``jax.lax`` exports on every supported release.
IN_LAX = (
    "abs_p",
    "acos_p",
    "acosh_p",
    "add_p",
    "after_all_p",
    "all_gather_p",
    "all_to_all_p",
    "and_p",
    "approx_top_k_p",
    "argmax_p",
    "argmin_p",
    "asin_p",
    "asinh_p",
    "atan2_p",
    "atan_p",
    "atanh_p",
    "axis_index_p",
    "bessel_i0e_p",
    "bessel_i1e_p",
    "bitcast_convert_type_p",
    "broadcast_in_dim_p",
    "cbrt_p",
    "ceil_p",
    "clamp_p",
    "clz_p",
    "complex_p",
    "concatenate_p",
    "cond_p",
    "conj_p",
    "conv_general_dilated_p",
    "convert_element_type_p",
    "copy_p",
    "cos_p",
    "cosh_p",
    "create_token_p",
    "cumlogsumexp_p",
    "cummax_p",
    "cummin_p",
    "cumprod_p",
    "cumsum_p",
    "device_put_p",
    "digamma_p",
    "div_p",
    "dot_general_p",
    "dynamic_slice_p",
    "dynamic_update_slice_p",
    "eq_p",
    "erf_inv_p",
    "erf_p",
    "erfc_p",
    "exp_p",
    "expm1_p",
    "fft_p",
    "floor_p",
    "gather_p",
    "ge_p",
    "gt_p",
    "igamma_grad_a_p",
    "igamma_p",
    "igammac_p",
    "imag_p",
    "integer_pow_p",
    "iota_p",
    "is_finite_p",
    "le_p",
    "lgamma_p",
    "linear_solve_p",
    "log1p_p",
    "log_p",
    "logistic_p",
    "lt_p",
    "max_p",
    "min_p",
    "mul_p",
    "ne_p",
    "neg_p",
    "nextafter_p",
    "not_p",
    "or_p",
    "pad_p",
    "pmax_p",
    "pmin_p",
    "population_count_p",
    "pow_p",
    "ppermute_p",
    "psum_p",
    "real_p",
    "reduce_and_p",
    "reduce_max_p",
    "reduce_min_p",
    "reduce_or_p",
    "reduce_p",
    "reduce_precision_p",
    "reduce_prod_p",
    "reduce_sum_p",
    "reduce_window_max_p",
    "reduce_window_min_p",
    "reduce_window_p",
    "reduce_window_sum_p",
    "reduce_xor_p",
    "regularized_incomplete_beta_p",
    "rem_p",
    "reshape_p",
    "rev_p",
    "rng_bit_generator_p",
    "rng_uniform_p",
    "round_p",
    "rsqrt_p",
    "scan_p",
    "scatter_add_p",
    "scatter_max_p",
    "scatter_min_p",
    "scatter_mul_p",
    "scatter_p",
    "select_and_gather_add_p",
    "select_and_scatter_add_p",
    "select_and_scatter_p",
    "select_n_p",
    "sharding_constraint_p",
    "shift_left_p",
    "shift_right_arithmetic_p",
    "shift_right_logical_p",
    "sign_p",
    "sin_p",
    "sinh_p",
    "slice_p",
    "sort_p",
    "sqrt_p",
    "squeeze_p",
    "stop_gradient_p",
    "sub_p",
    "tan_p",
    "tanh_p",
    "top_k_p",
    "transpose_p",
    "while_p",
    "xor_p",
)

# Primitives of ``jax.lax.linalg`` on every supported release.
IN_LAX_LINALG = (
    "cholesky_p",
    "eig_p",
    "eigh_p",
    "hessenberg_p",
    "householder_product_p",
    "lu_p",
    "qr_p",
    "schur_p",
    "svd_p",
    "triangular_solve_p",
    "tridiagonal_p",
    "tridiagonal_solve_p",
)

# Primitives that were private before 0.4.27, by the module that defines them there.
PRIVATE: dict[str, str] = {
    "add_jaxvals_p": "jax._src.ad_util",
    "custom_jvp_call_p": "jax._src.custom_derivatives",
    "custom_lin_p": "jax._src.interpreters.ad",
    "get_p": "jax._src.state.primitives",
    "name_p": "jax._src.ad_checkpoint",
    "random_bits_p": "jax._src.prng",
    "random_fold_in_p": "jax._src.prng",
    "random_gamma_p": "jax._src.random",
    "random_seed_p": "jax._src.prng",
    "random_split_p": "jax._src.prng",
    "remat_p": "jax._src.ad_checkpoint",
    "swap_p": "jax._src.state.primitives",
    "threefry2x32_p": "jax._src.prng",
}

# Primitives added to ``jax.lax`` after 0.4.13, by the first supported release that has
# each; ``jax.extend.core.primitives`` names the same object from 0.4.27.
ADDED_TO_LAX: dict[str, str] = {
    "exp2_p": "0.4.18",
    "polygamma_p": "0.4.18",
    "zeta_p": "0.4.18",
    "eq_to_p": "0.4.19",
    "le_to_p": "0.4.19",
    "lt_to_p": "0.4.19",
}

# New primitives, by the first supported release that has each, in ``jax.lax`` and in
# ``jax.extend.core.primitives``.
NEW: dict[str, str] = {
    "square_p": "0.4.36",
    "ragged_all_to_all_p": "0.4.38",
    "log2_p": "0.11.2",
    "one_minus_square_p": "0.11.2",
    "polynomial_p": "0.12.0",
}

# New primitives that only ``jax.lax`` exports, by the first supported release that has each.
NEW_IN_LAX_ONLY: dict[str, str] = {
    "scatter_sub_p": "0.4.35",
    "split_p": "0.4.38",
    "tile_p": "0.9.0",
    "stack_p": "0.10.1",
    "stage_p": "0.10.1",
    "unstack_p": "0.10.1",
    "mulhi_p": "0.10.2",
}


def _extend(name: str, *older: Source) -> StableName:
    return StableName(
        f"extend.core.primitives.{name}",
        (Source(f"jax.extend.core.primitives:{name}"), *older),
    )


NAMES: tuple[StableName, ...] = (
    *(_extend(name, Source(f"jax.lax:{name}")) for name in IN_LAX),
    *(_extend(name, Source(f"jax.lax.linalg:{name}")) for name in IN_LAX_LINALG),
    *(_extend(name, Source(f"{module}:{name}")) for name, module in PRIVATE.items()),
    # empty2_p (0.8.1) is the primitive of lax.empty; 0.7.2 and 0.8.0 have it privately.
    StableName(
        "extend.core.primitives.empty2_p",
        (Source("jax.extend.core.primitives:empty2_p"), Source("jax._src.lax.lax:empty2_p")),
        first="0.7.2",
        reason=NEW_PRIMITIVE,
    ),
    *(
        StableName(
            f"extend.core.primitives.{name}",
            (Source(f"jax.extend.core.primitives:{name}"), Source(f"jax.lax:{name}")),
            first=first,
            reason=NEW_PRIMITIVE,
        )
        for name, first in ADDED_TO_LAX.items()
    ),
    *(
        StableName(f"lax.{name}", (Source(f"jax.lax:{name}"),), first=first, reason=NEW_PRIMITIVE)
        for name, first in ADDED_TO_LAX.items()
    ),
    *(
        StableName(
            f"extend.core.primitives.{name}",
            (Source(f"jax.extend.core.primitives:{name}"),),
            first=first,
            reason=NEW_PRIMITIVE,
        )
        for name, first in NEW.items()
    ),
    *(
        StableName(f"lax.{name}", (Source(f"jax.lax:{name}"),), first=first, reason=NEW_PRIMITIVE)
        for name, first in (NEW | NEW_IN_LAX_ONLY).items()
    ),
    # Until 0.6.1, a custom_vjp function enters a jaxpr as custom_vjp_call_jaxpr, with other
    # parameters; the custom_vjp_call_p of those releases never appears in a jaxpr.
    StableName(
        "extend.core.primitives.custom_vjp_call_p",
        (Source("jax.extend.core.primitives:custom_vjp_call_p", releases=">=0.6.1"),),
        first="0.6.1",
        reason=(
            "a custom_vjp function enters a jaxpr as the custom_vjp_call_jaxpr primitive, with"
            " other parameters, before it"
        ),
    ),
    # JAX 0.11.1 made call_p and closed_call_p one primitive, eval_jaxpr; before, they are two
    # call primitives with other parameters.
    *(
        StableName(
            f"extend.core.primitives.{name}",
            (Source(f"jax.extend.core.primitives:{name}", releases=">=0.11.1"),),
            first="0.11.1",
            reason=(
                "call_p and closed_call_p are two call primitives with other parameters before"
                " it, not the one eval_jaxpr primitive"
            ),
        )
        for name in ("call_p", "closed_call_p")
    ),
    # optimization_barrier_p has been JAX's since 0.4.13, privately until jax.lax exported it.
    StableName(
        "lax.optimization_barrier_p",
        (
            Source("jax.lax:optimization_barrier_p"),
            Source("jax._src.ad_checkpoint:optimization_barrier_p"),
        ),
    ),
    StableName(
        "custom_derivatives.remat_opt_p",
        (Source("jax.custom_derivatives:remat_opt_p"),),
        first="0.4.33",
        reason=NEW_PRIMITIVE,
    ),
)
