"""``jax.tree`` names that older releases lack or that lack newer parameters."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from jax import tree_util

T = TypeVar("T")
IsLeaf = Callable[[Any], bool] | None

__all__ = ["static", "tree_all", "tree_broadcast", "tree_reduce_associative", "tree_transpose"]


def tree_all(tree: Any, *, is_leaf: IsLeaf = None) -> bool:
    """``jax.tree.all``: whether every leaf is truthy (``is_leaf`` arrived in JAX 0.4.30)."""
    return all(tree_util.tree_leaves(tree, is_leaf=is_leaf))


def tree_broadcast(prefix_tree: Any, full_tree: Any, is_leaf: IsLeaf = None) -> Any:
    """``jax.tree.broadcast`` (JAX 0.6.2): repeat each leaf of a tree prefix over its subtree."""
    prefix_leaves, prefix_def = tree_util.tree_flatten(prefix_tree, is_leaf=is_leaf)
    treedef_of: Callable[[Any], Any] = tree_util.tree_structure
    try:
        subtrees = prefix_def.flatten_up_to(full_tree)  # type: ignore[attr-defined, unused-ignore]
    except ValueError as error:
        raise ValueError(f"prefix_tree is not a tree prefix of full_tree: {error}") from None
    broadcast = []
    for leaf, subtree in zip(prefix_leaves, subtrees, strict=True):
        broadcast += [leaf] * treedef_of(subtree).num_leaves
    return treedef_of(full_tree).unflatten(broadcast)


class _NoIdentity:
    def __repr__(self) -> str:
        return "<no identity>"


_NO_IDENTITY: Any = _NoIdentity()


def _halving_reduce(leaves: Sequence[T], operation: Callable[[T, T], T]) -> T:
    # The association order of JAX 0.7.0's reduce_associative: split at the middle, reduce
    # each half, combine. It matters for floating point, so it is kept exactly.
    if len(leaves) == 1:
        only: T = leaves[0]
        return only
    middle = len(leaves) // 2
    return operation(
        _halving_reduce(leaves[:middle], operation), _halving_reduce(leaves[middle:], operation)
    )


def tree_reduce_associative(
    operation: Callable[[T, T], T],
    tree: Any,
    *,
    identity: Any = _NO_IDENTITY,
    is_leaf: IsLeaf = None,
) -> T:
    """``jax.tree.reduce_associative`` (JAX 0.7.0): reduce the leaves pairwise."""
    leaves: list[T] = tree_util.tree_leaves(tree, is_leaf=is_leaf)
    if not leaves:
        if identity is _NO_IDENTITY:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        result: T = identity
        return result
    return _halving_reduce(leaves, operation)


def tree_transpose(outer_treedef: Any, inner_treedef: Any, pytree_to_transpose: Any) -> Any:
    """``jax.tree.transpose``; ``inner_treedef=None`` (inferred) arrived in JAX 0.4.25."""
    if inner_treedef is None:
        first_inner = outer_treedef.flatten_up_to(pytree_to_transpose)[0]
        inner_treedef = tree_util.tree_structure(first_inner)
    return tree_util.tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose)


def static(**field_options: Any) -> Any:
    """``jax.tree.static``: a dataclass field that ``register_dataclass`` infers as static."""
    metadata = {"static": True, **(field_options.pop("metadata", None) or {})}
    return dataclasses.field(metadata=metadata, **field_options)
