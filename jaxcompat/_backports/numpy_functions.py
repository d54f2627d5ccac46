"""``jax.numpy`` functions added in JAX 0.4.20-0.11.2, for releases that lack them.

Each is composed of the installed release's own ``jax.numpy`` and ``jax.lax`` operations, so
it traces, jits, vmaps and differentiates as the native one does, with the newest JAX's
signature, results, dtypes and errors.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .numpy_array_api import default_dtype

__all__ = [
    "array",
    "fill_diagonal",
    "load",
    "mask_indices",
    "minmax",
    "place",
    "put",
    "put_along_axis",
    "spacing",
    "top_k",
    "trapezoid",
    "trim_zeros",
]


def fill_diagonal(a: Any, val: Any, wrap: bool = False, *, inplace: bool = True) -> jax.Array:
    """``jnp.fill_diagonal`` (JAX 0.4.20): a copy of ``a`` with ``val`` on its diagonal."""
    if inplace:
        raise NotImplementedError("JAX arrays are immutable, must use inplace=False")
    if wrap:
        raise NotImplementedError("wrap=True is not implemented, must use wrap=False")
    a, val = jnp.asarray(a), jnp.asarray(val)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and not all(n == a.shape[0] for n in a.shape[1:]):
        raise ValueError("All dimensions of input must be of equal length")
    n = min(a.shape)
    if val.ndim:
        # The values repeat along the diagonal as often as needed.
        flat = jnp.ravel(val)
        val = jnp.tile(flat, math.ceil(n / flat.shape[0]))[:n]
    diagonal = jnp.diag_indices(n, a.ndim)  # type: ignore[no-untyped-call, unused-ignore]
    filled: jax.Array = a.at[diagonal].set(val)
    return filled


def put_along_axis(
    arr: Any,
    indices: Any,
    values: Any,
    axis: int | None,
    inplace: bool = True,
    *,
    mode: str | None = None,
) -> jax.Array:
    """``jnp.put_along_axis`` (JAX 0.4.36): a copy of ``arr`` with values put along an axis."""
    if inplace:
        raise ValueError(
            "jax.numpy.put_along_axis cannot modify arrays in-place, because JAX arrays"
            "are immutable. Pass inplace=False to instead return an updated array."
        )
    arr, indices, values = jnp.asarray(arr), jnp.asarray(indices), jnp.asarray(values)
    original_shape = arr.shape
    if axis is None:
        arr = jnp.ravel(arr)
        axis = 0
    if arr.ndim != indices.ndim:
        raise ValueError(
            "put_along_axis arguments 'arr' and 'indices' must have same ndim. Got "
            f"arr.ndim={arr.ndim} and indices.ndim={indices.ndim}."
        )
    try:
        values = jnp.broadcast_to(values, indices.shape)
    except ValueError:
        raise ValueError(
            "put_along_axis argument 'values' must be broadcastable to 'indices'. Got "
            f"values.shape={values.shape} and indices.shape={indices.shape}."
        ) from None
    axis %= arr.ndim
    # Every other dimension is indexed by its own (broadcast) range.
    index = list(jnp.indices(arr.shape, sparse=True))
    index[axis] = indices
    result = arr.at[tuple(index)].set(values, mode=mode)
    reshaped: jax.Array = result.reshape(original_shape)
    return reshaped


def spacing(x: Any, /) -> jax.Array:
    """``jnp.spacing`` (JAX 0.4.35): the distance from ``x`` to the next float away from 0."""
    arr = jnp.asarray(x)
    if not jnp.issubdtype(arr.dtype, jnp.inexact):
        arr = lax.convert_element_type(arr, default_dtype(jnp.promote_types(arr.dtype, jnp.float_)))
    if jnp.issubdtype(arr.dtype, jnp.complexfloating):
        raise ValueError("jnp.spacing is not defined for complex inputs.")
    inf = jnp.array(np.inf, arr.dtype)
    if arr.dtype == np.dtype(np.float16):
        # NumPy's float16 spacing always steps towards +inf.
        return lax.nextafter(arr, jnp.broadcast_to(inf, arr.shape)) - arr
    away_from_zero = jnp.copysign(jnp.broadcast_to(inf, arr.shape), arr)
    result = lax.nextafter(arr, away_from_zero) - arr
    smallest_subnormal = jnp.finfo(arr.dtype).smallest_subnormal  # type: ignore[no-untyped-call, unused-ignore]
    spaced: jax.Array = jnp.where(
        result == 0, jnp.copysign(jnp.array(smallest_subnormal, arr.dtype), arr), result
    )
    return spaced


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> jax.Array:
    """``jnp.trapezoid`` (JAX 0.4.26): integrate along ``axis`` with the trapezoidal rule."""
    if x is None:
        y_arr = jnp.asarray(y)
        if not jnp.issubdtype(y_arr.dtype, jnp.inexact):
            y_arr = y_arr.astype(default_dtype(jnp.promote_types(y_arr.dtype, jnp.float_)))
        dx_arr = jnp.asarray(dx)
        if dx_arr.ndim > 0:
            dx_arr = lax.expand_dims(dx_arr, range(y_arr.ndim - dx_arr.ndim))
            dx_arr = jnp.moveaxis(dx_arr, axis, -1)
    else:
        y_arr, x_arr = jnp.asarray(y), jnp.asarray(x)
        common = jnp.result_type(y_arr, x_arr)
        if not jnp.issubdtype(common, jnp.inexact):
            common = default_dtype(jnp.promote_types(common, jnp.float_))
        y_arr, x_arr = y_arr.astype(common), x_arr.astype(common)
        if x_arr.ndim == 1:
            dx_arr = jnp.diff(x_arr)
        else:
            dx_arr = jnp.moveaxis(jnp.diff(x_arr, axis=axis), axis, -1)
    y_arr = jnp.moveaxis(y_arr, axis, -1)
    if dx_arr.ndim == 0 or dx_arr.shape[-1] == 1:
        # A constant step: the newest JAX sums once and corrects the two end points.
        step = dx_arr if dx_arr.ndim == 0 else dx_arr[..., 0]
        constant_step: jax.Array = step * (y_arr.sum(-1) - 0.5 * (y_arr[..., 0] + y_arr[..., -1]))
        return constant_step
    varying_steps: jax.Array = 0.5 * (dx_arr * (y_arr[..., 1:] + y_arr[..., :-1])).sum(-1)
    return varying_steps


def _order_reversed(x: jax.Array) -> jax.Array:
    # Bitwise not reverses the order of booleans and integers over their whole range.
    if x.dtype == np.dtype(bool) or jnp.issubdtype(x.dtype, jnp.integer):
        return lax.bitwise_not(x)
    return lax.neg(x)


def top_k(
    a: Any, k: int, /, *, axis: int = -1, mode: str = "largest", sorted: bool = True
) -> tuple[jax.Array, jax.Array]:
    """``jnp.top_k`` (JAX 0.11.1): the ``k`` largest (or smallest) entries along ``axis``."""
    arr = jnp.asarray(a)
    if jnp.issubdtype(arr.dtype, jnp.complexfloating):
        raise ValueError("top_k is not compatible with complex inputs.")
    if mode not in ("largest", "smallest"):
        raise ValueError(f"mode must be 'largest' or 'smallest', got {mode!r}")
    if not -arr.ndim <= axis < max(arr.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {arr.ndim}")
    axis %= max(arr.ndim, 1)
    # lax.top_k of these releases works on the last axis only.
    last = jnp.moveaxis(arr, axis, -1)
    if mode == "largest":
        values, indices = lax.top_k(last, k)
    else:
        values, indices = lax.top_k(_order_reversed(last), k)
        values = _order_reversed(values)
    values, indices = jnp.moveaxis(values, -1, axis), jnp.moveaxis(indices, -1, axis)
    # The newest returns lax.top_k's own result for "largest", a list on every release, and
    # a tuple for "smallest" (JAX 0.11.1): two pytree structures, kept as they are.
    return [values, indices] if mode == "largest" else (values, indices)  # type: ignore[return-value]


def minmax(
    a: Any,
    axis: Any = None,
    out: None = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> tuple[jax.Array, jax.Array]:
    """``jnp.minmax`` (JAX 0.11.2): ``(jnp.min(a, ...), jnp.max(a, ...))``."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.minmax is not supported.")
    initial_min, initial_max = initial if isinstance(initial, tuple) else (initial, initial)
    if (initial_min is None or initial_max is None) and where is not None:
        raise ValueError(
            "reduction operation minmax does not have an identity, so to use a where mask one "
            "has to specify 'initial'"
        )
    return (
        jnp.min(a, axis=axis, keepdims=keepdims, initial=initial_min, where=where),
        jnp.max(a, axis=axis, keepdims=keepdims, initial=initial_max, where=where),
    )


def arrays_of(name: str, *args: Any) -> list[jax.Array]:
    """``args`` as arrays, refusing a list or tuple as the newest JAX's ensure_arraylike does."""
    for position, arg in enumerate(args):
        if isinstance(arg, list | tuple):
            raise TypeError(
                f"{name} requires ndarray or scalar arguments, got {type(arg)} at position "
                f"{position}."
            )
    return [jnp.asarray(arg) for arg in args]


def _tiled_to(flat: jax.Array, size: int) -> jax.Array:
    """``flat`` repeated (or cut) to ``size`` elements."""
    if flat.size < size:
        flat = jnp.tile(flat, math.ceil(size / flat.size))
    return flat[:size] if flat.size > size else flat


def place(arr: Any, mask: Any, vals: Any, *, inplace: bool = True) -> jax.Array:
    """``jnp.place`` (JAX 0.4.18; before, every call raised): ``arr`` with ``vals`` (repeated
    as needed) where ``mask`` is True, in order; ``inplace=False`` is required."""
    data, mask_arr, vals_arr = arrays_of("place", arr, mask, vals)
    vals_arr = vals_arr.ravel()
    if inplace:
        raise ValueError(
            "jax.numpy.place cannot modify arrays in-place, because JAX arrays are immutable. "
            "Pass inplace=False to instead return an updated array."
        )
    if data.size != mask_arr.size:
        raise ValueError("place: arr and mask must be the same size")
    if not vals_arr.size:
        raise ValueError("Cannot place values from an empty array")
    if not data.size:
        return data
    # The masked positions in order, the rest pointing past the end (dropped).
    indices = jnp.nonzero(mask_arr.ravel(), size=mask_arr.size, fill_value=mask_arr.size)[0]
    placed: jax.Array = (
        data.ravel()
        .at[indices]
        .set(_tiled_to(vals_arr, indices.shape[0]), mode="drop")
        .reshape(data.shape)
    )
    return placed


def put(a: Any, ind: Any, v: Any, mode: str | None = None, *, inplace: bool = True) -> jax.Array:
    """``jnp.put`` (JAX 0.4.18; before, every call raised): ``a`` with ``v`` (repeated as
    needed) at the flat indices ``ind``; ``inplace=False`` is required."""
    if inplace:
        raise ValueError(
            "jax.numpy.put cannot modify arrays in-place, because JAX arrays are immutable. "
            "Pass inplace=False to instead return an updated array."
        )
    arr, ind_arr, _ = arrays_of("put", a, ind, v)
    ind_arr = ind_arr.ravel()
    v_arr = jnp.ravel(v)
    if not arr.size or not ind_arr.size or not v_arr.size:
        return arr
    v_arr = _tiled_to(v_arr, ind_arr.shape[0])
    if mode is None:
        scatter_mode = "drop"
    elif mode == "clip":
        ind_arr = jnp.clip(ind_arr, 0, arr.size - 1)
        scatter_mode = "promise_in_bounds"
    elif mode == "wrap":
        ind_arr = ind_arr % arr.size
        scatter_mode = "promise_in_bounds"
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got {mode=}")
    index = jnp.unravel_index(ind_arr, arr.shape)
    updated: jax.Array = arr.at[index].set(v_arr, mode=scatter_mode)
    return updated


def mask_indices(
    n: int, mask_func: Any, k: int = 0, *, size: int | None = None
) -> tuple[jax.Array, jax.Array]:
    """``jnp.mask_indices`` with the newest signature (JAX 0.4.34, which added ``size=`` for
    use under jit): the indices where ``mask_func(ones((n, n)), k)`` is nonzero."""
    rows, columns = jnp.nonzero(mask_func(jnp.ones((n, n)), k), size=size)
    return rows, columns


def load(file: Any, *args: Any, **kwargs: Any) -> Any:
    """``jnp.load`` with the newest signature (JAX 0.4.35 names ``file``): the release's own."""
    return jnp.load(file, *args, **kwargs)


def trim_zeros(filt: Any, trim: str = "fb", axis: int | Any = None) -> jax.Array:
    """``jnp.trim_zeros`` as JAX 0.8.0 made it: the leading (``"f"``) and trailing (``"b"``)
    slices that are all zero are cut along each axis given (all by default). Before, an
    array of more than one dimension gave an empty array, not the trimmed one."""
    array: jax.Array = jnp.asarray(filt)
    if isinstance(array, jax.core.Tracer):
        raise jax.errors.ConcretizationTypeError(
            array, "Error arose in the `filt` argument of trim_zeros()"
        )
    axes = _axes_of(axis, array.ndim)
    trim = trim.lower()
    if not axes or ("f" not in trim and "b" not in trim):
        return array
    nonzero = np.asarray(array) != 0
    cuts = []
    for ax in range(array.ndim):
        if ax not in axes:
            cuts.append(slice(None))
            continue
        kept = nonzero.any(axis=tuple(i for i in range(array.ndim) if i != ax))
        if not kept.any():
            cuts.append(slice(0, 0))
            continue
        start = int(kept.argmax()) if "f" in trim else None
        stop = array.shape[ax] - int(kept[::-1].argmax()) if "b" in trim else None
        cuts.append(slice(start, stop))
    trimmed: jax.Array = array[tuple(cuts)]
    return trimmed


def _axes_of(axis: Any, ndim: int) -> set[int]:
    """``axis`` (None for all, an int or a sequence of them) as a set of axes, with the
    newest's errors for one out of bounds or repeated."""
    given = tuple(range(ndim)) if axis is None else (axis,) if np.ndim(axis) == 0 else axis
    axes = []
    for ax in given:
        ax = operator.index(ax)
        if not -ndim <= ax < ndim:
            raise ValueError(f"axis {ax} is out of bounds for array of dimension {ndim}")
        axes.append(ax % ndim)
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis: {tuple(given)}")
    return set(axes)


def array(
    object: Any, dtype: Any = None, copy: bool = True, order: str | None = "K", ndmin: int = 0
) -> jax.Array:
    """``jnp.array`` as JAX 0.4.18 has it: ``copy=True`` (the default) copies a NumPy array
    given. JAX 0.4.13's own hands back an array over an aligned NumPy buffer itself on CPU,
    so a later write to the NumPy array showed through."""
    if copy and isinstance(object, np.ndarray):
        object = object.copy()
    made: jax.Array = jnp.array(object, dtype=dtype, copy=copy, order=order, ndmin=ndmin)
    return made
