"""``jax.pure_callback(vmap_method=)`` before JAX 0.5.1, built on the release's own
pure_callback (the rule is in ``_keywords/rules/functions.py``).

JAX 0.4.35 replaced pure_callback's ``vectorized=`` with ``vmap_method=``, which says how
vmap batches the callback: "sequential" calls it once per element, in a loop (``vectorized=
False``); "legacy_vectorized" once, with the batched arguments batched and the others as
given (``vectorized=True``); "expand_dims" once, with a new leading axis of size 1 on the
unbatched arguments, and "broadcast_all" with those arguments broadcast to the batch size.
The release's batching rule cannot add those axes, as it is not told which arguments are
batched: there the callback is called inside a ``custom_batching.custom_vmap`` function,
whose batching rule is told, and calls a function of the same kind with the batched
arguments and results, so that nested vmaps add one axis each, as the newest's do. JAX
0.5.1 added "sequential_unrolled", the loop of "sequential" unrolled: the same calls.
"""

from __future__ import annotations

import inspect
from typing import Any

import jax
from jax import tree_util
from jax.custom_batching import custom_vmap  # type: ignore[attr-defined, unused-ignore]

__all__ = ["vmap_method_as_vectorized"]

#: The newest pure_callback's batching methods, in its own order (JAX 0.5.1 added
#: "sequential_unrolled").
_VMAP_METHODS = [
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
    None,
]


def vmap_method_as_vectorized(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """pure_callback before JAX 0.5.1, with every vmap_method= of the newest: the release's
    vmap_method= (0.4.35-0.5.0) or vectorized= where it batches alike, else a custom_vmap."""
    method = values["vmap_method"]
    if method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {_VMAP_METHODS}, but got: {method}"
        )
    if "vectorized" in kwargs:
        raise ValueError(
            "the vectorized and vmap_method arguments of jax.pure_callback cannot be used "
            "together. Please use the vmap_method argument."
        )
    looped = "sequential" if method == "sequential_unrolled" else method
    if "vmap_method" in inspect.signature(function).parameters:  # JAX 0.4.35-0.5.0
        return function(*args, vmap_method=looped, **kwargs)
    if method in ("expand_dims", "broadcast_all"):
        return _called_in_custom_vmap(function, method, *args, **kwargs)
    return function(*args, vectorized=looped == "legacy_vectorized", **kwargs)


def _called_in_custom_vmap(
    function: Any, method: str, callback: Any, result_shape_dtypes: Any, *args: Any, **kwargs: Any
) -> Any:
    """The release's pure_callback ``function`` inside a custom_vmap that batches as
    ``method`` ("expand_dims" or "broadcast_all") asks."""
    own = inspect.signature(function).parameters
    # The release's own keywords (sharding=, JAX 0.4.18) are its; the rest are the callback's.
    options = {
        name: kwargs.pop(name)
        for name in list(kwargs)
        if name in own and own[name].kind is inspect.Parameter.KEYWORD_ONLY
    }
    flat_args, in_tree = tree_util.tree_flatten((args, kwargs))
    results = tree_util.tree_map(_shape_dtype, result_shape_dtypes)
    flat_results, out_tree = tree_util.tree_flatten(results)

    def flat_callback(*flat: Any) -> Any:
        call_args, call_kwargs = tree_util.tree_unflatten(in_tree, flat)
        return tree_util.tree_leaves(callback(*call_args, **call_kwargs))

    batched = _batched_call(function, method, flat_callback, tuple(flat_results), options)
    return tree_util.tree_unflatten(out_tree, batched(*flat_args))


def _batched_call(
    function: Any,
    method: str,
    flat_callback: Any,
    flat_results: tuple[Any, ...],
    options: dict[str, Any],
) -> Any:
    """A custom_vmap function of the flat arguments that calls ``flat_callback`` through the
    release's pure_callback, and under vmap is the function of the batched arguments and
    results (one more leading axis) that the newest's batching rule binds."""

    @custom_vmap
    def call(*flat: Any) -> Any:
        return tuple(function(flat_callback, list(flat_results), *flat, **options))

    @call.def_vmap
    def rule(axis_size: int, in_batched: list[Any], *flat: Any) -> Any:
        # custom_vmap hands the batched arguments with their axis first, as the newest's
        # rule moves them; the unbatched ones gain an axis of size 1, or the batch size.
        size = axis_size if method == "broadcast_all" else 1
        new_args = [
            arg if is_batched else jax.lax.broadcast(arg, (size,))
            for arg, is_batched in zip(flat, in_batched, strict=True)
        ]
        batched_results = tuple(
            _shape_dtype(result, (axis_size, *result.shape)) for result in flat_results
        )
        outputs = _batched_call(function, method, flat_callback, batched_results, options)
        out = outputs(*new_args)
        return out, (True,) * len(out)

    return call


def _shape_dtype(like: Any, shape: tuple[int, ...] | None = None) -> Any:
    """A ShapeDtypeStruct of ``like``'s dtype, of its shape or ``shape``."""
    return jax.ShapeDtypeStruct(  # type: ignore[no-untyped-call, unused-ignore]
        like.shape if shape is None else shape, like.dtype
    )
