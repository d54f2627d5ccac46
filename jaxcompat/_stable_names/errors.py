"""Stable names of ``jax.errors`` added after JAX 0.4.13 (JaxRuntimeError is in ``modules.py``)."""

from __future__ import annotations

from ._schema import Source, StableName

NAMES: tuple[StableName, ...] = (
    # Exported from jax.errors in 0.10.1: the same classes, raised by the same checks.
    *(
        StableName(
            f"errors.{name}", (Source(f"jax.errors:{name}"), Source(f"jax._src.core:{name}"))
        )
        for name in ("InconclusiveDimensionOperation", "JaxprTypeError")
    ),
    # The experimental key-reuse checker of 0.4.22-0.4.25 raised jax.experimental.key_reuse's error.
    StableName(
        "errors.KeyReuseError",
        (Source("jax.errors:KeyReuseError"), Source("jax.experimental.key_reuse:KeyReuseError")),
        first="0.4.22",
        reason="JAX has no key-reuse checker before it",
    ),
    StableName(
        "errors.TracerBoolConversionError",
        (Source("jax.errors:TracerBoolConversionError"),),
        first="0.4.18",
        reason="bool() of a tracer raises ConcretizationTypeError before it",
    ),
)
