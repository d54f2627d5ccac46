"""The state a jitted method reads from ``self``, split into traced arrays and a static key.

``jax.jit(obj.method)`` bakes ``obj``'s attributes into the compiled code when it traces, so
its results go stale when they change. A jitted method instead splits the instance's state
on every call (:meth:`StateSplitter.split`): its arrays, wherever they sit, become traced
arguments, so new values reuse the compiled code; everything else becomes one static key,
compared by JAX with ``==`` (see ``state_walk`` for what the key holds), so any change at
any depth, in place or by rebinding, retraces. When JAX traces, ``shadow`` rebuilds the
state around the tracers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .method_reads import reads_of
from .read_paths import ReadSelector, entry_path
from .state_guard import StateGuard, picker
from .state_walk import (
    ARRAY,
    ATOM,
    DICT,
    IDENTITY,
    LIST,
    OBJECT,
    PYTREE,
    TUPLE,
    Walk,
    class_state,
    describe,
    kind,
    read_state,
    slot_names,
)


class _LastSplit(NamedTuple):
    """A split, with the class it was made for and the guard under which it still holds."""

    cls: type
    #: Whether that class's state is exactly the instance's ``__dict__`` (read it directly).
    state_is_dict: bool
    #: The guard's check (``StateGuard.check``), read once: it runs on every call.
    holds: Callable[[dict[str, Any]], bool]
    split: tuple[tuple[Any, ...], Any]


def _last_split(cls: type, guard: StateGuard, split: tuple[tuple[Any, ...], Any]) -> _LastSplit:
    return _LastSplit(cls, _STATE_IS_DICT[cls], guard.check, split)


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
        self.pick_arrays = picker(self.arrays)
        self.pick_atoms = picker(self.atoms)


#: How many layouts one method remembers before it starts afresh.
MAX_LAYOUTS = 256

_PYTREE_ROOT = "pytree"
_CLASS_ROOT = "class"


class StateSplitter:
    """Splits the instances of one jitted method into (traced arrays, static key).

    Only what the method can read counts (``method_reads``, ``read_paths``); where that
    cannot be told, every attribute.
    """

    def __init__(self, method: Callable[..., Any]) -> None:
        self._method = method
        # Per class of instance: what the method can read (None: any attribute).
        self._reads: dict[type, ReadSelector | None] = {}
        self._layouts: dict[tuple[Any, ...], Layout] = {}
        # The last split, with what it holds under: the very same attribute objects, and
        # every mutable node below them holding the very same children (``state_guard``),
        # give the very same split (and key, which JAX then matches by identity). Replaced
        # whole, so threads never see half of one.
        self.last: _LastSplit | None = None

    def split(self, instance: Any) -> tuple[tuple[Any, ...], Any]:
        # The last split first, with as little as can be done before it: on most calls it
        # holds (BoundJitted.__call__ checks it before calling this).
        cls = type(instance)
        last = self.last
        if last is not None and last.cls is cls:
            state = instance.__dict__ if last.state_is_dict else read_state(instance)
            if last.holds(state):
                return last.split
        elif _STATE_IS_DICT.get(cls):  # most instances: read the __dict__ directly
            state = instance.__dict__
        elif root_kind(instance) is OBJECT:
            state = read_state(instance)
        else:
            return _split_other(instance)
        reads = self.reads_of(cls)
        selected = None if reads is None else reads.select(instance, state)
        read = state if selected is None else selected.values
        names = tuple(read)
        values = tuple(read.values())
        layout_key = (cls, names, tuple(map(type, values)))
        layout = self._layouts.get(layout_key)
        if layout is None:
            if len(self._layouts) >= MAX_LAYOUTS:
                self._layouts.clear()
            layout = self._layouts[layout_key] = Layout(cls, names, values)
        arrays = layout.pick_arrays(values)
        if not layout.nested:
            split = arrays, (layout, layout.pick_atoms(values))
            self.last = _last_split(cls, StateGuard(state, selected, []), split)
            return split
        walk = Walk(instance, guarding=True)
        walk.arrays.extend(arrays)
        entries = tuple(describe(values[i], walk, entry_path(names[i]), 1) for i in layout.nested)
        if walk.reached_root and reads is not None:
            # What the method reads leads back to self, and so to the attributes it does
            # not name (self.child.parent.w): from now on, all of them count.
            self._reads[cls] = None
            return self.split(instance)
        walked: tuple[tuple[Any, ...], Any] = (
            tuple(walk.arrays),
            hashed_once((layout, layout.pick_atoms(values), entries)),
        )
        # A walk that reached self again keys on self itself (a back-reference), so it
        # holds for this instance alone; one that met a value that can change in place
        # without its parent seeing it has no guards.
        if walk.guards is not None and not walk.reached_root:
            self.last = _last_split(cls, StateGuard(state, selected, walk.guards), walked)
        return walked

    def reads_of(self, cls: type) -> ReadSelector | None:
        """What the method can read of a ``cls`` instance (None: any attribute)."""
        try:
            return self._reads[cls]
        except KeyError:
            reads = reads_of(self._method, cls)
            selector = self._reads[cls] = None if reads is None else ReadSelector(reads)
            return selector


class HashedKey:
    """A static key of nested state, hashed once: JAX hashes its static arguments on every
    call, and the key of a three-level config object is a tuple tree of dozens of nodes."""

    __slots__ = ("entries", "hash")

    def __init__(self, entries: tuple[Any, ...], hashed: int) -> None:
        self.entries = entries
        self.hash = hashed

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is HashedKey and other.hash == self.hash and other.entries == self.entries
        )


def hashed_once(entries: tuple[Any, ...]) -> Any:
    """``entries`` as a :class:`HashedKey`; as they are where they cannot be hashed, for JAX
    to refuse in its own words."""
    try:
        return HashedKey(entries, hash(entries))
    except TypeError:
        return entries


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
        elif cls.__dictoffset__ or slot_names(cls):
            found = OBJECT  # even with its own __eq__: every attribute counts
        else:
            found = PYTREE  # no attributes: walked as a value
        _ROOT_KINDS[cls] = found
        _STATE_IS_DICT[cls] = found is OBJECT and not slot_names(cls) and bool(cls.__dictoffset__)
    return found


def _split_other(instance: Any) -> tuple[tuple[Any, ...], Any]:
    if isinstance(instance, type):  # a classmethod's cls: its data attributes, arrays static
        walk = Walk(instance, class_state=True)
        state = class_state(instance)
        name = instance.__name__
        entries = tuple(describe(v, walk, (name, OBJECT, k), 1) for k, v in state.items())
        return (), (_CLASS_ROOT, instance, tuple(state), entries)
    walk = Walk(instance)
    walk.seen.clear()
    entry = describe(instance, walk, "self", 0)
    return tuple(walk.arrays), (_PYTREE_ROOT, entry)
