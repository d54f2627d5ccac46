"""``jax.numpy``'s array-API names (JAX 0.4.18-0.4.38), for releases that lack them.

Each function is built from the installed release's own ``jax.numpy`` and ``jax.lax``
operations, so it traces, jits, vmaps and differentiates as the native one does, and it has
the newest JAX's signature, results, dtypes and errors.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

__all__ = [
    "astype",
    "bitwise_count",
    "concat",
    "cumulative_prod",
    "cumulative_sum",
    "isdtype",
    "matvec",
    "permute_dims",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "unstack",
    "vecdot",
    "vecmat",
]


def concat(arrays: Sequence[Any], /, *, axis: int | None = 0) -> jax.Array:
    """``jnp.concat`` (JAX 0.4.24): the array-API spelling of ``jnp.concatenate``."""
    return jnp.concatenate(arrays, axis=axis)


def permute_dims(a: Any, /, axes: tuple[int, ...]) -> jax.Array:
    """``jnp.permute_dims`` (JAX 0.4.24): ``jnp.transpose`` with required axes."""
    return jnp.transpose(a, tuple(axes))


def unstack(x: Any, /, *, axis: int = 0) -> tuple[jax.Array, ...]:
    """``jnp.unstack`` (JAX 0.4.27): the slices of ``x`` along ``axis``, as a tuple."""
    x = jnp.asarray(x)
    if x.ndim == 0:
        raise ValueError(
            "Unstack requires arrays with rank > 0, however a scalar array was passed."
        )
    return tuple(lax.index_in_dim(x, i, axis, keepdims=False) for i in range(x.shape[axis]))


def astype(x: Any, dtype: Any, /, *, copy: bool = False, device: Any = None) -> jax.Array:
    """``jnp.astype`` (JAX 0.4.21)."""
    x = jnp.asarray(x)
    target = default_dtype(jnp.float_ if dtype is None else dtype)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        if jnp.issubdtype(target, jnp.integer) or jnp.issubdtype(target, jnp.floating):
            # The newest JAX warns so, and takes the real part.
            warnings.warn(
                "Casting from complex to real dtypes will soon raise a ValueError. Please first "
                "use jnp.real or jnp.imag to take the real/imaginary component of your input.",
                DeprecationWarning,
                stacklevel=2,
            )
            x = jnp.real(x)
        elif target == np.dtype(bool):
            x = x != 0
    result = lax.convert_element_type(x, target)
    if device is not None:
        result = jax.device_put(result, device)
    return jnp.array(result, copy=True) if copy else result


def bitwise_count(x: Any, /) -> jax.Array:
    """``jnp.bitwise_count`` (JAX 0.4.18): the number of 1 bits in ``abs(x)``, as uint8."""
    x = jnp.asarray(x)
    if x.dtype == np.dtype(bool):
        x = lax.convert_element_type(x, default_dtype(jnp.int_))
    return lax.convert_element_type(lax.population_count(jnp.abs(x)), np.uint8)


def default_dtype(scalar_type: Any) -> np.dtype[Any]:
    """The installed JAX's default dtype of a kind: ``jnp.int_`` is int32 without x64."""
    return np.dtype(jax.dtypes.canonicalize_dtype(scalar_type))


def _promoted_integer(dtype: np.dtype[Any], promote_integers: bool) -> np.dtype[Any]:
    # The newest cumulative_sum accumulates small integers in the default integer type, as
    # jnp.sum does; cumulative_prod only promotes bools.
    default_int = default_dtype(jnp.int_)
    default_uint = default_dtype(jnp.uint)
    if dtype == np.dtype(bool):
        return default_int
    if not promote_integers:
        return dtype
    if jnp.issubdtype(dtype, jnp.unsignedinteger):
        return default_uint if dtype.itemsize < default_uint.itemsize else dtype
    if jnp.issubdtype(dtype, jnp.integer):
        return default_int if dtype.itemsize < default_int.itemsize else dtype
    return dtype


def _cumulative(
    name: str,
    reduce: Callable[[jax.Array, int], jax.Array],
    initial: int,
    promote_integers: bool,
    x: Any,
    axis: int | None,
    dtype: Any,
    include_initial: bool,
) -> jax.Array:
    x = jnp.asarray(x)
    if x.ndim == 0:
        raise ValueError(
            f"The input must be non-scalar to take a {name}, however a scalar value or scalar "
            "array was given."
        )
    if axis is None:
        axis = 0
        if x.ndim > 1:
            raise ValueError(
                f"The input array has rank {x.ndim}, however axis was not set to an explicit "
                "value. The axis argument is only optional for one-dimensional arrays."
            )
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {x.ndim}")
    axis %= x.ndim
    if dtype is None:
        result_type = computation_type = _promoted_integer(x.dtype, promote_integers)
    elif jnp.dtype(dtype) == np.dtype(bool):
        # Accumulate truth values, never the original numbers (-1 and 1 must not cancel).
        result_type = np.dtype(bool)
        if x.dtype != result_type:
            x = x != 0
        computation_type = _promoted_integer(result_type, promote_integers=True)
    else:
        result_type = computation_type = default_dtype(dtype)
    result = lax.convert_element_type(
        reduce(lax.convert_element_type(x, computation_type), axis), result_type
    )
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        result = lax.concatenate([jnp.full(shape, initial, result.dtype), result], axis)
    return result


def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> jax.Array:
    """``jnp.cumulative_sum`` (JAX 0.4.27)."""
    return _cumulative("cumulative sum", lax.cumsum, 0, True, x, axis, dtype, include_initial)


def cumulative_prod(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> jax.Array:
    """``jnp.cumulative_prod`` (JAX 0.4.36)."""
    return _cumulative("cumulative product", lax.cumprod, 1, False, x, axis, dtype, include_initial)


_KIND_CLASSES: dict[str, tuple[Any, ...]] = {
    "bool": (jnp.bool_,),
    "signed integer": (jnp.signedinteger,),
    "unsigned integer": (jnp.unsignedinteger,),
    "integral": (jnp.integer,),
    "real floating": (jnp.floating,),
    "complex floating": (jnp.complexfloating,),
    "numeric": (jnp.integer, jnp.floating, jnp.complexfloating),
}


@functools.cache
def _jax_dtypes() -> frozenset[np.dtype[Any]]:
    # Every dtype the installed JAX defines a scalar type for (int4, bfloat16, float8_*, ...).
    found = set()
    for name in dir(jnp):
        scalar_type = getattr(jnp, name, None)
        if isinstance(scalar_type, type) and hasattr(scalar_type, "dtype"):
            try:
                found.add(np.dtype(scalar_type.dtype))
            except TypeError:
                continue
    return frozenset(found)


def isdtype(dtype: Any, kind: Any) -> bool:
    """``jnp.isdtype`` (JAX 0.4.24): whether ``dtype`` is of the array-API ``kind``."""
    the_dtype = np.dtype(dtype)
    for one_kind in kind if isinstance(kind, tuple) else (kind,):
        if isinstance(one_kind, str) and one_kind in _KIND_CLASSES:
            if the_dtype in _jax_dtypes() and any(
                jnp.issubdtype(the_dtype, kind_class) for kind_class in _KIND_CLASSES[one_kind]
            ):
                return True
            continue
        try:
            kind_dtype = np.dtype(one_kind)
        except TypeError as error:
            if isinstance(one_kind, str):
                raise ValueError(
                    f"Unrecognized kind={one_kind!r} expected one of {list(_KIND_CLASSES)}, "
                    "or a compatible input for jnp.dtype()"
                ) from None
            raise TypeError(
                f"Expected kind to be a dtype, string, or tuple; got kind={one_kind!r}"
            ) from error
        if the_dtype == kind_dtype:
            return True
    return False


def vecdot(
    x1: Any,
    x2: Any,
    /,
    *,
    axis: int = -1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> jax.Array:
    """``jnp.vecdot`` (JAX 0.4.24): ``vdot`` (conjugating ``x1``) along ``axis``, batched."""
    x1, x2 = jnp.asarray(x1), jnp.asarray(x2)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"axes must match; got shapes {x1.shape} and {x2.shape} with axis={axis}")

    def vdot(a: jax.Array, b: jax.Array) -> jax.Array:
        # jnp.vdot and jnp.dot of these releases lack preferred_element_type: the same
        # contraction, in the promoted dtype, spelled out.
        common = jnp.result_type(a, b)
        a = lax.convert_element_type(jnp.conj(a), common)
        b = lax.convert_element_type(b, common)
        if preferred_element_type is not None:
            preferred = default_dtype(preferred_element_type)
        else:
            preferred = None
        return lax.dot_general(
            a, b, (((0,), (0,)), ((), ())), precision=precision, preferred_element_type=preferred
        )

    batched: Callable[..., jax.Array] = jnp.vectorize(vdot, signature="(n),(n)->()")  # type: ignore[no-untyped-call, unused-ignore]
    return batched(jnp.moveaxis(x1, axis, -1), jnp.moveaxis(x2, axis, -1))


def matvec(x1: Any, x2: Any, /) -> jax.Array:
    """``jnp.matvec`` (JAX 0.4.38): batched matrix-vector product."""
    x1, x2 = jnp.asarray(x1), jnp.asarray(x2)
    batched: Callable[..., jax.Array] = jnp.vectorize(jnp.matmul, signature="(n,m),(m)->(n)")  # type: ignore[no-untyped-call, unused-ignore]
    return batched(x1, x2)


def vecmat(x1: Any, x2: Any, /) -> jax.Array:
    """``jnp.vecmat`` (JAX 0.4.38): batched vector-matrix product, conjugating ``x1``."""
    x1, x2 = jnp.asarray(x1), jnp.asarray(x2)
    batched: Callable[..., jax.Array] = jnp.vectorize(jnp.matmul, signature="(n),(n,m)->(m)")  # type: ignore[no-untyped-call, unused-ignore]
    return batched(jnp.conj(x1), x2)


# --- unique_*: the newest results, where NaNs are never equal (equal_nan=False) --------------
# jnp.unique of the releases that lack these names counts all NaNs as one value and returns a
# flat inverse, so the sort-based computation is done here.


class _UniqueAllResult(NamedTuple):
    values: jax.Array
    indices: jax.Array
    inverse_indices: jax.Array
    counts: jax.Array


class _UniqueCountsResult(NamedTuple):
    values: jax.Array
    counts: jax.Array


class _UniqueInverseResult(NamedTuple):
    values: jax.Array
    inverse_indices: jax.Array


def _unique(x: Any, size: int | None, fill_value: Any) -> _UniqueAllResult:
    x = jnp.asarray(x)
    flat = jnp.ravel(x)
    count = flat.shape[0]
    positions = jnp.arange(count)
    if count == 0:
        empty = jnp.zeros(0 if size is None else size, positions.dtype)
        values = jnp.zeros(empty.shape, x.dtype)
        if size is not None and fill_value is not None:
            values = jnp.full(empty.shape, fill_value, x.dtype)
        return _UniqueAllResult(values, empty, jnp.zeros(x.shape, positions.dtype), empty)
    ordered, order = lax.sort((flat, positions), num_keys=1, is_stable=True)
    # A NaN differs from everything, itself included: each NaN is its own value.
    starts_mask = jnp.concatenate([jnp.ones(1, bool), ordered[1:] != ordered[:-1]])
    inverse = jnp.zeros(count, positions.dtype).at[order].set(jnp.cumsum(starts_mask) - 1)
    if size is None:
        (starts,) = jnp.nonzero(starts_mask)
        ends = jnp.concatenate([starts[1:], jnp.full(1, count, starts.dtype)])
        return _UniqueAllResult(
            ordered[starts], order[starts], inverse.reshape(x.shape), ends - starts
        )
    (starts,) = jnp.nonzero(starts_mask, size=size, fill_value=0)
    distinct = jnp.sum(starts_mask)
    slot = jnp.arange(size)
    next_starts = jnp.concatenate([starts[1:], jnp.full(1, count, starts.dtype)])
    ends = jnp.where(slot + 1 < distinct, next_starts, count)
    padding = ordered[0] if fill_value is None else jnp.asarray(fill_value, x.dtype)
    return _UniqueAllResult(
        jnp.where(slot < distinct, ordered[starts], padding),
        order[starts],
        inverse.reshape(x.shape),
        jnp.where(slot < distinct, ends - starts, 0),
    )


def unique_all(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> _UniqueAllResult:
    """``jnp.unique_all`` (JAX 0.4.24)."""
    return _unique(x, size, fill_value)


def unique_counts(
    x: Any, /, *, size: int | None = None, fill_value: Any = None
) -> _UniqueCountsResult:
    """``jnp.unique_counts`` (JAX 0.4.24)."""
    found = _unique(x, size, fill_value)
    return _UniqueCountsResult(found.values, found.counts)


def unique_inverse(
    x: Any, /, *, size: int | None = None, fill_value: Any = None
) -> _UniqueInverseResult:
    """``jnp.unique_inverse`` (JAX 0.4.24)."""
    found = _unique(x, size, fill_value)
    return _UniqueInverseResult(found.values, found.inverse_indices)


def unique_values(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> jax.Array:
    """``jnp.unique_values`` (JAX 0.4.24)."""
    return _unique(x, size, fill_value).values
