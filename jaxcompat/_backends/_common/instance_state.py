"""The state a jitted method reads from ``self``: split into traced arrays and a static key.

``jax.jit(obj.method)`` bakes ``obj``'s attributes into the compiled code when it traces, so
its results go stale when they change. A jitted method instead reads the instance's state
on every call and splits it:

* arrays (jax, numpy, tracers), wherever they sit, become traced arguments, so new values
  reuse the compiled code;
* everything else becomes a *static key* that JAX compares with ``==``: atoms by value and
  type, containers, plain objects, dataclasses and registered pytrees by their contents,
  recursively, so any change at any depth, in place or by rebinding, retraces.

The walk is cycle-safe (an object met again becomes a back-reference) and depth-limited.
State that has no value to compare (an iterator, an open file, an object whose ``__eq__``
raises) is refused with an error naming its attribute path, such as ``self.cfg.loader``.

When JAX traces, :func:`shadow` rebuilds the state around the tracers: every object on the
way to an array is copied, the rest is the real object. :meth:`Shadow.write_back` then moves
what the method assigned to those copies onto the real objects, as under ``jax.jit``.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import operator
import types
from collections.abc import Callable, Iterator
from typing import Any

import jax
import numpy as np

from .hashing import ATOMIC_TYPES, Tracer, flatten_one_level

#: How deep the walk through ``self``'s state goes before it gives up with a ValueError.
MAX_STATE_DEPTH = 200

# What the walk does with a value, decided once per type (see _kind_of).
ATOM, ARRAY, LIST, TUPLE, DICT, OBJECT, PYTREE, VALUE, IDENTITY, SET, NO_VALUE = range(11)
_MUTABLE = frozenset({LIST, DICT, OBJECT})
_NODES = frozenset({LIST, TUPLE, DICT, OBJECT, PYTREE})

# Functions, classes and modules are compared by identity: that is their value.
_IDENTITY_TYPES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.ModuleType,
    type,
    functools.partial,  # jaxcompat's own jitted functions too
    type(jax.jit(lambda x: x)),  # JAX's jitted functions
)

_ARRAY_MARK = "array"  # where an array sits, in a static key
_REF = "ref"  # an object met before in the same walk: (_REF, its visit number)


def _is_array_type(cls: type) -> bool:
    return issubclass(cls, (jax.Array, Tracer, np.ndarray))


def _is_pytree_node(value: Any) -> bool:
    children, _ = flatten_one_level(value)
    return not (len(children) == 1 and children[0] is value)


def _kind_of(cls: type, sample: Any) -> int:
    if cls in ATOMIC_TYPES:
        return ATOM
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
    if cls.__dictoffset__ or _slot_names(cls):
        return OBJECT
    if cls.__eq__ is object.__eq__:
        return IDENTITY  # no state and identity equality: a lock, a sentinel
    return NO_VALUE  # compares by value, yet is neither hashable nor inspectable


_KINDS: dict[type, int] = {}


def kind(value: Any) -> int:
    cls = type(value)
    found = _KINDS.get(cls)
    if found is None:
        found = _KINDS[cls] = _kind_of(cls, value)
    return found


_SLOT_NAMES: dict[type, tuple[str, ...]] = {}


def _slot_names(cls: type) -> tuple[str, ...]:
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
    slots = _slot_names(cls)
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


def _refuse(path: Path, value: Any, why: str) -> StateError:
    return StateError(
        f"jaxcompat.jit cannot tell whether {path_text(path)} ({type(value).__qualname__}) changed "
        f"between calls: {why}. A jitted method compares everything it can reach from self "
        "on every call. Pass the object as an argument instead, keep it on another object, "
        "or make self static with static_argnums=0 (self is then hashed and compared with "
        "its own __hash__ and __eq__)."
    )


def _value_kind(value: Any, path: Path) -> int:
    """VALUE if the object's own hash and == work on it; else how else to walk it."""
    try:
        hash(value)
        bool(value == value)
    except Exception as error:
        if dataclasses.is_dataclass(value) or type(value).__dictoffset__:
            return OBJECT  # its state can still be compared
        raise _refuse(path, value, f"its __hash__ or __eq__ raised {error!r}") from error
    return VALUE


class _Walk:
    """One walk through an instance's state: the arrays met, and the nodes visited."""

    __slots__ = ("arrays", "arrays_static", "counts", "refs", "seen")

    def __init__(self, root: Any, *, arrays_static: bool = False, counting: bool = False) -> None:
        self.arrays: list[Any] = []
        self.seen: dict[int, int] = {id(root): 0}
        self.refs = 0
        self.arrays_static = arrays_static
        # Per visited node (by id): the arrays and back-references below it. Only shadow()
        # asks, to know which objects need a copy around tracers.
        self.counts: dict[int, int] | None = {} if counting else None


class _Same:
    """A static-key entry for an immutable array: equal only to itself."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


def _children(value: Any, node_kind: int, path: Path) -> tuple[Any, list[Any]]:
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
        raise _refuse(path, value, "its pytree auxiliary data cannot be hashed") from error
    return treedef, children


def _child_path(path: Path, node_kind: int, structure: Any, index: int) -> Path:
    key = structure[index] if node_kind is DICT or node_kind is OBJECT else index
    return (path, node_kind, key)


def describe(value: Any, walk: _Walk, path: Path, depth: int) -> Any:
    """The static-key entry of ``value``; its arrays are appended to ``walk.arrays``."""
    value_kind = kind(value)
    if value_kind is ATOM:
        return (type(value), value)
    if value_kind is ARRAY:
        if walk.arrays_static:  # a class's attributes: arrays are constants
            if isinstance(value, np.ndarray):
                return (np.ndarray, value.shape, value.dtype.str, value.tobytes())
            return _Same(value)
        walk.arrays.append(value)
        return _ARRAY_MARK
    if value_kind is IDENTITY:
        return value
    if value_kind is SET:
        try:
            return (type(value), frozenset(value))
        except Exception as error:
            raise _refuse(path, value, f"its items cannot be hashed ({error})") from error
    if value_kind is NO_VALUE:
        why = "an iterator or open file has no value to compare"
        if not hasattr(type(value), "__next__"):
            why = "it is neither hashable nor an object whose attributes can be read"
        raise _refuse(path, value, why)
    if value_kind is VALUE:
        value_kind = _value_kind(value, path)
        if value_kind is VALUE:
            return (type(value), value)
    visit = walk.seen.get(id(value))
    if visit is not None:
        walk.refs += 1
        return (_REF, visit)
    if depth > MAX_STATE_DEPTH:
        raise ValueError(
            f"jaxcompat.jit: {path_text(path)} is nested more than {MAX_STATE_DEPTH} levels "
            "deep in self's state; a jitted method compares all of that state on every call. "
            "Pass deep structures as arguments instead."
        )
    walk.seen[id(value)] = len(walk.seen)
    structure, children = _children(value, value_kind, path)
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
            else describe(child, walk, _child_path(path, value_kind, structure, i), depth + 1)
            for i, child in enumerate(children)
        )
        if walk.counts is not None:
            walk.counts[id(value)] = len(walk.arrays) + walk.refs - before
    return (value_kind, type(value), structure, entries)


# --- Splitting an instance, on every call ---------------------------------------------------


def _picker(indices: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    if not indices:
        return lambda values: ()
    if len(indices) == 1:
        index = indices[0]
        return lambda values: (values[index],)
    return operator.itemgetter(*indices)


class Layout:
    """Where the arrays, atoms and nested values of one attribute layout sit.

    A layout is a pure function of (class, attribute names, attribute types), memoized per
    method; it hashes by identity, so it costs nothing in the static key.
    """

    __slots__ = ("arrays", "atoms", "cls", "names", "nested", "pick_arrays", "pick_atoms")

    def __init__(self, cls: type, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
        self.cls = cls
        self.names = names
        kinds = [kind(value) for value in values]
        self.arrays = [i for i, k in enumerate(kinds) if k is ARRAY]
        self.atoms = [i for i, k in enumerate(kinds) if k is ATOM]
        self.nested = [i for i, k in enumerate(kinds) if k is not ARRAY and k is not ATOM]
        self.pick_arrays = _picker(self.arrays)
        self.pick_atoms = _picker(self.atoms)


#: How many layouts one method remembers before it starts afresh.
MAX_LAYOUTS = 256

_PYTREE_ROOT = "pytree"
_CLASS_ROOT = "class"


class StateSplitter:
    """Splits the instances of one jitted method into (traced arrays, static key)."""

    def __init__(self) -> None:
        self._layouts: dict[tuple[Any, ...], Layout] = {}
        # The last split of state made only of arrays and atoms, which cannot change in
        # place: the very same attribute objects give the very same split (and key, which
        # JAX then matches by identity). Replaced whole, so threads never see half of one.
        self._last_immutable: tuple[type, tuple[str, ...], tuple[Any, ...], Any] | None = None

    def split(self, instance: Any) -> tuple[tuple[Any, ...], Any]:
        cls = type(instance)
        if _STATE_IS_DICT.get(cls):  # most instances: read the __dict__ directly
            state = instance.__dict__
        elif root_kind(instance) is OBJECT:
            state = read_state(instance)
        else:
            return _split_other(instance)
        last = self._last_immutable
        if (
            last is not None
            and last[0] is cls
            and last[1] == tuple(state)
            and all(map(operator.is_, last[2], state.values()))
        ):
            return last[3]  # type: ignore[no-any-return]
        names = tuple(state)
        values = tuple(state.values())
        layout_key = (cls, names, tuple(map(type, values)))
        layout = self._layouts.get(layout_key)
        if layout is None:
            if len(self._layouts) >= MAX_LAYOUTS:
                self._layouts.clear()
            layout = self._layouts[layout_key] = Layout(cls, names, values)
        arrays = layout.pick_arrays(values)
        if not layout.nested:
            split = arrays, (layout, layout.pick_atoms(values))
            self._last_immutable = (cls, names, values, split)
            return split
        walk = _Walk(instance)
        walk.arrays.extend(arrays)
        entries = tuple(
            describe(values[i], walk, ("self", OBJECT, names[i]), 1) for i in layout.nested
        )
        return tuple(walk.arrays), (layout, layout.pick_atoms(values), entries)


_ROOT_KINDS: dict[type, int] = {}
# Per type: its instances' state is exactly their __dict__ (no slots, walked by attributes).
_STATE_IS_DICT: dict[type, bool] = {}


def root_kind(instance: Any) -> int:
    """How ``self`` itself is walked: OBJECT (by attributes), PYTREE, or IDENTITY (a class)."""
    cls = type(instance)
    found = _ROOT_KINDS.get(cls)
    if found is None:
        if isinstance(instance, type):
            found = IDENTITY
        elif kind(instance) in (PYTREE, LIST, TUPLE, DICT):
            found = PYTREE
        elif cls.__dictoffset__ or _slot_names(cls):
            found = OBJECT  # even with its own __eq__: every attribute counts
        else:
            found = PYTREE  # no attributes: walked as a value
        _ROOT_KINDS[cls] = found
        _STATE_IS_DICT[cls] = found is OBJECT and not _slot_names(cls) and bool(cls.__dictoffset__)
    return found


def _split_other(instance: Any) -> tuple[tuple[Any, ...], Any]:
    if isinstance(instance, type):  # a classmethod's cls: its data attributes, arrays static
        walk = _Walk(instance, arrays_static=True)
        state = class_state(instance)
        name = instance.__name__
        entries = tuple(describe(v, walk, (name, OBJECT, k), 1) for k, v in state.items())
        return (), (_CLASS_ROOT, instance, tuple(state), entries)
    walk = _Walk(instance)
    walk.seen.clear()
    entry = describe(instance, walk, "self", 0)
    return tuple(walk.arrays), (_PYTREE_ROOT, entry)


# --- Shadowing an instance, while tracing ---------------------------------------------------

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
            value_kind = _value_kind(value, path)
        if value_kind not in _NODES:
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
        structure, children = _children(value, value_kind, path)
        paths = [_child_path(path, value_kind, structure, i) for i in range(len(children))]
        if value_kind in _MUTABLE:
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

    def real(self, value: Any) -> Any:
        """The real object behind a stand-in, or ``value`` itself."""
        entry = self.stand_ins.get(id(value))
        return entry[1] if entry is not None and entry[0] is value else value

    def write_back(self) -> None:
        """Apply what was assigned to the copies while tracing to the real objects."""
        for original, copied, copied_kind, before in self.copies:
            after = _contents(copied, copied_kind)
            if copied_kind is LIST:
                if len(after) != len(before) or any(map(operator.is_not, after, before)):
                    original[:] = [self.real(item) for item in after]
                continue
            set_item = _setter(original, copied_kind)
            for name, item in after.items():
                if name not in before or before[name] is not item:
                    set_item(name, self.real(item))
            for name in before.keys() - after.keys():
                if copied_kind is DICT:
                    del original[name]
                else:
                    object.__delattr__(original, name)


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


def shadow(instance: Any, arrays: tuple[Any, ...]) -> tuple[Any, Shadow]:
    """``instance``'s state with ``arrays`` (tracers) in place of its arrays, in split order."""
    tracers = iter(arrays)
    if isinstance(instance, type):
        return instance, Shadow({}, tracers)  # a class's arrays are constants of the key
    counting = _Walk(instance, counting=True)
    if root_kind(instance) is not OBJECT:
        counting.seen.clear()
        describe(instance, counting, "self", 0)
        shadowed = Shadow(counting.counts or {}, tracers)
        return shadowed.rebuild(instance, "self"), shadowed
    state = read_state(instance)
    nested = [name for name, value in state.items() if kind(value) not in (ARRAY, ATOM)]
    for name in nested:
        describe(state[name], counting, ("self", OBJECT, name), 1)
    shadowed = Shadow(counting.counts or {}, tracers)
    if not arrays and not counting.refs:
        return instance, shadowed  # nothing to trace: the method runs on the instance itself
    copied = _empty_copy(instance, OBJECT)
    shadowed.built[id(instance)] = copied
    # Tracers come in split()'s order: the top-level arrays, then those of nested values.
    rebuilt = {
        name: shadowed.rebuild(v, ("self", OBJECT, name))
        for name, v in state.items()
        if kind(v) is ARRAY
    }
    rebuilt.update({name: shadowed.rebuild(state[name], ("self", OBJECT, name)) for name in nested})
    for name, value in state.items():
        object.__setattr__(copied, name, rebuilt.get(name, value))
    shadowed.copies.append((instance, copied, OBJECT, _contents(copied, OBJECT)))
    shadowed.stand_ins[id(copied)] = (copied, instance)
    return copied, shadowed
