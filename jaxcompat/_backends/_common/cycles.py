"""Arguments that contain themselves: found before JAX's flatten meets them.

JAX flattens the arguments of ``lower`` and ``trace`` in C++. On a self-containing argument
(``L = [1]; L.append(L)``) jaxlib 0.4.13 overflows the C stack, a segfault, and later releases
raise SystemError ("returned a result with an exception set") or a bare RecursionError. No
release can stage such an argument, so refusing it first is never stricter than JAX.
"""

from __future__ import annotations

from typing import Any

import jax

from ..._version import JAX_VERSION_STRING
from .hashing import flatten_one_level

__all__ = ["refuse_cycles"]


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


def _find_cycle(value: Any) -> tuple[str, type] | None:
    """The path of the first part of ``value`` that is one of its enclosing parts, and the
    type of that part; None when there is no cycle. Depth-first, without recursion."""
    on_path: dict[int, type] = {}
    stack: list[tuple[Any, str, bool]] = [(value, "", False)]
    while stack:
        node, path, leaving = stack.pop()
        if leaving:
            del on_path[id(node)]
            continue
        if id(node) in on_path:
            return path, on_path[id(node)]
        if node is None or isinstance(node, (str, bytes, int, float, complex, jax.Array)):
            continue
        children = _children(node)
        if not children:
            continue
        on_path[id(node)] = type(node)
        stack.append((node, path, True))
        stack.extend((child, path + step, False) for step, child in reversed(children))
    return None


def refuse_cycles(verb: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Raise a ValueError naming the first argument that contains itself, if any."""
    for name, value in [*((f"args[{i}]", a) for i, a in enumerate(args)), *kwargs.items()]:
        found = _find_cycle(value)
        if found is not None:
            path, kind = found
            raise ValueError(
                f"jaxcompat.{verb}: {name}{path} refers back to an enclosing "
                f"{kind.__name__}: a pytree that contains itself cannot be staged on any "
                f"JAX release (JAX {JAX_VERSION_STRING} would crash or raise an internal "
                "error). Break the cycle before passing it."
            )
