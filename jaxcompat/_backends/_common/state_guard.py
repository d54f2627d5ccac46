"""When a jitted method's last split of ``self`` still holds, checked on every call.

A split walks ``self``'s state (``state_walk``) and describes every value in it. The same
split holds as long as ``self``'s attributes, and every mutable node the walk visited below
them (lists, dicts, plain objects), still hold the very same children, by identity, under
the same keys: then the walk would meet the same objects and give the same arrays and key.

:class:`StateGuard` keeps those nodes with the children the walk found, each with how its
children are read back (decided once, when the guard is made), so that checking a node is
one key comparison and one identity pass, both in C.
"""

from __future__ import annotations

import operator
from typing import Any

from .state_walk import DICT, LIST, OBJECT, read_state, slot_names

_is = operator.is_

#: A mutable node a walk visited: (node, its kind, its structure, its children then).
Visited = tuple[Any, int, Any, tuple[Any, ...]]

# How a guarded node's children are read back.
_LIST, _DICT, _INSTANCE_DICT, _SLOTS = range(4)


def _has_plain_dict(node: Any) -> bool:
    """An object whose state is exactly its ``__dict__``, as ``read_state`` reads it."""
    cls = type(node)
    return bool(cls.__dictoffset__) and not slot_names(cls) and type(node.__dict__) is dict


class StateGuard:
    """The root state and the mutable nodes one walk visited, with what each held then."""

    __slots__ = ("nodes", "root_keys", "root_values")

    def __init__(self, root_state: dict[str, Any], visited: list[Visited]) -> None:
        self.root_keys = tuple(root_state)
        self.root_values = tuple(root_state.values())
        nodes = []
        for node, node_kind, structure, children in visited:
            if node_kind is LIST:
                how = _LIST
            elif node_kind is DICT:
                how = _DICT
            elif node_kind is OBJECT and _has_plain_dict(node):
                how = _INSTANCE_DICT  # read again on each call: a __dict__ can be replaced
            else:
                how = _SLOTS
            nodes.append((node, how, structure, children))
        self.nodes = tuple(nodes)

    def holds(self, root_state: dict[str, Any]) -> bool:
        """Whether ``root_state`` and every node hold the very same children as then."""
        if tuple(root_state) != self.root_keys or not all(
            map(_is, root_state.values(), self.root_values)
        ):
            return False
        for node, how, structure, children in self.nodes:
            if how is _LIST:
                if len(node) != len(children) or not all(map(_is, node, children)):
                    return False
                continue
            if how is _DICT:
                state = node
            elif how is _INSTANCE_DICT:
                state = node.__dict__
            else:
                state = read_state(node)
            # Equal keys mean equal lengths, so the identity pass covers every child.
            if tuple(state) != structure or not all(map(_is, state.values(), children)):
                return False
        return True
