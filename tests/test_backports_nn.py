"""The newest ``jax.nn`` names on every release: backports, and what cannot be had.

Contract tests: the same inputs and assertions on every matrix row. On a release that has a
name, ``jaxcompat.nn.<name>`` is JAX's own function, so these tests also show that the
backports used on older releases give what the newest JAX gives. Expected results come from
NumPy formulas in float64, never from the function under test.
"""

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jaxcompat.nn as nn
from tests._backport_helpers import EVERY_SHAPE, SHAPES, assert_same, few


def float_arrays(low=-20.0, high=20.0, shape=SHAPES):
    elements = st.floats(low, high, width=32, allow_subnormal=False)
    return hnp.arrays(np.float32, shape, elements=elements)


def arrays_of_every_shape(low=-20.0, high=20.0):
    """One array of each shape of SHAPES, in every example: each function is checked on every
    shape whatever hypothesis draws, and its checks under transformations fit in one program."""
    return st.tuples(*(float_arrays(low, high, shape=shape) for shape in EVERY_SHAPE))


def softplus64(x):
    return np.logaddexp(np.float64(0), x)


# name, reference in float64, derivative in float64
ACTIVATIONS = [
    ("identity", lambda x: x, lambda x: np.ones_like(x)),
    (
        "squareplus",
        lambda x: (x + np.sqrt(x * x + 4)) / 2,
        lambda x: (1 + x / np.sqrt(x * x + 4)) / 2,
    ),
    (
        "sparse_plus",
        lambda x: np.where(x <= -1, 0.0, np.where(x >= 1, x, (x + 1) ** 2 / 4)),
        lambda x: np.where(x <= -1, 0.0, np.where(x >= 1, 1.0, (x + 1) / 2)),
    ),
    (
        "sparse_sigmoid",
        lambda x: np.clip(x + 1, 0, 2) / 2,
        lambda x: np.where((x > -1) & (x < 1), 0.5, 0.0),
    ),
    (
        "mish",
        lambda x: x * np.tanh(softplus64(x)),
        lambda x: np.tanh(softplus64(x)) + x * (1 - np.tanh(softplus64(x)) ** 2) / (1 + np.exp(-x)),
    ),
]


@functools.cache
def transformed(name):
    """The jit and vmap checks of one activation on arrays of every shape, and its derivative
    at all their elements (vmap of grad), as one program: each transformation of each shape
    would compile one of its own."""
    function = getattr(nn, name)

    def checks(xs):
        jitted = [function(x) for x in xs]
        batched = [jax.vmap(function)(x) for x in xs]
        elements = jnp.concatenate([x.ravel() for x in xs])
        return jitted, batched, jax.vmap(jax.grad(function))(elements)

    return jax.jit(checks)


@pytest.mark.parametrize(("name", "reference", "derivative"), ACTIVATIONS)
@few
@given(xs=arrays_of_every_shape())
def test_activations(name, reference, derivative, xs):
    function = getattr(nn, name)
    jitted, batched, gradient = transformed(name)(xs)
    for i, x in enumerate(xs):
        expected = reference(x.astype(np.float64)).astype(np.float32)
        assert_same(function(x), expected)
        assert_same(jitted[i], expected)
        assert_same(batched[i], expected)
    # Compared away from the kinks of sparse_plus/sparse_sigmoid at -1 and 1, where the
    # one-sided derivatives differ.
    x = np.concatenate([x.ravel() for x in xs])
    assert gradient.dtype == np.float32 and gradient.shape == x.shape
    smooth = np.abs(np.abs(x) - 1) > 1e-3
    expected_gradient = derivative(x[smooth].astype(np.float64)).astype(np.float32)
    assert_same(np.asarray(gradient)[smooth], expected_gradient, atol=2e-6)


@pytest.mark.parametrize("name", [name for name, _, _ in ACTIVATIONS])
def test_activations_keep_dtype_and_refuse_lists(name):
    function = getattr(nn, name)
    half = np.array([-2.0, 0.5, 3.0], np.float16)
    assert function(half).dtype == np.float16
    assert function(np.float32(0.5)).shape == ()
    if name != "sparse_sigmoid":  # JAX's sparse_sigmoid does not check its argument
        with pytest.raises(TypeError, match="requires ndarray or scalar arguments"):
            function([1.0, 2.0])


def test_identity_keeps_integers_and_squareplus_takes_b():
    assert_same(nn.identity(np.arange(3, dtype=np.int32)), np.arange(3, dtype=np.int32))
    # Four elements, a shape of SHAPES: the eager operations of the default b are reused.
    x = np.array([-1.0, 0.0, 2.0, 3.0], np.float32)
    assert_same(nn.squareplus(x, b=0), np.maximum(x, 0))
    assert_same(nn.squareplus(x, 1.0), ((x + np.sqrt(x * x + 1)) / 2).astype(np.float32))


@jax.jit
def log1mexp_and_derivative(xs):
    # The jit check of every shape and the derivative at all their elements (vmap of grad)
    # as one program.
    elements = jnp.concatenate([x.ravel() for x in xs])
    return [nn.log1mexp(x) for x in xs], jax.vmap(jax.grad(nn.log1mexp))(elements)


@few
@given(xs=arrays_of_every_shape(low=2.0**-10, high=30.0))
def test_log1mexp(xs):
    jitted, gradient = log1mexp_and_derivative(xs)
    for i, x in enumerate(xs):
        expected = np.log(-np.expm1(-x.astype(np.float64))).astype(np.float32)
        assert_same(nn.log1mexp(x), expected, rtol=1e-5)
        assert_same(jitted[i], expected, rtol=1e-5)
    x64 = np.concatenate([x.ravel() for x in xs]).astype(np.float64)
    assert_same(gradient, (1 / np.expm1(x64)).astype(np.float32), rtol=1e-5)


def test_log1mexp_at_the_edges():
    # Near 0 and for large x, both branches keep full precision.
    x = np.array([1e-6, 0.5, np.log(2.0), 50.0], np.float32)
    expected = np.log(-np.expm1(-x.astype(np.float64))).astype(np.float32)
    assert_same(nn.log1mexp(x), expected, rtol=1e-6)
    assert float(nn.log1mexp(np.float32(0.0))) == -np.inf


def logmeanexp64(x, axis, where, keepdims):
    x = x.astype(np.float64)
    mask = np.ones(x.shape, bool) if where is None else np.broadcast_to(where, x.shape)
    total = np.sum(np.where(mask, np.exp(x), 0.0), axis=axis, keepdims=keepdims)
    count = np.sum(mask, axis=axis, keepdims=keepdims)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(total / count)


@functools.partial(jax.jit, static_argnames="axis")
def logmeanexp_and_gradient(x, where, axis):
    # The jit checks (axis and keepdims static) and the gradient as one program.
    results = [nn.logmeanexp(x, axis=axis, where=where, keepdims=k) for k in (False, True)]
    gradient = jax.grad(lambda a: nn.logmeanexp(a, axis=None, where=where))(x)
    return results, gradient


@few
@given(x=float_arrays(), data=st.data())
def test_logmeanexp(x, data):
    axis = data.draw(st.sampled_from([None, *range(-x.ndim, x.ndim), tuple(range(x.ndim))]))
    keepdims = data.draw(st.booleans())
    where = data.draw(st.none() | hnp.arrays(np.bool_, x.shape))
    expected = [
        np.asarray(logmeanexp64(x, axis, where, k)).astype(np.float32) for k in (False, True)
    ]
    result = nn.logmeanexp(x, axis=axis, where=where, keepdims=keepdims)
    assert_same(result, expected[keepdims], rtol=1e-5, atol=1e-5)
    # Under jit, both keepdims in every example.
    jitted, gradient = logmeanexp_and_gradient(x, where, axis=axis)
    for k in (False, True):
        assert_same(jitted[k], expected[k], rtol=1e-5, atol=1e-5)
    # The gradient is the softmax over the elements taken (zero elsewhere).
    mask = np.ones(x.shape, bool) if where is None else where
    if mask.any():
        weights = np.where(mask, np.exp(x.astype(np.float64) - x[mask].max()), 0.0)
        assert_same(gradient, (weights / weights.sum()).astype(np.float32), atol=1e-6)


def test_logmeanexp_promotes_integers():
    result = nn.logmeanexp(np.array([0, 0, 0], np.int32))
    assert result.dtype == np.float32
    assert float(result) == 0.0


@few
@given(
    # Both in every example: two-dimensional shapes shared with the other standardize tests
    # (and SHAPES), so that the eager operations of the backport compile once per shape.
    xs=st.tuples(float_arrays(shape=(2, 3)), float_arrays(shape=(2, 4)))
)
def test_standardize(xs):
    jitted = jax.jit(nn.standardize, static_argnames="algorithm")
    for x in xs:
        x64 = x.astype(np.float64)
        mean = x64.mean(-1, keepdims=True)
        scale = np.sqrt(((x64 - mean) ** 2).mean(-1, keepdims=True) + 1e-5)
        stable = ((x64 - mean) / scale).astype(np.float32)
        # float32 rounding of the mean, amplified by the division by the standard deviation.
        atol = float((4e-7 * np.abs(x64).max(-1, keepdims=True) / scale).max()) + 1e-5
        assert_same(nn.standardize(x, algorithm="stable"), stable, rtol=1e-4, atol=atol)
        assert_same(jitted(x, algorithm="stable"), stable, rtol=1e-4, atol=atol)
        # The fast variance never goes below zero, so the result is never NaN.
        assert np.isfinite(np.asarray(nn.standardize(x))).all()


@jax.jit
@jax.grad
def standardize_gradient(a):
    return nn.standardize(a, mean=1.0, variance=3.0).sum()


@few
@given(x=float_arrays(shape=(2, 4)))
def test_standardize_gradient(x):
    # With mean and variance given, the result is linear in x.
    gradient = standardize_gradient(x)
    assert_same(gradient, np.full(x.shape, 1 / np.sqrt(3.0 + 1e-5), np.float32))


def test_standardize_gives_the_same_bits_eagerly_as_under_jit():
    # The newest standardize is a jitted function: called eagerly it rounds as its program
    # does under jit, not op by op.
    x = np.linspace(-3.0, 1000.0, 24, dtype=np.float32).reshape(4, 6) ** 2 / 7
    where = np.arange(24).reshape(4, 6) % 5 != 1
    where[0] = [True, False, False, False, False, False]  # a row of one element
    jitted = jax.jit(nn.standardize, static_argnames="algorithm")
    for algorithm in ("fast", "stable"):
        for mask in (None, where):
            eager = nn.standardize(x, where=mask, algorithm=algorithm)
            np.testing.assert_array_equal(eager, jitted(x, where=mask, algorithm=algorithm))


def test_standardize_fast_variance_is_clipped_and_algorithm_checked():
    # mean(x**2) - mean(x)**2 rounds below zero for these float32 values.
    x = np.full((2, 3), 1000.1, np.float32)
    assert_same(nn.standardize(x), np.zeros((2, 3), np.float32))
    assert_same(nn.standardize(x, algorithm="stable"), np.zeros((2, 3), np.float32))
    with pytest.raises(
        ValueError, match=r"Unknown algorithm 'exact'\. Expected 'fast' or 'stable'\."
    ):
        nn.standardize(x, algorithm="exact")


@few
@given(x=hnp.arrays(np.int32, SHAPES, elements=st.integers(-2, 5)), num_classes=st.integers(1, 5))
def test_one_hot(x, num_classes):
    expected = (x[..., None] == np.arange(num_classes)).astype(np.float32)
    assert_same(nn.one_hot(x, num_classes), expected)
    assert_same(nn.one_hot(x, num_classes, out_sharding=None), expected)
    assert_same(
        nn.one_hot(x, num_classes, dtype=np.int8, axis=0),
        np.moveaxis(expected, -1, 0).astype(np.int8),
    )
    assert_same(jax.jit(nn.one_hot, static_argnums=1)(x, num_classes), expected)


def test_one_hot_with_an_output_sharding():
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("data",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(None, None))
    if "out_sharding" in inspect.signature(jax.nn.one_hot).parameters:
        result = nn.one_hot(np.array([0, 2]), 3, out_sharding=sharding)
        assert_same(result, np.eye(3, dtype=np.float32)[[0, 2]])
    else:
        # Releases before sharding in types cannot honour it, and say so.
        with pytest.raises(NotImplementedError, match=r"needs JAX 0\.11\.0 or newer"):
            nn.one_hot(np.array([0, 2]), 3, out_sharding=sharding)


UNAVAILABLE = [
    ("scaled_matmul", "0.5.3"),
    ("scaled_dot_general", "0.5.3"),
    ("get_scaled_dot_general_config", "0.6.0"),
]


@pytest.mark.parametrize(("name", "first"), UNAVAILABLE)
def test_names_that_need_a_newer_release(name, first):
    # Not backported: where the installed jax.nn has the name it is JAX's own object, and
    # elsewhere the error names the first release that has it.
    if hasattr(jax.nn, name):
        assert getattr(nn, name) is getattr(jax.nn, name)
    else:
        with pytest.raises(AttributeError, match=f"it needs JAX {first} or newer"):
            getattr(nn, name)
