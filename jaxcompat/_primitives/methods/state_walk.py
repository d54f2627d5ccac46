"""Walking the state of ``self``: what each value is, and its entry in a static key.

A jitted method compares everything it can reach from ``self`` on every call
(``instance_state``). :func:`describe` gives a value's entry in the static key:

* arrays (jax, numpy, tracers) are not in the key: they are collected, to be traced;
* atoms (numbers, strings, None, ...) by type and value;
* lists, tuples, dicts, plain objects, dataclasses and registered pytrees by their structure
  and, recursively, their contents; a node holding only atoms is compared in one go;
* functions, classes, modules and objects without attributes by identity, and other objects
  with their own ``__hash__`` by their own ``==``.

The walk is cycle-safe (an object met again becomes a back-reference) and depth-limited.
A value that has no value to compare (an iterator, an open file, an object whose ``__eq__``
raises) is keyed by identity: while tracing, the method meets a stand-in for it that raises
an error naming its path, such as ``self.cfg.loader``, if it is read (``unreadable``), so
state the method never reads costs nothing and raises nothing.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
import types
from typing import Any

import jax
import numpy as np

from ..flattening import flatten_one_level
from ..jit_object import PjitFunction
from ..leaf_types import ATOMIC_TYPES, Tracer

#: How deep the walk through ``self``'s state goes before it gives up with a ValueError.
MAX_STATE_DEPTH = 200


class Kind(enum.IntEnum):
    """What the walk does with a value, decided once per type (see _kind_of).

    An IntEnum, so a kind in a static key hashes and compares as its int does, in C.
    """

    ATOM = 0  # a number, string, None...: compared as it is
    ARRAY = 1  # a JAX or NumPy array or a tracer: an argument of the traced function
    LIST = 2  # walked into; it can change in place
    TUPLE = 3  # walked into
    DICT = 4  # walked into; it can change in place
    OBJECT = 5  # a dataclass, or an instance with a __dict__ or slots: attributes walked
    PYTREE = 6  # a registered pytree node: its children walked
    VALUE = 7  # hashable with its own __hash__: compared by its own == and hash
    IDENTITY = 8  # a function, class, module, lock: compared by identity
    SET = 9  # compared as a frozenset of its items
    NO_VALUE = 10  # nothing to compare (an iterator, an open file): stood in for


ATOM, ARRAY, LIST, TUPLE, DICT, OBJECT, PYTREE, VALUE, IDENTITY, SET, NO_VALUE = Kind
MUTABLE_KINDS = frozenset({LIST, DICT, OBJECT})
NODE_KINDS = frozenset({LIST, TUPLE, DICT, OBJECT, PYTREE})

# Functions, classes and modules are compared by identity: that is their value.
_IDENTITY_TYPES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.ModuleType,
    type,
    functools.partial,  # jaxcompat's own jitted functions too
    type(functools.lru_cache(lambda: None)),  # a cached function is a function
    PjitFunction,  # JAX's jitted functions
    # What a logger writes is a side effect, not a value the result depends on; walked, it
    # would reach every logger of the process and its handlers' open streams.
    logging.Logger,
    logging.LoggerAdapter,
    logging.Handler,
)

# Values compared by their own == that cannot change in place: the very same object always
# gives the same static-key entry, so a split that met only these can be reused (see guards).
_IMMUTABLE_VALUE_TYPES = (np.dtype, np.generic, enum.Enum)

_ARRAY_MARK = "array"  # where an array sits, in a static key
_REF = "ref"  # an object met before in the same walk: (_REF, its visit number)


def _is_array_type(cls: type) -> bool:
    return issubclass(cls, (jax.Array, Tracer, np.ndarray))


def _is_pytree_node(value: Any) -> bool:
    children, _ = flatten_one_level(value)
    return not (len(children) == 1 and children[0] is value)


def _kind_of(cls: type, sample: Any) -> Kind:
    if cls in ATOMIC_TYPES:
        return ATOM
    if getattr(cls, "_jaxcompat_compare_by_identity", False):  # jaxcompat's own machinery
        return IDENTITY
    if _is_array_type(cls):
        return ARRAY
    if issubclass(cls, list):
        return LIST
    if issubclass(cls, tuple):
        return TUPLE
    if issubclass(cls, dict):
        return DICT
    if issubclass(cls, (set, frozenset)):
        return SET
    if issubclass(cls, _IDENTITY_TYPES):
        return IDENTITY
    if hasattr(cls, "__next__"):  # iterators, generators, open files
        return NO_VALUE
    try:  # registration is per type, so one sample decides
        if _is_pytree_node(sample):
            return PYTREE
    except Exception:  # a flatten function that fails: not something we can look into
        return NO_VALUE
    if dataclasses.is_dataclass(cls):
        return OBJECT
    if cls.__hash__ is not None and cls.__hash__ is not object.__hash__:
        return VALUE  # it claims a value: hashed and compared by its own methods
    if cls.__dictoffset__ or slot_names(cls):
        return OBJECT
    if cls.__eq__ is object.__eq__:
        return IDENTITY  # no state and identity equality: a lock, a sentinel
    return NO_VALUE  # compares by value, yet is neither hashable nor inspectable


_KINDS: dict[type, Kind] = {}


def kind(value: Any) -> Kind:
    cls = type(value)
    found = _KINDS.get(cls)
    if found is None:
        found = _KINDS[cls] = _kind_of(cls, value)
    return found


_SLOT_NAMES: dict[type, tuple[str, ...]] = {}


def slot_names(cls: type) -> tuple[str, ...]:
    """The slot attributes instances of ``cls`` may have, once per type."""
    found = _SLOT_NAMES.get(cls)
    if found is None:
        names: list[str] = []
        for klass in cls.__mro__:
            slots = klass.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name not in ("__dict__", "__weakref__") and name not in names:
                    names.append(name)
        found = _SLOT_NAMES[cls] = tuple(names)
    return found


def read_state(obj: Any) -> dict[str, Any]:
    """An object's attributes: its slots, then its ``__dict__``; never calls ``__getattr__``."""
    cls = type(obj)
    slots = slot_names(cls)
    instance_dict = obj.__dict__ if cls.__dictoffset__ else None
    if not slots:
        return instance_dict if type(instance_dict) is dict else dict(instance_dict or {})
    state: dict[str, Any] = {}
    for name in slots:
        descriptor = next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__)
        try:
            value = descriptor.__get__(obj, cls)
        except AttributeError:  # an unset slot
            continue
        state[name] = value
    state.update(instance_dict or {})
    return state


def class_state(cls: type) -> dict[str, Any]:
    """A class's data attributes (a classmethod's ``cls``): no methods, descriptors or dunders."""
    state: dict[str, Any] = {}
    for klass in reversed(cls.__mro__[:-1]):
        for name, value in vars(klass).items():
            if name.startswith("__") or isinstance(value, type):
                continue
            if hasattr(type(value), "__get__"):  # functions, properties, jitted methods
                continue
            state[name] = value
    return state


class StateError(TypeError):
    """A value in ``self``'s state that a jitted method cannot compare between calls."""


#: Where a value sits: a root name such as ``"self"``, or (parent path, parent kind, key).
#: Built as a chain and formatted only for an error message, so the walk pays nothing.
Path = Any


def path_text(path: Path) -> str:
    if isinstance(path, str):
        return path
    parent, parent_kind, key = path
    if parent_kind is OBJECT:
        return f"{path_text(parent)}.{key}"
    return f"{path_text(parent)}[{key!r}]"


#: Why a value is refused, said after what the value is and why it has no value.
READ_WHILE_TRACED = (
    "The method read it while it was traced, and a compiled call would not see it change."
)
_IN_CLASS_STATE = "A jitted classmethod compares every data attribute of its class on every call."
_IN_STATE = "A jitted method compares the state it reaches from self on every call."


def refusal(path: Path, value: Any, why: str, context: str = _IN_STATE) -> StateError:
    return StateError(
        f"jaxcompat.jit cannot tell whether {path_text(path)} ({type(value).__qualname__}) changed "
        f"between calls: {why}. {context} Pass the object as an argument instead, keep it on "
        "another object, or make self static with static_argnums=0 (self is then hashed and "
        "compared with its own __hash__ and __eq__)."
    )


def value_kind_of(value: Any) -> Kind:
    """VALUE if the object's own hash and == work on it; else how else to walk it."""
    try:
        hash(value)
        bool(value == value)
    except Exception:
        if dataclasses.is_dataclass(value) or type(value).__dictoffset__:
            return OBJECT  # its state can still be compared
        return NO_VALUE
    return VALUE


def no_value_reason(value: Any) -> str:
    """Why ``value`` (of kind NO_VALUE) has no value to compare, for an error message."""
    if hasattr(type(value), "__next__"):
        return "an iterator or open file has no value to compare"
    try:
        hash(value)
        bool(value == value)
    except Exception as error:
        return f"its __hash__ or __eq__ raised {error!r}"
    return "it is neither hashable nor an object whose attributes can be read"


class Walk:
    """One walk through an instance's state: the arrays met, and the nodes visited."""

    __slots__ = ("arrays", "class_state", "counts", "guards", "reached_root", "refs", "seen")

    def __init__(
        self,
        root: Any,
        *,
        class_state: bool = False,
        counting: bool = False,
        guarding: bool = False,
    ) -> None:
        self.arrays: list[Any] = []
        self.seen: dict[int, int] = {id(root): 0}
        # Back-references and values with no value to compare: each needs a stand-in (a
        # copy, or an Unreadable) while tracing, as arrays need tracers.
        self.refs = 0
        # Whether a back-reference led to the root (self) itself.
        self.reached_root = False
        # A class's data attributes (a classmethod's state): arrays there are constants, and
        # nothing is copied while tracing, so nothing can stand in for an unreadable value.
        self.class_state = class_state
        # Per visited node (by id): the arrays and stand-ins below it. Only shadow() asks,
        # to know which objects need a copy while tracing.
        self.counts: dict[int, int] | None = {} if counting else None
        # Per mutable node visited: (node, kind, structure, children), the guards under which
        # this walk's result still holds (see ``state_guard``). None once the walk meets a
        # value whose key entry can change while the object stays the same.
        self.guards: list[tuple[Any, int, Any, tuple[Any, ...]]] | None = [] if guarding else None


class _Same:
    """A static-key entry for an immutable array: equal only to itself."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


def children_of(value: Any, node_kind: int, path: Path) -> tuple[Any, list[Any]]:
    """A node's structure (part of the key: its length, keys or names) and its children."""
    if node_kind is LIST or node_kind is TUPLE:
        return len(value), list(value)
    if node_kind is DICT:
        return tuple(value), list(value.values())
    if node_kind is OBJECT:
        state = read_state(value)
        return tuple(state), list(state.values())
    children, treedef = flatten_one_level(value)
    try:
        hash(treedef)
    except Exception as error:
        raise refusal(path, value, "its pytree auxiliary data cannot be hashed") from error
    return treedef, children


def child_path(path: Path, node_kind: int, structure: Any, index: int) -> Path:
    key = structure[index] if node_kind is DICT or node_kind is OBJECT else index
    return (path, node_kind, key)


def describe(value: Any, walk: Walk, path: Path, depth: int) -> Any:
    """The static-key entry of ``value``; its arrays are appended to ``walk.arrays``."""
    value_kind = kind(value)
    if value_kind is ATOM:
        return (type(value), value)
    if value_kind is ARRAY:
        if walk.class_state:  # a class's attributes: arrays are constants
            if isinstance(value, np.ndarray):
                return (np.ndarray, value.shape, value.dtype.str, value.tobytes())
            return _Same(value)
        walk.arrays.append(value)
        return _ARRAY_MARK
    if value_kind is IDENTITY:
        return value
    if value_kind is SET:
        walk.guards = None  # a set's items can change in place
        try:
            return (type(value), frozenset(value))
        except Exception as error:
            raise refusal(path, value, f"its items cannot be hashed ({error})") from error
    if value_kind is VALUE:
        value_kind = value_kind_of(value)
        if value_kind is VALUE:
            if not isinstance(value, _IMMUTABLE_VALUE_TYPES):
                walk.guards = None  # its own == may change as it changes in place
            return (type(value), value)
    if value_kind is NO_VALUE:
        if walk.class_state:
            raise refusal(path, value, no_value_reason(value), _IN_CLASS_STATE)
        walk.refs += 1  # stood in for while tracing: see shadow and unreadable
        return _Same(value)
    visit = walk.seen.get(id(value))
    if visit is not None:
        walk.refs += 1
        walk.reached_root = walk.reached_root or visit == 0
        return (_REF, visit)
    if depth > MAX_STATE_DEPTH:
        raise ValueError(
            f"jaxcompat.jit: {path_text(path)} is nested more than {MAX_STATE_DEPTH} levels "
            "deep in self's state; a jitted method compares all of that state on every call. "
            "Pass deep structures as arguments instead."
        )
    walk.seen[id(value)] = len(walk.seen)
    structure, children = children_of(value, value_kind, path)
    if walk.guards is not None:
        if value_kind is PYTREE:
            walk.guards = None  # its flatten decides, and may differ on the same object
        elif value_kind is not TUPLE:  # a tuple's children are fixed: its own are guarded
            walk.guards.append((value, value_kind, structure, tuple(children)))
    child_types = tuple(map(type, children))
    if ATOMIC_TYPES.issuperset(child_types):  # only atoms below: compared in one go, in C
        entries: Any = (tuple(children), child_types)
        if walk.counts is not None:
            walk.counts[id(value)] = 0
    else:
        before = len(walk.arrays) + walk.refs
        entries = tuple(
            (type(child), child)
            if type(child) in ATOMIC_TYPES
            else describe(child, walk, child_path(path, value_kind, structure, i), depth + 1)
            for i, child in enumerate(children)
        )
        if walk.counts is not None:
            walk.counts[id(value)] = len(walk.arrays) + walk.refs - before
    return (value_kind, type(value), structure, entries)
