"""``jax.dtypes`` functions that older releases lack or answer differently."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from jax import numpy as jnp

# jax.numpy's issubdtype, iinfo and finfo are jax.dtypes' own (they know bfloat16, int4, ...).
_issubdtype: Any = jnp.issubdtype
_iinfo: Any = jnp.iinfo
_finfo: Any = jnp.finfo

__all__ = [
    "dtypes_issubdtype_under_generic",
    "itemsize_bits",
    "numpy_issubdtype_under_generic",
]


def itemsize_bits(dtype: Any) -> int:
    """``jax.dtypes.itemsize_bits`` (JAX 0.8.1): bits per element, right for sub-byte types."""
    if dtype is None:
        raise ValueError("dtype cannot be None.")
    if dtype == np.dtype(bool):
        return 8  # a boolean takes a byte
    if _issubdtype(dtype, np.integer):
        return int(_iinfo(dtype).bits)
    if _issubdtype(dtype, np.floating):
        return int(_finfo(dtype).bits)
    if _issubdtype(dtype, np.complexfloating):
        return 2 * int(_finfo(dtype).bits)
    raise ValueError(f"unexpected input: {dtype=}")


def dtypes_issubdtype_under_generic(
    jax_issubdtype: Callable[[Any, Any], bool],
) -> Callable[..., bool]:
    """``jax.dtypes.issubdtype(a, b)`` of JAX 0.4.17.

    Before JAX 0.4.17 a custom dtype (bfloat16, the float8 types, int4, uint4) was a
    sub-dtype of ``np.floating``, ``np.inexact``, ``np.number`` (or the integer kinds) and
    of itself, but not of ``np.generic``, above them all; from 0.4.17 it is. Such a dtype is
    a number, so a generic: every other question goes to JAX's own function, and the test
    is written out in each adapter (no helper call: ``issubdtype`` is called eagerly, often).
    """

    def issubdtype(a: Any, b: Any) -> bool:
        if b is np.generic and not jax_issubdtype(a, b):
            return jax_issubdtype(a, np.number)
        return jax_issubdtype(a, b)

    issubdtype.__doc__ = jax_issubdtype.__doc__
    return issubdtype


def numpy_issubdtype_under_generic(
    jax_issubdtype: Callable[[Any, Any], bool],
) -> Callable[..., bool]:
    """``jax.numpy.issubdtype(arg1, arg2)`` of JAX 0.4.17, as
    ``dtypes_issubdtype_under_generic``: the parameters keep jax.numpy's names, which differ
    from jax.dtypes'."""

    def issubdtype(arg1: Any, arg2: Any) -> bool:
        if arg2 is np.generic and not jax_issubdtype(arg1, arg2):
            return jax_issubdtype(arg1, np.number)
        return jax_issubdtype(arg1, arg2)

    issubdtype.__doc__ = jax_issubdtype.__doc__
    return issubdtype
