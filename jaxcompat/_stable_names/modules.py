"""Stable names of ``jax.errors``, ``jax.typing``, ``jax.dtypes`` and
``jax.custom_derivatives``."""

from __future__ import annotations

from ._schema import Source, StableName

NAMES: tuple[StableName, ...] = (
    # --- jax.errors, jax.typing, jax.dtypes --------------------------------------------------
    # Before 0.4.34 a runtime error from compiled code is jaxlib's XlaRuntimeError.
    StableName(
        "errors.JaxRuntimeError",
        (Source("jax.errors:JaxRuntimeError"), Source("jaxlib.xla_extension:XlaRuntimeError")),
    ),
    StableName(
        "typing.DTypeLike",
        (Source("jax.typing:DTypeLike"), Source("jaxcompat._backports.typing:DTypeLike")),
    ),
    StableName(
        "dtypes.prng_key",
        (Source("jax.dtypes:prng_key"),),
        first="0.4.18",
        reason="typed PRNG key arrays (jax.random.key) do not exist before it",
    ),
    # --- jax.custom_derivatives -------------------------------------------------------------
    StableName(
        "custom_derivatives.custom_gradient",
        (
            Source("jax.custom_derivatives:custom_gradient", releases=">=0.11.1"),
            Source(
                "jax.custom_derivatives:custom_gradient",
                adapter="custom_derivatives:with_optional_fun",
            ),
        ),
    ),
    # Public from 0.4.34. The zeros it builds are older, but before 0.4.34 a custom_jvp rule
    # may not return them: its float0 tangent of an integer output is "Custom JVP rule must
    # produce primal and tangent outputs with equal shapes and dtypes" (measured 0.4.30-0.4.33;
    # accepted from 0.4.34). Code gates on the name for that (optimistix's
    # `hasattr(jax.custom_derivatives, "zero_from_primal")` falls back to integer zeros), so a
    # name given before it would take such code down the branch that fails there.
    StableName(
        "custom_derivatives.zero_from_primal",
        (Source("jax.custom_derivatives:zero_from_primal"),),
        first="0.4.34",
        reason="a custom_jvp rule may not return its float0 zeros of an integer output before it",
    ),
)
