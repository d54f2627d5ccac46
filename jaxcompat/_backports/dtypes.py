"""``jax.dtypes`` functions that older releases lack."""

from __future__ import annotations

from typing import Any

import numpy as np
from jax import numpy as jnp

# jax.numpy's issubdtype, iinfo and finfo are jax.dtypes' own (they know bfloat16, int4, ...).
_issubdtype: Any = jnp.issubdtype
_iinfo: Any = jnp.iinfo
_finfo: Any = jnp.finfo

__all__ = ["itemsize_bits"]


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
