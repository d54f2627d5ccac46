"""Arguments that contain themselves: found before JAX's flatten meets them.

JAX flattens the arguments of every jitted call, and of ``lower`` and ``trace``, in C++. On
a self-containing argument (``L = [1]; L.append(L)``) jaxlib 0.4.13 overflows the C stack, a
segfault. Later releases raise an internal SystemError or a bare RecursionError for a list,
and for a dict or a registered pytree node that holds itself they leave the interpreter
broken (measured on 0.4.18, 0.6.0 and 0.12.0.1: it loses ``sys.stderr`` and exits with
status 1). No release can stage such an argument, so refusing it first is never stricter
than JAX, and every jitted call, ``lower`` and ``trace`` refuse it on every release.

The check costs next to nothing for the usual arguments: arrays and numbers hold nothing
(:data:`ATOM_TYPES`), and a container is walked once without building any path
(:func:`_reaches_a_part_twice`); only a container that reaches one of its parts twice, a
cycle or a shared part, is walked again to name where the cycle closes.

On JAX 0.4.13 an argument nested 100,000 levels deep crashes the same way (from about the
recursion limit on, that release raises RecursionError; far deeper, it crashes): there the
calls also refuse nesting deeper than the recursion limit (``deepest``). Later releases
flatten deeper than the limit (the newest lowers 1,200 levels) and raise an error of their
own far deeper, so they are not refused there.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from ..._version import JAX_VERSION_STRING
from .hashing import flatten_one_level

__all__ = ["ATOM_TYPES", "LEAVES", "refuse_cycles"]


def _children(value: Any) -> list[tuple[str, Any]]:
    """``value``'s children as (path step, child), one level down; none for a leaf."""
    if type(value) is dict:
        return [(f"[{key!r}]", child) for key, child in value.items()]
    if type(value) in (list, tuple):
        return [(f"[{index}]", child) for index, child in enumerate(value)]
    # Anything else as JAX's registry sees it, one level only: a registered node (a namedtuple,
    # an OrderedDict, a dataclass, a Module ...) has children; an unregistered dict or list
    # subclass is a leaf to JAX, so a cycle inside it is never flattened.
    try:
        children, treedef = flatten_one_level(value)
    except Exception:  # its own flatten fails: JAX raises that itself, when it stages
        return []
    if treedef.num_nodes == 1:
        return []  # a leaf
    return [(f".<child {index}>", child) for index, child in enumerate(children)]


def _find_cycle(value: Any, deepest: int | None) -> tuple[str, type | None] | None:
    """The path of the first part of ``value`` that is one of its enclosing parts, and the
    type of that part; with ``deepest``, the path of the first part nested more than that
    many levels down, and None for the type. None when there is neither.

    Depth-first, without recursion. Each path is built only when found: the steps on the
    current path are kept once, not a string per level (which, 100,000 levels deep, would
    take gigabytes).
    """
    on_path: dict[int, type] = {}
    enclosing: list[int] = []  # the ids of the parts enclosing the current one, outermost first
    steps: list[str] = []  # the step into each part on the current path, the root's ""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, step, depth = stack.pop()
        for left in enclosing[depth:]:
            del on_path[left]
        del enclosing[depth:], steps[depth:]
        steps.append(step)
        if id(node) in on_path:
            return "".join(steps), on_path[id(node)]
        if isinstance(node, LEAVES):
            continue
        children = _children(node)
        if not children:
            continue
        if deepest is not None and depth >= deepest:
            return "".join(steps), None
        on_path[id(node)] = type(node)
        enclosing.append(id(node))
        stack.extend((child, child_step, depth + 1) for child_step, child in reversed(children))
    return None


#: Arguments that hold nothing: no walk, and no name is formatted for them.
LEAVES = (jax.Array, np.ndarray, np.generic, int, float, complex, str, bytes)

#: The exact types met so far whose instances hold nothing JAX's flatten would enter: the
#: builtin scalars, and each array, tracer and numpy scalar type once it is first seen (a
#: set lookup on every call, where ``isinstance(x, jax.Array)`` asks an ABC).
ATOM_TYPES: set[type] = {int, float, complex, bool, str, bytes, type(None)}


def _holds_nothing(value: Any) -> bool:
    if type(value) in ATOM_TYPES:
        return True
    if isinstance(value, LEAVES):
        ATOM_TYPES.add(type(value))
        return True
    return False


def _reaches_a_part_twice(value: Any) -> bool:
    """True when walking ``value`` meets one of its containers a second time: a cycle, or
    a part shared by two places (which the path-naming walk then tells apart)."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if _holds_nothing(node):
            continue
        cls = type(node)
        if cls is dict:
            children: Any = node.values()
        elif cls is list or cls is tuple:
            children = node
        else:
            children = [child for _, child in _children(node)]
        if id(node) in seen:
            return True
        seen.add(id(node))
        stack.extend(children)
    return False


def refuse_cycles(
    verb: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    deepest: int | None = None,
    static: tuple[tuple[int, ...], tuple[str, ...]] = ((), ()),
) -> None:
    """Raise a ValueError naming the first argument that contains itself, if any; with
    ``deepest``, a RecursionError for an argument nested more than that many levels. The
    ``static`` positions and names are skipped: JAX hashes those and never flattens them."""
    positions = {i if i >= 0 else len(args) + i for i in static[0]}
    for index, value in enumerate(args):
        if index not in positions and not _holds_nothing(value):
            _refuse(verb, f"args[{index}]", value, deepest)
    for name, value in kwargs.items():
        if name not in static[1] and not _holds_nothing(value):
            _refuse(verb, name, value, deepest)


def _refuse(verb: str, name: str, value: Any, deepest: int | None) -> None:
    if deepest is None and not _reaches_a_part_twice(value):
        return
    found = _find_cycle(value, deepest)
    if found is None:
        return
    path, kind = found
    if kind is None:
        raise RecursionError(
            f"jaxcompat.{verb}: {name} is nested more than {deepest} levels deep, the "
            f"recursion limit: JAX {JAX_VERSION_STRING} cannot flatten it (deeper still, "
            "its flatten crashes the interpreter). Nest it less deeply."
        )
    raise ValueError(
        f"jaxcompat.{verb}: {name}{path} refers back to an enclosing "
        f"{kind.__name__}: a pytree that contains itself cannot be staged on any "
        f"JAX release (JAX {JAX_VERSION_STRING} would crash or raise an internal "
        "error). Break the cycle before passing it."
    )
