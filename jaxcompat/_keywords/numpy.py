"""Newest keywords of ``jax.numpy``'s variance, selection and search functions, composed from
the installed release's own operations (the rules are in ``_keywords/rules/functions.py``).

Each helper takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs),
as every helper does (``adapter.helper``), and reads the call by the release function's
signature.
"""

from __future__ import annotations

import inspect
import math
import operator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

__all__ = [
    "accumulated_in_the_dtype",
    "filled_to_size",
    "flat_index_in_the_dtype",
    "out_of_bounds_as_asked",
    "same_result_by_any_method",
    "spread_around_the_mean",
    "weighted_by_inverted_cdf",
]


def spread_around_the_mean(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """std, var, nanstd and nanvar before JAX 0.8.1, with mean= (the newest's ``_var``): the
    squared distances from the mean given, in place of the mean of ``a``."""
    name = path.rpartition(".")[2]
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    call = bound.arguments
    if call["out"] is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
    a = jnp.asarray(call["a"])
    axis, dtype, ddof, keepdims, where = (
        call["axis"],
        call["dtype"],
        call["ddof"],
        call["keepdims"],
        call["where"],
    )
    if isinstance(axis, list):
        axis = tuple(axis)
    if call.get("correction") is not None:  # std and var of JAX 0.4.29-0.8.0 name it
        if not isinstance(ddof, int) or ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = call["correction"]

    def without_mean(x: Any, mask: Any) -> Any:
        return function(x, axis, dtype, None, ddof, keepdims, where=mask)

    # The release's own call gives the result's dtype and its checks of dtype= and axis=.
    result_dtype = jax.eval_shape(without_mean, a, where).dtype
    if dtype is not None:
        computation_dtype = jnp.dtype(dtype)
    elif jnp.issubdtype(a.dtype, jnp.complexfloating):
        computation_dtype = a.dtype
    else:
        computation_dtype = result_dtype
    if computation_dtype in (jnp.dtype(jnp.float16), jnp.dtype(jnp.bfloat16)):
        computation_dtype = jnp.dtype(jnp.float32)  # as the newest's _upcast_f16
    x = a.astype(computation_dtype)
    centered = x - jnp.asarray(values["mean"]).astype(computation_dtype)
    nans = name.startswith("nan")
    if nans:
        centered = jnp.where(jnp.isnan(x), 0, centered)
    if jnp.issubdtype(computation_dtype, jnp.complexfloating):
        squared = jnp.real(centered * jnp.conj(centered))
    else:
        squared = centered * centered
    total = jnp.sum(squared, axis, dtype=squared.dtype, keepdims=keepdims, where=where)
    counted = ~jnp.isnan(x) if nans else jnp.ones(x.shape, bool)
    count = jnp.sum(counted, axis, dtype=squared.dtype, keepdims=keepdims, where=where) - ddof
    if nans:
        empty = count <= 0
        total = jnp.where(empty, np.nan, total)
        variance = total / jnp.where(empty, 1, count)
    else:
        variance = jnp.where(count > 0, total / count, np.nan)
    variance = variance.astype(result_dtype)
    return jnp.sqrt(variance) if name.endswith("std") else variance


def filled_to_size(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """compress and extract before JAX 0.4.28, with size= (a static length, so that they jit)
    and fill_value= (padding past the elements selected): the newest's compress."""
    size = values.get("size")
    if size is None:
        return function(*args, **kwargs)  # fill_value alone: unused, as in the newest
    fill_value = values.get("fill_value", 0)
    call = inspect.signature(function).bind(*args, **kwargs).arguments
    if path == "jax.numpy.extract":
        condition, a, axis = jnp.ravel(call["condition"]), jnp.ravel(call["arr"]), None
    else:
        if call.get("out") is not None:
            raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
        condition, a, axis = call["condition"], call["a"], call.get("axis")
    condition = jnp.asarray(condition).astype(bool)
    if condition.ndim != 1:
        raise ValueError("condition must be a 1D array")
    if axis is None:
        axis, array = 0, jnp.ravel(a)
    else:
        array = jnp.moveaxis(jnp.asarray(a), axis, 0)
    condition = condition[: array.shape[0]]
    array = array[: condition.shape[0]]
    if not 0 <= size <= array.shape[0]:
        raise ValueError(
            "size must be positive and not greater than the size of the array axis;"
            f" got {size=} for a.shape[axis]={array.shape[0]}"
        )
    mask = jnp.expand_dims(condition, tuple(range(1, array.ndim)))
    array = jnp.where(mask, array, jnp.array(fill_value, dtype=array.dtype))
    # The selected first, in order: a stable sort of "not selected" (every release's
    # argsort is stable by default).
    selected_first = jnp.argsort(~condition)
    return jnp.moveaxis(array[selected_first][:size], 0, axis)


#: The methods the newest function takes, and its error for another. Each gives the same
#: result (they are algorithms for it), so the release's own algorithm stands for any.
_METHODS: dict[str, tuple[tuple[str, ...], str]] = {
    "jax.numpy.isin": (
        ("auto", "compare_all", "binary_search", "sort"),
        "method={method!r} is not implemented; options are 'compare_all', 'binary_search', 'sort', "
        "and 'auto'",
    ),
    "jax.numpy.digitize": (
        ("compare_all", "scan", "scan_unrolled", "sort"),
        "invalid argument method={method!r}, expected one of "
        "['compare_all', 'scan', 'scan_unrolled', 'sort']",
    ),
}


def same_result_by_any_method(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """isin (JAX 0.4.33) and digitize (0.4.34) with method=: a method the newest takes gives
    the result of the release's own method; another is the newest's ValueError."""
    methods, error = _METHODS[path]
    method = values["method"]
    if method not in methods:
        raise ValueError(error.format(method=method))
    return function(*args, **kwargs)


def out_of_bounds_as_asked(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """take_along_axis before JAX 0.4.29 (fill_value=) or 0.10.2 (wrap_negative_indices=):
    where the mode fills (the default), an index out of bounds gives fill_value (in the
    result's dtype) in place of the release's NaN or smallest integer; with
    wrap_negative_indices=False a negative index is out of bounds (clipped to 0 by "clip"),
    not counted from the end."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    call = bound.arguments
    mode = call.get("mode")
    fills = mode is None or (
        jax.lax.GatherScatterMode.from_any(mode) == jax.lax.GatherScatterMode.FILL_OR_DROP
    )
    arr, indices, axis = jnp.asarray(call["arr"]), jnp.asarray(call["indices"]), call["axis"]
    length = arr.size if axis is None else arr.shape[axis]
    if not values.get("wrap_negative_indices", True):
        indices = jnp.where(indices < 0, length if fills else 0, indices)
        call["indices"] = indices
    result = function(*bound.args, **bound.kwargs)
    if "fill_value" not in values or not fills:
        return result  # fill_value is unused by the other modes, as in the newest
    outside = (indices < -length) | (indices >= length)
    fill = jnp.asarray(values["fill_value"]).astype(result.dtype)
    return jnp.where(jnp.broadcast_to(outside, result.shape), fill, result)


def flat_index_in_the_dtype(
    function: Any,
    path: str,
    values: dict[str, Any],
    multi_index: Any,
    dims: Any,
    mode: str = "raise",
    order: str = "C",
) -> Any:
    """ravel_multi_index before JAX 0.9.1, with dtype=: the flat index computed in that
    integer dtype (the release's is computed in the default integer, which overflows for an
    array past its range), as the newest computes it."""
    dtype = jnp.dtype(values["dtype"])
    if not jnp.issubdtype(dtype, jnp.integer):
        raise ValueError(f"{dtype=} is not an integer type.")
    dims = tuple(operator.index(d) for d in dims)
    largest = jnp.iinfo(dtype).max  # type: ignore[no-untyped-call]  # (int4 too)
    if math.prod(dims) - 1 > largest:
        raise ValueError(
            f"jnp.ravel_multi_index: {dtype=} not large enough to hold flattened index for "
            f"{dims=}. Use the dtype argument to pass a suitable dtype (e.g. "
            "dtype=np.min_scalar_type(prod(dims)))."
        )
    if mode not in ("raise", "wrap", "clip", "ignore"):
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip', or 'ignore'.")
    if order not in ("C", "F"):
        raise ValueError(f"invalid order={order!r}. Expected 'C' or 'F'")
    # The release's own call checks the indices (their kind, and each in range where mode
    # is "raise"), and gives its errors; its result is not used.
    function(multi_index, dims, mode=mode, order=order)
    indices = [jnp.asarray(i) for i in multi_index]
    if mode == "clip":
        indices = [jnp.clip(i, 0, d - 1) for i, d in zip(indices, dims, strict=True)]
    elif mode == "wrap":
        indices = [i % d for i, d in zip(indices, dims, strict=True)]
    strides = (
        np.cumprod((1, *dims[:-1])) if order == "F" else np.cumprod((1, *dims[1:][::-1]))[::-1]
    )
    result = jnp.array(0, dtype=dtype)
    for index, stride in zip(indices, strides, strict=True):
        result = result + index.astype(dtype) * int(stride)
    return result


def accumulated_in_the_dtype(
    function: Any, path: str, values: dict[str, Any], a: Any, b: Any, *args: Any, **kwargs: Any
) -> Any:
    """dot, matmul, inner, vdot, tensordot, convolve and correlate on JAX 0.4.13, with
    preferred_element_type= (0.4.18), as the newest gives it: where the dtype holds the
    inputs' (int8 into int32, bfloat16 into float32), the inputs are converted first, so
    products and sums are computed in it; otherwise (float32 into int32) the result is
    computed as before and converted."""
    dtype = jnp.dtype(values["preferred_element_type"])
    a, b = jnp.asarray(a), jnp.asarray(b)
    if jnp.promote_types(jnp.result_type(a, b), dtype) == dtype:
        return function(a.astype(dtype), b.astype(dtype), *args, **kwargs)
    return function(a, b, *args, **kwargs).astype(dtype)


_QUANTILE_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


def weighted_by_inverted_cdf(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """quantile, percentile, nanquantile and nanpercentile before JAX 0.10.0, with weights=
    (only with method="inverted_cdf", new in 0.10.0 too), or with that method alone (every
    weight 1): along the axes reduced, the smallest value whose cumulative weight, in
    ascending order of the values, reaches q of the total weight. A negative or NaN weight
    gives NaN, as a NaN value does (the nan functions leave NaN values out instead)."""
    name = path.rpartition(".")[2]
    call = inspect.signature(function).bind(*args, **kwargs).arguments
    if call.get("overwrite_input", False) or call.get("out") is not None:
        raise ValueError(f"jax.numpy.{name} does not support overwrite_input=True or out != None")
    method, axis, keepdims = (
        values.get("method", call.get("method", "linear")),
        call.get("axis"),
        call.get("keepdims", False),
    )
    a = jnp.asarray(call["a"])
    if "weights" in values:
        weights = jnp.asarray(values["weights"])
    else:  # method="inverted_cdf" alone: the newest's weights of one, in a's inexact dtype
        weights = jnp.ones(a.shape, jnp.result_type(a.dtype, float))
    if method not in _QUANTILE_METHODS:
        raise ValueError(
            "method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or "
            "'inverted_cdf'"
        )
    if jnp.issubdtype(weights.dtype, jnp.complexfloating):
        raise ValueError("Weights cannot be complex types.")
    if method != "inverted_cdf":
        raise NotImplementedError(
            f"{method} doesn't support weights. Only method 'inverted_cdf' supports weights."
        )
    dtype = jnp.result_type(a, weights)
    if not jnp.issubdtype(dtype, jnp.inexact):
        dtype = jnp.result_type(float)  # the default float, as the newest promotes
    if jnp.issubdtype(dtype, jnp.complexfloating):
        raise ValueError(
            "quantile does not support complex input, as the operation is poorly defined."
        )
    a, weights = a.astype(dtype), weights.astype(dtype)
    axes = axis if isinstance(axis, tuple) else (axis,)
    reduced = (
        tuple(range(a.ndim)) if axis is None else tuple(operator.index(x) % a.ndim for x in axes)
    )
    if len(set(reduced)) != len(reduced):
        raise ValueError("repeated axis")
    if weights.shape != a.shape:
        if axis is None:
            raise ValueError("Weights shape must match 'a' shape when axis is None.")
        expected = tuple(a.shape[x] for x in reduced)
        if weights.shape != expected:
            raise ValueError(f"Weights shape {weights.shape} must match reduction axes {expected}")
        weights = jax.lax.broadcast_in_dim(weights, a.shape, reduced)
    q = jnp.asarray(call["q"]).astype(dtype)
    if q.ndim > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {q.shape}")
    if name.endswith("percentile"):
        q = q / 100
    kept = tuple(x for x in range(a.ndim) if x not in reduced)
    # The axes reduced go last, as one: each slice a[..., :] is one weighted sample.
    flat_shape = (*(a.shape[x] for x in kept), math.prod(a.shape[x] for x in reduced))
    samples = jnp.transpose(a, (*kept, *reduced)).reshape(flat_shape)
    weights = jnp.transpose(weights, (*kept, *reduced)).reshape(flat_shape)
    order = jnp.argsort(samples, axis=-1)  # NaNs last
    samples = jnp.take_along_axis(samples, order, axis=-1)
    weights = jnp.take_along_axis(weights, order, axis=-1)
    bad_weights = (weights < 0) | jnp.isnan(weights)
    nans = jnp.isnan(samples)
    cumulative = jnp.cumsum(jnp.where(bad_weights | nans, 0, weights), axis=-1)
    targets = q.reshape(q.shape + (1,) * samples.ndim) * cumulative[..., -1:]
    below = jnp.sum(cumulative < targets, axis=-1)  # shape q.shape + the kept axes
    skips_nans = name.startswith("nan")
    usable = jnp.sum(~nans, axis=-1) if skips_nans else jnp.full(flat_shape[:-1], flat_shape[-1])
    index = jnp.clip(below, 0, usable - 1)
    result = jnp.take_along_axis(
        jnp.broadcast_to(samples, q.shape + samples.shape), index[..., None], axis=-1
    )[..., 0]
    undefined = jnp.any(bad_weights, axis=-1) | (
        (usable == 0) if skips_nans else jnp.any(nans, axis=-1)
    )
    result = jnp.where(undefined, jnp.nan, result)
    if keepdims:
        result = jnp.expand_dims(result, tuple(q.ndim + x for x in reduced))
    return result.astype(dtype)
