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

from ..._releases import parse_release

__all__ = ["BACKPORT_KEYWORDS", "BackportKeyword", "backport_keyword", "jit_options_before"]


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
    #: What to do instead on the releases before ``first``, for the error's last sentence.
    fix: str = "leave it out"


BACKPORT_KEYWORDS: tuple[BackportKeyword, ...] = (
    # jit options: jax.jit took donate_argnames from JAX 0.4.18 and compiler_options from
    # 0.4.36. jaxcompat.jit takes either before then only empty (the backends read these).
    BackportKeyword(
        "jax.jit",
        "donate_argnames",
        "0.4.18",
        "has no jit option donate_argnames (use donate_argnums)",
        fix="use donate_argnums",
    ),
    BackportKeyword(
        "jax.jit",
        "compiler_options",
        "0.4.36",
        "has no jit option compiler_options (pass them to .compile())",
        fix="pass them when compiling: jaxcompat.lower(f, *args).compile(compiler_options)",
    ),
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


def jit_options_before(floor: str) -> dict[str, tuple[str, str]]:
    """The jit options a backend whose floor is ``floor`` lacks: name -> (first release, fix)."""
    floor_parts = parse_release(floor)
    return {
        fact.parameter: (fact.first, fact.fix)
        for fact in BACKPORT_KEYWORDS
        if fact.path == "jax.jit" and parse_release(fact.first) > floor_parts
    }
