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

import jax
import numpy as np

#: JAX's tracer base class. ``jax.core.Tracer`` is public and silent on every supported release.
Tracer: type = jax.core.Tracer

# Exact types whose hash never touches user code or tracers: the fast path.
ATOMIC_TYPES: frozenset[type] = frozenset(
    {int, float, complex, str, bytes, bool, type(None), type(Ellipsis), range, slice}
)

_CYCLE = hash("jaxcompat.tracer_safe_hash: cycle")


class _ByType(dict[type, bool]):
    """A per-type cache of a yes/no decision; ``__missing__`` decides once per type."""

    def __init__(self, decide: Callable[[type], bool]) -> None:
        super().__init__()
        self._decide = decide

    def __missing__(self, cls: type) -> bool:
        answer = self[cls] = self._decide(cls)
        return answer


def _hashes_by_identity(cls: type) -> bool:
    # Tracers and jax Arrays: JAX hashes neither, and their value is not a Python value.
    return issubclass(cls, Tracer) or issubclass(cls, jax.Array)


#: True for tracer types and concrete jax Array types.
HASHES_BY_IDENTITY = _ByType(_hashes_by_identity)


def is_tracer(x: object) -> bool:
    return isinstance(x, Tracer)


def _structural_hash(obj: Any, active: set[int]) -> int:
    """Hash ``obj`` by structure, tracers and jax Arrays by identity, never raising.

    ``active`` holds the mutable containers being hashed: a cycle must pass through one.
    """
    cls = type(obj)
    if cls in ATOMIC_TYPES:
        return hash(obj)
    if HASHES_BY_IDENTITY[cls]:
        return object.__hash__(obj)
    if cls is tuple:  # immutable: cannot close a cycle by itself
        return hash((cls, tuple(_hash_items(obj, active))))
    key = id(obj)
    if key in active:
        return _CYCLE
    active.add(key)
    try:
        return _hash_parts(obj, cls, active)
    finally:
        active.discard(key)


def _hash_items(items: Any, active: set[int]) -> list[int]:
    # Leaves are handled inline: a pytree of tracers is mostly leaves.
    return [
        hash(item)
        if type(item) in ATOMIC_TYPES
        else object.__hash__(item)
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
    treedef: Any = None
    try:
        leaves, treedef = jax.tree_util.tree_flatten(obj)
    except Exception:  # a pytree whose flatten function fails
        leaves = [obj]
    if treedef is not None and not (len(leaves) == 1 and leaves[0] is obj):  # a pytree node
        try:
            structure = hash(treedef)
        except Exception:  # auxiliary data that cannot be hashed
            structure = treedef.num_leaves
        return hash((cls, structure, tuple([_structural_hash(x, active) for x in leaves])))
    if dataclasses.is_dataclass(obj):
        fields = tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
        return hash((cls, _structural_hash(fields, active)))
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


def make_tracer_safe_hash(release_hash: Callable[[Any], int]) -> Callable[[Any], int]:
    """Build ``tracer_safe_hash`` around ``release_hash``, this release's way to call hash.

    ``release_hash`` either hashes tracers silently by identity or raises; it must never warn.
    What it cannot hash is hashed by a walk in Python that tracks the containers it is inside:
    JAX's C++ pytree flatten cannot be used for this, because a self-referential container
    overflows the C stack in jaxlib 0.4.13 and corrupts the interpreter's recursion depth
    after the RecursionError in later releases.
    """

    def tracer_safe_hash(obj: Any) -> int:
        try:
            return release_hash(obj)
        except Exception:  # unhashable, or hashing reached a tracer (JAX >= 0.4.36)
            return _structural_hash(obj, set())

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
    "ATOMIC_TYPES",
    "HASHES_BY_IDENTITY",
    "Tracer",
    "has_identity_hash",
    "is_tracer",
    "make_tracer_safe_hash",
    "quiet_tracer_hash_inside",
]
