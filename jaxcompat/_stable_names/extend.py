"""Stable names of ``jax.experimental.layout`` and ``jax.extend.core``: internals that
moved or changed meaning."""

from __future__ import annotations

from ._schema import NO_STACKLESS, Source, StableName

NAMES: tuple[StableName, ...] = (
    # --- jax.experimental.layout: Layout changed meaning at 0.7.0 -----------------------------
    StableName(
        "experimental.layout.Format",
        (
            Source("jax.experimental.layout:Format"),
            Source("jax.experimental.layout:Layout", releases="<0.6.2"),
        ),
        first="0.4.27",
        reason="jax.experimental.layout has no Format (then named Layout) before it",
    ),
    StableName(
        "experimental.layout.Layout",
        (
            Source("jax.experimental.layout:Layout", releases=">=0.7.0"),
            Source("jax.experimental.layout:DeviceLocalLayout"),
        ),
        first="0.4.26",
        reason="jax.experimental.layout has no Layout (then named DeviceLocalLayout) before it",
    ),
    # --- jax.extend.core: tracing internals that moved out of jax.core ----------------------
    *(
        StableName(
            f"extend.core.{name}", (Source(f"jax.extend.core:{name}"), Source(f"jax.core:{name}"))
        )
        for name in (
            "ClosedJaxpr",
            "DropVar",
            "Jaxpr",
            "JaxprEqn",
            "Literal",
            "Primitive",
            "Var",
            "find_top_trace",
            "jaxpr_as_fun",
            "mapped_aval",
        )
    ),
    # unmapped_aval lost its axis_name parameter in 0.5.1.
    StableName(
        "extend.core.unmapped_aval",
        (
            Source("jax.extend.core:unmapped_aval"),
            Source("jax.core:unmapped_aval", releases=">=0.5.1"),
            Source("jax.core:unmapped_aval", adapter="core:unmapped_aval_without_axis_name"),
        ),
    ),
    *(
        StableName(
            f"extend.core.{name}",
            (Source(f"jax.extend.core:{name}"), Source(f"jax.core:{name}")),
            first="0.4.36",
            reason=NO_STACKLESS,
        )
        for name in ("TraceTag", "set_current_trace", "take_current_trace")
    ),
    StableName(
        "extend.core.get_opaque_trace_state",
        (
            Source("jax.extend.core:get_opaque_trace_state"),
            Source("jax.core:get_opaque_trace_state"),
        ),
        first="0.4.34",
        reason=NO_STACKLESS,
    ),
    # The jit primitive was named pjit_p until 0.7.0.
    StableName(
        "extend.core.primitives.jit_p",
        (
            Source("jax.extend.core.primitives:jit_p"),
            Source("jax.extend.core.primitives:pjit_p"),
            Source("jax.experimental.pjit:pjit_p"),
        ),
    ),
)
