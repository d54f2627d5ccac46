"""The AOT surface (``Lowered``, ``Compiled``, ``Traced``) made the same on every release."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import jax
import jax.stages


def _merge_cost_analyses(result: Any) -> Any:
    # JAX <= 0.4.38 returns one dict per executable program in a list; 0.5.0 returns the dict.
    if not isinstance(result, list):
        return result
    if len(result) == 1:
        return result[0]
    merged: dict[str, Any] = {}
    for entry in result:
        for key, value in (entry or {}).items():
            merged[key] = merged.get(key, 0) + value if isinstance(value, (int, float)) else value
    return merged


class CompiledWithDictCost(jax.stages.Compiled):
    """JAX's ``Compiled`` whose ``cost_analysis()`` returns a dict, as JAX >= 0.5.0 does."""

    __slots__ = ()

    def cost_analysis(self) -> Any:
        return _merge_cost_analyses(super().cost_analysis())


class LoweredWithDictCost(jax.stages.Lowered):
    """JAX's ``Lowered`` whose ``compile()`` gives a ``CompiledWithDictCost``."""

    __slots__ = ()

    def compile(self, *args: Any, **kwargs: Any) -> jax.stages.Compiled:
        compiled = super().compile(*args, **kwargs)
        # Same slots, no new state: only the class changes, so isinstance checks still hold.
        compiled.__class__ = CompiledWithDictCost
        return compiled


def swap_class(stage: Any, cls: type) -> Any:
    """Give a JAX stage object a subclass of its own class (same slots, no new state)."""
    if type(stage) in cls.__mro__:
        stage.__class__ = cls
    return stage


def dict_cost_lowered(lowered: jax.stages.Lowered) -> jax.stages.Lowered:
    swapped: jax.stages.Lowered = swap_class(lowered, LoweredWithDictCost)
    return swapped


def jax_lowered(lowered: jax.stages.Lowered) -> jax.stages.Lowered:
    return lowered


class Traced:
    """The result of ``jaxcompat.trace`` on releases whose jit has no ``trace`` of its own.

    ``jaxpr`` is the closed jaxpr of the function body, ``out_info`` a pytree of
    ``jax.ShapeDtypeStruct``, and ``lower()`` lowers the same call.
    """

    __slots__ = ("_lower", "jaxpr", "out_info")

    def __init__(self, jaxpr: Any, out_info: Any, lower: Callable[[], Any]) -> None:
        self.jaxpr = jaxpr
        self.out_info = out_info
        self._lower = lower

    def lower(self) -> Any:
        return self._lower()

    def __repr__(self) -> str:
        return f"Traced(jaxpr={self.jaxpr}, out_info={self.out_info})"


_CALL_PRIMITIVES = frozenset({"pjit", "jit"})


def trace_by_closure(
    jitted: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    lower: Callable[[], Any],
) -> Traced:
    """Trace ``jitted(*args, **kwargs)`` without ``jit(...).trace`` (JAX < 0.4.29).

    The call is traced inside a closure, where it appears as one nested jit equation; that
    equation's jaxpr is exactly what JAX's own ``Traced.jaxpr`` holds. ``jitted`` must not be
    ``inline=True``, or there is no nested equation to take.
    """
    outer = jax.make_jaxpr(lambda: jitted(*args, **kwargs))()
    calls = [eqn for eqn in outer.jaxpr.eqns if eqn.primitive.name in _CALL_PRIMITIVES]
    if len(calls) != 1:
        raise RuntimeError(f"expected one nested jit call when tracing {jitted!r}, got {outer}")
    out_info = jax.eval_shape(lambda: jitted(*args, **kwargs))
    return Traced(calls[0].params["jaxpr"], out_info, lower)


#: JAX 0.4.33 gave ShapeDtypeStruct its weak_type: where it has none, neither does out_info.
_TAKES_WEAK_TYPE = "weak_type" in inspect.signature(jax.ShapeDtypeStruct).parameters


def _is_out_info(node: Any) -> bool:
    # JAX's OutInfo is a NamedTuple (a pytree node to tree_flatten): one per output.
    return hasattr(node, "shape") and hasattr(node, "dtype")


def _jax_out_info(traced: Any) -> Any:
    """JAX's own ``out_info`` of ``traced``, whichever subclass of JAX's Traced it now is."""
    jax_out_info: Any = jax.stages.Traced.out_info  # type: ignore[attr-defined, unused-ignore]
    return jax_out_info.fget(traced)


def newest_out_info(traced: Any) -> Any:
    """``traced.out_info`` as the newest JAX gives it: a ``jax.ShapeDtypeStruct`` per output,
    with its weak type (JAX 0.7.0; before, a ``jax._src.stages.OutInfo`` without one)."""
    infos, tree = jax.tree_util.tree_flatten(_jax_out_info(traced), is_leaf=_is_out_info)
    structs = []
    for info, aval in zip(infos, traced.jaxpr.out_avals, strict=True):
        if isinstance(info, jax.ShapeDtypeStruct):
            structs.append(info)
            continue
        weak = {"weak_type": aval.weak_type} if _TAKES_WEAK_TYPE else {}
        struct = jax.ShapeDtypeStruct(  # type: ignore[no-untyped-call, unused-ignore]
            info.shape, info.dtype, sharding=info.sharding, **weak
        )
        structs.append(struct)
    return jax.tree_util.tree_unflatten(tree, structs)


def dict_cost_traced_class() -> type:
    """A subclass of JAX's ``Traced`` (JAX >= 0.4.29) whose ``lower()`` gives dict costs and
    whose ``out_info`` is the newest's."""

    # jax.stages.Traced exists from JAX 0.4.29; only backends from 0.4.30 call this.
    class TracedWithDictCost(jax.stages.Traced):  # type: ignore[name-defined, misc, unused-ignore]
        __slots__ = ()

        out_info = property(newest_out_info)

        def lower(self, *args: Any, **kwargs: Any) -> jax.stages.Lowered:
            return dict_cost_lowered(super().lower(*args, **kwargs))

    return TracedWithDictCost


def newest_out_info_traced_class() -> type:
    """A subclass of JAX's ``Traced`` whose ``out_info`` is the newest's (JAX 0.6.0-0.6.2)."""

    class TracedWithNewestOutInfo(jax.stages.Traced):  # type: ignore[name-defined, misc, unused-ignore]
        __slots__ = ()

        out_info = property(newest_out_info)

    return TracedWithNewestOutInfo


def with_newest_out_info(traced: Any, cls: type) -> Any:
    """JAX's own ``Traced`` where its ``out_info`` already holds ShapeDtypeStructs (JAX 0.7.0
    on); else the same object as ``cls``, whose ``out_info`` does."""
    infos = jax.tree_util.tree_leaves(_jax_out_info(traced), is_leaf=_is_out_info)
    if all(isinstance(info, jax.ShapeDtypeStruct) for info in infos):
        return traced
    return swap_class(traced, cls)
