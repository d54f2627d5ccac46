"""Newest parameters of jaxcompat's own backports that releases before a given one cannot
honour: jaxcompat takes them there only at their default, and raises a TypeError naming the
release for any other value.

The backport reads the first release from here for its error, and ``jaxcompat check`` reports
a call that passes one (by keyword, or by a position the newest signature gives it) on a
range with releases before it (JC041).

Plain data: imports nothing from JAX.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BACKPORT_KEYWORDS", "BackportKeyword", "backport_keyword"]


@dataclass(frozen=True)
class BackportKeyword:
    """A newest parameter of the jaxcompat name for ``path`` that needs release ``first``."""

    #: The JAX path of the jaxcompat name (``jax.make_mesh`` for ``jaxcompat.make_mesh``).
    path: str
    parameter: str
    #: The first release on which jaxcompat takes a value other than the default.
    first: str
    #: What the releases before ``first`` lack, said after "JAX before it".
    reason: str
    #: The newest default: passing it is the same as leaving the parameter out.
    default: object = None


BACKPORT_KEYWORDS: tuple[BackportKeyword, ...] = (
    # Mesh axis types (jax.sharding.AxisType) arrived in JAX 0.5.3; older meshes have none.
    BackportKeyword(
        "jax.make_mesh", "axis_types", "0.5.3", "has no mesh axis types (jax.sharding.AxisType)"
    ),
)


def backport_keyword(path: str, parameter: str) -> BackportKeyword | None:
    """The fact for ``parameter`` of the jaxcompat name for ``path``, if any."""
    for fact in BACKPORT_KEYWORDS:
        if fact.path == path and fact.parameter == parameter:
            return fact
    return None
