"""The newest ``jax.lax`` names on every release: backports, adapters, and what cannot be had.

Contract tests: the same inputs and assertions on every matrix row. On a release that has a
name, ``jaxcompat.lax.<name>`` is JAX's own function, so these tests also show that the
backports used on older releases give what the newest JAX gives. Expected results come from
NumPy in float64 or exact integer arithmetic, never from the function under test.
"""

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
from tests._backport_helpers import SHAPES, assert_same, few

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


@few
@given(x=float_arrays(), data=st.data())
def test_split(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    cuts = sorted(data.draw(st.lists(st.integers(0, x.shape[axis]), max_size=3)))
    sizes = tuple(np.diff([0, *cuts, x.shape[axis]]).tolist())
    expected = np.split(x, cuts, axis=axis)
    for function in (lax.split, jax.jit(lax.split, static_argnums=(1, 2))):
        chunks = function(x, sizes, axis)
        assert isinstance(chunks, list)
        assert len(chunks) == len(expected)
        for chunk, want in zip(chunks, expected, strict=True):
            assert_same(chunk, want)
    # Each element's cotangent comes back to where it was taken from.
    gradient = jax.grad(
        lambda a: sum((i + 1) * c.sum() for i, c in enumerate(lax.split(a, sizes, axis)))
    )(x)
    weights = np.concatenate(
        [np.full(want.shape, i + 1, np.float32) for i, want in enumerate(expected)], axis=axis
    )
    assert_same(gradient, weights)


def test_split_errors():
    x = jnp.arange(5)
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


@few
@given(x=float_arrays(shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)), data=st.data())
def test_tile(x, data):
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=x.ndim, max_size=x.ndim)))
    assert_same(lax.tile(x, reps), np.tile(x, reps) if x.ndim else x)
    assert_same(jax.jit(lax.tile, static_argnums=1)(x, reps), np.tile(x, reps) if x.ndim else x)
    gradient = jax.grad(lambda a: lax.tile(a, reps).sum())(x)
    assert_same(gradient, np.full(x.shape, np.prod(reps), np.float32))


def test_tile_checks_reps_and_vmaps():
    x = jnp.arange(3)
    with pytest.raises(
        TypeError,
        match=r"^reps length must be equal to the ndim of x, got len\(reps\)=2 and x\.ndim=1\.",
    ):
        lax.tile(x, (2, 2))
    batched = jax.vmap(lambda a: lax.tile(a, (2,)))(jnp.arange(6).reshape(2, 3))
    assert_same(batched, np.array([[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]], np.int32))


@few
@given(x=float_arrays(), data=st.data())
def test_stack_and_unstack(x, data):
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim))
    operands = [x, x + 1, x * 2]
    assert_same(lax.stack(operands, axis), np.stack(operands, axis))
    assert_same(jax.jit(lax.stack, static_argnums=1)(operands, axis), np.stack(operands, axis))
    unstack_axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    pieces = lax.unstack(x, unstack_axis)
    assert isinstance(pieces, tuple)
    expected = [np.take(x, i, axis=unstack_axis) for i in range(x.shape[unstack_axis])]
    assert len(pieces) == len(expected)
    for piece, want in zip(pieces, expected, strict=True):
        assert_same(piece, want)
    gradient = jax.grad(lambda a: lax.stack([a, 3 * a], axis).sum())(x)
    assert_same(gradient, np.full(x.shape, 4, np.float32))


def test_stack_and_unstack_errors():
    with pytest.raises(
        ValueError, match=r"^All input arrays must have the same shape\. Got \(3,\), \(4,\)\."
    ):
        lax.stack([jnp.arange(3), jnp.arange(4)])
    with pytest.raises(
        TypeError,
        match=r"^lax\.stack requires arguments to have the same dtypes, got int32, float32\.",
    ):
        lax.stack([jnp.arange(3), jnp.arange(3.0)])
    with pytest.raises(ValueError, match=r"^axis 0 is out of bounds for array of dimension 0"):
        lax.unstack(3.0)
    assert_same(
        jax.vmap(lambda a: lax.stack([a, a], 0))(jnp.ones((2, 3))), np.ones((2, 2, 3), np.float32)
    )


def test_broadcast_like():
    like = jnp.zeros((2, 3), jnp.int32)
    result = lax.broadcast_like(1.0, like)
    assert_same(result, np.ones((2, 3), np.float32))
    assert weak(result)  # the dtype of arr, weak as it was
    assert_same(
        lax.broadcast_like(np.arange(3, dtype=np.int8)[None], like),
        np.tile(np.arange(3, dtype=np.int8), (2, 1)),
    )
    gradient = jax.grad(lambda a: lax.broadcast_like(a, like).sum())(jnp.ones(3))
    assert_same(gradient, np.full(3, 2, np.float32))
    with pytest.raises(
        ValueError,
        match=r"^Incompatible types for broadcasting: input type=float32\[3\] and requested "
        r"type=float32\[2,4\]",
    ):
        lax.broadcast_like(jnp.ones(3), jnp.zeros((2, 4)))


def test_empty():
    result = lax.empty(3, jnp.float32)
    assert (result.shape, result.dtype, weak(result)) == ((3,), np.float32, False)
    result = jax.jit(lax.empty, static_argnums=(0, 1))((2, 3), "int32")
    assert (result.shape, result.dtype) == ((2, 3), np.int32)
    assert lax.empty((), jnp.bool_, out_sharding=None).shape == ()


# --- elementwise ------------------------------------------------------------------------------


@few
@given(x=float_arrays())
def test_exp2_and_log2(x):
    x64 = x.astype(np.float64)
    assert_same(lax.exp2(x), np.exp2(x64).astype(np.float32), rtol=1e-6)
    assert_same(jax.jit(lax.exp2)(x), np.exp2(x64).astype(np.float32), rtol=1e-6)
    gradient = jax.vmap(jax.grad(lax.exp2))(x.ravel())
    assert_same(gradient, (np.log(2) * np.exp2(x64.ravel())).astype(np.float32), rtol=1e-6)
    positive = np.abs(x) + np.float32(0.5)
    p64 = positive.astype(np.float64)
    assert_same(lax.log2(positive), np.log2(p64).astype(np.float32), atol=1e-6)
    assert_same(jax.jit(lax.log2)(positive), np.log2(p64).astype(np.float32), atol=1e-6)
    gradient = jax.vmap(jax.grad(lax.log2))(positive.ravel())
    assert_same(gradient, (1 / (p64.ravel() * np.log(2))).astype(np.float32), rtol=1e-6)


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
        function(jnp.int32(8))


@few
@given(x=float_arrays(low=-2.0, high=2.0))
def test_one_minus_square(x):
    x64 = x.astype(np.float64)
    assert_same(lax.one_minus_square(x), ((1 + x64) * (1 - x64)).astype(np.float32))
    assert_same(jax.jit(lax.one_minus_square)(x), ((1 + x64) * (1 - x64)).astype(np.float32))
    # The derivative is -2x exactly, also where the product rule would cancel.
    gradient = jax.vmap(jax.grad(lax.one_minus_square))(x.ravel())
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


@pytest.mark.parametrize("dtype", INTEGER_TYPES)
@few
@given(data=st.data())
def test_mulhi(dtype, data):
    info = np.iinfo(dtype)
    ints = hnp.arrays(dtype, (5,), elements=st.integers(int(info.min), int(info.max)))
    x, y = data.draw(ints), data.draw(ints)
    extremes = np.array([info.min, info.max, 0, -1 if info.min else 1, 1], dtype)
    x, y = np.concatenate([x, extremes]), np.concatenate([y, extremes[::-1]])
    assert_same(lax.mulhi(x, y), mulhi_reference(x, y), rtol=0, atol=0)
    assert_same(jax.jit(lax.mulhi)(x, y), mulhi_reference(x, y), rtol=0, atol=0)
    assert_same(jax.vmap(lax.mulhi)(x, y), mulhi_reference(x, y), rtol=0, atol=0)


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


@few
@given(
    x=float_arrays(low=-2.0, high=2.0),
    coeffs=st.lists(st.floats(-3, 3, width=32), min_size=2, max_size=5),
)
def test_polynomial(x, coeffs):
    x64 = x.astype(np.float64)
    expected = np.polynomial.polynomial.polyval(x64, coeffs).astype(np.float32)
    assert_same(lax.polynomial(x, coeffs), expected, rtol=1e-5, atol=1e-5)
    assert_same(jax.jit(lambda a: lax.polynomial(a, coeffs))(x), expected, rtol=1e-5, atol=1e-5)
    derivative = np.polynomial.polynomial.polyder(coeffs)
    gradient = jax.vmap(jax.grad(lambda a: lax.polynomial(a, coeffs, unroll=1)))(x.ravel())
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
    assert_same(lax.polynomial(jnp.arange(3.0), []), np.zeros(3, np.float32))
    assert_same(lax.polynomial(jnp.arange(3.0), [2.0]), np.full(3, 2, np.float32))
    columns = jnp.array([[1.0], [2.0]])
    assert_same(
        lax.polynomial(jnp.arange(3.0)[None], [columns, 1.0]),
        np.array([[1, 2, 3], [2, 3, 4]], np.float32),
    )
    with pytest.raises(
        TypeError,
        match=r"^polynomial: arrays must have the same number of dimensions, got \{1, 2\}",
    ):
        lax.polynomial(jnp.arange(3.0), [jnp.ones((2, 1)), 1.0])


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


@pytest.mark.parametrize(("name", "reference", "dtype"), REDUCTIONS)
def test_reductions(name, reference, dtype):
    function = getattr(lax, name)
    x = np.arange(1, 13, dtype=dtype).reshape(3, 4) % 5 + 1
    for axes in [(), (0,), (1,), (0, 1)]:
        expected = reference(x, axis=axes) if axes else x
        assert_same(function(x, axes), np.asarray(expected, dtype), rtol=1e-6)
        assert_same(
            jax.jit(function, static_argnums=1)(x, axes), np.asarray(expected, dtype), rtol=1e-6
        )
    assert_same(jax.vmap(lambda a: function(a, (0,)))(x), np.asarray(reference(x, axis=1), dtype))
    if "out_sharding" in _surface.signature_at(f"jax.lax.{name}", NEWEST):
        assert_same(function(x, (0,), out_sharding=None), np.asarray(reference(x, axis=0), dtype))


def test_reduce_sum_gradient_and_errors():
    gradient = jax.grad(lambda a: lax.reduce_sum(a, (1,)).sum())(jnp.ones((2, 3)))
    assert_same(gradient, np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match=r"reduce_sum does not accept dtype bool"):
        lax.reduce_sum(jnp.ones(3, bool), (0,))


DIMENSIONS = jax.lax.ScatterDimensionNumbers(
    update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)


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
    jitted = jax.jit(lambda o, u: lax.scatter_sub(o, indices, u, DIMENSIONS, mode="clip"))
    assert_same(jitted(operand, updates), expected.astype(np.float32), atol=2e-6)
    d_operand, d_updates = jax.grad(
        lambda o, u: lax.scatter_sub(o, indices, u, DIMENSIONS).sum(), argnums=(0, 1)
    )(operand, updates)
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

    scaled, size = jax.vmap(sizes, axis_name="i", out_axes=(0, None))(jnp.ones(3))
    assert_same(scaled, np.full(3, 3, np.float32))
    assert size == 3
    seen = []

    def nested(x):
        seen.append((lax.axis_size("i"), lax.axis_size("j"), lax.axis_size(("i", "j"))))
        return x

    jax.jit(jax.vmap(jax.vmap(nested, axis_name="j"), axis_name="i"))(jnp.zeros((3, 2)))
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
    native = getattr(jax.lax, "reduce_sum", None)
    if native is not None and "out_sharding" in inspect.signature(native).parameters:
        assert float(lax.reduce_sum(jnp.ones((2, 3)), (0, 1), out_sharding=sharding)) == 6.0
    else:
        with pytest.raises(TypeError) as raised:
            lax.reduce_sum(jnp.ones((2, 3)), (0, 1), out_sharding=sharding)
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
    d_lhs, d_rhs = jax.grad(lambda a, b: (lax.ragged_dot(a, b, group_sizes) * g).sum(), (0, 1))(
        lhs, rhs
    )
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


def test_ragged_dot_dtypes_jit_and_vmap():
    lhs = jnp.arange(12, dtype=jnp.int8).reshape(4, 3)
    rhs = jnp.ones((2, 3, 2), jnp.int8)
    sizes = jnp.array([1, 2], jnp.int32)
    result = lax.ragged_dot(lhs, rhs, sizes, preferred_element_type=jnp.int32)
    np.testing.assert_array_equal(result, [[3, 3], [12, 12], [21, 21], [0, 0]])
    assert result.dtype == jnp.int32
    half = lax.ragged_dot(lhs.astype(jnp.bfloat16), rhs.astype(jnp.bfloat16), sizes)
    assert half.dtype == jnp.bfloat16
    jitted = jax.jit(lax.ragged_dot)(lhs.astype(np.float32), rhs.astype(np.float32), sizes)
    np.testing.assert_array_equal(jitted, [[3, 3], [12, 12], [21, 21], [0, 0]])
    # Batched over every operand (the newest JAX batches no other way: NotImplementedError).
    batched = jax.vmap(lax.ragged_dot)(
        jnp.stack([lhs, 2 * lhs]).astype(np.float32),
        jnp.stack([rhs, rhs]).astype(np.float32),
        jnp.stack([sizes, sizes]),
    )
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
            group_offset=jnp.array(0, np.int32),
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
    if hasattr(lax, name):
        found = getattr(lax, name)
        assert getattr(found, "__wrapped__", found) is getattr(jax.lax, name, found)
    else:
        with pytest.raises(AttributeError, match=f"it needs JAX {first} or newer, because "):
            getattr(lax, name)
