"""Newest keywords of the sorting, set and quantile functions, on every row: lax.top_k(
is_stable=), lexsort(batch_size=), intersect1d and setxor1d(size=, fill_value=), and the
quantile functions' weights=. Results are checked against NumPy."""

import jax
import numpy as np
import pytest

import jaxcompat.numpy as cnp
from jaxcompat import lax as clax

TIES = np.array([1.0, 3.0, 3.0, 2.0, 3.0, 1.0, 3.0] * 3, np.float32)


def test_top_k_is_stable_keeps_equal_elements_in_order():
    values, indices = clax.top_k(TIES, 9, is_stable=True)
    expected = np.argsort(-TIES, kind="stable")[:9]
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(values, TIES[expected])


def test_top_k_not_stable_gives_the_top_values():
    values, indices = clax.top_k(TIES.reshape(3, 7), 2, axis=0, is_stable=False)
    np.testing.assert_array_equal(values, -np.sort(-TIES.reshape(3, 7), axis=0)[:2])
    np.testing.assert_array_equal(np.take_along_axis(TIES.reshape(3, 7), indices, 0), values)


@pytest.mark.parametrize("batch_size", [1, 2, 16])
def test_lexsort_in_batches_of_any_size(batch_size):
    keys = np.random.RandomState(0).randint(0, 3, (5, 40))
    np.testing.assert_array_equal(cnp.lexsort(keys, batch_size=batch_size), np.lexsort(keys))
    pair = (keys[0], keys[1])
    np.testing.assert_array_equal(cnp.lexsort(pair, batch_size=batch_size), np.lexsort(pair))


def test_lexsort_batch_size_must_be_positive():
    with pytest.raises(ValueError, match="batch_size") as raised:
        cnp.lexsort((np.arange(3),), batch_size=0)
    assert str(raised.value) == "lexsort: batch_size must be positive, got 0"


FIRST = np.array([5, 1, 3, 3, 7, -2])
SECOND = np.array([3, 9, -2, 8, 5, 5, 0])


def _padded(values, size, fill):
    values = values[:size]
    return np.concatenate([values, np.full(size - len(values), fill, values.dtype)])


@pytest.mark.parametrize("size", [0, 2, 3, 8])
def test_intersect1d_to_size(size):
    expected = np.intersect1d(FIRST, SECOND)
    smallest = expected.min() if expected.size else 0
    result = cnp.intersect1d(FIRST, SECOND, size=size)
    np.testing.assert_array_equal(result, _padded(expected, size, smallest))
    filled = cnp.intersect1d(FIRST, SECOND, size=size, fill_value=-9)
    np.testing.assert_array_equal(filled, _padded(expected, size, -9))


def test_intersect1d_to_size_with_indices():
    expected, first_indices, second_indices = np.intersect1d(FIRST, SECOND, return_indices=True)
    result = cnp.intersect1d(FIRST, SECOND, size=5, return_indices=True)
    np.testing.assert_array_equal(result[0], _padded(expected, 5, expected.min()))
    np.testing.assert_array_equal(result[1], _padded(first_indices, 5, FIRST.size))
    np.testing.assert_array_equal(result[2], _padded(second_indices, 5, SECOND.size))


def test_intersect1d_to_size_of_disjoint_empty_and_nan_inputs():
    np.testing.assert_array_equal(cnp.intersect1d(np.array([1, 2]), np.array([3]), size=2), [0, 0])
    empty = cnp.intersect1d(np.array([], np.int32), np.array([3, 4]), size=2)
    np.testing.assert_array_equal(empty, [0, 0])
    nans = cnp.intersect1d(np.array([1.5, np.nan, 2.0]), np.array([np.nan, 2.0]), size=3)
    np.testing.assert_array_equal(nans, [2.0, 2.0, 2.0])  # NaN is never equal to NaN


@pytest.mark.parametrize("size", [0, 3, 8])
def test_setxor1d_to_size(size):
    expected = np.setxor1d(FIRST, SECOND)
    result = cnp.setxor1d(FIRST, SECOND, size=size)
    np.testing.assert_array_equal(result, _padded(expected, size, expected.min()))
    filled = cnp.setxor1d(FIRST, SECOND, size=size, fill_value=100)
    np.testing.assert_array_equal(filled, _padded(expected, size, 100))


def test_setxor1d_pads_with_its_smallest_value_not_zero():
    result = cnp.setxor1d(np.array([-5, -3]), np.array([-3, -1, -1]), size=4)
    np.testing.assert_array_equal(result, [-5, -1, -5, -5])


@pytest.mark.parametrize("name", ["intersect1d", "setxor1d"])
def test_set_operations_refuse_a_negative_size(name):
    with pytest.raises(ValueError, match="size") as raised:
        getattr(cnp, name)(FIRST, SECOND, size=-1)
    assert str(raised.value) == "size must be a positive integer; got size=-1"


def test_set_operations_to_size_jit():
    intersect = jax.jit(lambda a, b: cnp.intersect1d(a, b, size=3))
    np.testing.assert_array_equal(intersect(FIRST, SECOND), np.intersect1d(FIRST, SECOND))
    xor = jax.jit(lambda a, b: cnp.setxor1d(a, b, size=5))
    np.testing.assert_array_equal(xor(FIRST, SECOND), np.setxor1d(FIRST, SECOND))


def _weighted_inverted_cdf(samples, weights, q):
    """The smallest value whose cumulative weight, in ascending order, reaches q of the
    total: NumPy's weighted inverted_cdf, over one 1-D sample."""
    order = np.argsort(samples, kind="stable")
    cumulative = np.cumsum(weights[order].astype(np.float64))
    place = np.searchsorted(cumulative, q * cumulative[-1], side="left")
    return samples[order][min(place, len(samples) - 1)]


RNG = np.random.RandomState(0)
DATA = RNG.randn(3, 7).astype(np.float32)
WEIGHTS = RNG.rand(3, 7).astype(np.float32)


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantiles_with_weights(name):
    function = getattr(cnp, name)
    scale = 100.0 if name.endswith("percentile") else 1.0
    for q in (0.0, 0.3, 0.5, 1.0):
        result = function(DATA, q * scale, axis=1, weights=WEIGHTS, method="inverted_cdf")
        expected = [_weighted_inverted_cdf(d, w, q) for d, w in zip(DATA, WEIGHTS, strict=True)]
        np.testing.assert_array_equal(result, expected)
    qs = np.array([0.25, 0.75], np.float32) * scale
    whole = function(DATA, qs, weights=WEIGHTS, method="inverted_cdf", keepdims=True)
    assert whole.shape == (2, 1, 1) and whole.dtype == np.float32
    expected = [_weighted_inverted_cdf(DATA.ravel(), WEIGHTS.ravel(), q) for q in (0.25, 0.75)]
    np.testing.assert_array_equal(whole[:, 0, 0], expected)
    along_rows = function(DATA, 0.5 * scale, axis=0, weights=WEIGHTS[:, 0], method="inverted_cdf")
    expected = [_weighted_inverted_cdf(DATA[:, i], WEIGHTS[:, 0], 0.5) for i in range(7)]
    np.testing.assert_array_equal(along_rows, expected)


def test_quantile_weights_as_numpy_gives_them():
    if tuple(int(p) for p in np.__version__.split(".")[:2]) < (2, 0):
        pytest.skip("NumPy's quantile takes weights= from NumPy 2.0")
    for q in (0.1, 0.5, 0.9):
        np.testing.assert_array_equal(
            cnp.quantile(DATA, q, axis=1, weights=WEIGHTS, method="inverted_cdf"),
            np.quantile(DATA, q, axis=1, weights=WEIGHTS, method="inverted_cdf"),
        )


def test_quantile_weights_with_nans_negative_weights_and_integers():
    data, weights = DATA.copy(), WEIGHTS.copy()
    data[0, 2], weights[1, 1] = np.nan, -1.0
    with_nans = cnp.quantile(data, 0.5, axis=1, weights=weights, method="inverted_cdf")
    np.testing.assert_array_equal(np.isnan(with_nans), [True, True, False])
    skipping = cnp.nanquantile(data, 0.5, axis=1, weights=weights, method="inverted_cdf")
    row = np.delete(np.arange(7), 2)
    expected = _weighted_inverted_cdf(data[0, row], weights[0, row], 0.5)
    np.testing.assert_array_equal(skipping, [expected, np.nan, with_nans[2]])
    integers = cnp.quantile(
        np.arange(5), 0.5, weights=np.array([1, 1, 2, 1, 1]), method="inverted_cdf"
    )
    assert float(integers) == 2.0 and integers.dtype == jax.numpy.result_type(float)


def test_quantile_weights_jit_and_differentiate():
    jitted = jax.jit(lambda a, w: cnp.quantile(a, 0.6, weights=w, method="inverted_cdf"))
    assert float(jitted(DATA[0], WEIGHTS[0])) == _weighted_inverted_cdf(DATA[0], WEIGHTS[0], 0.6)
    gradient = jax.grad(lambda a: cnp.quantile(a, 0.6, weights=WEIGHTS[0], method="inverted_cdf"))
    chosen = np.flatnonzero(DATA[0] == _weighted_inverted_cdf(DATA[0], WEIGHTS[0], 0.6))
    np.testing.assert_array_equal(gradient(DATA[0]), np.eye(7)[chosen[0]])


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_inverted_cdf_by_position_is_inverted_cdf_by_name(name):
    # The newest signature takes method sixth, after a, q, axis, out and overwrite_input.
    function = getattr(cnp, name)
    scale = 100.0 if name.endswith("percentile") else 1.0
    by_name = function(DATA, 0.3 * scale, axis=1, method="inverted_cdf", keepdims=True)
    by_position = function(DATA, 0.3 * scale, 1, None, False, "inverted_cdf", True)
    expected = [[_weighted_inverted_cdf(d, np.ones(7), 0.3)] for d in DATA]
    np.testing.assert_array_equal(by_name, expected)
    np.testing.assert_array_equal(by_position, expected)
    weighted = function(DATA, 0.3 * scale, 1, None, False, "inverted_cdf", weights=WEIGHTS)
    expected = [_weighted_inverted_cdf(d, w, 0.3) for d, w in zip(DATA, WEIGHTS, strict=True)]
    np.testing.assert_array_equal(weighted, expected)
    # Another method by position is the same call as by name.
    np.testing.assert_array_equal(
        function(DATA, 0.3 * scale, 1, None, False, "lower"),
        function(DATA, 0.3 * scale, axis=1, method="lower"),
    )


def test_inverted_cdf_by_position_and_by_name_is_a_clash():
    # Python's own error, as the release's function gives it for any method on every release.
    with pytest.raises(TypeError) as raised:
        cnp.quantile(DATA, 0.5, None, None, False, "inverted_cdf", method="linear")
    assert str(raised.value) == "quantile() got multiple values for argument 'method'"


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        (
            {"method": "linear"},
            NotImplementedError,
            "linear doesn't support weights. Only method 'inverted_cdf' supports weights.",
        ),
        (
            {"method": "median"},
            ValueError,
            "method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or "
            "'inverted_cdf'",
        ),
        (
            {"method": "inverted_cdf", "weights": WEIGHTS[0]},
            ValueError,
            "Weights shape must match 'a' shape when axis is None.",
        ),
        (
            {"method": "inverted_cdf", "axis": 0, "weights": WEIGHTS[0]},
            ValueError,
            "Weights shape (7,) must match reduction axes (3,)",
        ),
        (
            {"method": "inverted_cdf", "weights": WEIGHTS.astype(np.complex64)},
            ValueError,
            "Weights cannot be complex types.",
        ),
    ],
)
def test_quantile_weights_errors_are_the_newest(keywords, error, message):
    keywords = {"weights": WEIGHTS, **keywords}
    with pytest.raises(error) as raised:
        cnp.quantile(DATA, 0.5, **keywords)
    assert str(raised.value) == message


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_inverted_cdf_without_weights_counts_each_value_once(name):
    # method="inverted_cdf" alone (JAX 0.10.0) is every weight 1: the smallest value whose
    # count, in ascending order, reaches q of the values (NumPy's inverted_cdf).
    function = getattr(cnp, name)
    scale = 100.0 if name.endswith("percentile") else 1.0
    ones = np.ones(7)
    for q in (0.0, 0.3, 0.5, 1.0):
        result = function(DATA, q * scale, axis=1, method="inverted_cdf")
        expected = [_weighted_inverted_cdf(d, ones, q) for d in DATA]
        np.testing.assert_array_equal(result, expected)
        np.testing.assert_array_equal(result, np.quantile(DATA, q, axis=1, method="inverted_cdf"))
    integers = function(np.array([3, 1, 4, 1, 5]), 0.5 * scale, method="inverted_cdf")
    assert float(integers) == 3.0 and integers.dtype == jax.numpy.result_type(float)
    data = DATA.copy()
    data[0, 2] = np.nan
    result = function(data, 0.5 * scale, axis=1, method="inverted_cdf")
    row = np.delete(data[0], 2)
    first = _weighted_inverted_cdf(row, ones[:6], 0.5) if name.startswith("nan") else np.nan
    np.testing.assert_array_equal(result[0], first)
    # The other methods are the release's own, as written.
    np.testing.assert_array_equal(
        function(DATA, 0.5 * scale, axis=1, method="lower"),
        np.quantile(DATA, 0.5, axis=1, method="lower"),
    )
    jitted = jax.jit(lambda a: function(a, 0.5 * scale, method="inverted_cdf"))
    assert float(jitted(DATA[0])) == _weighted_inverted_cdf(DATA[0], ones, 0.5)
