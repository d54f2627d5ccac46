"""What the backport contract tests share: their hypothesis settings and a comparison."""

from __future__ import annotations

from typing import Any

import jax
import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

# The same examples on every row (derandomized), and few of them: an example can compile new
# programs, and the suite runs on every row of the matrix.
few = settings(max_examples=4, deadline=None, derandomize=True, database=None)

# A few fixed shapes rather than any shape up to (4, 4, 4): ranks one to three, a single
# element and a unit axis that broadcasts. Every eager op compiles once per shape, so with
# shapes shared the examples and tests reuse each other's compiled programs (values still
# vary with every example).
EVERY_SHAPE = [(1,), (4,), (2, 3), (3, 1, 2)]
SHAPES = st.sampled_from(EVERY_SHAPE)


def assert_same(actual: Any, expected: Any, *, rtol: float = 2e-6, atol: float = 1e-6) -> None:
    """Same dtype, shape and values (NaN equal to NaN)."""
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=rtol, atol=atol)


def device_array(values: Any, dtype: Any = np.float32) -> jax.Array:
    """A JAX array made in NumPy and put on the device: jnp.arange, jnp.ones and the like
    (and jnp.asarray on the newest JAX) compile a program for every shape; device_put does not.
    """
    return jax.device_put(np.asarray(values, dtype))
