"""The newest ``jax.numpy`` names on every release: backports and aliases.

Contract tests: the same inputs and assertions on every matrix row. On a release that has a
name, ``jaxcompat.numpy.<name>`` is JAX's own function, so these tests also show that the
backports used on older releases give what the newest JAX gives. Expected results come from
NumPy, from exact known values, or from long-standing ``jax.numpy`` functions, never from the
function under test.
"""

import functools
import math

import jax
import jax.numpy as np_jax
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jaxcompat.numpy as jnp
from tests._backport_helpers import SHAPES, few


def floats(low=-100.0, high=100.0):
    """float32 values in [low, high] (the bounds rounded inwards to float32)."""
    low32 = np.nextafter(np.float32(low), np.float32(high)) if np.float32(low) < low else low
    high32 = np.nextafter(np.float32(high), np.float32(low)) if np.float32(high) > high else high
    # XLA on CPU flushes subnormals to zero, NumPy does not: they are left out.
    return st.floats(
        float(np.float32(low32)), float(np.float32(high32)), width=32, allow_subnormal=False
    )


def float_arrays(shape=SHAPES, low=-100.0, high=100.0):
    return hnp.arrays(np.float32, shape, elements=floats(low, high))


def int_arrays(shape=SHAPES, low=-1000, high=1000, dtype=np.int32):
    return hnp.arrays(dtype, shape, elements=st.integers(low, high))


def assert_same(actual, expected, *, rtol=1e-6, atol=0.0):
    """Same dtype, shape and values (NaN equal to NaN)."""
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=rtol, atol=atol)


# The jit, vmap and grad checks of a test run together in one jitted program (the
# ``*_transformed`` functions): one compile per example, none when an example repeats a shape
# and static argument, where eager vmap and grad compile a program per primitive.


# --- The array-API aliases (JAX 0.4.24) --------------------------------------------------------

UNARY_ALIASES = [
    ("acos", np.arccos, -1.0, 1.0),
    ("acosh", np.arccosh, 1.0, 50.0),
    ("asin", np.arcsin, -1.0, 1.0),
    ("asinh", np.arcsinh, -50.0, 50.0),
    ("atan", np.arctan, -50.0, 50.0),
    ("atanh", np.arctanh, -0.99, 0.99),
]


@pytest.mark.parametrize(("name", "reference", "low", "high"), UNARY_ALIASES)
@few
@given(data=st.data())
def test_inverse_trigonometric_aliases(name, reference, low, high, data):
    x = data.draw(float_arrays(low=low, high=high))
    function = getattr(jnp, name)
    assert_same(function(x), reference(x), rtol=2e-6, atol=2e-7)
    assert_same(jax.jit(function)(x), reference(x), rtol=2e-6, atol=2e-7)


@pytest.mark.parametrize(
    ("name", "derivative", "point"),
    [
        ("acos", lambda x: -1 / math.sqrt(1 - x * x), 0.3),
        ("acosh", lambda x: 1 / math.sqrt(x * x - 1), 2.0),
        ("asin", lambda x: 1 / math.sqrt(1 - x * x), 0.3),
        ("asinh", lambda x: 1 / math.sqrt(x * x + 1), 2.0),
        ("atan", lambda x: 1 / (1 + x * x), 2.0),
        ("atanh", lambda x: 1 / (1 - x * x), 0.3),
    ],
)
def test_inverse_trigonometric_gradients(name, derivative, point):
    function = getattr(jnp, name)

    # grad and vmap of grad in one jitted program, as the tests below do.
    @jax.jit
    def gradients(p, v):
        return jax.grad(function)(p), jax.vmap(jax.grad(function))(v)

    gradient, batched = gradients(point, np.full(3, point, np.float32))
    assert gradient == pytest.approx(derivative(point), rel=1e-6)
    np.testing.assert_allclose(batched, np.full(3, derivative(point)), rtol=1e-6)


@jax.jit
def atan2_and_pow_gradients(base, exponent, y, x):
    return jax.grad(jnp.pow)(base, exponent), jax.grad(jnp.atan2, argnums=1)(y, x)


@few
@given(y=float_arrays(shape=(5,)), x=float_arrays(shape=(5,)))
def test_atan2_and_pow(y, x):
    assert_same(jnp.atan2(y, x), np.arctan2(y, x), rtol=2e-6, atol=1e-7)
    base = np.abs(x) + np.float32(0.5)
    exponent = np.clip(y, -3, 3) / np.float32(10)
    assert_same(jnp.pow(base, exponent), np.power(base, exponent), rtol=2e-6)
    # pow keeps integer powers integral, as power does.
    assert_same(
        jnp.pow(np.int32(3), np.arange(4, dtype=np.int32)), np.array([1, 3, 9, 27], np.int32)
    )
    # At Python floats (weakly typed), both in one jitted program.
    pow_gradient, atan2_gradient = atan2_and_pow_gradients(2.0, 3.0, 1.0, 1.0)
    assert pow_gradient == pytest.approx(12.0)
    assert atan2_gradient == pytest.approx(-0.5)


@few
@given(x=int_arrays(), shift=hnp.arrays(np.int32, 1, elements=st.integers(0, 8)))
def test_bitwise_aliases(x, shift):
    assert_same(jnp.bitwise_invert(x), np.invert(x))
    assert_same(jnp.bitwise_left_shift(x, shift), np.left_shift(x, shift))
    assert_same(jnp.bitwise_right_shift(x, shift), np.right_shift(x, shift))
    assert_same(jax.jit(jnp.bitwise_invert)(x), np.invert(x))


def test_bool_is_the_boolean_scalar_type():
    assert jnp.bool is np_jax.bool_
    assert_same(jnp.bool(np.array([0, 2])), np.array([False, True]))


# --- concat, permute_dims, unstack ------------------------------------------------------------


@functools.partial(jax.jit, static_argnames="axis")
def concat_transformed(x, axis):
    return (
        jnp.concat([x, x], axis=axis),
        jax.vmap(lambda a: jnp.concat([a, a]))(x[None]),
        jax.grad(lambda a: jnp.concat([a, 2 * a], axis=axis).sum())(x),
    )


@few
@given(x=float_arrays(), data=st.data())
def test_concat(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    ints = np.arange(x.size, dtype=np.int32).reshape(x.shape)
    # int32 with float32 promotes to float32, as concatenate does.
    assert_same(
        jnp.concat([x, ints], axis=axis), np.concatenate([x, ints.astype(np.float32)], axis)
    )
    assert_same(jnp.concat((x, x), axis=None), np.concatenate([x.ravel(), x.ravel()]))
    jitted, batched, gradient = concat_transformed(x, axis=axis)
    assert_same(jitted, np.concatenate([x, x], axis))
    assert_same(batched, np.concatenate([x, x])[None])
    assert_same(gradient, np.full(x.shape, 3, np.float32))


@functools.partial(jax.jit, static_argnames="axes")
def permute_dims_transformed(x, axes):
    return (
        jax.jit(jnp.permute_dims, static_argnums=1)(x, axes),
        jax.vmap(lambda a: jnp.permute_dims(a, axes))(x[None]),
    )


@few
@given(x=float_arrays(), data=st.data())
def test_permute_dims(x, data):
    axes = tuple(data.draw(st.permutations(range(x.ndim))))
    assert_same(jnp.permute_dims(x, axes), np.transpose(x, axes))
    assert_same(jnp.permute_dims(x, axes=axes), np.transpose(x, axes))
    jitted, batched = permute_dims_transformed(x, axes=axes)
    assert_same(jitted, np.transpose(x, axes))
    assert_same(batched, np.transpose(x, axes)[None])


@jax.jit
def unstack_transformed(x):
    return jax.jit(jnp.unstack)(x), jax.vmap(jnp.unstack)(x[None])


@few
@given(x=float_arrays(), data=st.data())
def test_unstack(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    parts = jnp.unstack(x, axis=axis)
    assert isinstance(parts, tuple)
    expected = [np.take(x, i, axis=axis) for i in range(x.shape[axis])]
    assert len(parts) == len(expected)
    for part, want in zip(parts, expected, strict=True):
        assert_same(part, want)
    jitted, batched = unstack_transformed(x)
    for part, want in zip(jitted, np.moveaxis(x, 0, 0), strict=True):
        assert_same(part, want)
    for part, want in zip(batched, x, strict=True):
        assert_same(part, want[None])
    with pytest.raises(ValueError):  # noqa: PT011
        jnp.unstack(np.float32(1.0))


# --- astype -----------------------------------------------------------------------------------


@jax.jit
def astype_transformed(x):
    return (
        jax.jit(jnp.astype, static_argnums=1)(x, np.int16),
        jax.vmap(lambda a: jnp.astype(a, np.int32))(x),
        jax.grad(lambda a: jnp.astype(a, np.float32).sum())(x),
    )


@few
@given(x=float_arrays())
def test_astype(x):
    assert_same(jnp.astype(x, np.int32), x.astype(np.int32))
    assert_same(jnp.astype(x, None), x)  # None: the default float dtype (float32 without x64)
    # The bfloat16 result is widened on the host, not by another device program.
    rounded = jnp.astype(x, np_jax.bfloat16, copy=True)
    assert rounded.dtype == np_jax.bfloat16
    assert_same(np.asarray(rounded).astype(np.float32), x, rtol=1e-2)
    assert_same(
        jnp.astype(x.astype(np.int32), np.float32, device=jax.devices()[0]),
        x.astype(np.int32).astype(np.float32),
    )
    jitted, batched, gradient = astype_transformed(x)
    assert_same(jitted, x.astype(np.int16))
    assert_same(batched, x.astype(np.int32))
    assert_same(gradient, np.ones_like(x))


def _deprecation_is_an_error(deprecation_id):
    """Whether JAX has made this deprecation an error already (accelerated, as a coming
    release will: the `future` row of the matrix runs the suite so)."""
    from jax._src import deprecations

    registered = getattr(deprecations, "_registered_deprecations", {})
    return deprecation_id in registered and deprecations.is_accelerated(deprecation_id)


def test_astype_from_complex():
    z = np.array([1 + 2j, 0j, -3j], np.complex64)
    assert_same(jnp.astype(z, np.bool_), np.array([True, False, True]))
    message = "Casting from complex to real dtypes will soon raise"
    if _deprecation_is_an_error("jax-numpy-astype-complex-to-real"):
        with pytest.raises(ValueError, match=message):
            jnp.astype(z, np.float32)
        return
    with pytest.warns(DeprecationWarning, match=message):
        result = jnp.astype(z, np.float32)
    assert_same(result, np.array([1, 0, 0], np.float32))


# --- bitwise_count ----------------------------------------------------------------------------


@jax.jit
def bitwise_count_transformed(x):
    return jnp.bitwise_count(x), jax.vmap(jnp.bitwise_count)(x)


@few
@given(
    x=int_arrays(low=-(2**31), high=2**31 - 1), small=int_arrays(dtype=np.int8, low=-128, high=127)
)
def test_bitwise_count(x, small):
    def reference(a):
        return np.array([bin(abs(int(v))).count("1") for v in a.ravel()], np.uint8).reshape(a.shape)

    assert_same(jnp.bitwise_count(x), reference(x))
    assert_same(jnp.bitwise_count(small), reference(small))
    assert_same(jnp.bitwise_count(np.array([True, False])), np.array([1, 0], np.uint8))
    jitted, batched = bitwise_count_transformed(x)
    assert_same(jitted, reference(x))
    assert_same(batched, reference(x))


# --- cumulative_sum, cumulative_prod ------------------------------------------------------------


@functools.partial(jax.jit, static_argnames="axis")
def cumulative_transformed(x, axis):
    jitted = jax.jit(jnp.cumulative_sum, static_argnames=("axis", "include_initial"))
    return (
        jitted(x, axis=axis),
        jax.vmap(lambda a: jnp.cumulative_sum(a, axis=axis))(x[None]),
        jax.grad(lambda a: jnp.cumulative_sum(a, axis=axis).sum())(x),
        jax.grad(lambda a: jnp.cumulative_prod(a, axis=axis).sum())(x),
        # The reference: the gradient of the long-standing cumprod.
        jax.grad(lambda a: np_jax.cumprod(a, axis=axis).sum())(x),
    )


@few
@given(x=float_arrays(low=-2, high=2), data=st.data())
def test_cumulative_sum_and_prod(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    assert_same(jnp.cumulative_sum(x, axis=axis), np.cumsum(x, axis), rtol=1e-5, atol=1e-5)
    assert_same(jnp.cumulative_prod(x, axis=axis), np.cumprod(x, axis), rtol=1e-5, atol=1e-6)
    leading = [(0, 0)] * x.ndim
    leading[axis] = (1, 0)
    assert_same(
        jnp.cumulative_sum(x, axis=axis, include_initial=True),
        np.pad(np.cumsum(x, axis), leading),
        rtol=1e-5,
        atol=1e-5,
    )
    assert_same(
        jnp.cumulative_prod(x, axis=axis, include_initial=True),
        np.pad(np.cumprod(x, axis), leading, constant_values=1),
        rtol=1e-5,
        atol=1e-6,
    )
    jitted, batched, sum_gradient, prod_gradient, reference_gradient = cumulative_transformed(
        x, axis=axis
    )
    assert_same(jitted, np.cumsum(x, axis), rtol=1e-5, atol=1e-5)
    assert_same(batched, np.cumsum(x, axis)[None], rtol=1e-5, atol=1e-5)
    # d/dx_i sum_j cumsum(x)_j = the number of partial sums x_i is in.
    counts = np.flip(np.cumsum(np.ones_like(x), axis), axis)
    assert_same(sum_gradient, counts)
    assert_same(prod_gradient, reference_gradient, rtol=1e-5, atol=1e-5)


def test_cumulative_dtypes_and_errors():
    small = np.array([100, 100, 100], np.int8)
    # cumulative_sum accumulates small integers in the default integer; cumulative_prod does not.
    assert_same(jnp.cumulative_sum(small), np.array([100, 200, 300], np.int32))
    assert jnp.cumulative_prod(small).dtype == np.int8
    assert_same(jnp.cumulative_sum(np.array([True, True])), np.array([1, 2], np.int32))
    assert_same(jnp.cumulative_prod(np.array([True, False])), np.array([1, 0], np.int32))
    # dtype=bool accumulates truth values: -1 and 1 do not cancel.
    signs = np.array([-1, 1, 0], np.int32)
    assert_same(jnp.cumulative_sum(signs, dtype=bool), np.array([True, True, True]))
    assert_same(jnp.cumulative_prod(signs, dtype=bool), np.array([True, True, False]))
    assert_same(jnp.cumulative_sum(signs, dtype=np.float32), np.array([-1, 0, 0], np.float32))
    with pytest.raises(ValueError, match="must be non-scalar to take a cumulative sum"):
        jnp.cumulative_sum(np.float32(1))
    with pytest.raises(ValueError, match="axis argument is only optional for one-dimensional"):
        jnp.cumulative_prod(np.ones((2, 2)))


# --- fill_diagonal, put_along_axis ------------------------------------------------------------


@jax.jit
def fill_diagonal_transformed(a, value):
    def fill(x, v):
        return jnp.fill_diagonal(x, v, inplace=False)

    return (
        fill(a, value),
        jax.vmap(fill)(a[None], value[None]),
        jax.grad(lambda x: jnp.fill_diagonal(x, 0.0, inplace=False).sum())(a),
    )


@few
@given(n=st.integers(1, 4), m=st.integers(1, 4), values=st.integers(1, 5))
def test_fill_diagonal(n, m, values):
    a = np.arange(n * m, dtype=np.float32).reshape(n, m)
    val = np.arange(1, values + 1, dtype=np.int32) * 10
    expected = a.copy()
    np.fill_diagonal(expected, val)
    assert_same(jnp.fill_diagonal(a, val, inplace=False), expected)
    expected = a.copy()
    np.fill_diagonal(expected, -1)
    assert_same(jnp.fill_diagonal(a, -1, inplace=False), expected)
    jitted, batched, gradient = fill_diagonal_transformed(a, np.float32(-1))
    assert_same(jitted, expected)
    assert_same(batched, expected[None])
    assert_same(gradient, 1 - np.eye(n, m, dtype=np.float32))


def test_fill_diagonal_errors():
    with pytest.raises(NotImplementedError, match="must use inplace=False"):
        jnp.fill_diagonal(np.zeros((2, 2)), 1)
    with pytest.raises(NotImplementedError, match="wrap=True is not implemented"):
        jnp.fill_diagonal(np.zeros((2, 2)), 1, True, inplace=False)
    with pytest.raises(ValueError, match="array must be at least 2-d"):
        jnp.fill_diagonal(np.zeros(2), 1, inplace=False)
    cube = np.zeros((2, 2, 2), np.float32)
    expected = cube.copy()
    np.fill_diagonal(expected, 5)
    assert_same(jnp.fill_diagonal(cube, 5, inplace=False), expected)


@functools.partial(jax.jit, static_argnames="axis")
def put_along_axis_transformed(x, indices, values, axis):
    def put(a, i):
        return jnp.put_along_axis(a, i, values, axis, inplace=False)

    return (
        put(x, indices),
        jax.vmap(put)(x[None], indices[None]),
        jax.grad(lambda a: put(a, indices).sum())(x),
    )


@few
@given(x=float_arrays(), data=st.data())
def test_put_along_axis(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    index_shape = list(x.shape)
    index_shape[axis] = data.draw(st.integers(1, 3))
    indices = data.draw(
        hnp.arrays(np.int32, tuple(index_shape), elements=st.integers(0, x.shape[axis] - 1))
    )
    values = np.float32(7.5)
    expected = x.copy()
    np.put_along_axis(expected, indices, values, axis)
    assert_same(jnp.put_along_axis(x, indices, values, axis, inplace=False), expected)
    jitted, batched, gradient = put_along_axis_transformed(x, indices, values, axis=axis)
    assert_same(jitted, expected)
    assert_same(batched, expected[None])
    flat = x.ravel().copy()
    flat[0] = 1.0
    assert_same(
        jnp.put_along_axis(x, np.array([0]), 1.0, None, inplace=False), flat.reshape(x.shape)
    )
    # Overwritten entries get no gradient, the others pass theirs through.
    kept = np.ones_like(x)
    np.put_along_axis(kept, indices, 0.0, axis)
    assert_same(gradient, kept)


def test_put_along_axis_errors():
    with pytest.raises(ValueError, match="cannot modify arrays in-place"):
        jnp.put_along_axis(np.zeros(3), np.array([0]), 1.0, 0)
    with pytest.raises(ValueError, match="must have same ndim"):
        jnp.put_along_axis(np.zeros((2, 2)), np.array([0]), 1.0, 0, inplace=False)


# --- isdtype ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "kind", "expected"),
    [
        (np.float32, "real floating", True),
        (np_jax.bfloat16, "real floating", True),
        (np.float16, "numeric", True),
        (np.int8, "signed integer", True),
        (np.int8, "unsigned integer", False),
        (np.uint32, "integral", True),
        (np.bool_, "bool", True),
        (np.bool_, "numeric", False),
        (np.bool_, "integral", False),
        (np.complex64, "complex floating", True),
        (np.complex64, "real floating", False),
        (np.int32, ("bool", "complex floating"), False),
        (np.int32, ("bool", "signed integer"), True),
        (np.float32, np.float32, True),
        (np.float32, np.float64, False),
        (np.int16, (np.int8, "real floating"), False),
    ],
)
def test_isdtype(dtype, kind, expected):
    assert jnp.isdtype(dtype, kind) is expected


def test_isdtype_errors():
    with pytest.raises(ValueError, match="Unrecognized kind='floating'"):
        jnp.isdtype(np.float32, "floating")
    with pytest.raises(TypeError, match="Expected kind to be a dtype, string, or tuple"):
        jnp.isdtype(np.float32, 3.5)


# --- vecdot, matvec, vecmat -------------------------------------------------------------------


@jax.jit
def vector_products_transformed(a, b, m, v, ones):
    return (
        jnp.vecdot(a, b),
        jax.vmap(jnp.vecdot)(a, a),
        jax.vmap(jnp.matvec, (0, None))(m, v),
        jax.vmap(jnp.vecmat, (None, 0))(b, m),
        jax.grad(lambda w: jnp.vecdot(a, w).sum())(b),
        jax.grad(lambda w: jnp.matvec(m, w).sum())(ones),
    )


@few
@given(
    a=float_arrays(shape=(2, 3), low=-4, high=4),
    b=float_arrays(shape=(3,), low=-4, high=4),
    m=float_arrays(shape=(2, 3, 4), low=-4, high=4),
)
def test_vector_products(a, b, m):
    assert_same(jnp.vecdot(a, b), np.einsum("ij,j->i", a, b), rtol=1e-5, atol=1e-5)
    assert_same(jnp.vecdot(a, a, axis=0), np.einsum("ij,ij->j", a, a), rtol=1e-5, atol=1e-5)
    assert_same(jnp.matvec(m, np.ones(4, np.float32)), m.sum(-1), rtol=1e-5, atol=1e-5)
    assert_same(jnp.vecmat(b, m), np.einsum("j,ijk->ik", b, m), rtol=1e-5, atol=1e-5)
    v = np.arange(4, dtype=np.float32)
    jitted, vecdots, matvecs, vecmats, vecdot_gradient, matvec_gradient = (
        vector_products_transformed(a, b, m, v, np.ones(4, np.float32))
    )
    tolerance = {"rtol": 1e-5, "atol": 1e-5}
    assert_same(jitted, np.einsum("ij,j->i", a, b), **tolerance)
    assert_same(vecdots, np.einsum("ij,ij->i", a, a), **tolerance)
    assert_same(matvecs, np.einsum("bij,j->bi", m, v), **tolerance)
    assert_same(vecmats, np.einsum("j,ijk->ik", b, m), **tolerance)
    assert_same(vecdot_gradient, a.sum(0), **tolerance)
    assert_same(matvec_gradient, m.sum((0, 1)), **tolerance)


def test_vector_products_conjugate_and_promote():
    z = np.array([1 + 2j, 3 - 1j], np.complex64)
    w = np.array([2 - 1j, 1j], np.complex64)
    assert_same(jnp.vecdot(z, w), np.vdot(z, w))  # conjugates the first argument
    assert_same(jnp.vecmat(z, np.eye(2, dtype=np.complex64)), np.conj(z))
    assert_same(jnp.matvec(np.eye(2, dtype=np.complex64), z), z)
    ints = np.array([1, 2, 3], np.int32)
    assert_same(jnp.vecdot(ints, ints), np.int32(14))
    assert_same(jnp.vecdot(ints, ints.astype(np.float32)), np.float32(14))
    assert_same(
        jnp.vecdot(ints.astype(np.int8), ints.astype(np.int8), preferred_element_type=np.int32),
        np.int32(14),
    )
    with pytest.raises(ValueError, match="axes must match"):
        jnp.vecdot(np.ones(2), np.ones(3))


# --- minmax, top_k ----------------------------------------------------------------------------


@functools.partial(jax.jit, static_argnames="axis")
def minmax_transformed(x, axis, row):
    return (
        jax.jit(jnp.minmax, static_argnums=1)(x, axis),
        jax.vmap(jnp.minmax)(x),
        jax.grad(lambda a: jnp.minmax(a)[1])(row),
    )


@few
@given(x=float_arrays(), data=st.data())
def test_minmax(x, data):
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    low, high = jnp.minmax(x, axis=axis)
    assert_same(low, np.min(x, axis))
    assert_same(high, np.max(x, axis))
    low, high = jnp.minmax(x, axis, keepdims=True, initial=(0.0, 1.0), where=x > 0)
    assert_same(low, np.min(x, axis, keepdims=True, initial=0.0, where=x > 0))
    assert_same(high, np.max(x, axis, keepdims=True, initial=1.0, where=x > 0))
    jitted, batched, gradient = minmax_transformed(
        x, axis=axis, row=np.array([1.0, 3.0, 2.0], np.float32)
    )
    assert_same(jitted[1], np.max(x, axis))
    assert_same(batched[0], np.min(x.reshape(x.shape[0], -1), 1))
    assert_same(gradient, np.array([0, 1, 0], np.float32))
    with pytest.raises(ValueError, match="has to specify 'initial'"):
        jnp.minmax(x, where=x > 0)


@functools.partial(jax.jit, static_argnames=("k", "axis"))
def top_k_transformed(x, k, axis):
    return (
        jax.jit(jnp.top_k, static_argnums=1, static_argnames="axis")(x, k, axis=axis)[0],
        jax.vmap(lambda row: jnp.top_k(row, k))(x)[0],
        jax.grad(lambda a: jnp.top_k(a, k)[0].sum())(x),
    )


@few
@given(
    x=hnp.arrays(np.float32, (3, 5), elements=st.integers(-1000, 1000).map(float), unique=True),
    k=st.integers(1, 3),
    data=st.data(),
)
def test_top_k(x, k, data):
    axis = data.draw(st.sampled_from([-1, 0, 1]))
    order = np.argsort(-x, axis=axis, kind="stable")
    size = x.shape[axis]
    top = np.take(order, np.arange(k), axis=axis)
    values, indices = jnp.top_k(x, k, axis=axis)
    assert_same(values, np.take_along_axis(x, top, axis))
    assert_same(indices, top.astype(np.int32))
    bottom = np.take(np.flip(order, axis), np.arange(k), axis=axis)
    values, indices = jnp.top_k(x, k, axis=axis, mode="smallest")
    assert_same(values, np.take_along_axis(x, bottom, axis))
    assert_same(indices, bottom.astype(np.int32))
    assert size >= k
    jitted, batched, gradient = top_k_transformed(x, k=k, axis=axis)
    assert_same(jitted, np.take_along_axis(x, top, axis))
    assert_same(batched, -np.sort(-x, axis=1)[:, :k])
    expected = np.zeros_like(x)
    np.put_along_axis(expected, np.argsort(-x, axis=1)[:, :k], 1.0, 1)
    assert_same(gradient, expected)


def test_top_k_returns_the_newest_pytree_structure():
    # The newest jnp.top_k returns lax.top_k's list for "largest" and a tuple for "smallest";
    # a pytree of another structure would fail a tree_map against the newest's result.
    x = jnp.arange(6.0).reshape(2, 3)
    for axis in (-1, 0):
        assert type(jnp.top_k(x, 1, axis=axis)) is list
        assert type(jnp.top_k(x, 1, axis=axis, mode="smallest")) is tuple
        assert type(jax.jit(lambda v, axis=axis: jnp.top_k(v, 1, axis=axis))(x)) is list


def test_top_k_integers_and_errors():
    ints = np.array([3, -(2**31), 2**31 - 1, 0], np.int32)
    assert_same(jnp.top_k(ints, 2, mode="smallest")[0], np.array([-(2**31), 0], np.int32))
    assert_same(jnp.top_k(ints, 2)[0], np.array([2**31 - 1, 3], np.int32))
    with pytest.raises(ValueError, match="top_k is not compatible with complex inputs"):
        jnp.top_k(np.ones(3, np.complex64), 1)
    with pytest.raises(ValueError, match="mode must be 'largest' or 'smallest', got 'max'"):
        jnp.top_k(ints, 1, mode="max")


# --- spacing, trapezoid -----------------------------------------------------------------------


@jax.jit
def spacing_transformed(x):
    return jnp.spacing(x), jax.vmap(jnp.spacing)(x)


@few
@given(
    x=hnp.arrays(
        np.float32,
        SHAPES,
        elements=st.just(0.0) | floats(1e-30, 1e30) | floats(-1e30, -1e-30),
    )
)
def test_spacing(x):
    assert_same(jnp.spacing(x), np.spacing(x))
    jitted, batched = spacing_transformed(x)
    assert_same(jitted, np.spacing(x))
    assert_same(batched, np.spacing(x))


def test_spacing_dtypes_and_errors():
    assert_same(jnp.spacing(np.array([1, 2], np.int32)), np.spacing(np.array([1, 2], np.float32)))
    # Zero steps to the smallest subnormal, keeping the sign of zero.
    smallest = np.finfo(np.float32).smallest_subnormal
    assert_same(jnp.spacing(np.array([0.0, -0.0], np.float32)), np.array([smallest, -smallest]))
    halves = np.array([1.0, 1000.0], np.float16)
    assert_same(jnp.spacing(halves), np.spacing(halves))
    with pytest.raises(ValueError, match=r"jnp\.spacing is not defined for complex inputs"):
        jnp.spacing(np.ones(2, np.complex64))


def trapezoid_reference(y, x=None, dx=1.0, axis=-1):
    y = np.moveaxis(np.asarray(y, np.float64), axis, -1)
    steps = np.diff(np.asarray(x, np.float64)) if x is not None else dx
    return (0.5 * steps * (y[..., 1:] + y[..., :-1])).sum(-1).astype(np.float32)


@functools.partial(jax.jit, static_argnames="axis")
def trapezoid_transformed(y, x, ones, axis):
    return (
        jax.jit(jnp.trapezoid, static_argnames="axis")(y, x, axis=axis),
        jax.vmap(lambda row: jnp.trapezoid(row, x, axis=axis))(y[None]),
        jax.grad(lambda v: jnp.trapezoid(v, dx=2.0))(ones),
    )


@few
@given(
    y=float_arrays(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4)),
    dx=floats(0.1, 3),
    data=st.data(),
)
def test_trapezoid(y, dx, data):
    axis = data.draw(st.integers(-y.ndim, y.ndim - 1))
    size = y.shape[axis]
    x = np.cumsum(data.draw(hnp.arrays(np.float32, size, elements=floats(0.1, 3))))
    tolerance = {"rtol": 1e-4, "atol": 1e-3}
    assert_same(jnp.trapezoid(y, axis=axis), trapezoid_reference(y, axis=axis), **tolerance)
    assert_same(
        jnp.trapezoid(y, dx=dx, axis=axis), trapezoid_reference(y, dx=dx, axis=axis), **tolerance
    )
    assert_same(jnp.trapezoid(y, x, axis=axis), trapezoid_reference(y, x, axis=axis), **tolerance)
    jitted, batched, weights = trapezoid_transformed(y, x, np.ones(4, np.float32), axis=axis)
    assert_same(jitted, trapezoid_reference(y, x, axis=axis), **tolerance)
    assert_same(batched, trapezoid_reference(y, x, axis=axis)[None], **tolerance)
    assert_same(weights, np.array([1, 2, 2, 1], np.float32))
    assert_same(jnp.trapezoid(np.arange(4, dtype=np.int32)), np.float32(4.5))


# --- unique_all, unique_counts, unique_inverse, unique_values ----------------------------------


def unique_reference(x):
    """The array-API unique: sorted values, first indices, inverse of x's shape, counts."""
    flat = x.ravel()
    values = sorted(set(flat.tolist()))
    indices = [flat.tolist().index(v) for v in values]
    inverse = np.array([values.index(v) for v in flat.tolist()], np.int32).reshape(x.shape)
    counts = [flat.tolist().count(v) for v in values]
    return (
        np.array(values, x.dtype),
        np.array(indices, np.int32),
        inverse,
        np.array(counts, np.int32),
    )


# One static size for every padded unique in the file: eager unique with a size= compiles its
# index computations once per size.
UNIQUE_SIZE = 8


@jax.jit
def unique_transformed(x):
    return (
        jnp.unique_all(x, size=UNIQUE_SIZE, fill_value=99),
        jax.vmap(lambda a: jnp.unique_counts(a, size=UNIQUE_SIZE, fill_value=99))(x[None]),
    )


@few
@given(x=int_arrays(low=-3, high=3))
def test_unique_functions(x):
    values, indices, inverse, counts = unique_reference(x)
    found = jnp.unique_all(x)
    assert found._fields == ("values", "indices", "inverse_indices", "counts")
    for actual, expected in zip(found, (values, indices, inverse, counts), strict=True):
        assert_same(actual, expected)
    assert_same(jnp.unique_values(x), values)
    found_counts = jnp.unique_counts(x)
    assert found_counts._fields == ("values", "counts")
    assert_same(found_counts.counts, counts)
    found_inverse = jnp.unique_inverse(x)
    assert found_inverse._fields == ("values", "inverse_indices")
    assert_same(found_inverse.inverse_indices, inverse)
    # With a static size, values are padded with fill_value (default: the smallest value).
    size = UNIQUE_SIZE
    padded = jnp.unique_all(x, size=size, fill_value=99)
    present = min(len(values), size)
    assert_same(
        padded.values, np.concatenate([values, np.full(size - present, 99, x.dtype)])[:size]
    )
    assert_same(padded.counts, np.concatenate([counts, np.zeros(size - present, np.int32)])[:size])
    # Sliced on the host, not by another device program.
    assert_same(
        np.asarray(jnp.unique_values(x, size=size))[present:],
        np.full(size - present, values[0], x.dtype),
    )
    jitted, batched = unique_transformed(x)
    for actual, expected in zip(jitted, padded, strict=True):
        assert_same(actual, expected)
    assert_same(batched.counts, padded.counts[None])


def test_unique_keeps_every_nan():
    x = np.array([[np.nan, 2.0, np.nan], [1.0, 2.0, 5.0]], np.float32)
    found = jnp.unique_all(x, size=UNIQUE_SIZE)
    assert_same(found.values, np.array([1, 2, 5, np.nan, np.nan, 1, 1, 1], np.float32))
    assert_same(found.indices, np.array([3, 1, 5, 0, 2, 3, 3, 3], np.int32))
    assert_same(found.inverse_indices, np.array([[3, 1, 4], [0, 1, 2]], np.int32))
    assert_same(found.counts, np.array([1, 2, 1, 1, 1, 0, 0, 0], np.int32))
    assert_same(jnp.unique_values(x), np.array([1, 2, 5, np.nan, np.nan], np.float32))


# --- place, put (whole from 0.4.18), mask_indices (size=, 0.4.34), load (file, 0.4.35) -----


def test_place_sets_the_masked_elements_in_order_repeating_the_values():
    arr = np.arange(6.0).reshape(2, 3)
    mask = arr % 2 == 0
    expected = arr.copy()
    np.place(expected, mask, [10.0, 20.0])
    found = jnp.place(arr, mask, np.array([10.0, 20.0]), inplace=False)
    np.testing.assert_array_equal(found, expected)
    jitted = jax.jit(lambda a, m: jnp.place(a, m, np.array([10.0, 20.0]), inplace=False))
    np.testing.assert_array_equal(jitted(arr, mask), expected)
    grad = jax.grad(lambda a: jnp.place(a, mask, np.array([1.0]), inplace=False).sum())(arr)
    np.testing.assert_array_equal(grad, np.where(mask, 0.0, 1.0))
    with pytest.raises(ValueError, match=r"^jax.numpy.place cannot modify arrays in-place"):
        jnp.place(arr, mask, np.array([1.0]))
    with pytest.raises(ValueError, match=r"^place: arr and mask must be the same size$"):
        jnp.place(arr, mask[0], np.array([1.0]), inplace=False)
    with pytest.raises(TypeError, match=r"^place requires ndarray or scalar arguments, got <cl"):
        jnp.place([1.0, 2.0], np.array([True, False]), np.array([3.0]), inplace=False)


@pytest.mark.parametrize(
    ("mode", "indices", "expected"),
    [
        # No mode: a flat index past the end is the last element, a negative one counts from
        # the end (unravel_index's reading).
        (None, [1, 7, -2], [0, 10, 2, 3, 10, 20]),
        ("clip", [1, 7, -2], [10, 10, 2, 3, 4, 20]),
        ("wrap", [1, 8, -2], [0, 10, 20, 3, 10, 5]),
    ],
)
def test_put_sets_the_flat_indices(mode, indices, expected):
    arr = np.arange(6).reshape(2, 3)
    values = np.array([10, 20])
    found = jnp.put(arr, np.array(indices), values, mode=mode, inplace=False)
    np.testing.assert_array_equal(found, np.reshape(expected, (2, 3)))
    if mode is not None:
        reference = arr.copy()
        np.put(reference, indices, np.resize(values, len(indices)), mode=mode)
        np.testing.assert_array_equal(found, reference)
    with pytest.raises(ValueError, match=r"^jax.numpy.put cannot modify arrays in-place"):
        jnp.put(arr, np.array(indices), values)
    with pytest.raises(ValueError, match=r"^mode should be one of 'wrap' or 'clip'; got mode="):
        jnp.put(arr, np.array(indices), values, mode="nearest", inplace=False)


def test_mask_indices_with_and_without_a_size():
    rows, columns = jnp.mask_indices(3, np_jax.triu, 1)
    expected = np.mask_indices(3, np.triu, 1)
    np.testing.assert_array_equal(rows, expected[0])
    np.testing.assert_array_equal(columns, expected[1])
    padded = jax.jit(lambda: jnp.mask_indices(3, np_jax.triu, k=1, size=5))()
    np.testing.assert_array_equal(padded[0], [0, 0, 1, 0, 0])
    np.testing.assert_array_equal(padded[1], [1, 2, 2, 0, 0])


def test_load_takes_file_by_name(tmp_path):
    path = tmp_path / "saved.npy"
    np.save(path, np.arange(3.0))
    found = jnp.load(file=path)
    assert isinstance(found, jax.Array)
    np.testing.assert_array_equal(found, [0.0, 1.0, 2.0])
