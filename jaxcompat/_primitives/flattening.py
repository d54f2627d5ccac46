"""Flattening a pytree without meeting a cycle: one level only (``flatten_one_level``), or
all of it once a breadth-first walk in C has ruled a cycle out (``acyclic_tree_flatten``).
``hashing``, ``cycles`` and the method state walk read pytrees through these."""

from __future__ import annotations

import gc
from itertools import chain, compress
from typing import Any

import jax

__all__ = [
    "MAX_FLATTEN_DEPTH",
    "SCANNED",
    "UnsafeToFlatten",
    "acyclic_tree_flatten",
    "flatten_one_level",
]


def flatten_one_level(node: Any) -> tuple[list[Any], Any]:
    """``node``'s children and treedef, one level down: every child is a leaf here.

    The root is the only object ``is_leaf`` says no to, so a node that holds itself (or
    anything else) is never recursed into: this flatten cannot meet a cycle.
    """
    asked = False

    def is_leaf(_: Any) -> bool:
        nonlocal asked
        if asked:
            return True
        asked = True  # JAX asks about the root first
        return False

    leaves, treedef = jax.tree_util.tree_flatten(node, is_leaf=is_leaf)
    return leaves, treedef


def _flatten_kind(cls: type, sample: object) -> str:
    # How JAX's flatten treats objects of type cls: "scan" for lists, tuples and dicts (and
    # their subclasses), whose items gc.get_referents lists; "node" for the other types it
    # recurses into; "leaf" for the rest. Registration is per type, so one sample decides, and
    # it is flattened one level only, so that a cycle below it is not followed.
    if issubclass(cls, (list, tuple, dict)):
        return "scan"
    try:
        children = flatten_one_level(sample)[0]
    except Exception:  # a flatten function that fails: JAX's flatten raises too, no crash
        return "leaf"
    return "node" if children and not (len(children) == 1 and children[0] is sample) else "leaf"


# The types seen so far, each once, by kind (see _flatten_kind): scanned by the check (and a
# dict?), or a custom node it cannot look into. Dicts, not sets, so that filtering a level is
# a C-level ``map(dict.get, ...)``.
#: Whether a type is scanned (a list, tuple or dict, or a subclass of one), read by
#: ``hashing`` too.
SCANNED: dict[type, bool] = {}
_IS_DICT: dict[type, bool] = {}
_NODE: set[type] = set()

_NONE_TYPE = type(None)

#: How deep :func:`acyclic_tree_flatten` lets JAX's flatten recurse.
MAX_FLATTEN_DEPTH = 100


class UnsafeToFlatten(ValueError):
    """The pytree may be self-referential, or nests deeper than JAX's flatten can recurse."""


def acyclic_tree_flatten(obj: Any) -> tuple[list[Any], Any, int, bool]:
    """``jax.tree_util.tree_flatten``, after checking that ``obj`` has no cycle to recurse into.

    JAX's C++ flatten is not safe on a self-referential container. jaxlib 0.4.13 overflows the
    C stack (a segfault); later releases raise, but a cycle through a dict leaks the
    interpreter's recursion counter, and from then on unrelated code raises RecursionError.
    The check walks lists, tuples and dicts breadth-first in C (``gc.get_referents``). It
    raises :class:`UnsafeToFlatten` past :data:`MAX_FLATTEN_DEPTH` levels, which a cycle
    always reaches, or on a custom pytree node with children, which it cannot look into.

    Returns the leaves, the treedef, a hash of the dict keys met on each level (the treedef's
    own hash leaves dict keys out) and whether the pytree holds a None.
    """
    level = [obj]
    keys: list[frozenset[Any]] = []
    holds_none = False
    for _ in range(MAX_FLATTEN_DEPTH):
        level_types = list(map(type, level))
        kinds = set(level_types)
        holds_none = holds_none or _NONE_TYPE in kinds
        for kind in kinds.difference(SCANNED):
            found = _flatten_kind(kind, level[level_types.index(kind)])
            if found == "node":
                _NODE.add(kind)
            _IS_DICT[kind] = issubclass(kind, dict)
            SCANNED[kind] = found == "scan"
        if not kinds.isdisjoint(_NODE):
            raise UnsafeToFlatten("holds a custom pytree node, which may close a cycle")
        if not any(map(SCANNED.__getitem__, kinds)):
            leaves, treedef = jax.tree_util.tree_flatten(obj)
            return leaves, treedef, hash(tuple(keys)), holds_none
        if any(map(_IS_DICT.__getitem__, kinds)):
            dicts = compress(level, map(_IS_DICT.get, level_types))
            keys.append(frozenset(chain.from_iterable(dicts)))
        if len(kinds) > 1:  # keep the containers (dict.get is the fastest test in C)
            level = list(compress(level, map(SCANNED.get, level_types)))
        level = gc.get_referents(*level)
    raise UnsafeToFlatten(f"nested deeper than {MAX_FLATTEN_DEPTH} levels, or self-referential")
