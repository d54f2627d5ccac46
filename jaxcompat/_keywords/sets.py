"""Newest keywords of the sorting and set functions, composed from the installed release's own
operations (the rules are in ``_keywords/rules/functions.py``): top_k(is_stable=),
lexsort(batch_size=), and intersect1d and setxor1d(size=, fill_value=).

Each helper takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs),
as every helper does (``adapter.helper``).
"""

from __future__ import annotations

import inspect
import operator
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

__all__ = ["set_filled_to_size", "sorted_in_one_batch", "stable_by_the_release"]


def stable_by_the_release(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """top_k before JAX 0.11.0, with is_stable=: every older release's top_k keeps equal
    elements in their order (XLA's TopK, measured on each row), which is what True asks
    and what False, whose order is unspecified, may give too."""
    return function(*args, **kwargs)


def sorted_in_one_batch(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """lexsort before JAX 0.12.0, with batch_size=: the newest compares at most that many
    keys in one sort, and sorts more in batches, with the same result; the release sorts
    all the keys at once. The newest's checks of batch_size are kept."""
    batch_size = values["batch_size"]
    try:
        batch_size = operator.index(batch_size)
    except TypeError:
        raise TypeError(
            f"batch_size argument of jnp.lexsort() must be a static integer, got {batch_size!r}"
        ) from None
    if batch_size < 1:
        raise ValueError(f"lexsort: batch_size must be positive, got {batch_size}")
    return function(*args, **kwargs)


def set_filled_to_size(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """intersect1d and setxor1d before JAX 0.4.32 (and up to 0.11.2, whose own size=0 or
    size=-1 fails inside JAX), with size= (a static length, so that they jit) and
    fill_value=: the sorted result's first ``size`` values, padded with fill_value (by
    default the smallest value of the result, or 0 where it is empty), as the newest gives
    them; intersect1d(return_indices=True) pads its indices with each input's size."""
    size = values.get("size")
    if size is None:
        return function(*args, **kwargs)  # fill_value alone: unused, as in the newest
    size = operator.index(size)
    if size < 0:
        raise ValueError(f"size must be a positive integer; got {size=}")
    call = inspect.signature(function).bind(*args, **kwargs).arguments
    first, second = jnp.ravel(jnp.asarray(call["ar1"])), jnp.ravel(jnp.asarray(call["ar2"]))
    dtype = jnp.result_type(first, second)
    first, second = first.astype(dtype), second.astype(dtype)
    fill_value = values.get("fill_value")
    intersect = path == "jax.numpy.intersect1d"
    return_indices = intersect and bool(call.get("return_indices", False))
    return _to_size(
        first, second, fill_value, intersect=intersect, size=size, return_indices=return_indices
    )


# One program for the whole result, as the newest jits its own (eagerly, each small
# operation would otherwise be compiled and dispatched on its own).
@partial(jax.jit, static_argnames=("intersect", "size", "return_indices"))
def _to_size(
    first: Any, second: Any, fill_value: Any, *, intersect: bool, size: int, return_indices: bool
) -> Any:
    # assume_unique= only lets the newest skip work where the inputs are unique; the unique
    # values below are the same there.
    unique1, index1, valid1 = _unique_sorted(first)
    unique2, index2, valid2 = _unique_sorted(second)
    in_second, where_in_second = _found_in(unique1, valid1, unique2, valid2)
    positions = jnp.arange(size)
    if intersect:
        kept = in_second
        count = jnp.sum(kept)
        chosen = _first_where(kept, size)
        result = _taken(unique1, chosen)
        result = _padded(result, positions < count, fill_value)
        if not return_indices:
            return result
        indices1 = _taken(index1, chosen, first.size)
        indices2 = _taken(index2, _taken(where_in_second, chosen, second.size), second.size)
        return (
            result,
            jnp.where(positions < count, indices1, first.size),
            jnp.where(positions < count, indices2, second.size),
        )
    in_first, _ = _found_in(unique2, valid2, unique1, valid1)
    candidates = jnp.concatenate([unique1, unique2])
    kept = jnp.concatenate([valid1 & ~in_second, valid2 & ~in_first])
    # The kept values first, in ascending order: a sort on (not kept, value).
    _, ordered = jax.lax.sort((~kept, candidates), num_keys=2)
    result = _taken(ordered, positions)
    return _padded(result, positions < jnp.sum(kept), fill_value)


def _unique_sorted(values: Any) -> tuple[Any, Any, Any]:
    """The unique values of a 1-D array in ascending order, each's first index in it, and
    which places hold one: the places past the last are filled with the largest value, so
    that the whole stays sorted for a search."""
    if values.size == 0:
        return values, jnp.zeros(0, int), jnp.zeros(0, bool)
    unique, first_index, counts = jnp.unique(
        values, return_index=True, return_counts=True, size=values.size
    )
    valid = counts > 0  # unique(size=) pads with the smallest value, counted 0 times
    unique = jnp.where(valid, unique, jnp.max(jnp.where(valid, unique, unique[0])))
    return unique, first_index, valid


def _found_in(values: Any, valid: Any, sorted_values: Any, sorted_valid: Any) -> tuple[Any, Any]:
    """Which of ``values`` are among the valid ``sorted_values``, and where."""
    if values.size == 0 or sorted_values.size == 0:
        return jnp.zeros(values.shape, bool), jnp.zeros(values.shape, int)
    place = jnp.clip(jnp.searchsorted(sorted_values, values), 0, sorted_values.size - 1)
    found = valid & sorted_valid[place] & (sorted_values[place] == values)
    return found, place


def _first_where(mask: Any, size: int) -> Any:
    """The first ``size`` places where ``mask`` holds, padded with its length."""
    if mask.size == 0:
        return jnp.zeros(size, int)
    return jnp.nonzero(mask, size=size, fill_value=mask.size)[0]


def _taken(values: Any, places: Any, past_the_end: Any = 0) -> Any:
    """``values`` at ``places``, and ``past_the_end`` at a place past its end."""
    if values.size == 0:
        return jnp.full(places.shape, past_the_end, values.dtype)
    return values.at[places].get(mode="fill", fill_value=past_the_end)


def _padded(result: Any, is_result: Any, fill_value: Any) -> Any:
    """The places past the result hold fill_value, or the result's smallest value (0 where
    there is none), as the newest pads them."""
    if result.size == 0:
        return result
    if fill_value is not None:
        return jnp.where(is_result, result, fill_value)
    # The padding (0 so far) goes through the largest value before the smallest is taken,
    # so that a 0 that is not in the result is not taken for its smallest value.
    through_largest = jnp.where(is_result, result, jnp.max(result))
    return jnp.where(is_result, result, jnp.min(through_largest))
