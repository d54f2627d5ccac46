"""What the backport contract tests share: their hypothesis settings and a comparison."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import settings
from hypothesis.extra import numpy as hnp

# The same examples on every row (derandomized), and few of them: each example compiles
# its own shapes, and the suite runs on every row and Python of the matrix.
few = settings(max_examples=4, deadline=None, derandomize=True, database=None)

SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


def assert_same(actual: Any, expected: Any, *, rtol: float = 2e-6, atol: float = 1e-6) -> None:
    """Same dtype, shape and values (NaN equal to NaN)."""
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=rtol, atol=atol)
