"""The helpers that give a newest keyword of ``jax.numpy``, ``jax.lax``, ``jax.nn`` and
``jax.tree_util`` functions through the installed release's own function, where no module of
its own (``numpy.py``, ``linalg.py``, ...) holds it (the rules are in
``_keywords/rules/functions.py``).

Each takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs).
"""

from __future__ import annotations

import inspect
from typing import Any

import jax
import numpy as np

from .._primitives.cycles import refuse_cycles
from .._version import JAX_VERSION_STRING

__all__ = [
    "as_dot_general",
    "cast_before_the_product",
    "computed_in_the_dtype",
    "correction_as_ddof",
    "indices_of_the_dtype",
    "keys_joined_as_asked",
    "leaves_chosen_by_path",
    "mapped_in_batches",
    "masked_as_zero_weight",
    "negative_indices_as_allowed",
    "placed_on_device",
    "registered_with_keys",
    "sorted_as_asked",
    "top_k_along_axis",
    "unused_by_newest",
]


def placed_on_device(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    return jax.device_put(function(*args, **kwargs), values["device"])


def sorted_as_asked(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """jnp.sort or jnp.argsort (both stable before JAX 0.4.24) with stable= and descending=."""
    if not values.get("descending", False):
        return function(*args, **kwargs)  # a stable sort is one that stable=False may give
    bound = inspect.signature(function).bind(*args, **kwargs)
    array = jax.numpy.asarray(bound.arguments.pop("a"))
    axis = bound.arguments.pop("axis", -1)
    if axis is None:
        array, axis = array.ravel(), 0
    rest = bound.arguments
    if path == "jax.numpy.sort":
        return jax.numpy.flip(function(array, axis, **rest), axis)
    if not values.get("stable", True):
        return jax.numpy.flip(function(array, axis, **rest), axis)
    # As the newest argsort: sort the reversed array stably and reverse the indices, so that
    # equal elements keep their order.
    size = array.shape[axis]
    indices = function(jax.numpy.flip(array, axis), axis, **rest)
    return jax.numpy.flip((size - 1) - indices, axis)


def correction_as_ddof(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """std and var before JAX 0.4.29: correction= is ddof=, and both is an error."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    ddof = bound.arguments.get("ddof", 0)
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    bound.arguments["ddof"] = values["correction"]
    return function(*bound.args, **bound.kwargs)


def keys_joined_as_asked(function: Any, path: str, values: dict[str, Any], keys: Any, /) -> str:
    """keystr before JAX 0.5.1, with simple= and separator=."""
    text = _simple_key_text if values.get("simple", False) else str
    return str(values.get("separator", "")).join(map(text, keys))


def _simple_key_text(key: Any) -> str:
    """A key's text without its brackets or dot (JAX 0.5.1's simple keystr)."""
    tree_util = jax.tree_util
    for kind, field in (
        (tree_util.SequenceKey, "idx"),
        (tree_util.DictKey, "key"),
        (tree_util.GetAttrKey, "name"),
        (tree_util.FlattenedIndexKey, "key"),
    ):
        if isinstance(key, kind):
            return str(getattr(key, field))
    return str(key)


def top_k_along_axis(function: Any, path: str, values: dict[str, Any], operand: Any, k: int) -> Any:
    """top_k before JAX 0.8.1, along the axis given: along the last of the axis moved there."""
    operand = jax.numpy.asarray(operand)
    axis = values["axis"]
    if not -operand.ndim <= axis < max(operand.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {operand.ndim}")
    moved = jax.numpy.moveaxis(operand, axis, -1)
    top_values, top_indices = function(moved, k)
    # A list, as lax.top_k returns on every release: the same pytree structure.
    return [jax.numpy.moveaxis(top_values, -1, axis), jax.numpy.moveaxis(top_indices, -1, axis)]


def negative_indices_as_allowed(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """dynamic_slice and its kin before JAX 0.5.3 (a negative index counts from the end),
    with allow_negative_indices= (a bool, or one per dimension for the ``start_indices``
    functions). Where it is False, a static negative index (an int) is the newest's
    ValueError, and a traced one becomes 0, where XLA clamps it when the release does not
    count it from the end (the index is never negative then)."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    shape = jax.numpy.shape(bound.arguments["operand"])
    allowed = values["allow_negative_indices"]
    if "start_indices" in bound.arguments:
        indices = bound.arguments["start_indices"]
        if len(indices) != len(shape):
            return function(*args, **kwargs)  # the release's own error
        flags = [allowed] * len(shape) if isinstance(allowed, bool) else list(allowed)
        if len(flags) != len(shape):
            raise ValueError(
                f"allow_negative_indices has {len(flags)} entries, but the operand has "
                f"{len(shape)} dimensions: give one bool per dimension, or one for all"
            )
        bound.arguments["start_indices"] = [
            index if allow else _not_from_the_end(index, size)
            for index, size, allow in zip(list(indices), shape, flags, strict=True)
        ]
    elif not allowed:
        name = "start_index" if "start_index" in bound.arguments else "index"
        size = shape[bound.arguments["axis"]]
        # The newest *_index_in_dim are jitted, so that even a static index is traced there.
        static = not path.endswith("index_in_dim")
        bound.arguments[name] = _not_from_the_end(bound.arguments[name], size, static)
    return function(*bound.args, **bound.kwargs)


def _not_from_the_end(index: Any, size: int, static: bool = True) -> Any:
    if static and isinstance(index, int | np.integer):
        if index < 0:
            raise ValueError(
                f"Index {index} is out of bounds for dimension {size} if "
                "allow_negative_indices=False"
            )
        return index
    index = jax.numpy.asarray(index)
    if jax.numpy.issubdtype(index.dtype, jax.numpy.unsignedinteger):
        return index
    return jax.lax.max(index, jax.numpy.zeros_like(index))


def mapped_in_batches(function: Any, path: str, values: dict[str, Any], f: Any, xs: Any) -> Any:
    """lax.map before JAX 0.4.31, with batch_size=: as the newest, the release's map (a scan)
    over batches of ``batch_size`` elements, each mapped with vmap, then the remainder mapped
    with vmap, joined along the leading axis."""
    batch_size = values["batch_size"]
    leaves, structure = jax.tree_util.tree_flatten(xs)
    if not leaves:
        return function(f, xs)  # the release's own error: nothing to map over
    size = leaves[0].shape[0]
    batches, remainder = (0, size) if batch_size == 0 else divmod(size, batch_size)
    used = batches * batch_size
    mapped = jax.vmap(f)
    parts = []
    if batches:
        batched = [leaf[:used].reshape(batches, batch_size, *leaf.shape[1:]) for leaf in leaves]
        ys = function(mapped, jax.tree_util.tree_unflatten(structure, batched))
        parts.append(jax.tree_util.tree_map(lambda y: y.reshape(-1, *y.shape[2:]), ys))
    if remainder:
        rest = [leaf[used:] for leaf in leaves]
        parts.append(mapped(jax.tree_util.tree_unflatten(structure, rest)))
    if len(parts) == 1:
        return parts[0]
    return jax.tree_util.tree_map(
        lambda whole, rest: jax.lax.concatenate([whole, rest], dimension=0), *parts
    )


def masked_as_zero_weight(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """nn.logsumexp before JAX 0.4.27, with where=: an element left out is one of weight 0
    (``b``), which the release leaves out of the maximum and the sum alike. The weight of
    the others is 1, weakly typed, so that it does not change the result's dtype."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    where = values["where"]
    weight = bound.arguments.get("b")
    if weight is None:
        bound.arguments["b"] = jax.numpy.where(where, 1.0, 0.0)
    else:
        bound.arguments["b"] = jax.numpy.where(where, weight, 0)
    return function(*bound.args, **bound.kwargs)


def indices_of_the_dtype(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """argsort before JAX 0.9.1, with dtype=: the newest counts its indices in that dtype."""
    return function(*args, **kwargs).astype(values["dtype"])


def computed_in_the_dtype(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """cov and corrcoef before JAX 0.8.1, with dtype=: the newest casts the data to it
    before it computes; casting each input first gives the same values. Weights are cast
    after they are combined there, which the release's cov does not let be done."""
    dtype = values["dtype"]
    name = path.rpartition(".")[2]
    if not jax.numpy.issubdtype(dtype, jax.numpy.inexact):
        raise ValueError(f"{name}: dtype must be a subclass of float or complex; got {dtype=}")
    bound = inspect.signature(function).bind(*args, **kwargs)
    if any(bound.arguments.get(weights) is not None for weights in ("fweights", "aweights")):
        raise TypeError(
            f"jaxcompat.numpy.cov(dtype=..., fweights= or aweights=...) needs JAX 0.8.1 or "
            f"newer: JAX {JAX_VERSION_STRING}'s cov cannot weigh in the dtype given. Leave "
            "dtype out, or upgrade JAX."
        )
    for data in ("m", "x", "y"):
        if bound.arguments.get(data) is not None:
            bound.arguments[data] = jax.numpy.asarray(bound.arguments[data]).astype(dtype)
    return function(*bound.args, **bound.kwargs)


def unused_by_newest(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """A keyword the newest JAX takes and does not use (unique's sorted=)."""
    return function(*args, **kwargs)


def cast_before_the_product(
    function: Any, path: str, values: dict[str, Any], x: Any, y: Any
) -> Any:
    """lax.mul before JAX 0.10.0, with out_dtype=: both factors converted to it first, which
    the newest's docstring gives as what it does (where no backend kernel does it in one)."""
    dtype = values["out_dtype"]
    convert = jax.lax.convert_element_type
    return function(convert(x, dtype), convert(y, dtype))


def as_dot_general(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """lax.dot before JAX 0.7.1, with dimension_numbers=: lax.dot_general with them (the
    newest's dot with dimension numbers is dot_general)."""
    call = inspect.signature(function).bind(*args, **kwargs).arguments
    return jax.lax.dot_general(
        call["lhs"],
        call["rhs"],
        values["dimension_numbers"],
        precision=call.get("precision"),
        preferred_element_type=call.get("preferred_element_type"),
    )


def registered_with_keys(
    function: Any,
    path: str,
    values: dict[str, Any],
    nodetype: Any,
    flatten_func: Any,
    unflatten_func: Any,
) -> None:
    """register_pytree_node before JAX 0.4.36, with flatten_with_keys_func=: every release
    has register_pytree_with_keys (JAX 0.4.6), which registers the same three functions."""
    jax.tree_util.register_pytree_with_keys(
        nodetype, values["flatten_with_keys_func"], unflatten_func, flatten_func
    )


def leaves_chosen_by_path(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """tree_flatten_with_path, tree_leaves_with_path and tree_map_with_path (and their
    jax.tree names) before JAX 0.6.2, with is_leaf_takes_path=: True calls is_leaf with
    (key path, node), as the newest does; the tree is walked one level at a time."""
    call = inspect.signature(function).bind(*args, **kwargs).arguments
    is_leaf = call.get("is_leaf")
    if not values["is_leaf_takes_path"] or is_leaf is None:
        return function(*args, **kwargs)
    # Walked here, before JAX sees it: a tree that contains itself would crash jaxlib's
    # flatten on some releases, so it is a clear error first.
    refuse_cycles(path.removeprefix("jax."), (call["tree"],), {})
    leaves, treedef = _flatten_choosing_by_path(call["tree"], is_leaf)
    if path.endswith("flatten_with_path"):
        return leaves, treedef
    if path.endswith("leaves_with_path"):
        return leaves
    rest = [treedef.flatten_up_to(other) for other in call.get("rest", ())]
    mapped = [
        call["f"](key, leaf, *others) for (key, leaf), *others in zip(leaves, *rest, strict=True)
    ]
    return treedef.unflatten(mapped)


class _ChosenLeaf:
    """Stands for a node that is_leaf chose, while the tree's structure is read."""


def _flatten_choosing_by_path(tree: Any, is_leaf: Any) -> tuple[list[tuple[Any, Any]], Any]:
    tree_util = jax.tree_util
    leaves: list[tuple[Any, Any]] = []

    def visit(key_path: tuple[Any, ...], node: Any) -> Any:
        if is_leaf(key_path, node):
            leaves.append((key_path, node))
            return _ChosenLeaf()
        # The node's children with their keys: every node below the root is a leaf here.
        children, structure = tree_util.tree_flatten_with_path(
            node, is_leaf=lambda child: child is not node
        )
        if len(children) == 1 and children[0][1] is node and not children[0][0]:
            leaves.append((key_path, node))  # a leaf of the registry
            return _ChosenLeaf()
        return tree_util.tree_unflatten(
            structure, [visit((*key_path, *key), child) for key, child in children]
        )

    marked = visit((), tree)
    return leaves, tree_util.tree_structure(marked)
