"""Arguments that contain themselves or nest too deeply: refused before a flatten that
segfaults on them meets them.

jaxlib 0.4.13 flattens the arguments of a jitted call in C++ and overflows the C stack, a
segfault, on an argument that contains itself (``L = [1]; L.append(L)``) or nests far deeper
than the recursion limit. From jaxlib 0.4.18 the same call raises an error, or leaves the
interpreter broken, as it does under ``jax.jit`` (measured in the ``jax_0_4_13`` backend's
docstring). The jit machinery calls :func:`refuse_cycles` only where the backend says the
flatten segfaults (``JitTraits.flatten_segfaults``): everywhere else a jitted function's
argument reaches JAX, as under ``jax.jit``. Backports that flatten a value in jaxcompat's
own code before JAX does call it on every release.

Nesting is refused from :func:`deepest_flattened` levels on: the flatten recurses through
CPython's recursion check, so a jitted call raises RecursionError itself from about there,
and segfaults far deeper.

The checks cost next to nothing for the usual arguments: arrays and numbers hold nothing
(:data:`ATOM_TYPES`), and a container is walked once without building any path
(:func:`_needs_a_closer_look`); only one that reaches a part twice (a cycle, or a shared
part) or holds more containers than the flatten could nest is walked again to name where.
"""

from __future__ import annotations

import sys
from typing import Any

import jax
import numpy as np

from .._version import JAX_VERSION_STRING
from .flattening import flatten_one_level
from .leaf_types import ATOMIC_TYPES

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
#: atomic types, and each array, tracer and numpy scalar type once it is first seen (a set
#: lookup on every call, where ``isinstance(x, jax.Array)`` asks an ABC).
ATOM_TYPES: set[type] = set(ATOMIC_TYPES)


def _holds_nothing(value: Any) -> bool:
    if type(value) in ATOM_TYPES:
        return True
    if isinstance(value, LEAVES):
        ATOM_TYPES.add(type(value))
        return True
    return False


def deepest_flattened() -> int:
    """How many levels of nesting JAX's C++ flatten takes before CPython stops it (measured
    with JAX 0.4.18-0.12.0.1): up to Python 3.11 the recursion limit, less the frames already
    on the stack; on 3.12 the C recursion limit, 1,500 levels whatever the recursion limit
    (about 1,494 from the top level); on 3.13, 10,000 (about 9,995)."""
    if sys.version_info >= (3, 13):
        return 10_000
    if sys.version_info >= (3, 12):
        return 1_500
    return sys.getrecursionlimit()


def _child_values(node: Any) -> Any:
    cls = type(node)
    if cls is dict:
        return node.values()
    if cls is list or cls is tuple:
        return node
    return [child for _, child in _children(node)]


def _needs_a_closer_look(value: Any, deepest: int) -> bool:
    """False when ``value`` surely holds no cycle and nests no deeper than ``deepest``: a
    walk that meets no container twice, and meets no more containers than ``deepest`` (or,
    meeting more, finds none that deep)."""
    seen: set[int] = set()
    stack = [value]
    atoms = ATOM_TYPES  # checked inline: a dict of 100 arrays is 100 lookups, not 100 calls
    while stack:
        node = stack.pop()
        if type(node) in atoms or _holds_nothing(node):
            continue
        if id(node) in seen:
            return True  # a cycle, or a shared part
        seen.add(id(node))
        stack.extend(_child_values(node))
    return len(seen) > deepest and _nested_deeper_than(value, deepest)


def _nested_deeper_than(value: Any, deepest: int) -> bool:
    """Whether a container of ``value`` (which holds no cycle) with children sits
    ``deepest`` levels down or deeper, as ``_find_cycle`` counts."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if _holds_nothing(node):
            continue
        children = _child_values(node)
        if depth >= deepest and children:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def refuse_cycles(
    verb: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    static: tuple[tuple[int, ...], tuple[str, ...]] = ((), ()),
) -> None:
    """Raise a ValueError naming the first argument that contains itself, if any, and a
    RecursionError for one nested deeper than JAX's flatten goes. The ``static`` positions
    and names are skipped: JAX hashes those and never flattens them.

    Every jitted call comes through here: arrays and numbers, the usual arguments, hold
    nothing, and are told apart by one set lookup each before anything else is done."""
    static_positions, static_names = static
    count = len(args)
    for index, value in enumerate(args):
        # A static argument (``self`` of a method jitted with ``static_argnames=("self",)``)
        # is skipped before anything is asked of it: a position may be counted from the end.
        if type(value) in ATOM_TYPES or index in static_positions:
            continue
        if index - count in static_positions or _holds_nothing(value):
            continue
        _refuse(verb, f"args[{index}]", value, deepest_flattened())
    for name, value in kwargs.items():
        if name not in static_names and not _holds_nothing(value):
            _refuse(verb, name, value, deepest_flattened())


def _refuse(verb: str, name: str, value: Any, deepest: int) -> None:
    if not _needs_a_closer_look(value, deepest):
        return
    found = _find_cycle(value, deepest)
    if found is None:
        return
    path, kind = found
    if kind is None:
        raise RecursionError(
            f"jaxcompat.{verb}: {name} is nested more than {deepest} levels deep, more than "
            f"JAX {JAX_VERSION_STRING} can flatten on Python "
            f"{sys.version_info.major}.{sys.version_info.minor} (its flatten raises an "
            "internal error there, which can leave JAX broken, or crashes). Nest it less "
            "deeply."
        )
    raise ValueError(
        f"jaxcompat.{verb}: {name}{path} refers back to an enclosing "
        f"{kind.__name__}: a pytree that contains itself cannot be staged on any "
        f"JAX release (JAX {JAX_VERSION_STRING} would crash or raise an internal "
        "error). Break the cycle before passing it."
    )
