"""The newest ``jax.lax`` names on every release: backports, adapters, and what cannot be had.

Contract tests: the same inputs and assertions on every matrix row. On a release that has a
name, ``jaxcompat.lax.<name>`` is JAX's own function, so these tests also show that the
backports used on older releases give what the newest JAX gives. Expected results come from
NumPy in float64 or exact integer arithmetic, never from the function under test.
"""

import functools
import inspect
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jaxcompat
import jaxcompat.lax as lax
from jaxcompat import _surface
from jaxcompat._releases import parse_release
from tests._backport_helpers import SHAPES, assert_same, device_array, few

NEWEST = _surface.rows()[-1]


def float_arrays(low=-4.0, high=4.0, shape=SHAPES):
    elements = st.floats(low, high, width=32, allow_subnormal=False)
    return hnp.arrays(np.float32, shape, elements=elements)


def weak(x):
    return x.weak_type


BACKPORTED = [
    "axis_size",
    "broadcast_like",
    "empty",
    "exp2",
    "fft",
    "log2",
    "mulhi",
    "one_minus_square",
    "polynomial",
    "reduce_and",
    "reduce_max",
    "reduce_min",
    "reduce_or",
    "reduce_prod",
    "reduce_sum",
    "reduce_xor",
    "scatter_sub",
    "shape_as_value",
    "split",
    "stack",
    "tile",
    "unstack",
]


@pytest.mark.parametrize("name", BACKPORTED)
def test_signature_is_the_newest(name):
    newest = _surface.signature_at(f"jax.lax.{name}", NEWEST)
    assert _surface.signature_string(getattr(lax, name)) == newest


# --- structural ops ---------------------------------------------------------------------------


# The jit, vmap and grad checks of a test run in one jitted program (one compile per input
# shape, reused by the examples that draw the same shape) rather than as eager op-by-op
# transformations, each op of which compiles on its own; the function itself is still called
# eagerly on every example.


@functools.partial(jax.jit, static_argnums=(1, 2))
def split_jitted_and_its_gradient(x, sizes, axis):
    def weighted_sum(a):
        return sum((i + 1) * c.sum() for i, c in enumerate(lax.split(a, sizes, axis)))

    return lax.split(x, sizes, axis), jax.grad(weighted_sum)(x)


@few
@given(x=float_arrays(), data=st.data())
def test_split(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    cuts = sorted(data.draw(st.lists(st.integers(0, x.shape[axis]), max_size=3)))
    sizes = tuple(np.diff([0, *cuts, x.shape[axis]]).tolist())
    expected = np.split(x, cuts, axis=axis)
    jitted, gradient = split_jitted_and_its_gradient(x, sizes, axis)
    for chunks in (lax.split(x, sizes, axis), jitted):
        assert isinstance(chunks, list)
        assert len(chunks) == len(expected)
        for chunk, want in zip(chunks, expected, strict=True):
            assert_same(chunk, want)
    # Each element's cotangent comes back to where it was taken from.
    weights = np.concatenate(
        [np.full(want.shape, i + 1, np.float32) for i, want in enumerate(expected)], axis=axis
    )
    assert_same(gradient, weights)


def test_split_errors():
    x = device_array(range(5), np.int32)
    with pytest.raises(
        ValueError,
        match=r"^Sum of sizes 4 must be equal to dimension 0 of the operand shape \[5\]",
    ):
        lax.split(x, [2, 2])
    with pytest.raises(
        ValueError, match=r"^Sizes passed to split must be nonnegative, got \[2, -1, 4\]"
    ):
        lax.split(x, [2, -1, 4])
    with pytest.raises(ValueError, match=r"^axis 1 is out of bounds for array of dimension 1"):
        lax.split(x, [5], axis=1)


@functools.partial(jax.jit, static_argnums=1)
def tile_jitted_and_its_gradient(x, reps):
    return lax.tile(x, reps), jax.grad(lambda a: lax.tile(a, reps).sum())(x)


@few
@given(x=float_arrays(shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)), data=st.data())
def test_tile(x, data):
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=x.ndim, max_size=x.ndim)))
    expected = np.tile(x, reps) if x.ndim else x
    assert_same(lax.tile(x, reps), expected)
    jitted, gradient = tile_jitted_and_its_gradient(x, reps)
    assert_same(jitted, expected)
    assert_same(gradient, np.full(x.shape, np.prod(reps), np.float32))


def test_tile_checks_reps_and_vmaps():
    x = device_array(range(3), np.int32)
    with pytest.raises(
        TypeError,
        match=r"^reps length must be equal to the ndim of x, got len\(reps\)=2 and x\.ndim=1\.",
    ):
        lax.tile(x, (2, 2))
    batched = jax.jit(jax.vmap(lambda a: lax.tile(a, (2,))))(
        device_array(np.arange(6).reshape(2, 3), np.int32)
    )
    assert_same(batched, np.array([[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]], np.int32))


@functools.partial(jax.jit, static_argnums=(1, 2))
def stack_and_unstack_jitted_and_gradient(operands, axis, unstack_axis):
    gradient = jax.grad(lambda a: lax.stack([a, 3 * a], axis).sum())(operands[0])
    return lax.stack(operands, axis), lax.unstack(operands[0], unstack_axis), gradient


@few
@given(x=float_arrays(), data=st.data())
def test_stack_and_unstack(x, data):
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim))
    operands = [x, x + 1, x * 2]
    assert_same(lax.stack(operands, axis), np.stack(operands, axis))
    unstack_axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    jitted, jitted_pieces, gradient = stack_and_unstack_jitted_and_gradient(
        operands, axis, unstack_axis
    )
    assert_same(jitted, np.stack(operands, axis))
    expected = [np.take(x, i, axis=unstack_axis) for i in range(x.shape[unstack_axis])]
    for pieces in (lax.unstack(x, unstack_axis), jitted_pieces):
        assert isinstance(pieces, tuple)
        assert len(pieces) == len(expected)
        for piece, want in zip(pieces, expected, strict=True):
            assert_same(piece, want)
    assert_same(gradient, np.full(x.shape, 4, np.float32))


def test_stack_and_unstack_errors():
    with pytest.raises(
        ValueError, match=r"^All input arrays must have the same shape\. Got \(3,\), \(4,\)\."
    ):
        lax.stack([device_array(range(3), np.int32), device_array(range(4), np.int32)])
    with pytest.raises(
        TypeError,
        match=r"^lax\.stack requires arguments to have the same dtypes, got int32, float32\.",
    ):
        lax.stack([device_array(range(3), np.int32), device_array(range(3), np.float32)])
    with pytest.raises(ValueError, match=r"^axis 0 is out of bounds for array of dimension 0"):
        lax.unstack(3.0)
    assert_same(
        jax.jit(jax.vmap(lambda a: lax.stack([a, a], 0)))(
            device_array(np.ones((2, 3)), np.float32)
        ),
        np.ones((2, 2, 3), np.float32),
    )


def test_broadcast_like():
    like = device_array(np.zeros((2, 3)), np.int32)
    result = lax.broadcast_like(1.0, like)
    assert_same(result, np.ones((2, 3), np.float32))
    assert weak(result)  # the dtype of arr, weak as it was
    assert_same(
        lax.broadcast_like(np.arange(3, dtype=np.int8)[None], like),
        np.tile(np.arange(3, dtype=np.int8), (2, 1)),
    )
    gradient = jax.jit(jax.grad(lambda a: lax.broadcast_like(a, like).sum()))(
        device_array(np.ones(3), np.float32)
    )
    assert_same(gradient, np.full(3, 2, np.float32))
    with pytest.raises(
        ValueError,
        match=r"^Incompatible types for broadcasting: input type=float32\[3\] and requested "
        r"type=float32\[2,4\]",
    ):
        lax.broadcast_like(
            device_array(np.ones(3), np.float32), device_array(np.zeros((2, 4)), np.float32)
        )


def test_empty():
    result = lax.empty(3, jnp.float32)
    assert (result.shape, result.dtype, weak(result)) == ((3,), np.float32, False)
    result = jax.jit(lax.empty, static_argnums=(0, 1))((2, 3), "int32")
    assert (result.shape, result.dtype) == ((2, 3), np.int32)
    assert lax.empty((), jnp.bool_, out_sharding=None).shape == ()


# --- elementwise ------------------------------------------------------------------------------


@jax.jit
def exp2_and_log2_jitted_and_gradients(x, positive):
    return (
        lax.exp2(x),
        jax.vmap(jax.grad(lax.exp2))(x.ravel()),
        lax.log2(positive),
        jax.vmap(jax.grad(lax.log2))(positive.ravel()),
    )


@few
@given(x=float_arrays())
def test_exp2_and_log2(x):
    x64 = x.astype(np.float64)
    positive = np.abs(x) + np.float32(0.5)
    p64 = positive.astype(np.float64)
    jitted_exp2, exp2_gradient, jitted_log2, log2_gradient = exp2_and_log2_jitted_and_gradients(
        x, positive
    )
    assert_same(lax.exp2(x), np.exp2(x64).astype(np.float32), rtol=1e-6)
    assert_same(jitted_exp2, np.exp2(x64).astype(np.float32), rtol=1e-6)
    assert_same(exp2_gradient, (np.log(2) * np.exp2(x64.ravel())).astype(np.float32), rtol=1e-6)
    assert_same(lax.log2(positive), np.log2(p64).astype(np.float32), atol=1e-6)
    assert_same(jitted_log2, np.log2(p64).astype(np.float32), atol=1e-6)
    assert_same(log2_gradient, (1 / (p64.ravel() * np.log(2))).astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("name", ["exp2", "log2"])
def test_exp2_and_log2_dtypes(name):
    function = getattr(lax, name)
    assert function(np.float16(2.0)).dtype == np.float16
    assert function(np.complex64(2.0)).dtype == np.complex64
    assert weak(function(2.0))
    assert float(function(2.0, accuracy=None)) == {"exp2": 4.0, "log2": 1.0}[name]
    with pytest.raises(
        TypeError,
        match=rf"^{name} does not accept dtype int32\. Accepted dtypes are subtypes of "
        r"floating, complexfloating\.",
    ):
        function(device_array(8, np.int32))


@jax.jit
def one_minus_square_jitted_and_gradient(x):
    return lax.one_minus_square(x), jax.vmap(jax.grad(lax.one_minus_square))(x.ravel())


@few
@given(x=float_arrays(low=-2.0, high=2.0))
def test_one_minus_square(x):
    x64 = x.astype(np.float64)
    jitted, gradient = one_minus_square_jitted_and_gradient(x)
    assert_same(lax.one_minus_square(x), ((1 + x64) * (1 - x64)).astype(np.float32))
    assert_same(jitted, ((1 + x64) * (1 - x64)).astype(np.float32))
    # The derivative is -2x exactly, also where the product rule would cancel.
    np.testing.assert_array_equal(np.asarray(gradient), -2 * x.ravel())


def test_one_minus_square_dtypes():
    assert_same(lax.one_minus_square(jnp.int8(3)), np.int8(-8))
    assert weak(lax.one_minus_square(0.5))
    assert_same(lax.one_minus_square(np.complex64(1j)), np.complex64(2))
    with pytest.raises(
        TypeError,
        # JAX lists the accepted dtypes in varying order.
        match=r"^one_minus_square does not accept dtype bool\. Accepted dtypes are subtypes of ",
    ):
        lax.one_minus_square(True)


def mulhi_reference(x, y):
    bits = x.dtype.itemsize * 8
    product = x.astype(object) * y.astype(object)
    high = np.vectorize(lambda p: p >> bits, otypes=[object])(product)
    # The high word's bits, read back in the (possibly signed) dtype.
    return (
        np.array([int(h) % (1 << bits) for h in high.ravel()], np.uint64)
        .astype(x.dtype)
        .reshape(x.shape)
    )


INTEGER_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32]


@jax.jit
def mulhi_jitted_and_vmapped(x, y):
    return lax.mulhi(x, y), jax.vmap(lax.mulhi)(x, y)


@pytest.mark.parametrize("dtype", INTEGER_TYPES)
@few
@given(data=st.data())
def test_mulhi(dtype, data):
    info = np.iinfo(dtype)
    ints = hnp.arrays(dtype, (5,), elements=st.integers(int(info.min), int(info.max)))
    x, y = data.draw(ints), data.draw(ints)
    extremes = np.array([info.min, info.max, 0, -1 if info.min else 1, 1], dtype)
    x, y = np.concatenate([x, extremes]), np.concatenate([y, extremes[::-1]])
    jitted, vmapped = mulhi_jitted_and_vmapped(x, y)
    assert_same(lax.mulhi(x, y), mulhi_reference(x, y), rtol=0, atol=0)
    assert_same(jitted, mulhi_reference(x, y), rtol=0, atol=0)
    assert_same(vmapped, mulhi_reference(x, y), rtol=0, atol=0)


def test_mulhi_dtypes_and_errors():
    result = lax.mulhi(3, 2)
    assert (result.dtype, weak(result), int(result)) == (np.int32, True, 0)
    assert_same(lax.mulhi(np.int32(-7), np.int32(1 << 30)), np.int32(-2), rtol=0, atol=0)
    with pytest.raises(
        TypeError,
        match=r"^lax\.mulhi requires arguments to have the same dtypes, got int32, uint32\.",
    ):
        lax.mulhi(np.int32(2), np.uint32(3))
    with pytest.raises(
        TypeError,
        match=r"^mulhi does not accept dtype float32 at position 0\. Accepted dtypes at "
        r"position 0 are subtypes of integer\.",
    ):
        lax.mulhi(np.float32(3), np.float32(2))


@functools.partial(jax.jit, static_argnums=1)
def polynomial_jitted_and_gradient(x, coeffs):
    # The coefficients are static (a tuple, hashable) and given as the list the test draws:
    # Python numbers, as a jitted closure over them would see them.
    coeffs = list(coeffs)
    gradient = jax.vmap(jax.grad(lambda a: lax.polynomial(a, coeffs, unroll=1)))(x.ravel())
    return lax.polynomial(x, coeffs), gradient


@few
@given(
    x=float_arrays(low=-2.0, high=2.0),
    coeffs=st.lists(st.floats(-3, 3, width=32), min_size=2, max_size=5),
)
def test_polynomial(x, coeffs):
    x64 = x.astype(np.float64)
    expected = np.polynomial.polynomial.polyval(x64, coeffs).astype(np.float32)
    assert_same(lax.polynomial(x, coeffs), expected, rtol=1e-5, atol=1e-5)
    jitted, gradient = polynomial_jitted_and_gradient(x, tuple(coeffs))
    assert_same(jitted, expected, rtol=1e-5, atol=1e-5)
    derivative = np.polynomial.polynomial.polyder(coeffs)
    assert_same(
        gradient,
        np.polynomial.polynomial.polyval(x64.ravel(), derivative).astype(np.float32),
        rtol=1e-5,
        atol=1e-5,
    )


def test_polynomial_shapes_and_dtypes():
    result = lax.polynomial(3.0, [1.0, 5.0, 2.0])
    assert (float(result), result.dtype, weak(result)) == (34.0, np.float32, True)
    result = lax.polynomial(np.float32(3.0), [1, 5, 2])
    assert (float(result), result.dtype, weak(result)) == (34.0, np.float32, False)
    result = lax.polynomial(3, [1, 5, 2])
    assert (int(result), result.dtype, weak(result)) == (34, np.int32, True)
    x = device_array(range(3), np.float32)
    assert_same(lax.polynomial(x, []), np.zeros(3, np.float32))
    assert_same(lax.polynomial(x, [2.0]), np.full(3, 2, np.float32))
    columns = device_array([[1.0], [2.0]], np.float32)
    assert_same(
        lax.polynomial(device_array([range(3)], np.float32), [columns, 1.0]),
        np.array([[1, 2, 3], [2, 3, 4]], np.float32),
    )
    with pytest.raises(
        TypeError,
        match=r"^polynomial: arrays must have the same number of dimensions, got \{1, 2\}",
    ):
        lax.polynomial(x, [device_array(np.ones((2, 1)), np.float32), 1.0])


# --- reductions, scatter_sub, axis_size ----------------------------------------------------


REDUCTIONS = [
    ("reduce_sum", np.sum, np.float32),
    ("reduce_prod", np.prod, np.float32),
    ("reduce_max", np.max, np.float32),
    ("reduce_min", np.min, np.float32),
    ("reduce_and", np.bitwise_and.reduce, np.int32),
    ("reduce_or", np.bitwise_or.reduce, np.int32),
    ("reduce_xor", np.bitwise_xor.reduce, np.int32),
]


REDUCTION_AXES = [(), (0,), (1,), (0, 1)]


def reduction_input(dtype):
    return np.arange(1, 13, dtype=dtype).reshape(3, 4) % 5 + 1


@pytest.fixture(scope="module")
def jitted_reductions():
    """Each reduction over each of REDUCTION_AXES, and vmapped, under jit: all seven
    reductions in one program (one compile rather than one per reduction and axes)."""

    @jax.jit
    def reduce_all(inputs):
        results = {}
        for name, _, _ in REDUCTIONS:
            function, x = getattr(lax, name), inputs[name]
            over_axes = [function(x, axes) for axes in REDUCTION_AXES]
            results[name] = over_axes, jax.vmap(lambda a, f=function: f(a, (0,)))(x)
        return results

    return reduce_all({name: reduction_input(dtype) for name, _, dtype in REDUCTIONS})


@pytest.mark.parametrize(("name", "reference", "dtype"), REDUCTIONS)
def test_reductions(name, reference, dtype, jitted_reductions):
    function = getattr(lax, name)
    x = reduction_input(dtype)
    jitted, vmapped = jitted_reductions[name]
    for axes, jitted_result in zip(REDUCTION_AXES, jitted, strict=True):
        expected = reference(x, axis=axes) if axes else x
        assert_same(function(x, axes), np.asarray(expected, dtype), rtol=1e-6)
        assert_same(jitted_result, np.asarray(expected, dtype), rtol=1e-6)
    assert_same(vmapped, np.asarray(reference(x, axis=1), dtype))
    if "out_sharding" in _surface.signature_at(f"jax.lax.{name}", NEWEST):
        assert_same(function(x, (0,), out_sharding=None), np.asarray(reference(x, axis=0), dtype))


def test_reduce_sum_gradient_and_errors():
    gradient = jax.jit(jax.grad(lambda a: lax.reduce_sum(a, (1,)).sum()))(
        device_array(np.ones((2, 3)), np.float32)
    )
    assert_same(gradient, np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match=r"reduce_sum does not accept dtype bool"):
        lax.reduce_sum(device_array(np.ones(3), bool), (0,))


DIMENSIONS = jax.lax.ScatterDimensionNumbers(
    update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)


@jax.jit
def scatter_sub_jitted_and_gradients(operand, indices, updates):
    def total(o, u):
        return lax.scatter_sub(o, indices, u, DIMENSIONS).sum()

    jitted = lax.scatter_sub(operand, indices, updates, DIMENSIONS, mode="clip")
    return jitted, jax.grad(total, argnums=(0, 1))(operand, updates)


@few
@given(
    operand=float_arrays(shape=(5,)),
    updates=float_arrays(shape=(4,)),
    indices=hnp.arrays(np.int32, (4, 1), elements=st.integers(0, 4)),
)
def test_scatter_sub(operand, updates, indices):
    expected = operand.astype(np.float64)
    np.subtract.at(expected, indices[:, 0], updates.astype(np.float64))
    assert_same(
        lax.scatter_sub(operand, indices, updates, DIMENSIONS),
        expected.astype(np.float32),
        atol=2e-6,
    )
    jitted, (d_operand, d_updates) = scatter_sub_jitted_and_gradients(operand, indices, updates)
    assert_same(jitted, expected.astype(np.float32), atol=2e-6)
    assert_same(d_operand, np.ones(5, np.float32))
    assert_same(d_updates, -np.ones(4, np.float32))


def test_scatter_sub_integers_and_bool():
    indices = np.array([[0], [0], [2]], np.int32)
    result = lax.scatter_sub(
        np.zeros(3, np.uint8), indices, np.array([1, 2, 3], np.uint8), DIMENSIONS
    )
    assert_same(result, np.array([253, 0, 253], np.uint8), rtol=0, atol=0)
    # JAX lists the accepted dtypes in varying order.
    with pytest.raises(
        TypeError,
        match=r"^sub does not accept dtype bool at position 0\. Accepted dtypes at position 0 "
        r"are subtypes of ",
    ):
        lax.scatter_sub(np.zeros(3, bool), indices, np.ones(3, bool), DIMENSIONS)


def test_axis_size():
    def sizes(x):
        return x * lax.axis_size("i"), lax.axis_size("i")

    scaled, size = jax.vmap(sizes, axis_name="i", out_axes=(0, None))(
        device_array(np.ones(3), np.float32)
    )
    assert_same(scaled, np.full(3, 3, np.float32))
    assert size == 3
    seen = []

    def nested(x):
        seen.append((lax.axis_size("i"), lax.axis_size("j"), lax.axis_size(("i", "j"))))
        return x

    jax.jit(jax.vmap(jax.vmap(nested, axis_name="j"), axis_name="i"))(
        device_array(np.zeros((3, 2)), np.float32)
    )
    assert seen == [(3, 2, 6)]
    assert all(type(size) is int for size in seen[0])
    with pytest.raises(NameError, match=r"^unbound axis name: k"):
        lax.axis_size("k")


# --- adapters of native functions ---------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "cbrt",
        "cos",
        "erfc",
        "exp",
        "expm1",
        "log",
        "log1p",
        "logistic",
        "rsqrt",
        "sin",
        "sqrt",
        "tan",
        "tanh",
    ],
)
def test_accuracy_none_is_accepted(name):
    function = getattr(lax, name)
    x = np.array([0.25, 0.5], np.float32)
    assert_same(function(x, accuracy=None), getattr(jax.lax, name)(x))
    assert _surface.signature_string(function) == _surface.signature_at(f"jax.lax.{name}", NEWEST)


def test_a_keyword_the_release_lacks_is_a_type_error():
    # Where the installed JAX has out_sharding= for reduce_sum, lax.reduce_sum is JAX's own
    # function; elsewhere a sharding cannot be honoured, and the error says which release can.
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("data",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
    ones = device_array(np.ones((2, 3)), np.float32)
    native = getattr(jax.lax, "reduce_sum", None)
    if native is not None and "out_sharding" in inspect.signature(native).parameters:
        assert float(lax.reduce_sum(ones, (0, 1), out_sharding=sharding)) == 6.0
    else:
        with pytest.raises(TypeError) as raised:
            lax.reduce_sum(ones, (0, 1), out_sharding=sharding)
        assert str(raised.value) == (
            "jaxcompat.lax.reduce_sum(out_sharding=...) needs JAX 0.8.0 or newer; JAX "
            f"{jaxcompat.JAX_VERSION_STRING} has no out_sharding for reduce_sum. Leave "
            "out_sharding out."
        )


# --- names that need a newer release ------------------------------------------------------


# --- ragged_dot (0.4.29) ---------------------------------------------------------------------


def ragged_dot64(lhs, rhs, group_sizes):
    """Each row of lhs times the matrix of its group, in float64; rows past the groups: 0."""
    out = np.zeros((lhs.shape[0], rhs.shape[2]))
    start = 0
    for group, size in enumerate(group_sizes):
        out[start : start + size] = lhs[start : start + size].astype(np.float64) @ rhs[group]
        start += size
    return out


@jax.jit
def ragged_dot_gradients(lhs, rhs, group_sizes, g):
    def weighted_sum(a, b):
        return (lax.ragged_dot(a, b, group_sizes) * g).sum()

    return jax.grad(weighted_sum, (0, 1))(lhs, rhs)


@few
@given(st.integers(0, 2**16), st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_ragged_dot(seed, sizes):
    rng = np.random.default_rng(seed)
    m = sum(sizes) + 1  # one row past the last group
    lhs = rng.normal(size=(m, 3)).astype(np.float32)
    rhs = rng.normal(size=(len(sizes), 3, 2)).astype(np.float32)
    group_sizes = np.array(sizes, np.int32)
    assert_same(
        lax.ragged_dot(lhs, rhs, group_sizes),
        ragged_dot64(lhs, rhs, sizes).astype(np.float32),
        rtol=1e-5,
        atol=1e-5,
    )
    # Gradients: the ragged product's own, d/dlhs = g @ rhs[group].T and d/drhs[group] =
    # lhs[group].T @ g[group].
    g = rng.normal(size=(m, 2)).astype(np.float32)
    d_lhs, d_rhs = ragged_dot_gradients(lhs, rhs, group_sizes, g)
    expected_lhs = np.zeros_like(lhs, np.float64)
    expected_rhs = np.zeros_like(rhs, np.float64)
    start = 0
    for group, size in enumerate(sizes):
        rows = slice(start, start + size)
        expected_lhs[rows] = g[rows].astype(np.float64) @ rhs[group].T
        expected_rhs[group] = lhs[rows].astype(np.float64).T @ g[rows]
        start += size
    assert_same(d_lhs, expected_lhs.astype(np.float32), rtol=1e-5, atol=1e-5)
    assert_same(d_rhs, expected_rhs.astype(np.float32), rtol=1e-5, atol=1e-5)


@jax.jit
def ragged_dot_jitted_and_vmapped(lhs, rhs, sizes, batched_operands):
    # Batched over every operand (the newest JAX batches no other way: NotImplementedError).
    return lax.ragged_dot(lhs, rhs, sizes), jax.vmap(lax.ragged_dot)(*batched_operands)


def test_ragged_dot_dtypes_jit_and_vmap():
    lhs = np.arange(12, dtype=np.int8).reshape(4, 3)
    rhs = np.ones((2, 3, 2), np.int8)
    sizes = device_array([1, 2], np.int32)
    result = lax.ragged_dot(
        device_array(lhs, np.int8),
        device_array(rhs, np.int8),
        sizes,
        preferred_element_type=jnp.int32,
    )
    np.testing.assert_array_equal(result, [[3, 3], [12, 12], [21, 21], [0, 0]])
    assert result.dtype == jnp.int32
    half = lax.ragged_dot(device_array(lhs, jnp.bfloat16), device_array(rhs, jnp.bfloat16), sizes)
    assert half.dtype == jnp.bfloat16
    jitted, batched = ragged_dot_jitted_and_vmapped(
        device_array(lhs, np.float32),
        device_array(rhs, np.float32),
        sizes,
        (
            device_array([lhs, 2 * lhs], np.float32),
            device_array([rhs, rhs], np.float32),
            device_array([[1, 2], [1, 2]], np.int32),
        ),
    )
    np.testing.assert_array_equal(jitted, [[3, 3], [12, 12], [21, 21], [0, 0]])
    batched, jitted = np.asarray(batched), np.asarray(jitted)  # indexing on device compiles
    np.testing.assert_array_equal(batched[0], jitted)
    np.testing.assert_array_equal(batched[1], 2 * jitted)


@pytest.mark.parametrize(
    ("group_sizes", "rhs_groups", "error", "message"),
    [
        (
            np.array([1.0, 2.0], np.float32),
            2,
            TypeError,
            "ragged_dot_general requires that group_sizes.dtype is subtype of np.integer.",
        ),
        (np.array(2, np.int32), 2, TypeError, "expected rank of group_sizes to be >=1."),
        (
            np.array([1, 2], np.int32),
            3,
            TypeError,
            "expected rhs group dimension size to be 2, got 3.",
        ),
    ],
)
def test_ragged_dot_refuses_bad_group_sizes(group_sizes, rhs_groups, error, message):
    with pytest.raises(error, match=re.escape(message)):
        lax.ragged_dot(
            np.ones((3, 2), np.float32), np.ones((rhs_groups, 2, 2), np.float32), group_sizes
        )


@pytest.mark.parametrize("position", [0, 1, 2])
def test_ragged_dot_refuses_lists(position):
    # A TypeError naming the list on every release (its wording varies with the release).
    operands = [np.ones((3, 2), np.float32), np.ones((2, 2, 2), np.float32), np.array([1, 2])]
    operands[position] = operands[position].tolist()
    with pytest.raises(TypeError, match="list"):
        lax.ragged_dot(*operands)


def test_ragged_dot_group_offset_is_refused():
    # No release implements it; the newest JAX's TypeError is an accident of its parameters.
    with pytest.raises(TypeError):
        lax.ragged_dot(
            np.ones((3, 2), np.float32),
            np.ones((2, 2, 2), np.float32),
            np.array([1, 2], np.int32),
            group_offset=device_array(0, np.int32),
        )


# --- FftType (0.4.35) ---------------------------------------------------------------------


def test_fft_type_members_and_values():
    assert {member.name: int(member) for member in lax.FftType} == {
        "FFT": 0,
        "IFFT": 1,
        "RFFT": 2,
        "IRFFT": 3,
    }


@pytest.mark.parametrize(
    ("member", "make_input", "reference"),
    [
        ("FFT", lambda x: x.astype(np.complex64), np.fft.fft),
        ("IFFT", lambda x: x.astype(np.complex64), np.fft.ifft),
        ("RFFT", lambda x: x, np.fft.rfft),
        ("IRFFT", lambda x: np.fft.rfft(x).astype(np.complex64), lambda y: np.fft.irfft(y, 6)),
    ],
)
def test_fft_takes_fft_type(member, make_input, reference):
    x = make_input(np.arange(6, dtype=np.float32))
    result = lax.fft(x, getattr(lax.FftType, member), (6,))
    assert_same(result, reference(x).astype(result.dtype), rtol=1e-5, atol=1e-5)
    assert result.dtype == (np.float32 if member == "IRFFT" else np.complex64)
    by_name = lax.fft(x, member.lower(), (6,))
    np.testing.assert_array_equal(by_name, result)


def test_fft_refuses_other_types():
    with pytest.raises(TypeError, match="Unknown FFT type value '5'"):
        lax.fft(np.ones(4, np.complex64), 5, (4,))


# --- shape_as_value (0.6.0; int32 from 0.7.2) --------------------------------------------------


def test_shape_as_value():
    value = lax.shape_as_value((2, 3))
    assert type(value) is np.ndarray and value.dtype == np.int32
    np.testing.assert_array_equal(value, [2, 3])
    big = lax.shape_as_value((2**31, 1))
    assert type(big) is np.ndarray and big.dtype == np.int64
    np.testing.assert_array_equal(big, [2**31, 1])
    empty = lax.shape_as_value(())
    assert isinstance(empty, jax.Array) and empty.dtype == np.int32 and empty.shape == (0,)


UNAVAILABLE = [
    ("AccuracyMode", "0.6.0"),
    ("Tolerance", "0.6.0"),
    ("optimization_barrier", "0.5.3"),
    ("platform_dependent", "0.4.21"),
    ("DotAlgorithm", "0.4.35"),
    ("DotAlgorithmPreset", "0.4.35"),
    ("polygamma", "0.4.18"),
    ("zeta", "0.4.18"),
    ("pbroadcast", "0.4.26"),
    ("pcast", "0.8.2"),
    ("ragged_dot_general", "0.5.3"),
    ("RaggedDotDimensionNumbers", "0.5.3"),
    ("ragged_all_to_all", "0.5.1"),
    ("psum_scatter_start", "0.12.0"),
    ("composite", "0.5.0"),
    ("dce_sink", "0.10.0"),
    ("scaled_dot", "0.9.1"),
    ("stage", "0.10.1"),
]


@pytest.mark.parametrize(("name", "first"), UNAVAILABLE)
def test_names_that_need_a_newer_release(name, first):
    # Not backported: where the installed JAX has the name with its newest meaning it is
    # JAX's own object, and elsewhere the error names the first release that has it.
    # (adapted where the newest JAX added a keyword; AccuracyMode and Tolerance of 0.6.0-0.7.1
    # are jax._src.lax.lax's).
    if parse_release(first) <= jaxcompat.JAX_VERSION:
        found = getattr(lax, name)
        own = getattr(jax.lax, name, None)
        if own is None:  # AccuracyMode and Tolerance of 0.6.0-0.7.1
            from jax._src.lax import lax as lax_internals

            own = getattr(lax_internals, name)
        assert getattr(found, "__wrapped__", found) is own
    else:
        assert not hasattr(lax, name)
        with pytest.raises(AttributeError, match=f"it needs JAX {first} or newer, because "):
            getattr(lax, name)
