"""``jax.tree_util`` registration functions that older releases lack or that lack defaults."""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, TypeVar, cast

from jax import tree_util
from jax._src import tree_util as tree_util_internal

T = TypeVar("T")

__all__ = [
    "flatten_one_level",
    "flatten_one_level_with_keys",
    "is_tree_node",
    "register_dataclass",
    "register_static",
]


def register_static(cls: type[T]) -> type[T]:
    """``jax.tree_util.register_static`` (JAX 0.4.18): a pytree node with no leaves."""
    tree_util.register_pytree_with_keys(cls, lambda obj: ((), obj), lambda obj, _: obj)
    return cls


def _inferred_fields(nodetype: type, drop_fields: Sequence[str]) -> tuple[list[str], list[str]]:
    if not dataclasses.is_dataclass(nodetype):
        raise TypeError(
            "register_dataclass: data_fields and meta_fields are required when"
            f" nodetype is not a dataclass. Got {nodetype=}."
        )
    fields = dataclasses.fields(nodetype)
    data = [f.name for f in fields if not f.metadata.get("static", False)]
    meta = [f.name for f in fields if f.metadata.get("static", False)]
    return (
        [name for name in data if name not in drop_fields],
        [name for name in meta if name not in drop_fields],
    )


def _check_fields(
    nodetype: type,
    data_fields: tuple[str, ...],
    meta_fields: tuple[str, ...],
    drop_fields: Sequence[str],
) -> None:
    # The checks and messages of the newest JAX's register_dataclass.
    if dataclasses.is_dataclass(nodetype):
        init_fields = {f.name for f in dataclasses.fields(nodetype) if f.init}
        init_fields.difference_update(drop_fields)
        if {*meta_fields, *data_fields} != init_fields:
            message = (
                "data_fields and meta_fields must include all dataclass fields with"
                " ``init=True`` and only them."
            )
            if missing := init_fields - {*meta_fields, *data_fields}:
                message += (
                    f" Missing fields: {missing}. Add them to drop_fields to suppress this error."
                )
            if unexpected := {*meta_fields, *data_fields} - init_fields:
                message += f" Unexpected fields: {unexpected}."
            raise ValueError(message)
    if overlap := set(data_fields) & set(meta_fields):
        raise ValueError(
            f"data_fields and meta_fields must not overlap. Overlapping fields: {overlap}."
        )


def register_dataclass(
    nodetype: type[T],
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
    drop_fields: Sequence[str] = (),
) -> type[T]:
    """``jax.tree_util.register_dataclass`` with the newest signature (JAX 0.4.36).

    ``data_fields`` and ``meta_fields`` may be left out for a dataclass: fields are data
    unless marked static (``jax.tree.static``); ``drop_fields`` are left out of the node.
    """
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields must both be specified"
                f" when either is specified. Got {data_fields=} {meta_fields=}."
            )
        data_fields, meta_fields = _inferred_fields(nodetype, drop_fields)
    data = tuple(data_fields)
    meta = tuple(meta_fields)
    _check_fields(nodetype, data, meta, drop_fields)

    def flatten_with_keys(obj: T) -> tuple[Any, tuple[Any, ...]]:
        children = tuple((tree_util.GetAttrKey(name), getattr(obj, name)) for name in data)
        return children, tuple(getattr(obj, name) for name in meta)

    def unflatten(meta_values: tuple[Any, ...], data_values: Any) -> T:
        return nodetype(
            **dict(zip(meta, meta_values, strict=True)), **dict(zip(data, data_values, strict=True))
        )

    tree_util.register_pytree_with_keys(nodetype, flatten_with_keys, unflatten)
    return nodetype


def is_tree_node(typ: type) -> bool:
    """``jax.tree_util.is_tree_node`` (JAX 0.10.0): whether ``typ`` is a pytree node type.

    True for the built-in containers, every registered type and namedtuple types.
    """
    from jax._src import tree_util as registry_module  # the registered types, by type

    if typ in registry_module._registry:
        return True
    return isinstance(typ, type) and issubclass(typ, tuple) and hasattr(typ, "_fields")


# The containers the newest JAX's one-level flatteners give the children in (its C++ pytree
# registry decides): older releases' Python versions always give a list.
_LIST_CHILDREN = (list, collections.OrderedDict, collections.defaultdict)
_TUPLE_KEYED_CHILDREN = (tuple, list, dict, type(None))


def _is_unregistered_namedtuple(tree: Any) -> bool:
    return (
        isinstance(tree, tuple)
        and hasattr(tree, "_fields")
        and type(tree) not in tree_util_internal._registry
    )


def flatten_one_level(tree: Any) -> tuple[Iterable[Any], Hashable]:
    """``jax.tree_util.flatten_one_level`` (JAX 0.10.2): a node's children and metadata.

    jax._src.tree_util's own takes a ``pytree`` parameter before 0.4.36, and before 0.4.26
    it gives an unregistered namedtuple the metadata None where newer releases give its type.
    The children come in the newest JAX's container: a list for lists, ordered and default
    dicts and namedtuples; for other nodes a tuple where the node's flatten function gives
    one (tuples, dicts and None among them).
    """
    children, meta = tree_util_internal.flatten_one_level(tree)
    kind = type(tree)
    if _is_unregistered_namedtuple(tree):
        # Its type is its metadata (None before JAX 0.4.26).
        return list(children), cast(Hashable, kind) if meta is None else meta
    if kind in _LIST_CHILDREN:
        return list(children), meta
    flattened = tree_util_internal._registry[kind].to_iter(tree)[0]
    return (tuple(children) if isinstance(flattened, tuple) else list(children)), meta


def flatten_one_level_with_keys(tree: Any) -> tuple[Iterable[Any], Hashable]:
    """``jax.tree_util.flatten_one_level_with_keys`` (JAX 0.10.2): the children with keys.

    JAX's own (0.4.38, public from 0.10.2) keys every child of a namedtuple with its first
    field until 0.11.1; the keys here are those of the path flattening, which has always had
    them right.
    """
    children, meta = flatten_one_level(tree)  # a leaf raises the ValueError JAX does
    keyed, _ = tree_util.tree_flatten_with_path(tree, is_leaf=lambda node: node is not tree)
    pairs = [(path[0], child) for (path, _), child in zip(keyed, children, strict=True)]
    return (tuple(pairs) if type(tree) in _TUPLE_KEYED_CHILDREN else pairs), meta
