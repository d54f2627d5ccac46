"""Newest keywords of jax.numpy's conversion, variance, selection and search functions and
of lax.mul, on every row: asarray(copy=), std/var/nanstd/nanvar(mean=), compress/extract(
size=, fill_value=), isin/digitize(method=), trim_zeros(axis=) and lax.mul(out_dtype=).
Results are checked against NumPy, computed in float64."""

import inspect
import operator
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
import jaxcompat.numpy as cnp
from tests._helpers import aligned_host_array


def _buffer(array):
    return array.addressable_data(0).unsafe_buffer_pointer()


def test_asarray_copy_true_is_a_new_buffer_and_false_the_same_array():
    x = jnp.arange(4.0)
    copied = cnp.asarray(x, copy=True)
    assert copied is not x and _buffer(copied) != _buffer(x)
    np.testing.assert_array_equal(copied, x)
    assert cnp.asarray(x, copy=False) is x
    assert cnp.asarray(x, copy=None) is x


def test_asarray_and_array_copy_a_numpy_buffer():
    for make in (
        lambda source: cnp.asarray(source, copy=True),
        lambda source: cnp.array(source),
        lambda source: cnp.array(source, copy=True),
    ):
        source = aligned_host_array(16)
        copied = make(source)
        source[0] = 7.0
        assert float(copied[0]) == 0.0  # JAX 0.4.13's own array() sees the write


def test_asarray_copy_with_dtype_and_device():
    device = jax.devices()[-1]
    converted = cnp.asarray(np.arange(3), jnp.float32, copy=True, device=device)
    assert converted.dtype == jnp.float32 and converted.devices() == {device}
    np.testing.assert_array_equal(converted, [0.0, 1.0, 2.0])


def _variance(a, mean, axis, ddof, nans=False):
    a = np.asarray(a, np.float64)
    squared = (a - np.asarray(mean, np.float64)) ** 2
    if nans:
        count = np.sum(~np.isnan(a), axis) - ddof
        return np.nansum(squared, axis) / count
    return np.sum(squared, axis) / (a.shape[axis] - ddof)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_spread_around_the_mean_given(name, ddof):
    a = np.array([[1.0, 4.0, 2.0, 8.0], [3.0, np.nan if "nan" in name else 5.0, 6.0, 0.5]])
    mean = np.array([[3.0], [2.5]], np.float32)
    got = getattr(cnp, name)(a, axis=1, ddof=ddof, mean=mean)
    expected = _variance(a, mean, 1, ddof, nans="nan" in name)
    if name.endswith("std"):
        expected = np.sqrt(expected)
    assert got.dtype == jnp.float32
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_spread_around_the_mean_with_correction_where_and_keepdims():
    a = np.arange(12.0).reshape(3, 4)
    where = np.array([True, False, True, True])
    got = cnp.var(a, axis=1, keepdims=True, where=where, correction=1, mean=1.0)
    expected = np.sum((a[:, where] - 1.0) ** 2, axis=1, keepdims=True) / 2
    assert got.shape == (3, 1)
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    with pytest.raises(
        ValueError, match=r"^ddof and correction can't be provided simultaneously\.$"
    ):
        cnp.std(a, ddof=1, correction=1, mean=1.0)


def test_spread_around_the_mean_of_integers_complex_and_too_few():
    ints = cnp.var(np.arange(4), mean=1.5)
    assert ints.dtype == jnp.float32
    np.testing.assert_allclose(ints, 1.25)
    complex_values = cnp.var(np.array([1 + 1j, 2j]), mean=1j)
    assert complex_values.dtype == jnp.float32
    np.testing.assert_allclose(complex_values, 1.0)
    assert np.isnan(cnp.std(np.arange(4.0), ddof=4, mean=1.0))
    assert np.isnan(cnp.nanvar(np.array([1.0, np.nan, 3.0]), ddof=2, mean=2.0))


def test_spread_around_the_mean_jits_and_differentiates():
    x = jnp.arange(3.0)
    np.testing.assert_allclose(jaxcompat.jit(lambda x: cnp.var(x, mean=1.0))(x), 2 / 3, rtol=1e-6)
    gradient = jaxcompat.grad(lambda x: cnp.var(x, mean=1.0))(x)
    np.testing.assert_allclose(gradient, 2 * (np.arange(3.0) - 1.0) / 3, rtol=1e-6)


def test_compress_and_extract_filled_to_size():
    x = np.arange(5.0)
    np.testing.assert_array_equal(cnp.compress(x > 1, x, size=2, fill_value=7.5), [2.0, 3.0])
    np.testing.assert_array_equal(
        cnp.compress(x > 2, x, size=4, fill_value=-1.0), [3.0, 4.0, -1.0, -1.0]
    )
    np.testing.assert_array_equal(cnp.extract(x > 5, x, size=2, fill_value=-1), [-1.0, -1.0])
    np.testing.assert_array_equal(cnp.extract(x > 2, x, size=3), [3.0, 4.0, 0.0])
    rows = cnp.compress(np.array([True, False, True]), np.arange(6).reshape(3, 2), axis=0, size=3)
    np.testing.assert_array_equal(rows, [[0, 1], [4, 5], [0, 0]])
    columns = cnp.compress(np.array([0, 1]), np.arange(6).reshape(3, 2), axis=1, size=2)
    np.testing.assert_array_equal(columns, [[1, 0], [3, 0], [5, 0]])


def test_compress_filled_to_size_jits_and_refuses_a_size_past_the_axis():
    jitted = jaxcompat.jit(lambda x: cnp.compress(x > 1, x, size=4, fill_value=-1))
    np.testing.assert_array_equal(jitted(jnp.arange(5.0)), [2.0, 3.0, 4.0, -1.0])
    message = (
        "size must be positive and not greater than the size of the array axis; got size=9 "
        "for a.shape[axis]=5"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        cnp.compress(np.arange(5) > 1, np.arange(5), size=9)


@pytest.mark.parametrize("method", ["auto", "compare_all", "binary_search", "sort"])
def test_isin_by_each_method(method):
    got = cnp.isin(np.array([3, 1, 4, 1, 5]), np.array([1, 5]), method=method)
    np.testing.assert_array_equal(got, [False, True, False, True, True])


@pytest.mark.parametrize("method", ["compare_all", "scan", "scan_unrolled", "sort"])
def test_digitize_by_each_method(method):
    got = cnp.digitize(np.array([0.5, 1.0, 2.5, 4.0]), np.array([1.0, 2.0, 3.0]), method=method)
    np.testing.assert_array_equal(got, [0, 1, 2, 3])


def test_an_unknown_method_is_a_value_error():
    with pytest.raises(ValueError, match="'bogus'"):
        cnp.isin(np.arange(3), np.arange(2), method="bogus")
    with pytest.raises(ValueError, match="'bogus'"):
        cnp.digitize(np.arange(3.0), np.arange(2.0), method="bogus")


def test_trim_zeros_along_each_axis():
    a = np.array([[0, 0, 0, 0], [0, 1, 0, 2], [0, 0, 0, 0]])
    np.testing.assert_array_equal(cnp.trim_zeros(a), [[1, 0, 2]])
    np.testing.assert_array_equal(cnp.trim_zeros(a, axis=0), [[0, 1, 0, 2]])
    np.testing.assert_array_equal(cnp.trim_zeros(a, axis=1), a[:, 1:])
    np.testing.assert_array_equal(cnp.trim_zeros(a, "f", axis=-1), a[:, 1:])
    np.testing.assert_array_equal(
        cnp.trim_zeros(np.array([0, 0, 3, 0, 4, 0]), "b"), [0, 0, 3, 0, 4]
    )
    assert cnp.trim_zeros(np.zeros((2, 3)), axis=1).shape == (2, 0)
    with pytest.raises(ValueError, match=r"^axis 2 is out of bounds for array of dimension 2$"):
        cnp.trim_zeros(a, axis=2)


def test_mul_out_dtype_is_the_product_in_that_dtype():
    product = jaxcompat.lax.mul(jnp.int8(100), jnp.int8(100), out_dtype=jnp.int32)
    assert product.dtype == jnp.int32 and int(product) == 10_000
    halves = jaxcompat.lax.mul(jnp.float16(3.0), jnp.float16(3.0), out_dtype=jnp.float32)
    assert halves.dtype == jnp.float32 and float(halves) == 9.0


def test_take_along_axis_fill_value_out_of_bounds():
    a = np.arange(6.0).reshape(2, 3)
    indices = np.array([[0, 5, -1], [-4, 2, 3]])
    filled = cnp.take_along_axis(a, indices, axis=1, fill_value=-7)
    np.testing.assert_array_equal(filled, [[0.0, -7.0, 2.0], [-7.0, 5.0, -7.0]])
    integers = cnp.take_along_axis(a.astype(np.int32), indices, axis=1, fill_value=-7)
    assert integers.dtype == jnp.int32
    np.testing.assert_array_equal(integers, [[0, -7, 2], [-7, 5, -7]])
    flat = cnp.take_along_axis(a, np.array([7, -1, 0]), axis=None, fill_value=9)
    np.testing.assert_array_equal(flat, [9.0, 5.0, 0.0])
    broadcast = cnp.take_along_axis(a, np.array([[7], [0]]), axis=1, fill_value=9)
    np.testing.assert_array_equal(broadcast, [[9.0], [3.0]])
    clipped = cnp.take_along_axis(a, indices, axis=1, mode="clip", fill_value=-7)
    np.testing.assert_array_equal(clipped, [[0.0, 2.0, 2.0], [3.0, 5.0, 5.0]])
    jitted = jaxcompat.jit(lambda i: cnp.take_along_axis(a, i, axis=1, fill_value=-1.0))
    np.testing.assert_array_equal(jitted(indices)[0], [0.0, -1.0, 2.0])


def test_take_along_axis_without_wrapping_negative_indices():
    a = np.arange(6.0).reshape(2, 3)
    indices = np.array([[0, -1, -4], [2, -3, 1]])
    unwrapped = cnp.take_along_axis(a, indices, axis=1, wrap_negative_indices=False)
    np.testing.assert_array_equal(unwrapped, [[0.0, np.nan, np.nan], [5.0, np.nan, 4.0]])
    filled = cnp.take_along_axis(a, indices, axis=1, wrap_negative_indices=False, fill_value=-9.0)
    np.testing.assert_array_equal(filled, [[0.0, -9.0, -9.0], [5.0, -9.0, 4.0]])
    clipped = cnp.take_along_axis(a, indices, axis=1, wrap_negative_indices=False, mode="clip")
    np.testing.assert_array_equal(clipped, [[0.0, 0.0, 0.0], [5.0, 3.0, 4.0]])
    wrapped = cnp.take_along_axis(a, indices, axis=1, wrap_negative_indices=True)
    np.testing.assert_array_equal(wrapped, [[0.0, 2.0, np.nan], [5.0, 3.0, 4.0]])


def test_ravel_multi_index_in_the_dtype():
    index = (np.array([1, 2]), np.array([3, 0]))
    small = cnp.ravel_multi_index(index, (4, 5), dtype=np.int16)
    assert small.dtype == jnp.int16
    np.testing.assert_array_equal(small, [8, 10])
    columns = cnp.ravel_multi_index(index, (4, 5), order="F", dtype=np.int16)
    np.testing.assert_array_equal(columns, [13, 2])
    clipped = cnp.ravel_multi_index(
        (np.array([7]), np.array([-1])), (4, 5), mode="clip", dtype=np.uint8
    )
    assert clipped.dtype == jnp.uint8
    np.testing.assert_array_equal(clipped, [15])
    message = (
        "jnp.ravel_multi_index: dtype=dtype('int8') not large enough to hold flattened index "
        "for dims=(400, 500). Use the dtype argument to pass a suitable dtype (e.g. "
        "dtype=np.min_scalar_type(prod(dims)))."
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        cnp.ravel_multi_index(index, (400, 500), dtype=np.int8)
    with pytest.raises(ValueError, match=r"^invalid entry in coordinates array$"):
        cnp.ravel_multi_index((np.array([4]), np.array([0])), (4, 5), dtype=np.int16)


def test_from_dlpack_device_and_copy():
    device = jax.devices()[-1]
    source = aligned_host_array(16)
    placed = cnp.from_dlpack(source, device=device)
    assert placed.devices() == {device}
    np.testing.assert_array_equal(placed, source)
    # Whether a later write to the source shows through is the release's own (JAX 0.8.1 on
    # hands back an aligned host buffer itself, as the newest does): test_backends.py.
    copied = cnp.from_dlpack(source, copy=True)
    np.testing.assert_array_equal(copied, np.arange(16.0))
    with pytest.raises(ValueError, match=r"^Specified device=.* however copy=False"):
        cnp.from_dlpack(np.arange(3.0, dtype=np.float32), device=device, copy=False)


def test_lax_full_places_a_concrete_result_on_the_sharding():
    device = jax.devices()[-1]
    sharding = jax.sharding.SingleDeviceSharding(device)
    full = jaxcompat.lax.full((2, 3), 1.5, sharding=sharding)
    assert full.devices() == {device} and full.shape == (2, 3)
    np.testing.assert_array_equal(full, np.full((2, 3), 1.5))
    like = jaxcompat.lax.full_like(jnp.zeros(2, jnp.int32), 4, sharding=sharding)
    assert like.devices() == {device} and like.dtype == jnp.int32
    traced = jaxcompat.jit(lambda v: jaxcompat.lax.full((2,), v, sharding=sharding))(2.0)
    np.testing.assert_array_equal(traced, [2.0, 2.0])


def test_lax_dot_with_dimension_numbers():
    lhs, rhs = np.arange(24.0).reshape(2, 3, 4), np.arange(24.0).reshape(2, 4, 3)
    batched = jaxcompat.lax.dot(lhs, rhs, dimension_numbers=(((2,), (1,)), ((0,), (0,))))
    np.testing.assert_allclose(batched, np.einsum("bij,bjk->bik", lhs, rhs))


def test_register_pytree_node_with_keys():
    class Pair:
        def __init__(self, first, second):
            self.first, self.second = first, second

    jaxcompat.tree_util.register_pytree_node(
        Pair,
        lambda p: ((p.first, p.second), None),
        lambda _, children: Pair(*children),
        flatten_with_keys_func=lambda p: (
            (
                (jax.tree_util.GetAttrKey("first"), p.first),
                (jax.tree_util.GetAttrKey("second"), p.second),
            ),
            None,
        ),
    )
    paths = [
        jax.tree_util.keystr(path)
        for path, _ in jax.tree_util.tree_flatten_with_path(Pair(1, 2))[0]
    ]
    assert paths == [".first", ".second"]
    doubled = jax.tree_util.tree_map(lambda x: 2 * x, Pair(1, 2))
    assert (doubled.first, doubled.second) == (2, 4)


def _stops_at_b(path, node):
    return bool(path) and getattr(path[-1], "key", None) == "b"


@pytest.mark.parametrize("module", ["tree", "tree_util"])
def test_is_leaf_takes_path(module):
    tree = {"a": {"b": [1, 2], "c": 3}, "b": (4, None, 5)}
    prefix = "tree_" if module == "tree_util" else ""
    found = getattr(getattr(jaxcompat, module), f"{prefix}leaves_with_path")(
        tree, _stops_at_b, is_leaf_takes_path=True
    )
    got = [(jax.tree_util.keystr(path), leaf) for path, leaf in found]
    assert got == [("['a']['b']", [1, 2]), ("['a']['c']", 3), ("['b']", (4, None, 5))]
    leaves, treedef = getattr(getattr(jaxcompat, module), f"{prefix}flatten_with_path")(
        tree, _stops_at_b, True
    )
    assert treedef.num_leaves == 3 and len(leaves) == 3
    assert treedef.unflatten([leaf for _, leaf in leaves]) == tree
    mapped = getattr(getattr(jaxcompat, module), f"{prefix}map_with_path")(
        lambda path, leaf, other: (len(path), other),
        tree,
        {"a": {"b": "x", "c": "y"}, "b": "z"},
        is_leaf=_stops_at_b,
        is_leaf_takes_path=True,
    )
    assert mapped == {"a": {"b": (2, "x"), "c": (2, "y")}, "b": (1, "z")}
    plain = getattr(getattr(jaxcompat, module), f"{prefix}leaves_with_path")(
        tree, lambda node: isinstance(node, list), is_leaf_takes_path=False
    )
    assert [leaf for _, leaf in plain] == [[1, 2], 3, 4, 5]


def test_products_in_the_preferred_element_type():
    small = np.array([[100, 100], [3, 4]], np.int8)
    widened = cnp.dot(small, small, preferred_element_type=np.int32)
    assert widened.dtype == jnp.int32
    np.testing.assert_array_equal(widened, [[10300, 10400], [312, 316]])
    as_float = cnp.matmul(small, small, preferred_element_type=np.float32)
    assert as_float.dtype == jnp.float32
    np.testing.assert_array_equal(as_float, [[10300.0, 10400.0], [312.0, 316.0]])
    floats = np.array([[1.5, 2.0], [3.0, 4.25]], np.float32)
    truncated = cnp.dot(floats, floats, preferred_element_type=np.int32)
    assert truncated.dtype == jnp.int32
    np.testing.assert_array_equal(truncated, [[8, 11], [17, 24]])
    assert int(cnp.vdot(small, small, preferred_element_type=np.int32)) == 20025
    assert int(cnp.inner(small[0], small[0], preferred_element_type=np.int32)) == 20000
    contracted = cnp.tensordot(small, small, axes=1, preferred_element_type=np.int32)
    np.testing.assert_array_equal(contracted, widened)
    halves = np.array([1.0, 2.0, 3.0], jnp.bfloat16)
    convolved = cnp.convolve(halves, halves, preferred_element_type=np.float32)
    assert convolved.dtype == jnp.float32
    np.testing.assert_array_equal(convolved, [1.0, 4.0, 10.0, 12.0, 9.0])
    correlated = cnp.correlate(halves, halves, preferred_element_type=np.float32)
    np.testing.assert_array_equal(correlated, [14.0])


def test_from_dlpack_copy_false_shares_or_refuses():
    source = aligned_host_array(16)
    shared = cnp.from_dlpack(source, copy=False)
    source[0] = 7.0
    assert float(shared[0]) == 7.0  # no copy: the source's buffer itself
    # 4 bytes past a 64-byte boundary: a release that cannot share it refuses copy=False
    # (the newest's ValueError); one that can shares it. Never a silent copy.
    unaligned = aligned_host_array(17)[1:]
    refusals = []
    try:
        unpacked = cnp.from_dlpack(unaligned, copy=False)
    except ValueError as error:
        refusals.append(str(error))
    else:
        unaligned[0] = 7.0
        assert float(unpacked[0]) == 7.0
    for refusal in refusals:
        assert refusal.startswith("Specified input which requires a copy since the source")
        assert "copy=False" in refusal


@pytest.mark.parametrize("copy", [None, True, False])
def test_reshape_with_copy_gives_the_reshaped_values(copy):
    x = jnp.arange(6.0)
    reshaped = cnp.reshape(x, (2, 3), copy=copy)
    np.testing.assert_array_equal(reshaped, np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(
        cnp.reshape(x, (3, -1), "F", copy=copy), np.arange(6.0).reshape(3, 2, order="F")
    )


def _custom_ufunc():
    """An add whose methods are given, each distinguishable from the plain add's."""

    def reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        summed = jnp.sum(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)
        return summed * 10

    return cnp.ufunc(
        operator.add,
        2,
        1,
        identity=0,
        call=lambda a, b: a + b + 100,
        reduce=reduce,
        accumulate=lambda a, axis=0, dtype=None: jnp.cumsum(a, axis=axis, dtype=dtype) * 2,
        at=lambda a, indices, b=None: a.at[indices].add(1 if b is None else b) * 3,
        reduceat=lambda a, indices, axis=0, dtype=None: jnp.take(a, indices, axis=axis) - 1,
    )


def _ufunc_absent() -> bool:
    """Whether JAX has no ufunc objects here (0.4.13), asserting that jaxcompat then refuses
    the name in its exact words: JAX's own module decides, not jaxcompat's tables."""
    if hasattr(jnp, "ufunc"):
        return False
    with pytest.raises(AttributeError) as refused:
        cnp.ufunc  # noqa: B018
    assert str(refused.value).startswith(
        f"jaxcompat.numpy.ufunc is not available on JAX {jaxcompat.JAX_VERSION_STRING}: it "
        "needs JAX 0.4.18 or newer"
    ), refused.value
    return True


def _takes_methods():
    """Whether JAX's own ufunc class here takes the implementations of its methods (JAX
    0.4.33); before, jaxcompat's ufunc is the same class, which refuses them as JAX's does."""
    return "reduce" in inspect.signature(cnp.ufunc).parameters


def test_a_ufunc_calls_the_methods_it_is_given():
    if _ufunc_absent():
        return
    assert cnp.ufunc is jnp.ufunc
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    if not _takes_methods():
        with pytest.raises(TypeError) as through_jaxcompat:
            _custom_ufunc()
        with pytest.raises(TypeError) as through_jax:
            jnp.ufunc(operator.add, 2, 1, identity=0, call=lambda a, b: a + b)
        assert str(through_jaxcompat.value) == str(through_jax.value)
        return
    custom = _custom_ufunc()
    assert isinstance(custom, jnp.ufunc)
    assert isinstance(custom, cnp.ufunc)
    np.testing.assert_allclose(custom(x, 1.0), x + 101)
    np.testing.assert_allclose(custom.reduce(x), x.sum(0) * 10)
    reduced = custom.reduce(x, axis=1, keepdims=True)
    np.testing.assert_allclose(reduced, x.sum(1, keepdims=True) * 10)
    np.testing.assert_allclose(jax.jit(custom.reduce)(x), x.sum(0) * 10)
    np.testing.assert_allclose(jax.grad(lambda v: custom.reduce(v).sum())(x), np.full((2, 3), 10.0))
    np.testing.assert_allclose(custom.accumulate(x, axis=1), np.cumsum(x, 1) * 2)
    np.testing.assert_allclose(custom.at(np.zeros(3), 1, 2.0, inplace=False), [0.0, 6.0, 0.0])
    np.testing.assert_allclose(custom.reduceat(x[0], np.array([0, 2])), [-1.0, 1.0])
    outer = custom.outer(np.arange(2.0), np.arange(2.0))
    np.testing.assert_allclose(outer, [[100, 101], [101, 102]])
    with pytest.raises(NotImplementedError, match="out argument of"):
        custom.reduce(x, out=0)  # (out is static: any value but None is refused)
    with pytest.raises(ValueError, match="where argument must have dtype=bool"):
        custom.reduce(x, where=x)


def test_a_ufunc_given_no_methods_is_jax_own():
    if _ufunc_absent():
        return
    plain = cnp.ufunc(operator.add, 2, 1, identity=0)
    assert type(plain) is jnp.ufunc
    np.testing.assert_allclose(plain.reduce(np.arange(4.0)), 6.0)
    assert plain == cnp.ufunc(operator.add, 2, 1, identity=0)
    if _takes_methods():
        # The implementations given are not part of a ufunc's identity, as in JAX.
        assert _custom_ufunc() == plain
        assert hash(_custom_ufunc()) == hash(plain)


def test_a_ufunc_takes_the_release_own_call_too():
    if _ufunc_absent():
        return

    def scaled(a, b, scale=1.0):
        """Adds, then scales."""
        return (a + b) * scale

    def outcome(make):
        try:
            made = make()
            return type(made), float(made(1.0, 2.0, scale=2.0))
        except TypeError as error:
            return TypeError, str(error)

    # Whatever JAX's own ufunc does with the release's keywords (0.4.18-0.4.32 take
    # update_doc=, the newest does not) and the keywords its call passes on.
    keywords = (
        {"update_doc": False} if "update_doc" in inspect.signature(jnp.ufunc).parameters else {}
    )
    assert outcome(lambda: cnp.ufunc(scaled, 2, 1, **keywords)) == outcome(
        lambda: jnp.ufunc(scaled, 2, 1, **keywords)
    )
