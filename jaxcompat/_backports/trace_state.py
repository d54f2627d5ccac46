"""``jax.extend.core``'s trace-state queries on releases before JAX's own answer them alike.

Before the 0.4.34 "stackless" rewrite, JAX keeps every transformation being traced on one
stack of main traces (``thread_local_state.trace_state.trace_stack``), and the named axes
in a stack of frames (``trace_state.axis_env``, until 0.4.36). The newest JAX answers from
the current trace and its parents, and from the axis environment. Measured with jit, vmap
(named or not), grad, linearize, checkpoint, scan, cond, pmap, make_jaxpr and eval_shape,
nested both ways: the stack holds the same transformations as the newest JAX's chain of
traces, so these give the newest answers.

``unsafe_am_i_under_a_vmap`` is not here. From 0.4.34 to 0.6.1 JAX's own misses a vmap
outside a jit, and the stable-name table gives a name from one release on, so it starts at
0.6.2 (the stack would answer it on 0.4.13-0.4.33).

One difference is bridged: until 0.4.36, a vmap without an ``axis_name`` also pushes a
frame, named by the private ``core.no_axis_name`` sentinel; the newest JAX adds none.
"""

from __future__ import annotations

from typing import Any

from jax._src import core as jax_core

# The trace state is private on every release, and gone from the newest JAX's typing.
core: Any = jax_core

__all__ = [
    "nonempty_axis_env",
    "unsafe_am_i_under_a_jit",
    "unsafe_get_axis_names",
]


def _traced_by(trace_type_name: str) -> bool:
    stack = core.thread_local_state.trace_state.trace_stack.stack
    # By name, as the newest JAX does (it searches the printed chain of traces).
    return any(trace_type_name in main.trace_type.__name__ for main in stack)


def unsafe_am_i_under_a_jit() -> bool:
    """Whether a jit (or make_jaxpr, eval_shape, scan, ...) is tracing the caller."""
    return _traced_by("DynamicJaxprTrace")


def unsafe_get_axis_names() -> list[Any]:
    """The named axes in scope, outermost first."""
    frames = core.thread_local_state.trace_state.axis_env
    return [frame.name for frame in frames if frame.name is not core.no_axis_name]


def nonempty_axis_env() -> bool:
    """Whether any named axis is in scope."""
    return bool(unsafe_get_axis_names())
