"""``jax.lax`` functions added in JAX 0.4.18-0.12.0, composed of older releases' own ops.

Each backport binds only the installed release's ``jax.lax`` operations, so it traces, jits,
vmaps and differentiates as the native one does, with the newest JAX's signature, results,
dtypes and error messages. ``lax_adapters`` gives native functions the newest keywords.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src import core as private_core
from jax._src import dtypes
from jax._src.lax import lax as lax_internal

from .._version import JAX_VERSION_STRING

__all__ = [
    "axis_size",
    "broadcast_like",
    "empty",
    "exp2",
    "log2",
    "mulhi",
    "one_minus_square",
    "polynomial",
    "scatter_sub",
    "shape_as_value",
    "split",
    "stack",
    "tile",
    "unstack",
]

_FLOATING = "floating, complexfloating"

# Shape helpers are private on every release, and untyped.
jax_core: Any = private_core


def _axis(axis: int, ndim: int) -> int:
    """``axis`` in ``[0, ndim)``, with the ValueError of JAX's ``canonicalize_axis``."""
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else axis


def _check_dtype(name: str, x: jax.Array, accepted: str, kinds: tuple[Any, ...]) -> None:
    """The TypeError of JAX's unary dtype rules when ``x``'s dtype is not one of ``kinds``."""
    if not any(jnp.issubdtype(x.dtype, kind) for kind in kinds):
        raise TypeError(
            f"{name} does not accept dtype {x.dtype}. Accepted dtypes are subtypes of {accepted}."
        )


def no_option(name: str, option: str, release: str, why: str) -> TypeError:
    return TypeError(
        f"jaxcompat.lax.{name}({option}=...) needs JAX {release} or newer; JAX "
        f"{JAX_VERSION_STRING} {why}. Leave {option} out."
    )


# --- structural ops: split (0.4.38), tile (0.9.0), broadcast_like (0.10.0), stack/unstack
# (0.10.1) -----------------------------------------------------------------------------------


def split(operand: Any, sizes: Sequence[int], axis: int = 0) -> Sequence[jax.Array]:
    """``jax.lax.split`` (JAX 0.4.38): chunks of ``sizes`` along ``axis``, as a list."""
    operand = jnp.asarray(operand)
    sizes = tuple(sizes)
    axis = _axis(axis, operand.ndim)
    if any(size < 0 for size in sizes):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {list(sizes)}")
    if sum(sizes) != operand.shape[axis]:
        raise ValueError(
            f"Sum of sizes {sum(sizes)} must be equal to dimension {axis} of the operand "
            f"shape {list(operand.shape)}"
        )
    chunks = []
    start = 0
    for size in sizes:
        chunks.append(lax.slice_in_dim(operand, start, start + size, axis=axis))
        start += size
    return chunks


def tile(operand: Any, reps: Sequence[int]) -> jax.Array:
    """``jax.lax.tile`` (JAX 0.9.0): ``operand`` repeated ``reps[i]`` times along axis ``i``."""
    operand = jnp.asarray(operand)
    reps = tuple(reps)
    if len(reps) != operand.ndim:
        raise TypeError(
            "reps length must be equal to the ndim of x, got "
            f"len(reps)={len(reps)} and x.ndim={operand.ndim}."
        )
    # Broadcast to (reps[0], shape[0], reps[1], shape[1], ...), then merge each pair.
    paired = tuple(size for pair in zip(reps, operand.shape, strict=True) for size in pair)
    dims = tuple(range(1, 2 * operand.ndim, 2))
    tiled = lax.broadcast_in_dim(operand, paired, dims)
    return lax.reshape(tiled, tuple(r * s for r, s in zip(reps, operand.shape, strict=True)))


def _type_string(x: jax.Array) -> str:
    return f"{x.dtype}[{','.join(str(size) for size in x.shape)}]"


def broadcast_like(arr: Any, like_arr: Any) -> jax.Array:
    """``jax.lax.broadcast_like`` (JAX 0.10.0): ``arr`` broadcast to ``like_arr``'s shape."""
    arr = jnp.asarray(arr)
    shape = tuple(np.shape(like_arr))
    lead = len(shape) - arr.ndim
    if lead < 0 or any(
        size not in (1, target) for size, target in zip(arr.shape, shape[lead:], strict=True)
    ):
        requested = f"{arr.dtype}[{','.join(str(size) for size in shape)}]"
        raise ValueError(
            f"Incompatible types for broadcasting: input type={_type_string(arr)} and "
            f"requested type={requested}"
        )
    return lax.broadcast_in_dim(arr, shape, tuple(range(lead, len(shape))))


def stack(operands: Sequence[Any], axis: int = 0) -> jax.Array:
    """``jax.lax.stack`` (JAX 0.10.1): ``operands`` joined along a new axis."""
    arrays = [jnp.asarray(operand) for operand in operands]
    axis = _axis(axis, arrays[0].ndim + 1)
    if len({array.dtype for array in arrays}) > 1:
        raise TypeError(
            "lax.stack requires arguments to have the same dtypes, got "
            f"{', '.join(str(array.dtype) for array in arrays)}."
        )
    if len({array.shape for array in arrays}) > 1:
        raise ValueError(
            "All input arrays must have the same shape. Got "
            f"{', '.join(str(array.shape) for array in arrays)}."
        )
    return lax.concatenate([lax.expand_dims(array, (axis,)) for array in arrays], axis)


def unstack(x: Any, axis: int = 0) -> tuple[jax.Array, ...]:
    """``jax.lax.unstack`` (JAX 0.10.1): the slices of ``x`` along ``axis``, as a tuple."""
    arr = jnp.asarray(x)
    axis = _axis(axis, arr.ndim)
    return tuple(
        lax.index_in_dim(arr, index, axis, keepdims=False) for index in range(arr.shape[axis])
    )


def empty(shape: Any, dtype: Any, *, out_sharding: Any = None) -> jax.Array:
    """``jax.lax.empty`` (JAX 0.7.2): an array whose values are unspecified (here zeros)."""
    if out_sharding is not None:
        raise no_option("empty", "out_sharding", "0.7.2", "has no lax.empty with a sharding")
    return jnp.zeros(shape, dtype)


# --- elementwise: exp2 (0.4.18), mulhi (0.10.2), log2/one_minus_square (0.11.2),
# polynomial (0.12.0) --------------------------------------------------------------------------


def exp2(x: Any, *, accuracy: Any = None) -> jax.Array:
    """``jax.lax.exp2`` (JAX 0.4.18): ``2**x``, computed as ``exp(log(2) * x)`` as JAX does."""
    if accuracy is not None:
        raise no_option("exp2", "accuracy", "0.6.0", "has no accuracy-selected implementations")
    x = jnp.asarray(x)
    _check_dtype("exp2", x, _FLOATING, (jnp.floating, jnp.complexfloating))
    return lax.exp(lax.mul(lax.full_like(x, math.log(2), shape=()), x))


def log2(x: Any, *, accuracy: Any = None) -> jax.Array:
    """``jax.lax.log2`` (JAX 0.11.2): ``log(x) * (1 / log(2))``, as JAX 0.11.2 lowers it."""
    if accuracy is not None:
        raise no_option("log2", "accuracy", "0.11.2", "has no lax.log2 primitive")
    x = jnp.asarray(x)
    _check_dtype("log2", x, _FLOATING, (jnp.floating, jnp.complexfloating))
    return lax.mul(lax.log(x), lax.full_like(x, 1 / math.log(2), shape=()))


@jax.custom_jvp
def _one_minus_square(x: jax.Array) -> jax.Array:
    one = lax.full_like(x, 1, shape=())
    return lax.mul(lax.add(one, x), lax.sub(one, x))


@_one_minus_square.defjvp
def _one_minus_square_jvp(
    primals: tuple[jax.Array], tangents: tuple[jax.Array]
) -> tuple[jax.Array, jax.Array]:
    # JAX 0.11.2 defines the derivative as -2x directly: the product rule on (1+x)(1-x)
    # cancels catastrophically near 0.
    (x,), (t,) = primals, tangents
    return _one_minus_square(x), lax.mul(lax.mul(lax.full_like(x, -2, shape=()), x), t)


def one_minus_square(x: Any) -> jax.Array:
    """``jax.lax.one_minus_square`` (JAX 0.11.2): ``(1 + x) * (1 - x)``, derivative ``-2x``."""
    x = jnp.asarray(x)
    _check_dtype(
        "one_minus_square",
        x,
        "integer, floating, complexfloating",
        (jnp.integer, jnp.floating, jnp.complexfloating),
    )
    result: jax.Array = _one_minus_square(x)
    return result


def _same_dtypes(name: str, x: jax.Array, y: jax.Array) -> None:
    if x.dtype != y.dtype:
        raise TypeError(
            f"lax.{name} requires arguments to have the same dtypes, got {x.dtype}, {y.dtype}."
        )


def _broadcast_pair(name: str, x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``x`` and ``y`` broadcast as lax's binary ops do: scalars, or equal ranks."""
    ranks = {array.ndim for array in (x, y) if array.ndim}
    if len(ranks) > 1:
        raise TypeError(f"{name}: arrays must have the same number of dimensions, got {ranks}")
    shape = jnp.broadcast_shapes(x.shape, y.shape)
    return jnp.broadcast_to(x, shape), jnp.broadcast_to(y, shape)


def mulhi(x: Any, y: Any, /) -> jax.Array:
    """``jax.lax.mulhi`` (JAX 0.10.2): the upper N bits of the 2N-bit product of N-bit ints."""
    x, y = jnp.asarray(x), jnp.asarray(y)
    _same_dtypes("mulhi", x, y)
    for position, array in enumerate((x, y)):
        if not jnp.issubdtype(array.dtype, jnp.integer):
            raise TypeError(
                f"mulhi does not accept dtype {array.dtype} at position {position}. Accepted "
                f"dtypes at position {position} are subtypes of integer."
            )
    x, y = _broadcast_pair("mulhi", x, y)
    bits = np.iinfo(x.dtype).bits
    half = bits // 2
    unsigned = np.dtype(f"uint{bits}")
    ux = lax.bitcast_convert_type(x, unsigned)
    uy = lax.bitcast_convert_type(y, unsigned)

    def const(value: int) -> jax.Array:
        return lax.full_like(ux, value, shape=())

    mask, shift = const((1 << half) - 1), const(half)
    x_lo, x_hi = lax.bitwise_and(ux, mask), lax.shift_right_logical(ux, shift)
    y_lo, y_hi = lax.bitwise_and(uy, mask), lax.shift_right_logical(uy, shift)
    # Schoolbook multiplication in half-width digits: no partial sum overflows N bits.
    low = lax.mul(x_lo, y_lo)
    t = lax.add(lax.mul(x_hi, y_lo), lax.shift_right_logical(low, shift))
    w = lax.add(lax.bitwise_and(t, mask), lax.mul(x_lo, y_hi))
    high = lax.add(
        lax.add(lax.mul(x_hi, y_hi), lax.shift_right_logical(t, shift)),
        lax.shift_right_logical(w, shift),
    )
    if jnp.issubdtype(x.dtype, jnp.signedinteger):
        # Signed high word: the unsigned one minus y where x < 0 and minus x where y < 0.
        zero = lax.full_like(ux, 0)
        high = lax.sub(high, lax.select(lax.lt(x, lax.full_like(x, 0, shape=())), uy, zero))
        high = lax.sub(high, lax.select(lax.lt(y, lax.full_like(y, 0, shape=())), ux, zero))
    result = lax.bitcast_convert_type(high, x.dtype)
    if dtypes.is_weakly_typed(x) and dtypes.is_weakly_typed(y):
        # Like every lax binary op, weakly typed when both arguments are (Python ints).
        result = lax_internal._convert_element_type(result, x.dtype, weak_type=True)
    return result


def polynomial(x: Any, coeffs: Sequence[Any], *, unroll: int | None = None) -> jax.Array:
    """``jax.lax.polynomial`` (JAX 0.12.0): ``coeffs[0] + x * (coeffs[1] + ...)`` (Horner).

    ``unroll`` only shapes JAX's lowering of the recurrence; the values are the same.
    """
    del unroll
    x = jnp.asarray(x)
    terms = [
        # Concrete scalar coefficients take x's dtype and weak type, as JAX's _const does.
        lax.full_like(x, c, shape=())
        if not isinstance(c, jax.core.Tracer) and np.ndim(c) == 0
        else lax.convert_element_type(c, x.dtype)
        for c in coeffs
    ]
    if not terms:
        return lax.full_like(x, 0)
    ranks = {term.ndim for term in (x, *terms) if term.ndim}
    if len(ranks) > 1:
        raise TypeError(f"polynomial: arrays must have the same number of dimensions, got {ranks}")
    if len(terms) == 1:
        shape = jnp.broadcast_shapes(x.shape, terms[0].shape)
        return jnp.broadcast_to(terms[0], shape)
    shape = jnp.broadcast_shapes(x.shape, *(term.shape for term in terms))
    x = jnp.broadcast_to(x, shape)
    result = jnp.broadcast_to(terms[-1], shape)
    for term in reversed(terms[:-1]):
        result = lax.add(lax.mul(result, x), jnp.broadcast_to(term, shape))
    return result


# --- scatter_sub (0.4.35), axis_size (0.6.1) ----------------------------------------------------


def scatter_sub(
    operand: Any,
    scatter_indices: Any,
    updates: Any,
    dimension_numbers: lax.ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | lax.GatherScatterMode | None = None,
) -> jax.Array:
    """``jax.lax.scatter_sub`` (JAX 0.4.35): ``operand`` minus the scattered ``updates``.

    Adding the negated updates is the same in two's complement and IEEE arithmetic
    (``a - b == a + (-b)`` exactly), and differentiates the same way.
    """
    operand = jnp.asarray(operand)
    if not jnp.issubdtype(operand.dtype, jnp.number):
        raise TypeError(
            f"sub does not accept dtype {operand.dtype} at position 0. Accepted dtypes at "
            "position 0 are subtypes of integer, complexfloating, floating."
        )
    return lax.scatter_add(
        operand,
        scatter_indices,
        lax.neg(jnp.asarray(updates)),
        dimension_numbers,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
        mode=mode,
    )


def axis_size(axis_name: Hashable) -> int:
    """``jax.lax.axis_size`` (JAX 0.6.1): the size of a mapped axis (product for a tuple).

    ``psum`` of the constant 1 is the axis size as a Python int on every release: JAX reads
    it from the axis environment without staging a collective.
    """
    size: int = lax.psum(1, axis_name)  # type: ignore[no-untyped-call]
    return size


def _index_dtype(shape: Sequence[Any]) -> np.dtype[Any]:
    # int32 unless a dimension needs int64; a symbolic dimension takes the default int.
    for d in shape:
        if not jax_core.is_constant_dim(d):
            return np.dtype(dtypes.canonicalize_dtype(np.int64))
        if d > np.iinfo(np.int32).max:
            return np.dtype(np.int64)
    return np.dtype(np.int32)


def shape_as_value(shape: Sequence[Any]) -> Any:
    """``jax.lax.shape_as_value`` as of JAX 0.7.2: a shape as an integer vector.

    A constant shape is a NumPy array, int32 unless a dimension needs int64 (before 0.7.2
    always int64); a shape with symbolic dimensions is a JAX array computed from them.
    """
    dtype = _index_dtype(shape)
    if len(shape) == 0:
        return lax.full((0,), np.array(0, dtype))
    if jax_core.is_constant_shape(shape):
        return np.asarray(shape, dtype=dtype)
    dims = [
        lax.expand_dims(lax.convert_element_type(jax_core.dimension_as_value(d), dtype), (0,))
        for d in shape
    ]
    return lax.concatenate(dims, dimension=0)
