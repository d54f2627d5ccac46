"""What a jitted method reads of one instance, on each call: its read paths, followed.

``method_reads`` says, from the method's code, what of ``self`` it can read (``Reads``):
attributes read whole, chains of attribute loads and constant subscripts
(``self.cfg.optimizer.rate``, ``self.params["dense"][0]``) and name prefixes
(``getattr(self, f"w{i}")``). :meth:`ReadSelector.select` gives what those reach on one
instance, as the one dict that ``instance_state`` splits and ``shadow`` rebuilds: keyed by
the attribute's name for what is read whole, and by the chain (a tuple) for the value at the
end of a chain. A large config object costs only the chains the method reads in it.

A chain is followed on every call, so rebinding any object along it is seen. It is followed
through plain objects (by attribute), dicts and lists (by item) only, and stops where the
method's own read could run code or meet something other than a stored value; what it
reached there counts whole. It stops at:

* an attribute of a value that is not a plain object (a list, a dict, a registered pytree,
  an object compared by its own ``==``), or of one with slots or its own
  ``__getattribute__``;
* an attribute its class makes a data descriptor (a property): it comes before the
  ``__dict__`` (a method or a dataclass field's default comes after it, so a name stored
  in the ``__dict__`` is followed);
* an item of anything but a ``dict`` or a ``list`` (a subclass may define ``__getitem__``);
* an attribute or item that is not there (the method then meets its own error, or the
  class's ``__getattr__``);
* ``self`` itself, reached back: then every attribute counts (``instance_state``).
"""

from __future__ import annotations

import inspect
from typing import Any, NamedTuple

from .method_reads import Item, ReadPath, Reads
from .state_walk import DICT, OBJECT, Path, kind, slot_names

#: A key of the selected state: an attribute's name, or a chain below it.
EntryName = str | ReadPath

_MISSING = object()
_OBJECT_GETATTRIBUTE = vars(object)["__getattribute__"]

#: How many attribute layouts one selector remembers the prefixed names of.
MAX_PREFIXED_LAYOUTS = 256


#: A step a chain took: (object or container, attribute name or key, the value there).
Link = tuple[Any, Any, Any]


class Selected(NamedTuple):
    """The state a method reads of one instance, and how its chains reached it."""

    #: By attribute name (read whole) or by chain followed (the value at its end).
    values: dict[EntryName, Any]
    #: Each attribute step a chain took, from an object's __dict__.
    attribute_links: list[Link]
    #: Each item step a chain took, from a dict or a list.
    item_links: list[Link]


class ReadSelector:
    """The state one method reads of instances of one class, selected on each call."""

    def __init__(self, reads: Reads) -> None:
        self.whole = tuple(str(path[0]) for path in reads.paths if len(path) == 1)
        self.chains = tuple(path for path in reads.paths if len(path) > 1)
        self.prefixes = reads.prefixes
        # Per tuple of an instance's attribute names: those that start with a prefix.
        self._prefixed: dict[tuple[str, ...], tuple[str, ...]] = {}
        # Per class met along a chain, per attribute name: whether reading it reads the
        # instance's __dict__ alone. Kept by this method, as what it reads is.
        self._stored: dict[type, dict[str, bool]] = {}

    def select(self, instance: Any, state: dict[str, Any]) -> Selected:
        """What the method reads of ``instance``, whose attributes are ``state``."""
        whole: dict[EntryName, Any] = {name: state[name] for name in self.whole if name in state}
        selected = Selected(whole, [], [])
        if self.prefixes:
            for prefixed in self._prefixed_names(state):
                selected.values[prefixed] = state[prefixed]
        for chain in self.chains:
            # A first name the instance lacks is a class attribute (a method, a property:
            # what it reads was collected) or the method's own AttributeError.
            value = state.get(str(chain[0]), _MISSING)
            if value is not _MISSING:
                followed, value = self.follow(instance, value, chain, selected)
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
        self, instance: Any, value: Any, chain: ReadPath, selected: Selected
    ) -> tuple[EntryName, Any]:
        """Where ``chain`` leads from ``value`` (the instance's ``chain[0]``): the part of the
        chain followed, and the value there; each step taken is added to ``selected``."""
        for depth in range(1, len(chain)):
            step = chain[depth]
            found = _MISSING
            if value is instance:
                pass  # a back-reference: walked whole, it makes every attribute count
            elif type(step) is Item:
                container = type(value)
                if container is dict:
                    found = value.get(step.key, _MISSING)
                elif container is list and type(step.key) is int and step.key < len(value):
                    found = value[step.key]
                if found is not _MISSING:
                    selected.item_links.append((value, step.key, found))
            elif self._stored_attribute(value, str(step)):
                found = value.__dict__.get(step, _MISSING)
                if found is not _MISSING:
                    selected.attribute_links.append((value, step, found))
            if found is _MISSING:
                return (str(chain[0]) if depth == 1 else chain[:depth]), value
            value = found
        return chain, value

    def _stored_attribute(self, value: Any, name: str) -> bool:
        """Whether ``value.name`` reads ``value``'s ``__dict__`` when the name is there.

        Python's lookup puts a data descriptor of the class (a property, a slot) before the
        instance's ``__dict__``, and anything else the class holds (a method, a dataclass
        field's default) after it.
        """
        cls = type(value)
        per_class = self._stored.get(cls)
        if per_class is None:
            per_class = self._stored[cls] = {}
        stored = per_class.get(name)
        if stored is None:
            stored = per_class[name] = (
                kind(value) is OBJECT
                and bool(cls.__dictoffset__)
                and not slot_names(cls)
                and inspect.getattr_static(cls, "__getattribute__") is _OBJECT_GETATTRIBUTE
                and not _is_data_descriptor(inspect.getattr_static(cls, name, None))
            )
        return stored


def _is_data_descriptor(class_attribute: Any) -> bool:
    kind_of_attribute = type(class_attribute)
    return hasattr(kind_of_attribute, "__set__") or hasattr(kind_of_attribute, "__delete__")


def entry_path(name: EntryName) -> Path:
    """Where a selected value sits, for error messages: ``self.cfg.optimizer.rate``."""
    if isinstance(name, str):
        return ("self", OBJECT, name)
    path: Path = "self"
    for step in name:
        path = (path, DICT, step.key) if isinstance(step, Item) else (path, OBJECT, step)
    return path
