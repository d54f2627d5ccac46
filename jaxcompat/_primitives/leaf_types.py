"""What the walks over a pytree ask of a leaf's type, answered once per type.

``tracer_safe_hash`` (``hashing``), ``block_if_array`` (``arrays``), the method jit's walk
through ``self`` (``methods.state_walk``) and the cycle screen (``cycles``) each meet every
leaf of the pytrees they are given, most of them arrays and numbers: the types those are
told apart by are defined here, once.
"""

from __future__ import annotations

from collections.abc import Callable

import jax

#: JAX's tracer base class. ``jax.core.Tracer`` is public and silent on every supported release.
Tracer: type = jax.core.Tracer

#: Exact types whose hash never touches user code or tracers, and which JAX's flatten takes
#: as leaves: every walk's fast path.
ATOMIC_TYPES: frozenset[type] = frozenset(
    {int, float, complex, str, bytes, bool, type(None), type(Ellipsis), range, slice}
)


class ByType(dict[type, bool]):
    """A per-type cache of a yes/no decision; ``__missing__`` decides once per type (a
    ``dict`` lookup in C for every type met before, where ``isinstance`` of an ABC such as
    ``jax.Array`` runs Python code)."""

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
HASHES_BY_IDENTITY = ByType(_hashes_by_identity)


def _is_concrete_array_type(cls: type) -> bool:
    # Tracers are registered as virtual subclasses of jax.Array on many releases.
    return issubclass(cls, jax.Array) and not issubclass(cls, Tracer)


#: True for the concrete jax Array types (a tracer is not one).
IS_CONCRETE_ARRAY = ByType(_is_concrete_array_type)
