"""The state of ``self`` rebuilt around tracers, for one trace of a jitted method.

When JAX traces a method, :func:`shadow_for_trace` gives it an instance whose arrays are
the tracers and whose values with no value to compare are ``Unreadable`` stand-ins: every
object on the way to one of those (or to a back-reference) is copied, everything else is
the real object. :meth:`Shadow.write_back` then moves what the method
assigned to those copies, tracers included, onto the real objects, as under ``jax.jit``.
"""

from __future__ import annotations

import copy
import functools
import operator
from collections.abc import Callable, Iterator
from typing import Any

import jax

from ..flattening import flatten_one_level
from .instance_state import root_kind
from .method_reads import Item
from .read_paths import ReadSelector, entry_path
from .state_walk import (
    ARRAY,
    ATOM,
    DICT,
    LIST,
    MUTABLE_KINDS,
    NO_VALUE,
    NODE_KINDS,
    OBJECT,
    PYTREE,
    VALUE,
    Path,
    Walk,
    child_path,
    children_of,
    describe,
    kind,
    path_text,
    read_state,
    value_kind_of,
)
from .unreadable import Unreadable

_PENDING = object()


class Shadow:
    """The state rebuilt around tracers for one trace, and how to undo the copies."""

    def __init__(self, counts: dict[int, int], tracers: Iterator[Any]) -> None:
        self.counts = counts
        self.tracers = tracers
        self.built: dict[int, Any] = {}
        # (original, copy, its kind, its contents when built) for every mutable copy made.
        self.copies: list[tuple[Any, Any, int, Any]] = []
        # id of each stand-in (tracer or copy) -> (stand-in, the real object it stands for).
        self.stand_ins: dict[int, tuple[Any, Any]] = {}

    def rebuild(self, value: Any, path: Path) -> Any:
        value_kind = kind(value)
        if value_kind is ARRAY:
            tracer = next(self.tracers)
            self.stand_ins[id(tracer)] = (tracer, value)
            return tracer
        if value_kind is VALUE:
            value_kind = value_kind_of(value)
        if value_kind is NO_VALUE:
            return self._stand_in_once(value, lambda: Unreadable(path, value))
        if value_kind not in NODE_KINDS:
            return value
        key = id(value)
        if key in self.built:
            built = self.built[key]
            if built is _PENDING:
                raise ValueError(
                    f"jaxcompat.jit: {path_text(path)} refers back to an enclosing tuple or "
                    "pytree that "
                    "holds arrays; such a cycle cannot be rebuilt around tracers. Break the "
                    "cycle, or keep the arrays out of it"
                )
            return built
        if not self.counts.get(key):  # no array or back-reference below: the real object
            self.built[key] = value
            return value
        structure, children = children_of(value, value_kind, path)
        paths = [child_path(path, value_kind, structure, i) for i in range(len(children))]
        if value_kind in MUTABLE_KINDS:
            copied = _empty_copy(value, value_kind)
            self.built[key] = copied
            rebuilt = [self.rebuild(c, p) for c, p in zip(children, paths, strict=True)]
            _fill(copied, value_kind, value, rebuilt)
            self.copies.append((value, copied, value_kind, _contents(copied, value_kind)))
        else:
            self.built[key] = _PENDING
            rebuilt = [self.rebuild(c, p) for c, p in zip(children, paths, strict=True)]
            copied = _rebuild_immutable(value, value_kind, rebuilt)
            self.built[key] = copied
        self.stand_ins[id(copied)] = (copied, value)
        return copied

    def _stand_in_once(self, value: Any, make: Callable[[], Any]) -> Any:
        """One stand-in per real object, so what was one object stays one object."""
        stand_in = self.built.get(id(value))
        if stand_in is None:
            stand_in = self.built[id(value)] = make()
            self.stand_ins[id(stand_in)] = (stand_in, value)
        return stand_in

    def real(self, value: Any) -> Any:
        """The real object behind a stand-in, or ``value`` itself."""
        entry = self.stand_ins.get(id(value))
        return entry[1] if entry is not None and entry[0] is value else value

    def write_back(self) -> bool:
        """Apply what was assigned to the copies while tracing to the real objects; return
        whether there was any."""
        wrote = False
        for original, copied, copied_kind, before in self.copies:
            after = _contents(copied, copied_kind)
            if copied_kind is LIST:
                if len(after) != len(before) or any(map(operator.is_not, after, before)):
                    original[:] = [self.real(item) for item in after]
                    wrote = True
                continue
            set_item = _setter(original, copied_kind)
            for name, item in after.items():
                if name not in before or before[name] is not item:
                    set_item(name, self.real(item))
                    wrote = True
            for name in before.keys() - after.keys():
                wrote = True
                if copied_kind is DICT:
                    del original[name]
                else:
                    object.__delattr__(original, name)
        return wrote


def _setter(original: Any, copied_kind: int) -> Callable[[Any, Any], None]:
    if copied_kind is DICT:
        setter: Callable[[Any, Any], None] = original.__setitem__
        return setter
    # object.__setattr__: the method's own assignment already went through __setattr__.
    return functools.partial(object.__setattr__, original)


def _empty_copy(value: Any, value_kind: int) -> Any:
    if type(value) is list:
        return []
    if type(value) is dict:
        return {}
    if value_kind is OBJECT:
        cls = type(value)
        try:
            return cls.__new__(cls)  # type: ignore[call-overload]
        except TypeError:  # a __new__ that needs arguments
            return object.__new__(cls)
    copied = copy.copy(value)  # a list or dict subclass, with its own attributes
    copied.clear()
    return copied


def _fill(copied: Any, value_kind: int, value: Any, rebuilt: list[Any]) -> None:
    if value_kind is LIST:
        copied.extend(rebuilt)
    elif value_kind is DICT:
        copied.update(zip(value, rebuilt, strict=True))
    else:
        for name, item in zip(read_state(value), rebuilt, strict=True):
            object.__setattr__(copied, name, item)


def _contents(copied: Any, value_kind: int) -> Any:
    if value_kind is LIST:
        return list(copied)
    if value_kind is DICT:
        return dict(copied)
    return dict(read_state(copied))


def _rebuild_immutable(value: Any, value_kind: int, rebuilt: list[Any]) -> Any:
    if value_kind is PYTREE:
        treedef = flatten_one_level(value)[1]
        return jax.tree_util.tree_unflatten(treedef, rebuilt)
    cls = type(value)
    if cls is tuple:
        return tuple(rebuilt)
    if hasattr(cls, "_fields"):  # a namedtuple
        return cls(*rebuilt)
    return cls(rebuilt)


def shadow_for_trace(
    instance: Any, arrays: tuple[Any, ...], reads: ReadSelector | None = None
) -> tuple[Any, Shadow]:
    """``instance``'s state with ``arrays`` (tracers) in place of its arrays, in split order;
    only what the method ``reads`` (all attributes: None) was split, and only that is rebuilt."""
    tracers = iter(arrays)
    if isinstance(instance, type):
        return instance, Shadow({}, tracers)  # a class's arrays are constants of the key
    counting = Walk(instance, counting=True)
    if root_kind(instance) is not OBJECT:
        counting.seen.clear()
        describe(instance, counting, "self", 0)
        shadowed = Shadow(counting.counts or {}, tracers)
        return shadowed.rebuild(instance, "self"), shadowed
    state = read_state(instance)
    split: dict[Any, Any] = state if reads is None else reads.select(instance, state).values
    nested = [name for name, value in split.items() if kind(value) not in (ARRAY, ATOM)]
    for name in nested:
        describe(split[name], counting, entry_path(name), 1)
    shadowed = Shadow(counting.counts or {}, tracers)
    if not arrays and not counting.refs:
        return instance, shadowed  # nothing to trace: the method runs on the instance itself
    copied = _empty_copy(instance, OBJECT)
    shadowed.built[id(instance)] = copied
    # Tracers come in split()'s order: the top-level arrays, then those of nested values.
    rebuilt = {
        name: shadowed.rebuild(value, entry_path(name))
        for name, value in split.items()
        if kind(value) is ARRAY
    }
    rebuilt.update({name: shadowed.rebuild(split[name], entry_path(name)) for name in nested})
    for name, value in state.items():
        object.__setattr__(copied, name, rebuilt.get(name, value))
    path_copies = _place_along_chains(instance, copied, split, rebuilt, shadowed)
    for original, path_copy, copy_kind in [(instance, copied, OBJECT), *path_copies]:
        shadowed.copies.append((original, path_copy, copy_kind, _contents(path_copy, copy_kind)))
        shadowed.stand_ins[id(path_copy)] = (path_copy, original)
    return copied, shadowed


def _place_along_chains(
    instance: Any, copied: Any, split: dict[Any, Any], rebuilt: dict[Any, Any], shadowed: Shadow
) -> list[tuple[Any, Any, int]]:
    """Put what was rebuilt at the end of each read chain (``self.cfg.optimizer.w``) into a
    copy of every object, dict and list along it; return the (original, copy, kind) made.

    A chain's steps are attributes stored in plain objects' ``__dict__`` and items of dicts
    and lists (``read_paths.follow``). What was already rebuilt whole (read whole through
    another attribute) is used as it is; the rest is copied once, holding the real objects
    elsewhere, since the method never reads them.
    """
    made: list[tuple[Any, Any, int]] = []
    for name, value in split.items():
        if isinstance(name, str) or rebuilt.get(name, value) is value:
            continue  # an attribute read whole, or nothing to stand in for
        parent, original = copied, instance
        for step in name[:-1]:
            child = original[step.key] if isinstance(step, Item) else read_state(original)[step]
            child_copy = shadowed.built.get(id(child))
            if child_copy is None or child_copy is child:
                child_kind = kind(child)
                child_copy = _empty_copy(child, child_kind)
                _fill(child_copy, child_kind, child, children_of(child, child_kind, "self")[1])
                shadowed.built[id(child)] = child_copy
                made.append((child, child_copy, child_kind))
            _set_step(parent, step, child_copy)
            parent, original = child_copy, child
        _set_step(parent, name[-1], rebuilt[name])
    return made


def _set_step(parent: Any, step: Any, value: Any) -> None:
    if isinstance(step, Item):
        parent[step.key] = value
    else:
        object.__setattr__(parent, step, value)
