"""``jax.extend.core`` functions whose signature changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._version import JAX_VERSION_STRING

__all__ = [
    "gensym_without_parameters",
    "new_jaxpr_eqn_with_ctx",
    "typeof_from_get_aval",
    "unmapped_aval_without_axis_name",
]


def unmapped_aval_without_axis_name(jax_unmapped_aval: Callable[..., Any]) -> Callable[..., Any]:
    """``unmapped_aval(size, axis, aval)``: JAX 0.5.1 dropped the ``axis_name`` parameter.

    Before, ``axis_name`` only removed that axis from the aval's named shape, which avals
    built without it do not have: None removes nothing. The release's own call,
    ``unmapped_aval(size, axis_name, axis, aval)``, still works: four arguments whose last is
    an aval are that call (the newest's fourth, ``explicit_mesh_axis``, is never an aval), and
    so is ``axis_name=`` by keyword.
    """
    from jax.core import AbstractValue

    def unmapped_aval(
        size: Any,
        axis: int | None,
        aval: Any,
        explicit_mesh_axis: Any = None,
        *,
        axis_name: Any = None,
    ) -> Any:
        if isinstance(explicit_mesh_axis, AbstractValue):
            # The release's own positional call: (size, axis_name, axis, aval).
            return jax_unmapped_aval(size, axis, aval, explicit_mesh_axis)
        if explicit_mesh_axis is not None:
            raise TypeError(
                "jaxcompat.extend.core.unmapped_aval(explicit_mesh_axis=...) needs a JAX "
                "release with explicit sharding (0.7.0 or newer); JAX "
                f"{JAX_VERSION_STRING} has none. Leave it out, or upgrade JAX."
            )
        return jax_unmapped_aval(size, axis_name, axis, aval)

    return unmapped_aval


def gensym_without_parameters(jax_gensym: Callable[..., Any]) -> Callable[[], Any]:
    """``gensym()``: JAX 0.6.2 dropped the ``suffix`` parameter (and 0.4.25 ``jaxprs``).

    Called without them, the older gensym already gives what the newest one does: a
    function from an aval to a new ``Var`` of that aval.
    """

    def gensym() -> Callable[[Any], Any]:
        made: Callable[[Any], Any] = jax_gensym()
        return made

    return gensym


def new_jaxpr_eqn_with_ctx(jax_new_jaxpr_eqn: Callable[..., Any]) -> Callable[..., Any]:
    """``new_jaxpr_eqn(..., source_info=None, ctx=None)``: JAX 0.4.29 added ``ctx``.

    Before, an equation has no context (``JaxprEqnContext`` does not exist), so the only
    context such a release can take is None, the default.
    """

    def new_jaxpr_eqn(
        invars: Any,
        outvars: Any,
        primitive: Any,
        params: Any,
        effects: Any,
        source_info: Any = None,
        ctx: Any = None,
    ) -> Any:
        if ctx is not None:
            raise TypeError(
                "jaxcompat.extend.core.new_jaxpr_eqn(ctx=...) needs JAX 0.4.29 or newer: "
                "equations have no context before it."
            )
        return jax_new_jaxpr_eqn(invars, outvars, primitive, params, effects, source_info)

    return new_jaxpr_eqn


def typeof_from_get_aval(jax_get_aval: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``typeof(x)``: the abstract value of ``x``, never a ConcreteArray (JAX 0.4.36).

    Before JAX 0.4.36 removed ConcreteArray, ``get_aval`` of a concrete array or a Python
    scalar is a ConcreteArray holding the value; the newest ``typeof`` gives the ShapedArray
    of the same shape, dtype and weak type. A tracer's abstract value is handed back as it is.
    """
    # ConcreteArray and raise_to_shaped are gone from jax.core after the releases this serves.
    from jax.core import ConcreteArray, raise_to_shaped  # type: ignore[attr-defined, unused-ignore]

    def typeof(x: Any) -> Any:
        aval = jax_get_aval(x)
        if isinstance(aval, ConcreteArray):
            return raise_to_shaped(aval)
        return aval

    typeof.__doc__ = "The abstract value (a ShapedArray for an array) of ``x``."
    return typeof
