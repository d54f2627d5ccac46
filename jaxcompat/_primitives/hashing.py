"""Tracer detection and tracer-safe hashing.

JAX changed what ``hash(tracer)`` does three times: silent (id-based) up to 0.4.29, a
FutureWarning in 0.4.30-0.4.35 (jax-ml/jax#21517), and a TypeError from 0.4.36 on, when
``Tracer.__hash__`` became None. Each backend passes ``make_tracer_safe_hash`` the way to call
``hash`` on its release; the fallback below never calls a tracer's ``__hash__``.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from .flattening import SCANNED, acyclic_tree_flatten, flatten_one_level
from .leaf_types import ATOMIC_TYPES, HASHES_BY_IDENTITY, ByType, Tracer

_CYCLE = hash("jaxcompat.tracer_safe_hash: cycle")
_TOO_DEEP = hash("jaxcompat.tracer_safe_hash: too deep")


def is_tracer(x: object) -> bool:
    return isinstance(x, Tracer)


def _structural_hash(obj: Any, active: set[int]) -> int:
    """Hash ``obj`` by structure, tracers and jax Arrays by identity, never raising.

    The fallback for what JAX's pytree flatten cannot take. ``active`` holds the mutable
    containers being hashed: a cycle must pass through one.
    """
    cls = type(obj)
    if cls in ATOMIC_TYPES:
        return hash(obj)
    if HASHES_BY_IDENTITY[cls]:
        return id(obj)
    if cls is tuple:  # immutable: cannot close a cycle by itself
        return hash((cls, tuple(_hash_items(obj, active))))
    if HAS_OWN_HASH[cls]:
        # Its own __hash__ agrees with its own __eq__; structure might not (compare=False).
        try:
            return hash(obj)
        except Exception:  # the hash reached a tracer (JAX >= 0.4.36)
            pass
    key = id(obj)
    if key in active:
        return _CYCLE
    active.add(key)
    try:
        return _hash_parts(obj, cls, active)
    finally:
        active.discard(key)


def walk_hash(obj: Any) -> int:
    """:func:`_structural_hash` from the top, never raising."""
    try:
        return _structural_hash(obj, set())
    except RecursionError:  # nested deeper than the interpreter's recursion limit
        return hash((type(obj), _TOO_DEEP))


def _hash_items(items: Any, active: set[int]) -> list[int]:
    # Leaves are handled inline: a pytree of tracers is mostly leaves.
    return [
        hash(item)
        if type(item) in ATOMIC_TYPES
        else id(item)
        if HASHES_BY_IDENTITY[type(item)]
        else _structural_hash(item, active)
        for item in items
    ]


def _hash_parts(obj: Any, cls: type, active: set[int]) -> int:
    if isinstance(obj, (tuple, list)):
        return hash((cls, tuple(_hash_items(obj, active))))
    if isinstance(obj, dict):
        # Equal dicts are equal whatever their order, so their hash must not depend on it.
        keys, values = _hash_items(obj.keys(), active), _hash_items(obj.values(), active)
        return hash((cls, frozenset(zip(keys, values, strict=True))))
    if isinstance(obj, (set, frozenset)):
        return hash((cls, frozenset(_structural_hash(item, active) for item in obj)))
    if isinstance(obj, np.ndarray):
        return hash((cls, obj.shape, obj.dtype.str, obj.tobytes()))
    if dataclasses.is_dataclass(obj):
        # The fields dataclass equality compares, and no others.
        compared = tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.compare)
        return hash((cls, _structural_hash(compared, active)))
    treedef: Any = None
    try:
        leaves, treedef = flatten_one_level(obj)
    except Exception:  # a pytree whose flatten function fails
        leaves = [obj]
    if treedef is not None and not (len(leaves) == 1 and leaves[0] is obj):  # a pytree node
        try:
            structure = hash(treedef)
        except Exception:  # auxiliary data that cannot be hashed
            structure = treedef.num_leaves
        return hash((cls, structure, tuple(_hash_items(leaves, active))))
    state = _instance_state(obj)
    if state is not None:
        return hash((cls, _structural_hash(state, active)))
    return object.__hash__(obj)


def _instance_state(obj: object) -> dict[str, Any] | None:
    state: dict[str, Any] = {}
    for klass in type(obj).__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                state[name] = getattr(obj, name)
    instance_dict = getattr(obj, "__dict__", None)
    if isinstance(instance_dict, dict):
        state.update(instance_dict)
    return state or None


def _has_own_hash(cls: type) -> bool:
    # Neither unhashable (None) nor the identity hash every object inherits.
    own: object = cls.__hash__
    return own is not None and own is not object.__hash__ and cls is not tuple


#: True for types that define their own ``__hash__``.
HAS_OWN_HASH = ByType(_has_own_hash)


def _identities_by_id(objects: list[Any]) -> tuple[int, ...]:
    return tuple(map(id, objects))


def _identities_by_address(objects: list[Any]) -> bytes:
    # An object array's buffer holds the objects' addresses: their ids, packed by numpy in C,
    # about three times faster than map(id, ...) for a thousand tracers.
    return np.fromiter(objects, dtype=object, count=len(objects)).tobytes()


def _pick_identities() -> Callable[[list[Any]], tuple[int, ...] | bytes]:
    try:  # numpy < 1.23 cannot build an object array from an iterator
        probe = object()
        if _identities_by_address([probe]) == id(probe).to_bytes(
            np.dtype(np.intp).itemsize, sys.byteorder
        ):
            return _identities_by_address
    except (TypeError, ValueError):
        pass
    return _identities_by_id


#: The identities of a list of objects, as one hashable value.
identities = _pick_identities()


#: How many pytree structures :func:`make_tracer_safe_hash` remembers before it starts afresh.
MAX_REMEMBERED_STRUCTURES = 256

# A cache key whose structure changed: JAX's mismatch error formats the mismatching subtree
# (a repr that can fetch every array in it), so such a key is not tried again.
_UNSTABLE = None


def make_tracer_safe_hash(
    release_hash: Callable[[Any], int], *, flatten_up_to_checks_none: bool
) -> Callable[[Any], int]:
    """Build ``tracer_safe_hash`` around ``release_hash``, this release's way to call hash.

    ``release_hash`` either hashes tracers silently by identity or raises; it must never warn.
    What it cannot hash, a pytree holding tracers for instance, is hashed by its structure,
    with the leaves by identity or by their own hash:

    * The first pytree of each container type and length is flattened by JAX's C++ flatten,
      once :func:`acyclic_tree_flatten` has ruled out a cycle, and its structure is kept.
    * The next one of that type and length is matched against the kept structure by
      ``treedef.flatten_up_to``, which walks the kept structure, not the new object, and so
      needs no cycle check. It raises where the object has a different node, and returns what
      sits at each leaf position; that is a leaf of the object only if JAX's flatten treats its
      type as a leaf. This is about three times faster than the check and a fresh flatten.
      A key whose structure changes is not matched again (see ``_UNSTABLE``).
    * ``flatten_up_to_checks_none`` says whether this release's ``flatten_up_to`` raises where
      a None of the kept structure faces a leaf. Up to jaxlib 0.4.33 it does not (measured),
      and a structure holding a None is then not kept.

    Anything else (a cycle, a custom pytree node, unsortable dict keys) is hashed by a walk in
    Python that tracks the containers it is inside.
    """
    # (container type, length) -> (treedef, hash of the structure), or _UNSTABLE.
    structures: dict[tuple[type, int], tuple[Any, int] | None] = {}
    # Types that JAX's flatten returned as leaves, and those of them hashed by identity.
    leaf_types: set[type] = set()
    identity_leaf_types: set[type] = set()

    def leaf_hash(leaf: Any) -> int:
        if HASHES_BY_IDENTITY[type(leaf)]:
            return id(leaf)
        try:
            return release_hash(leaf)
        except Exception:  # an unhashable leaf (a numpy array), or one holding tracers
            return walk_hash(leaf)

    def hash_leaves(structure: int, leaves: list[Any], kinds: set[type]) -> int:
        if kinds <= identity_leaf_types:  # the common case, tracers: identities gathered in C
            return hash((structure, identities(leaves)))
        return hash((structure, tuple(map(leaf_hash, leaves))))

    def hash_kept_structure(obj: Any, key: tuple[type, int]) -> int | None:
        kept = structures.get(key)
        if kept is None:
            return None
        treedef, structure = kept
        try:
            leaves = treedef.flatten_up_to(obj)
        except Exception:  # another structure under the same key
            structures[key] = _UNSTABLE
            return None
        kinds = set(map(type, leaves))
        if not kinds <= leaf_types:  # a node (None, a list, ...) where the kept one has a leaf
            structures[key] = _UNSTABLE
            return None
        return hash_leaves(structure, leaves, kinds)

    def hash_unhashable(obj: Any) -> int:
        key: tuple[type, int] | None
        try:  # a list, tuple or dict, or a subclass of one
            key = (type(obj), len(obj)) if SCANNED.get(type(obj)) else None
        except Exception:  # a subclass's own __len__ failed
            key = None
        if key is not None:
            kept = hash_kept_structure(obj, key)
            if kept is not None:
                return kept
        try:
            leaves, treedef, keys, holds_none = acyclic_tree_flatten(obj)
            structure = hash((treedef, keys))
        except Exception:  # a cycle, deep nesting, unsortable dict keys, unhashable aux data
            return walk_hash(obj)
        if not leaves:
            return structure
        if leaves[0] is obj and len(leaves) == 1:  # not a pytree node: no structure to use
            return walk_hash(obj)
        kinds = set(map(type, leaves))
        if not kinds <= leaf_types:
            identity_leaf_types.update(filter(HASHES_BY_IDENTITY.__getitem__, kinds))
            leaf_types.update(kinds)
        # Kept for the first pytree of its key; a key seen before is kept already or unstable.
        keep = flatten_up_to_checks_none or not holds_none
        if keep and key is not None and key not in structures:
            if len(structures) >= MAX_REMEMBERED_STRUCTURES:
                structures.clear()
            structures[key] = (treedef, structure)
        return hash_leaves(structure, leaves, kinds)

    def tracer_safe_hash(obj: Any) -> int:
        try:
            return release_hash(obj)
        except Exception:  # unhashable, or hashing reached a tracer (JAX >= 0.4.36)
            return hash_unhashable(obj)

    return tracer_safe_hash


def quiet_tracer_hash_inside(tracer_class: type, tracer_safe_hash: types.FunctionType) -> None:
    """Make ``tracer_class.__hash__`` quiet, on the calling thread, inside ``tracer_safe_hash``.

    The installed ``__hash__`` looks up the calling thread's own stack: below a
    ``tracer_safe_hash`` frame it hashes by identity without a warning, and anywhere else it
    calls JAX's method unchanged (the FutureWarning, or the TypeError when the deprecation is
    accelerated). ``tracer_safe_hash`` itself pays nothing, the process-wide warning filters
    are untouched, and the stack is walked only when a tracer is actually hashed.
    """
    original = tracer_class.__dict__["__hash__"]
    original = getattr(original, "__wrapped__", original)  # installed once, even on reload
    quiet_code = tracer_safe_hash.__code__

    def __hash__(self: object) -> int:
        frame: types.FrameType | None = sys._getframe(1)
        while frame is not None:
            if frame.f_code is quiet_code:
                return object.__hash__(self)
            frame = frame.f_back
        result: int = original(self)
        return result

    __hash__.__wrapped__ = original  # type: ignore[attr-defined]
    tracer_class.__hash__ = __hash__  # type: ignore[method-assign,assignment]


def has_identity_hash(obj: object) -> bool:
    """True when hashing ``obj`` cannot touch a tracer: it hashes and compares by identity."""
    cls = type(obj)
    return cls.__hash__ is object.__hash__ and cls.__eq__ is object.__eq__


__all__ = [
    "MAX_REMEMBERED_STRUCTURES",
    "has_identity_hash",
    "is_tracer",
    "make_tracer_safe_hash",
    "quiet_tracer_hash_inside",
]
