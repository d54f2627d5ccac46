"""``jax.custom_derivatives.zero_from_primal``, public from JAX 0.4.34.

custom_vjp's symbolic zeros (``SymbolicZero``) and the zero tangents of each aval have been
there on every supported release; 0.4.34 made a public constructor of them. Before it the
tangent aval of a primal is ``raise_to_shaped(get_aval(x)).at_least_vspace()`` (0.4.34
renamed it ``to_tangent_aval``): float0 for integers and booleans.
"""

from __future__ import annotations

from typing import Any

import jax
from jax._src import ad_util as jax_ad_util
from jax._src import core as jax_core

__all__ = ["zero_from_primal"]

# Private on every release, and untyped.
ad_util: Any = jax_ad_util
core: Any = jax_core


def _tangent_aval(x: Any) -> Any:
    return core.raise_to_shaped(core.get_aval(x)).at_least_vspace()


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """The zero tangent of each leaf of ``val``: a ``SymbolicZero``, or zeros of its
    tangent dtype (float0 for integers and booleans)."""

    def zero(x: Any) -> Any:
        aval = _tangent_aval(x)
        return ad_util.SymbolicZero(aval) if symbolic_zeros else ad_util.zeros_like_aval(aval)

    return jax.tree_util.tree_map(zero, val)
