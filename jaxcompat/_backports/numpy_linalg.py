"""``jax.numpy.linalg``'s array-API functions (JAX 0.4.22-0.4.29), for releases that lack them.

Each is the newest JAX's definition, over the last axes: the ``jax.numpy`` function of its
name (``cross``, ``outer``, ``matmul``, ``tensordot``, ``vecdot``, ``diagonal``, ``trace``),
``norm`` or ``svd`` of the matrices, or the vector norm written out as the newest writes it.
They are built from the installed release's own operations, so they trace, jit, vmap and
differentiate, and like the newest they refuse a list or tuple where an array is expected.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._keywords.numpy import accumulated_in_the_dtype
from .numpy_array_api import vecdot as _numpy_vecdot
from .numpy_functions import arrays_of

__all__ = [
    "cross",
    "diagonal",
    "matmul",
    "matrix_norm",
    "matrix_transpose",
    "outer",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> jax.Array:
    """``jnp.linalg.cross`` (JAX 0.4.22): the cross product of 3-vectors along ``axis``."""
    # The newest checks its arguments under the name "jnp.linalg.outer" (its words, kept).
    x1, x2 = arrays_of("jnp.linalg.outer", x1, x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, "
            f"but they have {x1.shape[axis]=} and {x2.shape[axis]=}"
        )
    return jnp.cross(x1, x2, axis=axis)  # type: ignore[no-any-return, unused-ignore]


def outer(x1: Any, x2: Any, /) -> jax.Array:
    """``jnp.linalg.outer`` (JAX 0.4.22): the outer product of two 1-D arrays."""
    x1, x2 = arrays_of("jnp.linalg.outer", x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are {x1.ndim=} {x2.ndim=}"
        )
    return x1[:, None] * x2[None, :]  # type: ignore[no-any-return, unused-ignore]


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: str | int = "fro") -> jax.Array:
    """``jnp.linalg.matrix_norm`` (JAX 0.4.24): ``norm`` over the last two axes."""
    (x,) = arrays_of("jnp.linalg.matrix_norm", x)
    return jnp.linalg.norm(x, ord=ord, keepdims=keepdims, axis=(-2, -1))  # type: ignore[no-any-return, unused-ignore]


def matrix_transpose(x: Any, /) -> jax.Array:
    """``jnp.linalg.matrix_transpose`` (JAX 0.4.24): the last two axes swapped."""
    (x,) = arrays_of("jnp.linalg.matrix_transpose", x)
    ndim = x.ndim
    if ndim < 2:
        raise ValueError(f"matrix_transpose requires at least 2 dimensions; got {ndim=}")
    return lax.transpose(x, (*range(ndim - 2), ndim - 1, ndim - 2))


def vector_norm(
    x: Any,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | str | float = 2,
) -> jax.Array:
    """``jnp.linalg.vector_norm`` (JAX 0.4.24): the norm of the vectors along ``axis`` (any
    number of axes, all of them by default), as the newest computes it. (``jnp.linalg.norm``
    is not the same: over two axes it takes a matrix norm.)"""
    (x,) = arrays_of("jnp.linalg.vector_norm", x)
    if ord is None or ord == 2:
        return jnp.sqrt(jnp.sum(jnp.real(x * jnp.conj(x)), axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return jnp.max(jnp.abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return jnp.min(jnp.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return jnp.sum(x != 0, dtype=jnp.finfo(x.dtype).dtype, axis=axis, keepdims=keepdims)  # type: ignore[no-untyped-call, unused-ignore]
    if ord == 1:
        return jnp.sum(jnp.abs(x), axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        message = f"Invalid order '{ord}' for vector norm."
        if ord == "inf":
            message += "Use 'jax.numpy.inf' instead."
        if ord == "-inf":
            message += "Use '-jax.numpy.inf' instead."
        raise ValueError(message)
    absolute = jnp.abs(x)
    # The order and its inverse in the array's own dtype, as the newest's lax._const makes them.
    power = np.array(ord, dtype=absolute.dtype)
    inverse = np.array(1.0 / power, dtype=absolute.dtype)
    return jnp.power(jnp.sum(absolute**power, axis=axis, keepdims=keepdims), inverse)


def _product(
    name: str, x1: Any, x2: Any, precision: Any, preferred_element_type: Any, **options: Any
) -> jax.Array:
    """``jnp.<name>(x1, x2, ...)`` with the newest's ``preferred_element_type``, which
    ``jax.numpy``'s products lack on JAX 0.4.13 (computed as jaxcompat computes it there)."""
    function = getattr(jnp, name)
    if preferred_element_type is None:
        return function(x1, x2, precision=precision, **options)  # type: ignore[no-any-return]
    values = {"preferred_element_type": preferred_element_type}
    return accumulated_in_the_dtype(  # type: ignore[no-any-return]
        function, f"jax.numpy.{name}", values, x1, x2, precision=precision, **options
    )


def matmul(
    x1: Any, x2: Any, /, *, precision: Any = None, preferred_element_type: Any = None
) -> jax.Array:
    """``jnp.linalg.matmul`` (JAX 0.4.24): ``jnp.matmul``."""
    x1, x2 = arrays_of("jnp.linalg.matmul", x1, x2)
    return _product("matmul", x1, x2, precision, preferred_element_type)


def tensordot(
    x1: Any,
    x2: Any,
    /,
    *,
    axes: Any = 2,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> jax.Array:
    """``jnp.linalg.tensordot`` (JAX 0.4.24): ``jnp.tensordot``. (Its newest
    ``out_sharding=`` is added by the keyword rules, as for ``jnp.tensordot``.)"""
    x1, x2 = arrays_of("jnp.linalg.tensordot", x1, x2)
    return _product("tensordot", x1, x2, precision, preferred_element_type, axes=axes)


def vecdot(
    x1: Any,
    x2: Any,
    /,
    *,
    axis: int = -1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> jax.Array:
    """``jnp.linalg.vecdot`` (JAX 0.4.24): ``jnp.vecdot``, conjugating ``x1``."""
    x1, x2 = arrays_of("jnp.linalg.vecdot", x1, x2)
    return _numpy_vecdot(
        x1, x2, axis=axis, precision=precision, preferred_element_type=preferred_element_type
    )


def svdvals(x: Any, /) -> jax.Array:
    """``jnp.linalg.svdvals`` (JAX 0.4.24): the singular values, in descending order."""
    (x,) = arrays_of("jnp.linalg.svdvals", x)
    return jnp.linalg.svd(x, compute_uv=False, hermitian=False)  # type: ignore[no-any-return, unused-ignore]


def diagonal(x: Any, /, *, offset: int = 0) -> jax.Array:
    """``jnp.linalg.diagonal`` (JAX 0.4.24): the diagonals of the last two axes."""
    (x,) = arrays_of("jnp.linalg.diagonal", x)
    return jnp.diagonal(x, offset=offset, axis1=-2, axis2=-1)  # type: ignore[no-any-return, unused-ignore]


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> jax.Array:
    """``jnp.linalg.trace`` (JAX 0.4.29): the traces of the last two axes."""
    (x,) = arrays_of("jnp.linalg.trace", x)
    return jnp.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)  # type: ignore[no-any-return, unused-ignore]
