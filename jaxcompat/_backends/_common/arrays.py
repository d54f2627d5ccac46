"""``block_if_array``: wait for the jax Arrays in a pytree, leave every other leaf alone.

Seed case: Equinox's ``filter_jit(inline=True)`` crashed with ``'int' object has no attribute
'block_until_ready'`` because a marker array had been constant-folded to a Python int.
"""

from __future__ import annotations

from typing import Any, TypeVar

import jax

from .hashing import Tracer, _ByType

T = TypeVar("T")


def _is_concrete_array_type(cls: type) -> bool:
    # Tracers are registered as virtual subclasses of jax.Array on many releases.
    return issubclass(cls, jax.Array) and not issubclass(cls, Tracer)


IS_CONCRETE_ARRAY = _ByType(_is_concrete_array_type)


def _block_each(arrays: list[Any]) -> None:
    # Slow path after a failed wait: skip deleted and donated buffers (nothing to wait for),
    # and let every other error, such as one from the computation itself, propagate.
    for array in arrays:
        if not array.is_deleted():
            array.block_until_ready()


def block_if_array(tree: T) -> T:
    if IS_CONCRETE_ARRAY[type(tree)]:  # fast path: one array
        try:
            tree.block_until_ready()  # type: ignore[attr-defined]
        except Exception:
            if not tree.is_deleted():  # type: ignore[attr-defined]
                raise
        return tree
    arrays = [leaf for leaf in jax.tree_util.tree_leaves(tree) if IS_CONCRETE_ARRAY[type(leaf)]]
    if arrays:
        try:
            jax.block_until_ready(arrays)  # type: ignore[no-untyped-call]
        except Exception:
            _block_each(arrays)
    return tree
