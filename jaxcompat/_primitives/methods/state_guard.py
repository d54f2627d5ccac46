"""When a jitted method's last split of ``self`` still holds, checked on every call.

A split walks what the method reads of ``self`` (``read_paths``, ``state_walk``) and
describes every value in it. The same split holds as long as ``self`` has the same
attributes, those the method reads are the very same objects, every step of its read chains
(``self.cfg.optimizer.rate``) still leads to the very same object, and every mutable node the
walk visited below them (lists, dicts, plain objects) still holds the very same children, by
identity, under the same keys: then the walk would meet the same objects and give the same
arrays and key.

:class:`StateGuard` keeps those nodes with the children the walk found, each with how its
children are read back (decided once, when the guard is made), so that checking a node is
one key comparison and one identity pass, both in C.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from .read_paths import Selected
from .state_walk import DICT, LIST, OBJECT, read_state, slot_names

_is = operator.is_
_instance_dict = operator.attrgetter("__dict__")
_item = dict.__getitem__
_getitem = operator.getitem


class _Links:
    """The steps read chains took, in one row: (objects, names or keys, values found)."""

    __slots__ = ("nexts", "objects", "steps")

    def __init__(self, links: list[tuple[Any, Any, Any]]) -> None:
        self.objects = tuple(link[0] for link in links)
        self.steps = tuple(link[1] for link in links)
        self.nexts = tuple(link[2] for link in links)


_NO_LINKS = _Links([])

#: A mutable node a walk visited: (node, its kind, its structure, its children then).
Visited = tuple[Any, int, Any, tuple[Any, ...]]

# How a guarded node's children are read back.
_LIST, _DICT, _INSTANCE_DICT, _SLOTS = range(4)


def _has_plain_dict(node: Any) -> bool:
    """An object whose state is exactly its ``__dict__``, as ``read_state`` reads it."""
    cls = type(node)
    return bool(cls.__dictoffset__) and not slot_names(cls) and type(node.__dict__) is dict


def picker(names: Sequence[Any]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the items of ``names``, in order, as a tuple (in C where it can)."""
    if not names:
        return lambda values: ()
    if len(names) == 1:
        name = names[0]
        return lambda values: (values[name],)
    return operator.itemgetter(*names)


def _check_without_nodes(guard: StateGuard) -> Callable[[dict[str, Any]], bool]:
    """``guard.holds`` for a guard with no nodes, as a closure over what it compares."""
    state_keys, pick, picked = guard.state_keys, guard.pick, guard.picked
    objects, steps, nexts = (
        guard.attribute_links.objects,
        guard.attribute_links.steps,
        guard.attribute_links.nexts,
    )
    containers, keys, found = (
        guard.item_links.objects,
        guard.item_links.steps,
        guard.item_links.nexts,
    )
    if not objects and not containers:

        def holds(state: dict[str, Any]) -> bool:
            return tuple(state) == state_keys and all(map(_is, pick(state), picked))

        return holds

    if not containers:  # chains of attributes only (self.cfg.optimizer.rate)

        def holds_along_attributes(state: dict[str, Any]) -> bool:
            if tuple(state) != state_keys or not all(map(_is, pick(state), picked)):
                return False
            try:
                return all(map(_is, map(_item, map(_instance_dict, objects), steps), nexts))
            except KeyError:  # a step's attribute is gone
                return False

        return holds_along_attributes

    def holds_along_chains(state: dict[str, Any]) -> bool:
        if tuple(state) != state_keys or not all(map(_is, pick(state), picked)):
            return False
        try:
            return all(map(_is, map(_item, map(_instance_dict, objects), steps), nexts)) and all(
                map(_is, map(_getitem, containers, keys), found)
            )
        except (KeyError, IndexError):  # a step's attribute or item is gone
            return False

    return holds_along_chains


class StateGuard:
    """What a split read of ``self``, and the mutable nodes its walk visited, with what each
    held then."""

    __slots__ = (
        "attribute_links",
        "check",
        "item_links",
        "nodes",
        "pick",
        "picked",
        "state_keys",
    )

    def __init__(
        self, state: dict[str, Any], selected: Selected | None, visited: list[Visited]
    ) -> None:
        """``state``: the instance's attributes; ``selected``: what the method reads of them
        (None: all of them)."""
        self.state_keys = tuple(state)
        if selected is None:
            self.pick: Callable[[Any], Any] = dict.values
            self.attribute_links = self.item_links = _NO_LINKS
        else:
            names = (name if isinstance(name, str) else name[0] for name in selected.values)
            self.pick = picker(list(dict.fromkeys(names)))
            # Each step of the read chains: the object of each first step is checked among
            # the attributes picked, and each later one by the step before.
            self.attribute_links = _Links(selected.attribute_links)
            self.item_links = _Links(selected.item_links)
        self.picked = tuple(self.pick(state))
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
        #: ``holds``, or where no node was visited (most instances), the same check in one
        #: closure: it runs on every call of a jitted method.
        self.check: Callable[[dict[str, Any]], bool] = self.holds
        if not self.nodes:
            self.check = _check_without_nodes(self)

    def holds(self, state: dict[str, Any]) -> bool:
        """Whether the instance's attributes ``state``, the read chains and every node hold
        the very same children as then."""
        if tuple(state) != self.state_keys or not all(map(_is, self.pick(state), self.picked)):
            return False
        attribute_links, item_links = self.attribute_links, self.item_links
        try:
            if attribute_links.objects:
                dicts = map(_instance_dict, attribute_links.objects)
                if not all(
                    map(_is, map(_item, dicts, attribute_links.steps), attribute_links.nexts)
                ):
                    return False
            if item_links.objects:
                found = map(_getitem, item_links.objects, item_links.steps)
                if not all(map(_is, found, item_links.nexts)):
                    return False
        except (KeyError, IndexError):  # a step's attribute or item is gone
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
