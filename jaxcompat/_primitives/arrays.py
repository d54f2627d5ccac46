"""``block_if_array``: wait for the jax Arrays in a pytree, leave every other leaf alone.

Seed case: Equinox's ``filter_jit(inline=True)`` crashed with ``'int' object has no attribute
'block_until_ready'`` because a marker array had been constant-folded to a Python int.

JAX's C++ flatten must never see a self-referential pytree: jaxlib 0.4.13 overflows the C
stack (a segfault), later releases raise SystemError and can leave the interpreter's
recursion counter broken. The pytree is first checked by ``acyclic_tree_flatten``; what that
check cannot clear (a cycle, deep nesting, custom pytree nodes) is walked in Python instead,
one level at a time, each node once, so cycles are handled and depth costs no stack.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import Any, TypeVar

from jaxlib import xla_client

from .flattening import UnsafeToFlatten, acyclic_tree_flatten, flatten_one_level
from .leaf_types import ATOMIC_TYPES, IS_CONCRETE_ARRAY

T = TypeVar("T")


def _block_one_by_one(arrays: list[Any]) -> None:
    for array in arrays:
        array.block_until_ready()


#: Wait for a list of concrete jax Arrays. jaxlib 0.4.26 added ``batched_block_until_ready``,
#: which ``jax.block_until_ready`` itself calls from then on; called on the list directly, it
#: skips JAX's second flatten of the leaves block_if_array has already picked.
wait_for_arrays: Callable[[list[Any]], None] = getattr(
    xla_client, "batched_block_until_ready", _block_one_by_one
)


def _block_each(arrays: list[Any]) -> None:
    # Slow path after a failed wait: skip deleted and donated buffers (nothing to wait for),
    # and let every other error, such as one from the computation itself, propagate.
    for array in arrays:
        if not array.is_deleted():
            array.block_until_ready()


def _leaves_walked(tree: Any) -> list[Any]:
    """The leaves of ``tree``, each node visited once, without recursion."""
    leaves: list[Any] = []
    stack = [tree]
    visited: set[int] = set()
    while stack:
        node = stack.pop()
        if type(node) in ATOMIC_TYPES or IS_CONCRETE_ARRAY[type(node)]:
            leaves.append(node)
            continue
        if id(node) in visited:
            continue
        visited.add(id(node))
        # One level only: every child is a leaf to this flatten, so it cannot recurse.
        children = flatten_one_level(node)[0]
        if len(children) == 1 and children[0] is node:
            leaves.append(node)
        else:
            stack.extend(reversed(children))
    return leaves


def _leaves(tree: Any) -> list[Any]:
    try:
        return acyclic_tree_flatten(tree)[0]
    except UnsafeToFlatten:
        return _leaves_walked(tree)


def block_if_array(tree: T) -> T:
    if IS_CONCRETE_ARRAY[type(tree)]:  # fast path: one array
        try:
            tree.block_until_ready()  # type: ignore[attr-defined]
        except Exception:
            if not tree.is_deleted():  # type: ignore[attr-defined]
                raise
        return tree
    leaves = _leaves(tree)
    # The leaves' types are looked up in C: most pytrees hold many leaves of a few types.
    arrays = list(compress(leaves, map(IS_CONCRETE_ARRAY.__getitem__, map(type, leaves))))
    if arrays:
        try:
            wait_for_arrays(arrays)
        except Exception:
            _block_each(arrays)
    return tree
