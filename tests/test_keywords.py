"""Newest keywords on every row: every ruled (callable, parameter) pair of the newest JAX is
accepted by jaxcompat's object, the default is the same as leaving it out, and any other
value is honoured (the release's own function names it) or a clear error."""

import functools
import importlib
import inspect
import json

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
from jaxcompat import _namespace, _surface
from jaxcompat._keywords import adapter as keywords
from jaxcompat._keywords.rules.functions import KEYWORD_RULES, rule_for
from jaxcompat._keywords.rules.kinds import NOT_ADAPTED_YET, REFUSALS, helper_name

from ._helpers import PACKAGE

#: The recorded surface's added parameters, read once: deriving them takes 10 ms a call.
ADDED_PARAMETERS = _surface.added_parameters()


def _mirrored_callables():
    """(jaxcompat module, name, jax path, ruled parameters) for every mirrored callable whose
    newest signature has a ruled parameter that some row's function lacks."""
    modules = {jax_module: public for public, (jax_module, _) in _namespace.MIRRORED.items()}
    pairs = []
    for path, (_, added) in sorted(ADDED_PARAMETERS.items()):
        module, _, name = path.rpartition(".")
        ruled = sorted(p for p in added if rule_for(path, p) is not None)
        # (In CLEAR_ERROR_MODULES every added keyword has a rule, at least NOT_ADAPTED_YET.)
        if module in modules and ruled and not name.startswith("_"):
            pairs.append((modules[module], name, path, ruled))
    return pairs


CALLABLES = _mirrored_callables()


def test_the_shipped_keyword_data_is_derived_from_the_surface_data():
    # Stale data fails here: `nox -s api_surface` writes both files.
    shipped = json.loads((PACKAGE / "_data" / "newest_keywords.json").read_text())
    assert shipped["format"] == _surface.FORMAT
    derived = json.loads(json.dumps(_surface.added_parameters()))
    assert shipped["callables"] == derived


def test_every_rule_is_for_callables_whose_newest_signature_names_its_parameter():
    # A rule for a path the keyword data does not list, or whose newest signature lacks the
    # parameter, would never apply: the wrapper is built only for the data's callables.
    callables = keywords.newest_data()["callables"]
    for rule in KEYWORD_RULES:
        for path in sorted(rule.paths or ()):
            assert path in callables, (rule.parameter, path)
            assert rule.parameter in _surface.parameter_names(callables[path][0]), (
                rule.parameter,
                path,
            )


def test_every_rule_names_a_helper_that_honours_it_or_a_refusal():
    for rule in KEYWORD_RULES:
        name = helper_name(rule)
        if name is None:
            assert rule.other_values in REFUSALS
            continue
        module, _, function = name.partition(":")
        found = keywords.helper(name)
        assert found is getattr(importlib.import_module(f"jaxcompat.{module}"), function), name
        assert (found.__module__, found.__name__) == (f"jaxcompat.{module}", function)
        assert list(inspect.signature(found).parameters)[:3] == ["function", "path", "values"]


def test_every_ruled_pair_is_enumerated():
    assert len(CALLABLES) > 60  # out_sharding alone is on more than 60 mirrored callables
    assert ("jaxcompat.numpy", "zeros", "jax.numpy.zeros", ["device", "out_sharding"]) in CALLABLES
    assert ("jaxcompat.numpy", "add", "jax.numpy.add", ["out", "where"]) in CALLABLES


def _read(public, name):
    """jaxcompat's object for the name, or None for a name this row lacks or deprecates
    (reading one warns, and some releases warn only once per process)."""
    try:
        jax_module = importlib.import_module(_namespace.MIRRORED[public][0])
    except ImportError:  # jax.tree before 0.4.25: jaxcompat's own module
        jax_module = None
    if name in vars(jax_module).get("_deprecations", {}) if jax_module else False:
        return None
    return getattr(importlib.import_module(public), name, None)


def _unadapted(public, name, path):
    """What the name is before newest keywords are added: the stable-name table's object, or
    the release's own."""
    stable_path = f"{public.removeprefix('jaxcompat')}.{name}".lstrip(".")
    if stable_path in _namespace._table():
        try:
            return _namespace.resolve(stable_path)
        except AttributeError:
            return None
    return _own_object(path)


def _own_object(path):
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:  # jax.tree before 0.4.25
        return None


def _parameters(function):
    try:
        return dict(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return {}


def _signatures_to_compare(public, name, path):
    """(jaxcompat's object, the release's own, their parameters, whether jaxcompat's own
    function) for a callable whose signatures this row can compare; None for a name this row
    lacks or deprecates, a release function taking **kwargs (any keyword: never stricter than
    it), or one with no signature to read (a builtin such as numpy's can_cast)."""
    found = _read(public, name)
    if found is None:
        return None
    jaxcompat_own = name in getattr(importlib.import_module(public), "__all__", ())
    # jaxcompat's own function (lax.scan, ...) shows the newest signature itself.
    own = found if jaxcompat_own else _own_object(path)
    own_parameters = _parameters(own)
    if any(p.kind is p.VAR_KEYWORD for p in own_parameters.values()):
        return None
    parameters = _parameters(found)
    if not parameters and not own_parameters:
        return None
    return found, own, parameters, own_parameters, jaxcompat_own


#: The callables whose signatures this row can compare: every case asserts.
COMPARABLE = [case for case in CALLABLES if _signatures_to_compare(*case[:3]) is not None]


@pytest.mark.parametrize(("public", "name", "path", "ruled"), COMPARABLE)
def test_every_ruled_newest_parameter_is_accepted_by_name(public, name, path, ruled):
    stable_path = f"{public.removeprefix('jaxcompat')}.{name}".lstrip(".")
    compared = _signatures_to_compare(public, name, path)
    assert compared is not None
    found, own, parameters, own_parameters, jaxcompat_own = compared
    for parameter in ruled:
        assert parameter in parameters, (path, parameter)
    # The parameters jaxcompat adds come in the newest signature's order.
    newest = _surface.parameter_names(ADDED_PARAMETERS[path][0])
    added = [p for p in parameters if p not in own_parameters and p in newest]
    assert added == [p for p in newest if p in added]
    if stable_path not in _namespace._table() and own is not None and not jaxcompat_own:
        # JAX's own object wherever its signature names every ruled parameter.
        assert (found is own) == (not keywords.keywords_to_adapt(path)), path


KEY = jax.random.PRNGKey(0)
CONV_ARGS = (jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 2, 2)), (1, 1), "VALID")

# (call with out_sharding=None added, the same call without it)
DEFAULT_IS_LEFT_OUT = {
    "numpy.zeros": lambda **k: jaxcompat.numpy.zeros((2, 3), jnp.int32, **k),
    "numpy.arange": lambda **k: jaxcompat.numpy.arange(5, **k),
    "numpy.full_like": lambda **k: jaxcompat.numpy.full_like(jnp.ones(3), 7.0, **k),
    "numpy.repeat": lambda **k: jaxcompat.numpy.repeat(jnp.arange(3), 2, **k),
    "numpy.einsum": lambda **k: jaxcompat.numpy.einsum("i,i->", jnp.arange(3.0), jnp.ones(3), **k),
    "lax.broadcast_in_dim": lambda **k: jaxcompat.lax.broadcast_in_dim(
        jnp.arange(2.0), (3, 2), (1,), **k
    ),
    "lax.dot_general": lambda **k: jaxcompat.lax.dot_general(
        jnp.ones((2, 3)), jnp.ones((3, 4)), (((1,), (0,)), ((), ())), **k
    ),
    "random.uniform": lambda **k: jaxcompat.random.uniform(KEY, (3,), **k),
    "random.permutation": lambda **k: jaxcompat.random.permutation(KEY, 5, **k),
}


@pytest.mark.parametrize("name", sorted(DEFAULT_IS_LEFT_OUT))
def test_out_sharding_none_is_the_call_without_it(name):
    call = DEFAULT_IS_LEFT_OUT[name]
    with_default, without = call(out_sharding=None), call()
    assert with_default.dtype == without.dtype
    np.testing.assert_array_equal(with_default, without)
    jitted = jax.jit(lambda: call(out_sharding=None))()
    np.testing.assert_array_equal(jitted, without)


def test_out_sharding_of_an_array_outside_any_mesh_is_the_call_without_it():
    # A library that reads the newest signature passes jax.typeof(x).sharding on (optax's
    # tree_random_like): outside any mesh it is a sharding over a mesh with no axes, which
    # places nothing, and must work wherever the call without it works.
    x = jnp.ones((2, 3))
    sharding = getattr(jaxcompat.typeof(x), "sharding", None)
    if sharding is None:
        pytest.skip(f"avals carry no sharding on JAX {jaxcompat.JAX_VERSION_STRING}")
    key = jaxcompat.random.key(0)
    found = jaxcompat.random.normal(key, (2, 3), out_sharding=sharding)
    np.testing.assert_array_equal(found, jaxcompat.random.normal(key, (2, 3)))
    zeros = jaxcompat.numpy.zeros((2, 3), out_sharding=sharding)
    np.testing.assert_array_equal(zeros, np.zeros((2, 3)))
    jitted = jax.jit(lambda k: jaxcompat.random.bits(k, (4,), out_sharding=sharding))(key)
    np.testing.assert_array_equal(jitted, jaxcompat.random.bits(key, (4,)))


def test_out_sharding_none_differentiates_and_vmaps():
    def f(a):
        return jaxcompat.numpy.einsum("i,i->", a, a, out_sharding=None)

    np.testing.assert_allclose(jax.grad(f)(jnp.arange(3.0)), [0.0, 2.0, 4.0])
    np.testing.assert_allclose(jax.vmap(f)(jnp.ones((2, 3))), [3.0, 3.0])


def test_a_parameter_the_newest_takes_by_position_is_accepted_there():
    # conv_general_dilated's out_sharding is its twelfth positional parameter.
    options = (None, None, None, 1, 1, None, None)  # lhs_dilation ... preferred_element_type
    positional = jaxcompat.lax.conv_general_dilated(*CONV_ARGS, *options, None)
    np.testing.assert_array_equal(positional, jax.lax.conv_general_dilated(*CONV_ARGS))


def test_a_value_the_release_cannot_honour_is_an_error_naming_the_first_release():
    adapted = keywords.keywords_to_adapt("jax.numpy.zeros").get("out_sharding")
    if adapted is None:
        pytest.skip(f"JAX {jaxcompat.JAX_VERSION_STRING}'s jax.numpy.zeros takes out_sharding")
    first = adapted[0]
    with pytest.raises(TypeError) as error:
        jaxcompat.numpy.zeros(3, out_sharding=jax.sharding.PartitionSpec())
    assert str(error.value) == (
        f"jaxcompat.numpy.zeros(out_sharding=...) needs JAX {first} or newer: JAX "
        f"{jaxcompat.JAX_VERSION_STRING} cannot place this function's result under explicit "
        "sharding (sharding in types) (its jax.numpy.zeros has no out_sharding parameter). "
        "Pass out_sharding=None, the default, or leave it out; or upgrade JAX."
    )


def test_a_class_with_newest_keywords_is_jax_own_class():
    # GatherDimensionNumbers gained operand_batching_dims= and start_indices_batching_dims=
    # in JAX 0.4.35: jaxcompat's name is JAX's class all the same (test_keywords_classes.py),
    # and its call without them gathers as JAX's does.
    assert jaxcompat.lax.GatherDimensionNumbers is jax.lax.GatherDimensionNumbers
    assert jaxcompat.lax.ScatterDimensionNumbers is jax.lax.ScatterDimensionNumbers
    assert keywords.keywords_to_adapt("jax.lax.GatherDimensionNumbers") == {}
    numbers = jaxcompat.lax.GatherDimensionNumbers(
        offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,)
    )
    gathered = jax.lax.gather(
        jnp.arange(5.0), jnp.array([[1], [3]]), numbers, (1,), mode="promise_in_bounds"
    )
    np.testing.assert_array_equal(gathered, [1.0, 3.0])
    assert jaxcompat.ShapeDtypeStruct is jax.ShapeDtypeStruct


def test_an_adapted_name_still_calls_a_patch_of_jax_own_function(monkeypatch):
    monkeypatch.setattr(jax.numpy, "zeros", lambda *args, **kwargs: ("patched", args, kwargs))
    assert jaxcompat.numpy.zeros(3, out_sharding=None)[0] == "patched"


def test_a_call_with_only_the_release_own_keywords_reaches_jax_function_as_it_is(monkeypatch):
    calls = []

    def patched(*args, **kwargs):
        calls.append((args, kwargs))
        return "patched"

    monkeypatch.setattr(jax.numpy, "argsort", patched)
    x = jnp.arange(3)
    assert jaxcompat.numpy.argsort(x, axis=0) == "patched"
    assert jaxcompat.numpy.argsort(x) == "patched"
    assert [len(args) for args, _ in calls] == [1, 1]
    assert all(args[0] is x for args, _ in calls)
    assert [kwargs for _, kwargs in calls] == [{"axis": 0}, {}]


DEVICE = jax.devices()[-1]

# (call with device= added): each must put its result on the device given
PLACED = {
    "numpy.zeros": lambda **k: jaxcompat.numpy.zeros((2, 3), jnp.int32, **k),
    "numpy.ones_like": lambda **k: jaxcompat.numpy.ones_like(jnp.arange(3), **k),
    "numpy.full": lambda **k: jaxcompat.numpy.full(3, 7.0, **k),
    "numpy.arange": lambda **k: jaxcompat.numpy.arange(1, 7, 2, **k),
    "numpy.array": lambda **k: jaxcompat.numpy.array([1.0, 2.0], **k),
    "numpy.asarray": lambda **k: jaxcompat.numpy.asarray(np.arange(3), **k),
    "numpy.eye": lambda **k: jaxcompat.numpy.eye(3, **k),
    "numpy.linspace": lambda **k: jaxcompat.numpy.linspace(0.0, 1.0, 5, **k),
}


@pytest.mark.parametrize("name", sorted(PLACED))
def test_device_puts_the_result_there(name):
    call = PLACED[name]
    placed, plain = call(device=DEVICE), call()
    assert placed.devices() == {DEVICE}
    assert placed.dtype == plain.dtype
    np.testing.assert_array_equal(placed, plain)
    np.testing.assert_array_equal(call(device=None), plain)
    np.testing.assert_array_equal(jax.jit(lambda: call(device=DEVICE))(), plain)


def test_device_takes_a_sharding_and_differentiates():
    mesh = jax.sharding.Mesh(np.array(jax.devices()), ("x",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))
    assert jaxcompat.numpy.ones(8, device=sharding).sharding == sharding
    grad = jax.grad(lambda a: (jaxcompat.numpy.asarray(a, device=DEVICE) ** 2).sum())
    np.testing.assert_allclose(grad(jnp.arange(3.0)), [0.0, 2.0, 4.0])


@pytest.mark.parametrize("keyword", ["out", "where"])
def test_ufunc_out_and_where_take_only_none_as_in_the_newest(keyword):
    x = jnp.arange(3.0)
    np.testing.assert_array_equal(jaxcompat.numpy.add(x, 1.0, **{keyword: None}), x + 1.0)
    np.testing.assert_array_equal(jaxcompat.numpy.negative(x, **{keyword: None}), -x)
    with pytest.raises(NotImplementedError):
        jaxcompat.numpy.multiply(x, x, **{keyword: jnp.zeros(3)})


TIES = np.array([[3, 1, 3, 2, 1], [0, 5, 5, 0, 4]], dtype=np.int32)


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_and_argsort_take_descending_and_stable(axis):
    sort, argsort = jaxcompat.numpy.sort, jaxcompat.numpy.argsort
    flat = TIES.ravel() if axis is None else TIES
    numpy_axis = 0 if axis is None else axis
    expected = np.flip(np.sort(flat, axis=numpy_axis), numpy_axis)
    np.testing.assert_array_equal(sort(TIES, axis=axis, descending=True), expected)
    # Stable and descending: equal elements keep their order (NumPy: argsort of the negation).
    expected_indices = np.argsort(-flat, axis=numpy_axis, kind="stable")
    indices = argsort(TIES, axis=axis, descending=True, stable=True)
    np.testing.assert_array_equal(indices, expected_indices)
    assert indices.dtype == argsort(TIES, axis=axis).dtype
    unstable = argsort(TIES, axis=axis, descending=True, stable=False)
    np.testing.assert_array_equal(np.take_along_axis(flat, unstable, numpy_axis), expected)
    ascending = argsort(TIES, axis=axis, stable=False)  # any order of equal elements
    np.testing.assert_array_equal(
        np.take_along_axis(flat, ascending, numpy_axis), np.sort(flat, axis=numpy_axis)
    )
    jitted = jax.jit(lambda x: argsort(x, axis=axis, descending=True))(TIES)
    np.testing.assert_array_equal(jitted, expected_indices)


def test_sort_descending_differentiates():
    grad = jax.grad(lambda x: (jaxcompat.numpy.sort(x, descending=True) * jnp.arange(3.0)).sum())
    np.testing.assert_allclose(grad(jnp.array([2.0, 7.0, 1.0])), [1.0, 0.0, 2.0])


@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var_take_correction_as_ddof(name):
    function = getattr(jaxcompat.numpy, name)
    x = jnp.array([[1.0, 2.0, 4.0], [3.0, 3.0, 9.0]])
    np.testing.assert_allclose(function(x, correction=1), getattr(np, name)(x, ddof=1))
    np.testing.assert_allclose(
        function(x, axis=1, correction=1.5), getattr(np, name)(x, axis=1, ddof=1.5), rtol=1e-6
    )
    np.testing.assert_array_equal(function(x, correction=None), function(x))
    grad = jax.grad(lambda v: function(v, correction=1))(jnp.array([1.0, 3.0]))
    np.testing.assert_allclose(grad, jax.grad(lambda v: function(v, ddof=1))(jnp.array([1.0, 3.0])))
    with pytest.raises(ValueError, match="simultaneously") as error:
        function(x, ddof=1, correction=1)
    assert str(error.value) == "ddof and correction can't be provided simultaneously."


class Pair:
    """A pytree with attribute keys: its children are x and y."""

    def __init__(self, x, y):
        self.x, self.y = x, y


jax.tree_util.register_pytree_with_keys(
    Pair,
    lambda p: (((jax.tree_util.GetAttrKey("x"), p.x), (jax.tree_util.GetAttrKey("y"), p.y)), None),
    lambda _, children: Pair(*children),
)


def test_keystr_takes_simple_and_separator():
    tree = {"foo": {"bar": [1, (2, 3)]}, "baz": Pair(4, 5)}
    paths = [path for path, _ in jax.tree_util.tree_leaves_with_path(tree)]
    keystr = jaxcompat.tree_util.keystr
    assert [keystr(p, simple=True, separator="/") for p in paths] == [
        "baz/x",
        "baz/y",
        "foo/bar/0",
        "foo/bar/1/0",
        "foo/bar/1/1",
    ]
    assert keystr(paths[0], separator="|") == "['baz']|.x"
    assert keystr(paths[2], simple=True) == "foobar0"
    assert keystr(paths[2], simple=False, separator="") == keystr(paths[2])
    assert keystr(paths[2]) == "['foo']['bar'][0]"


@pytest.mark.parametrize("axis", [0, 1, -2, -1])
def test_top_k_takes_an_axis(axis):
    x = jnp.array([[3.0, 9.0, 1.0], [7.0, 2.0, 8.0], [5.0, 4.0, 6.0]])
    top = jaxcompat.lax.top_k(x, 2, axis=axis)
    assert type(top) is list  # as lax.top_k returns on every release
    values, indices = top
    expected_indices = np.flip(np.argsort(np.asarray(x), axis=axis, kind="stable"), axis)
    expected_indices = np.take(expected_indices, [0, 1], axis=axis)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(values, np.take_along_axis(np.asarray(x), expected_indices, axis))
    jitted = jax.jit(lambda v: jaxcompat.lax.top_k(v, 2, axis=axis)[0])(x)
    np.testing.assert_array_equal(jitted, values)
    grad = jax.grad(lambda v: jaxcompat.lax.top_k(v, 1, axis=axis)[0].sum())(x)
    assert float(grad.sum()) == 3.0


def _not_adapted_pairs():
    """(jaxcompat module, name, jax path, parameter, first) for every keyword that this row's
    function lacks and no rule honours: each must be a clear error."""
    modules = {jax_module: public for public, (jax_module, _) in _namespace.MIRRORED.items()}
    pairs = []
    for public, name, path, _ in CALLABLES:
        for parameter, (first, rule) in keywords.keywords_to_adapt(path).items():
            if rule.other_values == NOT_ADAPTED_YET and modules.get(path.rpartition(".")[0]):
                pairs.append((public, name, path, parameter, first))
    return pairs


@pytest.mark.parametrize(
    ("method", "seen"),
    [
        ("sequential", [((), ()), ((), ()), ((), ())]),
        ("sequential_unrolled", [((), ()), ((), ()), ((), ())]),
        ("legacy_vectorized", [((3,), ())]),  # batched arguments batched, the rest as given
    ],
)
def test_pure_callback_batches_as_its_vmap_method_asks(method, seen):
    shapes = []

    def callback(x, y):
        shapes.append((np.shape(x), np.shape(y)))
        return np.asarray(np.asarray(x) * np.asarray(y), np.float32)

    def times(x, y):
        result = jax.ShapeDtypeStruct((), np.float32)
        return jaxcompat.pure_callback(callback, result, x, y, vmap_method=method)

    x = jnp.arange(3.0)
    np.testing.assert_array_equal(jax.vmap(times, in_axes=(0, None))(x, 2.0), [0.0, 2.0, 4.0])
    assert shapes == seen
    shapes.clear()
    assert float(times(3.0, 2.0)) == 6.0  # unbatched: one call, whatever the method
    assert shapes == [((), ())]


def test_pure_callback_refuses_an_unknown_vmap_method_as_the_newest_does():
    result = jax.ShapeDtypeStruct((), np.float32)
    with pytest.raises(ValueError, match=r"^vmap_method must be on of the allowed") as raised:
        jaxcompat.pure_callback(np.sin, result, 1.0, vmap_method="loop")
    assert str(raised.value).startswith("vmap_method must be on of the allowed methods [")
    assert str(raised.value).endswith("], but got: loop")


def test_dynamic_slice_counts_negative_indices_from_the_end_unless_told_not_to():
    x = jnp.arange(24.0).reshape(4, 6)
    lax = jaxcompat.lax

    def traced(i, j, allow):
        return jax.jit(
            lambda i, j: lax.dynamic_slice(x, (i, j), (2, 3), allow_negative_indices=allow)
        )(i, j)

    np.testing.assert_array_equal(traced(-1, -3, True), x[2:4, 3:6])  # clamped to fit
    np.testing.assert_array_equal(traced(-3, -4, True), x[1:3, 2:5])
    np.testing.assert_array_equal(traced(-3, -4, False), x[0:2, 0:3])  # XLA clamps to 0
    np.testing.assert_array_equal(traced(-3, -4, (True, False)), x[1:3, 0:3])
    np.testing.assert_array_equal(lax.dynamic_slice(x, (1, 2), (2, 3)), x[1:3, 2:5])
    # An int index is static: a negative one is refused; an array index is traced.
    message = "Index -1 is out of bounds for dimension 4 if allow_negative_indices=False"
    with pytest.raises(ValueError, match=f"^{message}$"):
        lax.dynamic_slice(x, (-1, 0), (2, 3), allow_negative_indices=False)
    index = jnp.int32(-1)
    found = lax.dynamic_slice(x, (index, 0), (2, 3), allow_negative_indices=False)
    np.testing.assert_array_equal(found, x[0:2, 0:3])

    def total(y, i):
        return lax.dynamic_slice(y, (i, 1), (1, 2), allow_negative_indices=False).sum()

    expected = np.zeros((4, 6))
    expected[0, 1:3] = 1.0
    np.testing.assert_array_equal(jax.grad(total)(x, jnp.int32(-2)), expected)
    batched = jax.vmap(lambda i: total(x, i))(jnp.array([-2, 1], jnp.int32))
    np.testing.assert_array_equal(batched, [x[0, 1:3].sum(), x[1, 1:3].sum()])


@pytest.mark.parametrize(
    ("name", "arguments", "expected_rows"),
    [
        ("dynamic_slice_in_dim", ("x", "i", 2), (0, 2)),
        ("dynamic_index_in_dim", ("x", "i"), (0, 1)),
    ],
)
def test_in_dim_slices_count_negative_indices_as_told(name, arguments, expected_rows):
    x = jnp.arange(12.0).reshape(4, 3)
    function = getattr(jaxcompat.lax, name)

    def call(i, allow):
        values = {"x": x, "i": i}
        return function(*(values.get(a, a) for a in arguments), allow_negative_indices=allow)

    first, last = expected_rows
    np.testing.assert_array_equal(jax.jit(call, static_argnums=1)(-1, False), x[first:last])
    np.testing.assert_array_equal(jax.jit(call, static_argnums=1)(-1, True), x[-(last - first) :])
    # dynamic_index_in_dim is jitted in the newest JAX, so that an int index is traced too.
    if name == "dynamic_slice_in_dim":
        with pytest.raises(ValueError, match=r"^Index -1 is out of bounds for dimension 4 if "):
            call(-1, False)
    else:
        np.testing.assert_array_equal(call(-1, False), x[first:last])


def test_dynamic_updates_count_negative_indices_as_told():
    x = jnp.zeros((4, 3))
    lax = jaxcompat.lax
    update = jnp.ones((1, 3))

    def updated(i, allow):
        return jax.jit(
            lambda i: lax.dynamic_update_slice(x, update, (i, 0), allow_negative_indices=allow)
        )(i)

    np.testing.assert_array_equal(updated(-1, True), x.at[3].set(1.0))
    np.testing.assert_array_equal(updated(-1, False), x.at[0].set(1.0))
    in_dim = jax.jit(
        lambda i: lax.dynamic_update_slice_in_dim(x, update, i, 0, allow_negative_indices=False)
    )
    np.testing.assert_array_equal(in_dim(-2), x.at[0].set(1.0))
    index_in_dim = jax.jit(
        lambda i: lax.dynamic_update_index_in_dim(x, update[0], i, 0, allow_negative_indices=False)
    )
    np.testing.assert_array_equal(index_in_dim(-2), x.at[0].set(1.0))
    jitted_in_the_newest = lax.dynamic_update_index_in_dim(
        x, update[0], -2, 0, allow_negative_indices=False
    )
    np.testing.assert_array_equal(jitted_in_the_newest, x.at[0].set(1.0))
    with pytest.raises(ValueError, match=r"^Index -2 is out of bounds for dimension 4 if "):
        lax.dynamic_update_slice_in_dim(x, update, -2, 0, allow_negative_indices=False)


# (batch_size=0, all remainder in the newest JAX, is a ZeroDivisionError in JAX 0.4.31 to 0.8.)
@pytest.mark.parametrize("batch_size", [1, 2, 3, 4, 7, 9])
def test_map_maps_in_batches_of_the_size_asked(batch_size):
    def f(pair):
        x, y = pair
        return {"sum": x + y, "scaled": 2.0 * x}

    xs = (jnp.arange(7.0), jnp.arange(7.0) * 10.0)
    ys = jaxcompat.lax.map(f, xs, batch_size=batch_size)
    np.testing.assert_array_equal(ys["sum"], np.arange(7.0) * 11.0)
    np.testing.assert_array_equal(ys["scaled"], np.arange(7.0) * 2.0)
    # A scan over the whole batches (none if the batch is not smaller than the input), each
    # vmapped; the remainder vmapped after.
    batches = 7 // batch_size
    jaxpr = jax.make_jaxpr(lambda xs: jaxcompat.lax.map(f, xs, batch_size=batch_size))(xs)
    scans = [e.params["length"] for e in jaxpr.jaxpr.eqns if e.primitive.name == "scan"]
    assert [length for length in scans if length] == ([batches] if batches else [])

    def total(scale):
        return jaxcompat.lax.map(lambda x: scale * x**2, xs[0], batch_size=batch_size).sum()

    assert float(jax.grad(total)(1.0)) == float((np.arange(7.0) ** 2).sum())
    jitted = jax.jit(lambda xs: jaxcompat.lax.map(f, xs, batch_size=batch_size)["sum"])
    np.testing.assert_array_equal(jitted(xs), np.arange(7.0) * 11.0)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_logsumexp_leaves_out_what_where_masks(dtype):
    a = jnp.asarray([[1.0, 2.0, 30.0], [-1.0, 0.5, 4.0]]).astype(dtype)
    where = np.array([[True, True, False], [False, False, False]])
    logsumexp = jaxcompat.nn.logsumexp
    found = logsumexp(a, axis=1, where=where)
    expected_dtype = jnp.zeros((), dtype).dtype if dtype != "int32" else jnp.zeros(()).dtype
    assert found.dtype == expected_dtype
    reference = np.log(np.exp(1.0) + np.exp(2.0))
    np.testing.assert_allclose(found[0], reference, rtol=1e-3 if dtype == "float16" else 1e-6)
    assert found[1] == -np.inf  # nothing left: the log of an empty sum
    # The same as weights of 0 for the elements left out, with b= given too.
    weights = jnp.asarray([[2.0, 1.0, 5.0], [1.0, 1.0, 1.0]])
    both = logsumexp(a.astype("float32"), axis=1, b=weights, where=where)
    np.testing.assert_allclose(both[0], np.log(2 * np.exp(1.0) + np.exp(2.0)), rtol=1e-6)
    value, sign = logsumexp(a.astype("float32"), where=where, return_sign=True)
    np.testing.assert_allclose(value, reference, rtol=1e-6)
    assert sign == 1.0
    grad = jax.grad(lambda x: logsumexp(x, where=where))(a.astype("float32"))
    softmax = np.exp([1.0, 2.0]) / np.exp([1.0, 2.0]).sum()
    np.testing.assert_allclose(grad, [[softmax[0], softmax[1], 0.0], [0.0, 0.0, 0.0]], rtol=1e-6)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32"])
def test_argsort_counts_its_indices_in_the_dtype_asked(dtype):
    x = jnp.asarray([[3.0, 1.0, 2.0, 1.0], [0.0, -1.0, 5.0, 4.0]])
    found = jaxcompat.numpy.argsort(x, axis=1, dtype=dtype)
    assert found.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(found, [[1, 3, 2, 0], [1, 0, 3, 2]])
    found = jaxcompat.numpy.argsort(x, axis=None, descending=True, dtype=dtype)
    assert found.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(found, [6, 7, 0, 2, 1, 3, 4, 5])


@pytest.mark.parametrize("name", ["cov", "corrcoef"])
def test_cov_and_corrcoef_compute_in_the_dtype_asked(name):
    function = getattr(jaxcompat.numpy, name)
    x = jnp.asarray([[1.0, 2.0, 4.0, 7.0], [2.0, 1.0, 0.5, 3.0]], dtype="float32")
    reference = getattr(np, name)(np.asarray(x, np.float64))
    found = function(x, dtype="float16")
    assert found.dtype == np.float16
    np.testing.assert_allclose(found, reference, rtol=5e-3, atol=5e-3)
    found = function(x[0], x[1], dtype="complex64")
    assert found.dtype == np.complex64
    np.testing.assert_allclose(found, reference, rtol=1e-6)
    with pytest.raises(ValueError, match="dtype must be a subclass") as raised:
        function(x, dtype="int32")
    assert str(raised.value) == (
        f"{name}: dtype must be a subclass of float or complex; got dtype='int32'"
    )


@pytest.mark.parametrize("ordered", [True, False])
def test_unique_takes_sorted_and_counts_nans_as_one(ordered):
    x = jnp.asarray([np.nan, 3.0, 1.0, np.nan, 3.0])
    values, counts = jaxcompat.numpy.unique(x, return_counts=True, sorted=ordered)
    np.testing.assert_array_equal(values, [1.0, 3.0, np.nan])  # "unused by JAX": sorted
    np.testing.assert_array_equal(counts, [1, 2, 2])
    found = jaxcompat.numpy.unique(x, equal_nan=True, sorted=ordered, size=4, fill_value=0.0)
    np.testing.assert_array_equal(found, [1.0, 3.0, np.nan, 0.0])


def _refused_here(public, name, path, parameter):
    """Whether jaxcompat refuses ``parameter`` of this name on this row: the name is here
    (not deprecated), it is not jaxcompat's own function, and the release's own object
    lacks the parameter (where it takes it, jaxcompat is never stricter)."""
    found = _read(public, name)
    if found is None or name in getattr(importlib.import_module(public), "__all__", ()):
        return False
    base = _unadapted(public, name, path)
    return found is not base and parameter not in _parameters(base)


#: The keywords with no rule that this row's functions lack: every case asserts the refusal.
REFUSED_HERE = [pair for pair in _not_adapted_pairs() if _refused_here(*pair[:4])]


@pytest.mark.parametrize(("public", "name", "path", "parameter", "first"), REFUSED_HERE)
def test_a_newest_keyword_with_no_rule_is_a_clear_error(public, name, path, parameter, first):
    found = _read(public, name)
    refusal = (
        f"{public}.{name}({parameter}=...) needs JAX {first} or newer: JAX "
        f"{jaxcompat.JAX_VERSION_STRING}'s {path} has no {parameter} parameter, and jaxcompat "
        f"does not provide it there yet. Leave {parameter} out, or upgrade JAX."
    )
    with pytest.raises(TypeError) as error:
        found(**{parameter: object()})  # refused before anything else is looked at
    assert str(error.value) == refusal
    defaults = keywords.newest_data()["defaults"].get(path, {})
    if parameter in defaults:
        # The newest default is the same as leaving the keyword out: the call goes on to the
        # release's own function (which fails here for want of its other arguments).
        raised = ""
        try:
            found(**{parameter: defaults[parameter]})
        except Exception as error:  # whatever the release's function raises
            raised = str(error)
        assert raised != refusal


@pytest.mark.parametrize("name", ["numpy.zeros", "numpy.unique", "random.PRNGKey", "lax.top_k"])
def test_every_name_pickles_as_jax_own_functions_do(name):
    import pickle

    module, _, attribute = f"jaxcompat.{name}".rpartition(".")
    found = getattr(importlib.import_module(module), attribute)
    assert pickle.loads(pickle.dumps(found)) is found


# --- custom_jvp and custom_vjp: JAX's own classes ------------------------------------------


def _power_with_vjp(**nondiff):
    @functools.partial(jaxcompat.custom_vjp, **nondiff)
    def power(x, n):
        return x**n

    def forward(x, n):
        return power(x, n), x

    def backward(n, x, g):
        return (g * n * x ** (n - 1),)

    power.defvjp(forward, backward)
    return power


def _scaled_sin_with_jvp(**nondiff):
    @functools.partial(jaxcompat.custom_jvp, **nondiff)
    def scaled_sin(x, n):
        return jnp.sin(x) * n

    @scaled_sin.defjvp
    def rule(n, primals, tangents):
        (x,), (t,) = primals, tangents
        return scaled_sin(x, n), jnp.cos(x) * n * t

    return scaled_sin


def test_custom_vjp_takes_its_nondiff_arguments_by_position():
    power = _power_with_vjp(nondiff_argnums=(1,))
    assert power(3.0, 2) == 9.0
    assert jax.grad(power)(3.0, 2) == 6.0
    assert jax.grad(lambda x: power(x, n=3))(2.0) == 12.0
    assert jax.jit(jax.grad(power), static_argnums=1)(2.0, 3) == 12.0
    assert power.nondiff_argnums == (1,)


def test_custom_jvp_takes_its_nondiff_arguments_by_position():
    scaled_sin = _scaled_sin_with_jvp(nondiff_argnums=(1,))
    assert scaled_sin(0.0, 2.0) == 0.0
    assert jax.grad(scaled_sin)(0.0, 2.0) == 2.0
    assert jax.jvp(lambda x: scaled_sin(x, n=3.0), (0.0,), (1.0,))[1] == 3.0
    assert scaled_sin.nondiff_argnums == (1,)


def test_custom_vjp_and_custom_jvp_are_jax_own_classes():
    # nondiff_argnames= (JAX 0.6.2) is JAX's own TypeError before it (test_keywords_classes).
    assert jaxcompat.custom_vjp is jaxcompat.custom_derivatives.custom_vjp is jax.custom_vjp
    assert jaxcompat.custom_jvp is jaxcompat.custom_derivatives.custom_jvp is jax.custom_jvp
    assert type(_power_with_vjp(nondiff_argnums=(1,))) is jax.custom_vjp
    assert type(_scaled_sin_with_jvp(nondiff_argnums=(1,))) is jax.custom_jvp


# --- custom_gradient (fun optional, JAX 0.11.1) --------------------------------------------


@pytest.mark.parametrize("module", ["jaxcompat", "jaxcompat.custom_derivatives"])
def test_custom_gradient_as_a_decorator_factory(module):
    import pickle

    custom_gradient = importlib.import_module(module).custom_gradient

    def sine_with_gradient(x):
        return jnp.sin(x), lambda g: (g * 10.0,)

    for decorated in (
        custom_gradient(sine_with_gradient),
        custom_gradient()(sine_with_gradient),
        custom_gradient(with_logs=False)(sine_with_gradient),
    ):
        assert decorated(0.0) == 0.0
        assert jax.grad(decorated)(1.0) == 10.0
    assert pickle.loads(pickle.dumps(custom_gradient)) is custom_gradient


@pytest.mark.parametrize("module", ["jaxcompat", "jaxcompat.custom_derivatives"])
def test_custom_gradient_with_logs_gives_the_cotangents(module):
    # with_logs=True (JAX 0.11.1): the gradient function returns (cotangents, logs); a plain
    # VJP drops the logs, as the newest's does.
    custom_gradient = importlib.import_module(module).custom_gradient

    def sine_logging(x):
        return jnp.sin(x), lambda g: ((g * 10.0,), {"seen": g})

    for decorated in (
        custom_gradient(sine_logging, with_logs=True),
        custom_gradient(with_logs=True)(sine_logging),
    ):
        assert decorated(0.0) == 0.0
        assert jax.grad(decorated)(1.0) == 10.0
        assert jax.jit(jax.grad(decorated))(2.0) == 10.0


def test_custom_gradient_remat_is_refused_as_the_newest_refuses_it_by_default():
    def sine_with_remat(x):
        def rematerialize(y):
            return jnp.sin(y), lambda g: (g * jnp.cos(y),)

        return jnp.sin(x), rematerialize

    # The newest refuses remat=True unless jax_custom_vjp3 (a JAX 0.12.0 option, off by
    # default) is on: at the first call there, as soon as it is asked for before.
    with pytest.raises(NotImplementedError, match="jax_custom_vjp3"):
        jaxcompat.custom_gradient(sine_with_remat, remat=True)(1.0)


# --- jax.numpy.linalg and jax.numpy.fft ---------------------------------------------------

SPD = np.array([[4.0, 2.0], [2.0, 3.0]], np.float32)
# Its lower triangle is SPD's; the upper one is not symmetric with it.
LOWER_IS_SPD = np.array([[4.0, 9.0], [2.0, 3.0]], np.float32)
RANK_ONE = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)


def test_cholesky_gives_the_upper_factor_with_its_gradient():
    lower = np.linalg.cholesky(SPD.astype(np.float64))
    upper = jaxcompat.numpy.linalg.cholesky(SPD, upper=True)
    np.testing.assert_allclose(upper, lower.T, rtol=1e-6)
    np.testing.assert_allclose(jaxcompat.numpy.linalg.cholesky(SPD, upper=False), lower, rtol=1e-6)
    weights = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    expected = jax.grad(lambda x: (jnp.linalg.cholesky(x).T * weights).sum())(SPD)
    got = jax.grad(lambda x: (jaxcompat.numpy.linalg.cholesky(x, upper=True) * weights).sum())
    np.testing.assert_allclose(jax.jit(got)(SPD), expected, rtol=1e-5)


def test_cholesky_and_eigvalsh_read_one_triangle_without_symmetrizing():
    linalg = jaxcompat.numpy.linalg
    lower = np.linalg.cholesky(SPD.astype(np.float64))
    np.testing.assert_allclose(
        linalg.cholesky(LOWER_IS_SPD, symmetrize_input=False), lower, rtol=1e-6
    )
    np.testing.assert_allclose(
        linalg.cholesky(LOWER_IS_SPD, upper=True, symmetrize_input=False), lower.T, rtol=1e-6
    )
    np.testing.assert_allclose(
        linalg.eigvalsh(LOWER_IS_SPD, symmetrize_input=False),
        np.linalg.eigvalsh(SPD.astype(np.float64)),
        rtol=1e-6,
    )
    # The default symmetrizes: (a + a^T) / 2 has 5.5 off the diagonal.
    symmetrized = (LOWER_IS_SPD + LOWER_IS_SPD.T) / 2
    np.testing.assert_allclose(
        linalg.eigvalsh(LOWER_IS_SPD, symmetrize_input=True),
        np.linalg.eigvalsh(symmetrized.astype(np.float64)),
        rtol=1e-5,
    )
    ints = np.array([[4, 2], [2, 3]], np.int32)
    assert linalg.cholesky(ints, symmetrize_input=False).dtype == linalg.cholesky(ints).dtype


def test_one_triangle_is_read_under_vmap_and_jit_too():
    # Before JAX 0.5.x the batching rule of lax's cholesky symmetrized whatever it was told:
    # under vmap, symmetrize_input=False was silently ignored (measured up to 195% off).
    linalg = jaxcompat.numpy.linalg
    batch = np.stack([LOWER_IS_SPD, LOWER_IS_SPD * 2, LOWER_IS_SPD * 3])
    lower = np.stack([np.linalg.cholesky(SPD.astype(np.float64) * k) for k in (1, 2, 3)])
    values = np.stack([np.linalg.eigvalsh(SPD.astype(np.float64) * k) for k in (1, 2, 3)])
    for transform in (jax.vmap, lambda f: jax.jit(jax.vmap(f))):
        factor = transform(lambda a: linalg.cholesky(a, symmetrize_input=False))(batch)
        np.testing.assert_allclose(factor, lower, rtol=1e-6)
        upper = transform(lambda a: linalg.cholesky(a, upper=True, symmetrize_input=False))
        np.testing.assert_allclose(upper(batch), np.swapaxes(lower, -1, -2), rtol=1e-6)
        eigenvalues = transform(lambda a: linalg.eigvalsh(a, symmetrize_input=False))(batch)
        np.testing.assert_allclose(eigenvalues, values, rtol=1e-5)


@pytest.mark.parametrize("tolerance", [None, 1e-3, 10.0])
def test_matrix_rank_takes_rtol_and_hermitian(tolerance):
    linalg = jaxcompat.numpy.linalg
    for matrix in (RANK_ONE, SPD, np.zeros((2, 2), np.float32)):
        expected = np.linalg.matrix_rank(matrix, tol=tolerance)
        assert linalg.matrix_rank(matrix, rtol=tolerance) == expected
        assert linalg.matrix_rank(matrix, rtol=tolerance, hermitian=True) == expected
        assert linalg.matrix_rank(matrix, tolerance, hermitian=True) == expected
    batch = np.stack([RANK_ONE, SPD])
    np.testing.assert_array_equal(linalg.matrix_rank(batch, hermitian=True), [1, 2])
    with pytest.raises(ValueError, match="only one of tol or rtol may be specified"):
        linalg.matrix_rank(SPD, 1.0, hermitian=True, tol=1.0)


def test_pinv_takes_rtol():
    linalg = jaxcompat.numpy.linalg
    for tolerance in (1e-3, 0.9):
        np.testing.assert_allclose(
            linalg.pinv(RANK_ONE, rtol=tolerance), linalg.pinv(RANK_ONE, tolerance), rtol=1e-6
        )
    np.testing.assert_allclose(
        linalg.pinv(RANK_ONE, rtol=1e-3), np.linalg.pinv(RANK_ONE.astype(np.float64)), rtol=1e-5
    )


@pytest.mark.parametrize("name", ["matmul", "tensordot", "vecdot"])
def test_linalg_products_take_precision_and_preferred_element_type(name):
    # Each is the jax.numpy function of its name (backported where a release lacks either).
    x = np.arange(4, dtype=np.int8).reshape(2, 2)
    options = {"precision": "highest", "preferred_element_type": np.float32}
    got = getattr(jaxcompat.numpy.linalg, name)(x, x, **options)
    expected = getattr(jaxcompat.numpy, name)(x, x, **options)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fft_frequencies_are_placed_on_the_device_given(name):
    device = jax.devices()[-1]
    got = getattr(jaxcompat.numpy.fft, name)(6, 0.5, device=device)
    assert got.devices() == {device}
    np.testing.assert_allclose(got, getattr(np.fft, name)(6, 0.5), rtol=1e-6)
