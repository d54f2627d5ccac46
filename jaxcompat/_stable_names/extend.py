"""Stable names of ``jax.experimental``, ``jax.experimental.layout``, ``jax.extend``,
``jax.extend.core``, ``jax.extend.linear_util`` and ``jax.api_util``: internals that moved or
changed meaning."""

from __future__ import annotations

from ._schema import NO_STACKLESS, Source, StableName

_TAKING_DEBUG_INFO = "linear_util:wrap_init_taking_debug_info"

NAMES: tuple[StableName, ...] = (
    # --- jax.experimental.layout: Layout changed meaning at 0.7.0 -----------------------------
    StableName(
        "experimental.layout.Format",
        (
            # JAX's own class of this role: before 0.7.0 it names its parameter and attribute
            # device_local_layout (_keywords/rules/classes.py), and is named Layout before 0.6.2.
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
    # Made public in jax.extend.core by 0.10.0: the very objects jax._src.core has always had,
    # with the newest signatures.
    *(
        StableName(
            f"extend.core.{name}",
            (Source(f"jax.extend.core:{name}"), Source(f"jax._src.core:{name}")),
        )
        for name in (
            "AbstractToken",
            "Effect",
            "Effects",
            "InconclusiveDimensionOperation",
            "JaxprTypeError",
            "check_jaxpr",
            "concrete_or_error",
            "jaxprs_in_params",
            "no_effects",
            "primal_dtype_to_tangent_dtype",
            "subjaxprs",
            "valid_jaxtype",
        )
    ),
    StableName(
        "extend.core.array_types",
        (
            Source("jax.extend.core:array_types"),
            Source("jax._src.abstract_arrays:array_types"),
        ),
    ),
    # gensym lost its jaxprs parameter in 0.4.25 and its suffix parameter in 0.6.2.
    StableName(
        "extend.core.gensym",
        (
            Source("jax.extend.core:gensym"),
            Source("jax._src.core:gensym", releases=">=0.6.2"),
            Source("jax._src.core:gensym", adapter="core:gensym_without_parameters"),
        ),
    ),
    # new_jaxpr_eqn gained its ctx parameter in 0.4.29.
    StableName(
        "extend.core.new_jaxpr_eqn",
        (
            Source("jax.extend.core:new_jaxpr_eqn"),
            Source("jax._src.core:new_jaxpr_eqn", releases=">=0.4.29"),
            Source("jax._src.core:new_jaxpr_eqn", adapter="core:new_jaxpr_eqn_with_ctx"),
        ),
    ),
    # Token() took no buffer before 0.4.27: a token was a placeholder, not an array.
    StableName(
        "extend.core.Token",
        (
            Source("jax.extend.core:Token"),
            Source("jax._src.core:Token", releases=">=0.4.27"),
        ),
        first="0.4.27",
        reason="a token before it is a placeholder that holds no buffer (Token() takes none)",
    ),
    # DebugInfo (0.5.1) replaced the optional JaxprDebugInfo, whose fields meant other things.
    StableName(
        "extend.core.DebugInfo",
        (Source("jax.extend.core:DebugInfo"), Source("jax._src.core:DebugInfo")),
        first="0.5.1",
        reason="jaxprs carry an optional JaxprDebugInfo, not a DebugInfo, before it",
    ),
    # Trace-state queries. Older releases keep a stack of main traces and of axis frames,
    # which give the same answers (jaxcompat._backports.trace_state), except where noted.
    StableName(
        "extend.core.unsafe_am_i_under_a_jit_DO_NOT_USE",
        (
            Source("jax.extend.core:unsafe_am_i_under_a_jit_DO_NOT_USE"),
            Source("jax._src.core:unsafe_am_i_under_a_jit", releases=">=0.4.34"),
            Source("jaxcompat._backports.trace_state:unsafe_am_i_under_a_jit"),
        ),
    ),
    # Until 0.4.36 a vmap without axis_name pushes a frame named by a private sentinel.
    *(
        StableName(
            f"extend.core.{name}_DO_NOT_USE",
            (
                Source(f"jax.extend.core:{name}_DO_NOT_USE", releases=">=0.4.36"),
                Source(f"jax._src.core:{name}", releases=">=0.4.36"),
                Source(f"jaxcompat._backports.trace_state:{name}"),
            ),
        )
        for name in ("nonempty_axis_env", "unsafe_get_axis_names")
    ),
    # From 0.4.34 to 0.6.1 a function traced by jit (or cond, scan, ...) inside a vmap does
    # not see the vmap: the jaxpr trace has no parent until 0.6.2.
    StableName(
        "extend.core.unsafe_am_i_under_a_vmap_DO_NOT_USE",
        (
            Source("jax.extend.core:unsafe_am_i_under_a_vmap_DO_NOT_USE", releases=">=0.6.2"),
            Source("jax._src.core:unsafe_am_i_under_a_vmap", releases=">=0.6.2"),
        ),
        first="0.6.2",
        reason=(
            "a function traced by jit, cond or scan inside a vmap does not see the vmap before it"
        ),
    ),
    # Call primitives whose rules evaluate their jaxpr (jax._src.lax.eval_jaxpr, 0.11.1).
    *(
        StableName(
            f"{module}.eval_jaxpr_transpose",
            (Source(f"jax.{module}:eval_jaxpr_transpose"),),
            first="0.11.1",
            reason="JAX has no helpers that build call primitives from a jaxpr evaluator",
        )
        for module in ("extend.core", "extend.core.primitives")
    ),
    # 0.11.2 gave the call primitives they build a remat rule and the inline_jax_late option.
    *(
        StableName(
            f"{module}.{name}",
            (Source(f"jax.{module}:{name}", releases=">=0.11.2"),),
            first="0.11.2",
            reason=(
                "the call primitives it builds have no remat rule (nor an inline_jax_late "
                "option) before it"
            ),
        )
        for module in ("extend.core", "extend.core.primitives")
        for name in ("create_call_primitive", "register_call_primitive_rules")
    ),
    # --- jax.extend: its submodules --------------------------------------------------------
    # extend.sharding (0.7.0): the GSPMD sharding class and jaxlib's proto conversions, which
    # every release has.
    StableName(
        "extend.sharding",
        (Source("jax.extend:sharding"), Source("jaxcompat._backports:extend_sharding")),
    ),
    # Older releases keep these internals elsewhere (jax.linear_util, jax.interpreters.mlir,
    # jax.interpreters.xla, ...), in modules with other public names: none is the newest
    # module.
    *(
        StableName(
            f"extend.{name}",
            (Source(f"jax.extend:{name}"),),
            first=first,
            reason=f"jax.extend has no {name} module before it, and no other module has its names",
        )
        for name, first in (
            ("backend", "0.4.26"),
            ("lowering", "0.10.0"),
            ("mlir", "0.4.22"),
            ("pallas", "0.10.0"),
            ("random", "0.4.18"),
            ("source_info_util", "0.4.19"),
            ("xla", "0.10.2"),
        )
    ),
    # --- jax.extend.linear_util (jax.linear_util before 0.4.18) and jax.api_util ------------
    # wrap_init took debug_info= from 0.5.0; before, JAX's own tracing attaches the same record
    # with add_debug_info (_backports/linear_util.py).
    StableName(
        "extend.linear_util.wrap_init",
        (
            Source("jax.extend.linear_util:wrap_init", releases=">=0.5.0"),
            Source("jax.extend.linear_util:wrap_init", adapter=_TAKING_DEBUG_INFO),
            Source("jax.linear_util:wrap_init", adapter=_TAKING_DEBUG_INFO),
        ),
    ),
    # debug_info, public from 0.5.1, builds the record that wrap_init takes. Every release has
    # it as a private helper, in another arity before 0.5.1 (_backports/api_util.py).
    StableName(
        "api_util.debug_info",
        (
            Source("jax.api_util:debug_info"),
            Source("jaxcompat._backports.api_util:debug_info"),
        ),
    ),
    # --- jax.experimental ------------------------------------------------------------------
    StableName(
        "experimental.EArray",
        (Source("jax.experimental:EArray"),),
        first="0.4.27",
        reason="arrays of extended dtypes (jax._src.earray) do not exist before it",
    ),
    StableName(
        "experimental.primal_tangent_dtype",
        (Source("jax.experimental:primal_tangent_dtype"),),
        first="0.4.34",
        reason="JAX cannot make a dtype with its own tangent dtype before it",
    ),
    StableName(
        "experimental.layout.with_layout_constraint",
        (Source("jax.experimental.layout:with_layout_constraint"),),
        first="0.6.1",
        reason="JAX cannot constrain the layout of an intermediate value before it",
    ),
    StableName(
        "experimental.layout.explicit_layout",
        (Source("jax.experimental.layout:explicit_layout"),),
        first="0.12.0",
        reason="JAX has no explicit layout mode for tracing a function before it",
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
