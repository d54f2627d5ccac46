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
    # Public from 0.4.34; the symbolic zeros and zero tangents it builds are older.
    StableName(
        "custom_derivatives.zero_from_primal",
        (
            Source("jax.custom_derivatives:zero_from_primal"),
            Source("jaxcompat._backports.custom_derivatives:zero_from_primal"),
        ),
    ),
)
