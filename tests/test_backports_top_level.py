"""The newest names of ``jax``, ``jax.tree_util``, ``jax.errors`` and ``jax.dtypes`` on every
release: backports, older JAX objects under their newest name, and config states.

Contract tests: the same inputs and assertions on every matrix row. On a release that has a
name, ``jaxcompat.<name>`` is JAX's own object, so these tests also show that the backports
used on older releases give what the newest JAX gives. Expected results come from
long-standing JAX functions (``jax.vjp``, ``jax.tree_util``), NumPy or exact known values.
"""

import collections
import dataclasses
import inspect
import typing
from typing import NamedTuple

import jax
import jax.numpy as np_jax
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jaxcompat
from tests._backport_helpers import device_array, few
from tests._stable_names_helpers import needs


def float_arrays(shape):
    elements = st.floats(-3.0, 3.0, width=32, allow_subnormal=False)
    return hnp.arrays(np.float32, shape, elements=elements)


# --- jax.fwd_and_bwd ---------------------------------------------------------------------------


def layer(x, w, scale):
    return np_jax.tanh(x @ w) * scale


@pytest.fixture(scope="module")
def layer_fwd_and_bwd():
    # Made once for all examples: each fwd_and_bwd(jitted=True) has jitted functions of its
    # own, which would compile again for every example.
    return {
        jitted: jaxcompat.fwd_and_bwd(layer, argnums=(0, 1), jitted=jitted)
        for jitted in (True, False)
    }


@few
@given(x=float_arrays((2, 3)), w=float_arrays((3, 4)), cotangent=float_arrays((2, 4)))
def test_fwd_and_bwd_is_vjp_split_in_two(x, w, cotangent, layer_fwd_and_bwd):
    expected_out, pullback = jax.vjp(lambda x, w: layer(x, w, 2.0), x, w)
    expected_x, expected_w = pullback(cotangent)
    for jitted in (True, False):
        fwd, bwd = layer_fwd_and_bwd[jitted]
        out, residuals = fwd(x, w, 2.0)
        np.testing.assert_allclose(out, expected_out, rtol=1e-6, atol=1e-6)
        grad_x, grad_w = bwd(residuals, cotangent)
        assert grad_x.shape == x.shape and grad_w.shape == w.shape
        assert grad_x.dtype == grad_w.dtype == np.float32
        np.testing.assert_allclose(grad_x, expected_x, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(grad_w, expected_w, rtol=1e-5, atol=1e-5)


def test_fwd_and_bwd_with_one_argnum_gives_one_cotangent():
    x, w = device_array(np.ones((2, 3))), np_jax.full((3, 4), 0.5)  # w weakly typed
    ones = device_array(np.ones((2, 4)))
    # The expected output and gradient in one jitted program (eagerly, every op compiles).
    expected_out, expected = jax.jit(
        lambda x, w: (layer(x, w, 3.0), jax.grad(lambda w: layer(x, w, 3.0).sum())(w))
    )(x, w)
    fwd, bwd = jaxcompat.fwd_and_bwd(layer, argnums=1)
    out, residuals = fwd(x, w, scale=3.0)  # keyword arguments are not differentiated
    np.testing.assert_allclose(out, expected_out, rtol=1e-6)
    np.testing.assert_allclose(bwd(residuals, ones), expected, rtol=1e-6)
    # A negative index counts from the end, as in JAX.
    fwd_last, bwd_last = jaxcompat.fwd_and_bwd(lambda x, w: layer(x, w, 3.0), argnums=-1)
    _, residuals = fwd_last(x, w)
    np.testing.assert_allclose(bwd_last(residuals, ones), expected, rtol=1e-6)


def test_fwd_and_bwd_has_aux():
    def with_aux(x):
        return np_jax.sin(x).sum(), {"mean": x.mean()}

    fwd, bwd = jaxcompat.fwd_and_bwd(with_aux, argnums=0, has_aux=True)
    x = device_array(range(3))
    out, residuals, aux = fwd(x)
    np.testing.assert_allclose(out, np.sin(np.arange(3.0)).sum(), rtol=1e-6)
    np.testing.assert_allclose(aux["mean"], 1.0)
    np.testing.assert_allclose(bwd(residuals, 1.0), np.cos(np.arange(3.0)), rtol=1e-6)


def test_fwd_and_bwd_compiles_the_backward_pass_once():
    fwd, bwd = jaxcompat.fwd_and_bwd(lambda x, w: x @ w, argnums=(0, 1))
    x = device_array(np.ones((4, 4)))
    for step in range(3):
        _, residuals = fwd(device_array(np.full((4, 4), step)), x)
        bwd(residuals, x)
    assert bwd._cache_size() == 1
    assert fwd._cache_size() == 1


def test_fwd_and_bwd_rejects_what_jax_rejects():
    fwd, _ = jaxcompat.fwd_and_bwd(layer, argnums=(0, 3))
    with pytest.raises(
        ValueError,
        match=r"^Positional argument indices, e\.g\. for `static_argnums`, must have value "
        r"greater than or equal to -len\(args\) and less than len\(args\), but got value 3 "
        r"for len\(args\) == 3\.",
    ):
        fwd(device_array([[1.0]]), device_array([[1.0]]), 1.0)
    with pytest.raises(TypeError, match=r"^Expected a callable value, got 3(\n|$)"):
        jaxcompat.fwd_and_bwd(3, argnums=0)


# --- jax.copy_to_host_async, jax.process_indices, jax.NamedSharding --------------------------


class _CopyRecorder:
    def __init__(self):
        self.calls = 0

    def copy_to_host_async(self):
        self.calls += 1


def test_copy_to_host_async_starts_the_copy_of_every_leaf():
    recorder = _CopyRecorder()
    tree = {
        "a": device_array(range(3), np.int32),
        "b": [device_array(np.ones(2)), 5, np.zeros(2)],
        "c": recorder,
    }
    assert jaxcompat.copy_to_host_async(tree) is tree
    assert recorder.calls == 1  # a leaf's own copy_to_host_async is called
    np.testing.assert_array_equal(np.asarray(tree["a"]), [0, 1, 2])
    assert jaxcompat.copy_to_host_async(7) == 7


def test_process_indices():
    assert jaxcompat.process_indices() == list(range(jax.process_count()))
    assert jaxcompat.process_indices("cpu") == [0]


def test_named_sharding_is_the_sharding_class():
    assert jaxcompat.NamedSharding is jax.sharding.NamedSharding


# --- Config states ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("threefry_partitionable", True),
        ("explain_cache_misses", True),
        ("debug_key_reuse", True),
        ("no_tracing", True),
        ("array_garbage_collection_guard", "log"),
    ],
)
def test_config_states_are_context_managers_with_a_value(path, value):
    state = needs(path)
    before = state.value
    with state(value):
        assert state.value == value
    assert state.value == before
    with pytest.raises(TypeError, match=r"bool\(\) not supported"):
        bool(state)


def test_threefry_partitionable_changes_the_random_bits():
    state = needs("threefry_partitionable")
    key = jax.random.PRNGKey(0)
    with state(True):
        partitionable = jax.random.bits(key, (4,))
    with state(False):
        classic = jax.random.bits(key, (4,))
    assert not np.array_equal(partitionable, classic)


def test_use_abstract_mesh():
    use_abstract_mesh = needs("use_abstract_mesh")
    mesh = jaxcompat.make_mesh((2, 4), ("x", "y"))
    with use_abstract_mesh(mesh.abstract_mesh):
        assert dict(jaxcompat.get_abstract_mesh().shape) == {"x": 2, "y": 4}


# --- jax.tree_util ----------------------------------------------------------------------------


def test_key_path_types():
    tree_util = jaxcompat.tree_util
    assert isinstance(tree_util.KeyEntry, typing.TypeVar)
    assert typing.get_origin(tree_util.KeyPath) is tuple
    assert typing.get_args(tree_util.KeyPath) == (tree_util.KeyEntry, ...)


def test_default_registry_flattens_as_tree_util_does():
    registry = needs("tree_util.default_registry")
    leaves, treedef = registry.flatten({"b": [1, 2], "a": (3,)})
    assert leaves == [3, 1, 2]
    assert treedef == jax.tree_util.tree_structure({"b": [0, 0], "a": (0,)})


def test_register_static_makes_a_leafless_node():
    @jaxcompat.tree_util.register_static
    class Mode(str):
        pass

    assert jax.tree_util.tree_leaves([Mode("add"), 1]) == [1]
    traced = []

    @jax.jit
    def apply(x, mode):
        traced.append(mode)
        return x + 1 if mode == "add" else x - 1

    # float(): comparing the JAX array itself would compile an eager ==.
    assert float(apply(1.0, Mode("add"))) == 2.0
    assert float(apply(1.0, Mode("sub"))) == 0.0
    assert traced == ["add", "sub"]  # the mode is static: no tracer


@dataclasses.dataclass
class Layer:
    weight: object
    bias: object
    activation: str = jaxcompat.tree.static(default="relu")
    cache: object = dataclasses.field(default=None, compare=False)


jaxcompat.tree_util.register_dataclass(Layer, drop_fields=("cache",))


def test_register_dataclass_infers_the_fields():
    layer = Layer(weight=device_array(np.ones(2)), bias=3.0, activation="tanh", cache="dropped")
    leaves, treedef = jax.tree_util.tree_flatten(layer)
    assert [np.asarray(leaf).tolist() for leaf in leaves] == [[1.0, 1.0], 3.0]
    rebuilt = jax.tree_util.tree_unflatten(treedef, [device_array(np.zeros(2)), 4.0])
    assert rebuilt.activation == "tanh" and rebuilt.bias == 4.0 and rebuilt.cache is None
    paths = [
        jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(layer)[0]
    ]
    assert paths == [".weight", ".bias"]
    doubled = jax.jit(lambda layer: jax.tree_util.tree_map(lambda x: x * 2, layer))(layer)
    assert doubled.activation == "tanh" and float(doubled.bias) == 6.0


def test_register_dataclass_with_explicit_fields():
    @dataclasses.dataclass
    class Pair:
        left: object
        right: object
        name: str

    assert jaxcompat.tree_util.register_dataclass(Pair, ["left", "right"], ["name"]) is Pair
    leaves, treedef = jax.tree_util.tree_flatten(Pair(1, 2, "p"))
    assert leaves == [1, 2]
    assert jax.tree_util.tree_unflatten(treedef, [5, 6]) == Pair(5, 6, "p")

    class Plain:
        def __init__(self, a, b):
            self.a, self.b = a, b

    jaxcompat.tree_util.register_dataclass(Plain, data_fields=["a"], meta_fields=["b"])
    plain_leaves, plain_def = jax.tree_util.tree_flatten(Plain(1, "meta"))
    assert plain_leaves == [1]
    assert jax.tree_util.tree_unflatten(plain_def, [2]).b == "meta"


def test_register_dataclass_errors():
    register_dataclass = jaxcompat.tree_util.register_dataclass

    @dataclasses.dataclass
    class Point:
        x: object
        y: object

    with pytest.raises(
        TypeError,
        match=r"^register_dataclass: data_fields and meta_fields must both be specified "
        r"when either is specified\. Got data_fields=\['x'\] meta_fields=None\.$",
    ):
        register_dataclass(Point, data_fields=["x"])
    with pytest.raises(
        ValueError,
        match=r"^data_fields and meta_fields must include all dataclass fields with "
        r"``init=True`` and only them\. Missing fields: \{'y'\}\. Add them to drop_fields "
        r"to suppress this error\.$",
    ):
        register_dataclass(Point, ["x"], [])
    with pytest.raises(
        ValueError, match=r"^data_fields and meta_fields must not overlap\. Overlapping fields"
    ):
        register_dataclass(Point, ["x", "y"], ["x"])
    with pytest.raises(TypeError, match=r"nodetype is not a dataclass"):
        register_dataclass(int)


class _Named(NamedTuple):
    a: int


class _ListSubclass(list):
    pass


@dataclasses.dataclass
class _Unregistered:
    x: int


@pytest.mark.parametrize(
    ("typ", "expected"),
    [
        (tuple, True),
        (list, True),
        (dict, True),
        (type(None), True),
        (collections.OrderedDict, True),
        (collections.defaultdict, True),
        (_Named, True),
        (jax.tree_util.Partial, True),
        (Layer, True),
        (_ListSubclass, False),
        (_Unregistered, False),
        (int, False),
        (jax.Array, False),
    ],
)
def test_is_tree_node(typ, expected):
    assert jaxcompat.tree_util.is_tree_node(typ) is expected


# --- jax.errors and jax.dtypes ----------------------------------------------------------------


def test_shape_and_jaxpr_errors_are_jaxs_own_classes():
    from jax._src import core

    assert jaxcompat.errors.InconclusiveDimensionOperation is core.InconclusiveDimensionOperation
    assert jaxcompat.errors.JaxprTypeError is core.JaxprTypeError


def test_type_promotion_error_is_what_strict_promotion_raises():
    with jax.numpy_dtype_promotion("strict"), pytest.raises(jaxcompat.dtypes.TypePromotionError):
        np_jax.add(device_array(1, np.int32), device_array(1.0))


def test_tracer_bool_conversion_error():
    error = needs("errors.TracerBoolConversionError")
    with pytest.raises(error):
        jax.jit(lambda x: 1 if x > 0 else 0)(1.0)


def test_key_reuse_error():
    error = needs("errors.KeyReuseError")
    assert issubclass(error, Exception)
    if "debug_key_reuse" in dir(jaxcompat):
        key = jax.random.key(0)
        with jaxcompat.debug_key_reuse(True):
            jax.random.normal(key)
            with pytest.raises(error):
                jax.random.normal(key)


def test_extended_dtypes():
    extended = needs("dtypes.extended")
    assert jax.dtypes.issubdtype(jax.random.key(0).dtype, extended)
    assert not jax.dtypes.issubdtype(np.float32, extended)


ITEMSIZE_BITS = [
    (np.bool_, 8),
    (np.int8, 8),
    (np.uint16, 16),
    (np.int32, 32),
    ("int64", 64),
    (np.float16, 16),
    (np_jax.bfloat16, 16),
    (np.float32, 32),
    (np.float64, 64),
    (np.complex64, 64),
    (np.complex128, 128),
    (np_jax.int4, 4),
    (np_jax.uint4, 4),
    (np_jax.float8_e4m3fn, 8),
    (np_jax.float8_e5m2, 8),
]


@pytest.mark.parametrize(("dtype", "bits"), ITEMSIZE_BITS)
def test_itemsize_bits(dtype, bits):
    assert jaxcompat.dtypes.itemsize_bits(dtype) == bits
    assert jaxcompat.dtypes.itemsize_bits(np.dtype(dtype)) == bits


@few
@given(dtype=st.sampled_from([d for d, _ in ITEMSIZE_BITS[:11]]))
def test_itemsize_bits_is_eight_times_the_itemsize_of_whole_byte_types(dtype):
    assert jaxcompat.dtypes.itemsize_bits(dtype) == 8 * np.dtype(dtype).itemsize


def test_itemsize_bits_rejects_what_jax_rejects():
    with pytest.raises(ValueError, match=r"^dtype cannot be None\.$"):
        jaxcompat.dtypes.itemsize_bits(None)
    with pytest.raises(ValueError, match=r"^unexpected input: dtype=dtype\('O'\)$"):
        jaxcompat.dtypes.itemsize_bits(np.dtype(object))


# JAX's custom dtypes, as a dtype, a scalar type and a name, with the numpy kind each is of.
CUSTOM_DTYPES = [
    *((form, np.floating) for form in (np_jax.bfloat16, np.dtype(np_jax.bfloat16), "bfloat16")),
    (np.dtype(np_jax.float8_e4m3fn), np.floating),
    (np_jax.float8_e5m2, np.floating),
    (np.dtype(np_jax.int4), np.signedinteger),
    (np.dtype(np_jax.uint4), np.unsignedinteger),
]
NUMPY_KINDS = [
    np.generic,
    np.number,
    np.inexact,
    np.floating,
    np.integer,
    np.signedinteger,
    np.unsignedinteger,
    np.complexfloating,
    np.bool_,
]


@pytest.mark.parametrize("module", ["numpy", "dtypes"])
@pytest.mark.parametrize(("dtype", "kind"), CUSTOM_DTYPES, ids=str)
def test_issubdtype_places_custom_dtypes_under_their_numpy_kinds(module, dtype, kind):
    # JAX before 0.4.17 said a custom dtype was not an np.generic.
    issubdtype = getattr(jaxcompat, module).issubdtype
    for other in NUMPY_KINDS:
        assert issubdtype(dtype, other) is issubclass(kind, other), other
    assert issubdtype(dtype, dtype) is True
    assert issubdtype(np.float32, dtype) is False


@pytest.mark.parametrize("module", ["numpy", "dtypes"])
def test_issubdtype_takes_its_arguments_by_jaxs_names(module):
    # jax.numpy's are arg1 and arg2, jax.dtypes' a and b.
    issubdtype = getattr(jaxcompat, module).issubdtype
    names = list(inspect.signature(getattr(jax, module).issubdtype).parameters)
    assert list(inspect.signature(issubdtype).parameters) == names
    assert issubdtype(**dict(zip(names, [np_jax.bfloat16, np.generic], strict=True))) is True


# --- jax.typeof ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (np_jax.ones(3), ("ShapedArray", (3,), np.dtype(np.float32), False)),
        (np_jax.zeros((2, 2), np.int32), ("ShapedArray", (2, 2), np.dtype(np.int32), False)),
        (1.0, ("ShapedArray", (), np.dtype(np.float32), True)),
        (np.arange(4), ("ShapedArray", (4,), np.dtype(np.int32), False)),
    ],
)
def test_typeof_a_concrete_value_is_its_shaped_array(value, expected):
    # The newest typeof never gives a ConcreteArray (JAX 0.4.36 removed it): the abstract
    # value of a concrete array equals the ShapedArray of its shape and dtype.
    aval = jaxcompat.typeof(value)
    _, shape, dtype, weak_type = expected
    assert (type(aval).__name__, aval.shape, aval.dtype, aval.weak_type) == expected
    assert aval == jax.core.ShapedArray(shape, dtype, weak_type=weak_type)


def test_typeof_a_tracer_is_its_abstract_value():
    seen = []

    @jax.jit
    def f(x):
        seen.append(jaxcompat.typeof(x))
        return x

    f(np_jax.ones(3))
    assert seen == [jax.core.ShapedArray((3,), np.float32)]
    assert type(seen[0]) is jax.core.ShapedArray
