"""What a jitted method reads of one instance, on each call: its read paths, followed.

``method_reads`` says, from the method's code, what of ``self`` it can read (``Reads``):
attributes read whole, attribute chains (``self.cfg.optimizer.rate``) and name prefixes
(``getattr(self, f"w{i}")``). :meth:`ReadSelector.select` gives what those reach on one
instance, as the one dict that ``instance_state`` splits and ``shadow`` rebuilds: keyed by
the attribute's name for what is read whole, and by the chain (a tuple) for the value at the
end of a chain. A large config object costs only the chains the method reads in it.

A chain is followed on every call, so rebinding any object along it is seen. It is followed
through plain objects only, and stops where the method's own attribute read could run code
or meet something other than a stored attribute; what it reached there counts whole. It
stops at:

* a value that is not a plain object (a list, a dict, a registered pytree, an object compared
  by its own ``==``), or one with slots or its own ``__getattribute__``;
* an attribute its class defines (a method, a property, any descriptor);
* an attribute the object does not have (the method then meets its own AttributeError, or
  the class's ``__getattr__``);
* ``self`` itself, reached back: then every attribute counts (``instance_state``).
"""

from __future__ import annotations

import inspect
from typing import Any, NamedTuple

from .method_reads import ReadPath, Reads
from .state_walk import OBJECT, Path, kind, slot_names

#: A key of the selected state: an attribute's name, or a chain below it.
EntryName = str | ReadPath

_MISSING = object()
_OBJECT_GETATTRIBUTE = vars(object)["__getattribute__"]

#: How many attribute layouts one selector remembers the prefixed names of.
MAX_PREFIXED_LAYOUTS = 256


class Selected(NamedTuple):
    """The state a method reads of one instance, and how its chains reached it."""

    #: By attribute name (read whole) or by chain followed (the value at its end).
    values: dict[EntryName, Any]
    #: Each step a chain took: (object, attribute name, the value stored there).
    links: list[tuple[Any, str, Any]]


class ReadSelector:
    """The state one method reads of instances of one class, selected on each call."""

    def __init__(self, reads: Reads) -> None:
        self.whole = tuple(path[0] for path in reads.paths if len(path) == 1)
        self.chains = tuple(path for path in reads.paths if len(path) > 1)
        self.prefixes = reads.prefixes
        # Per tuple of an instance's attribute names: those that start with a prefix.
        self._prefixed: dict[tuple[str, ...], tuple[str, ...]] = {}

    def select(self, instance: Any, state: dict[str, Any]) -> Selected:
        """What the method reads of ``instance``, whose attributes are ``state``."""
        selected = Selected({name: state[name] for name in self.whole if name in state}, [])
        if self.prefixes:
            for prefixed in self._prefixed_names(state):
                selected.values[prefixed] = state[prefixed]
        for chain in self.chains:
            # A first name the instance lacks is a class attribute (a method, a property:
            # what it reads was collected) or the method's own AttributeError.
            value = state.get(chain[0], _MISSING)
            if value is not _MISSING:
                followed, value = follow(instance, value, chain, selected.links)
                selected.values[followed] = value
        return selected

    def _prefixed_names(self, state: dict[str, Any]) -> tuple[str, ...]:
        names = tuple(state)
        found = self._prefixed.get(names)
        if found is None:
            if len(self._prefixed) >= MAX_PREFIXED_LAYOUTS:
                self._prefixed.clear()
            found = tuple(name for name in names if name.startswith(self.prefixes))
            self._prefixed[names] = found
        return found


def follow(
    instance: Any, value: Any, chain: ReadPath, links: list[tuple[Any, str, Any]]
) -> tuple[EntryName, Any]:
    """Where ``chain`` leads from ``value`` (the instance's ``chain[0]``): the part of the
    chain followed, and the value there; each step taken is added to ``links``."""
    for depth in range(1, len(chain)):
        step = chain[depth]
        found = _MISSING
        if value is not instance and _stored_attribute(value, step):
            found = value.__dict__.get(step, _MISSING)
        if found is _MISSING:
            return (chain[0] if depth == 1 else chain[:depth]), value
        links.append((value, step, found))
        value = found
    return chain, value


# Per class, per attribute name: whether reading it is reading the instance's __dict__.
_STORED: dict[type, dict[str, bool]] = {}


def _stored_attribute(value: Any, name: str) -> bool:
    """Whether ``value.name`` reads ``value``'s ``__dict__`` and nothing else."""
    cls = type(value)
    per_class = _STORED.get(cls)
    if per_class is None:
        per_class = _STORED[cls] = {}
    stored = per_class.get(name)
    if stored is None:
        stored = per_class[name] = (
            kind(value) is OBJECT
            and bool(cls.__dictoffset__)
            and not slot_names(cls)
            and inspect.getattr_static(cls, "__getattribute__") is _OBJECT_GETATTRIBUTE
            and inspect.getattr_static(cls, name, _MISSING) is _MISSING
        )
    return stored


def entry_path(name: EntryName) -> Path:
    """Where a selected value sits, for error messages: ``self.cfg.optimizer.rate``."""
    if isinstance(name, str):
        return ("self", OBJECT, name)
    path: Path = "self"
    for step in name:
        path = (path, OBJECT, step)
    return path
