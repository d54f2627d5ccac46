"""`import jaxcompat as jax`: the mirrored modules and the stable names, on every release.

Contract tests: the same assertions on every matrix row. Which stable names a row can have
comes from the stable-name table (its ``first`` release), never from a version check here.
"""

import dataclasses
import importlib
import inspect
import pickle
from pathlib import Path

import jax
import jax.numpy as np_jax
import numpy as np
import pytest

import jaxcompat
import jaxcompat.numpy as jnp
from jaxcompat import _namespace, _surface
from jaxcompat._keywords.rules.classes import CLASS_KEYWORDS
from jaxcompat._stable_names import STABLE_NAMES
from tests._stable_names_helpers import TABLE, available, lookup, needs

# --- Forwarding: JAX's own objects ------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("jvp", jax.jvp),
        ("grad", jax.grad),
        ("Array", jax.Array),
        ("numpy.sum", jax.numpy.sum),
        ("numpy.float32", jax.numpy.float32),
        ("lax.add", jax.lax.add),
        ("random.fold_in", jax.random.fold_in),
        ("nn.relu", jax.nn.relu),
        ("tree_util.tree_map", jax.tree_util.tree_map),
        ("sharding.NamedSharding", jax.sharding.NamedSharding),
        ("dtypes.result_type", jax.dtypes.result_type),
        ("custom_derivatives.closure_convert", jax.custom_derivatives.closure_convert),
        ("errors.TracerArrayConversionError", jax.errors.TracerArrayConversionError),
        ("typing.ArrayLike", jax.typing.ArrayLike),
        ("scipy", importlib.import_module("jax.scipy")),
        ("experimental.mesh_utils", importlib.import_module("jax.experimental.mesh_utils")),
    ],
)
def test_other_names_are_jaxs_own_objects(path, expected):
    assert lookup(path) is expected


def test_mirrored_modules_import_in_every_form():
    import jaxcompat.extend.core.primitives
    import jaxcompat.numpy as numpy_alias
    from jaxcompat import lax, random, tree

    assert numpy_alias is jnp is jaxcompat.numpy
    assert jaxcompat.extend.core.primitives is importlib.import_module(
        "jaxcompat.extend.core.primitives"
    )
    assert lax.add is jax.lax.add
    assert random.fold_in is jax.random.fold_in
    assert tree.map(lambda x: x + 1, [1, 2]) == [2, 3]


def test_jaxcompats_own_names_take_precedence():
    from jaxcompat._dispatch import backend

    assert jaxcompat.jit is backend.jit or jaxcompat.jit.__wrapped__ is backend.jit
    assert jaxcompat.lax.scan is not None
    assert jaxcompat.lax.while_loop.__doc__ != jax.lax.while_loop.__doc__ or (
        jaxcompat.lax.while_loop is jax.lax.while_loop
    )


def test_version_is_jaxcompats_own():
    from jaxcompat.__about__ import __version__

    assert jaxcompat.__version__ == __version__
    # JAX's version_info is not forwarded: a pair that disagrees would be worse than none.
    with pytest.raises(AttributeError, match="__version_info__"):
        jaxcompat.__version_info__  # noqa: B018
    # Module machinery is never forwarded: jaxcompat.nn's __path__ is its own, empty one
    # (for `import jaxcompat.nn.initializers`), never JAX's, which would load JAX's files
    # anew; jaxcompat.numpy is a package of its own (numpy.linalg, numpy.fft).
    assert jaxcompat.nn.__path__ == []
    assert jaxcompat.numpy.__path__ == [str(Path(jaxcompat.__file__).parent / "numpy")]


def test_a_patch_of_jaxs_module_is_seen_through_jaxcompat():
    # chex's fake_pmap patches jax.pmap on JAX's module; code that reads jaxcompat.pmap must
    # see the patch as code that reads jax.pmap does.
    from unittest import mock

    assert jaxcompat.pmap is jax.pmap
    with mock.patch("jax.pmap", "patched"), mock.patch("jax.numpy.sin", "patched sin"):
        assert jaxcompat.pmap == "patched"
        assert jnp.sin == "patched sin"  # jnp is jaxcompat.numpy here
    assert jaxcompat.pmap is jax.pmap
    assert jnp.sin is np_jax.sin


def test_jaxs_private_package_is_forwarded_as_it_is():
    import jax._src.xla_bridge

    assert jaxcompat._src is jax._src
    assert jaxcompat._src.xla_bridge is jax._src.xla_bridge
    with pytest.raises(AttributeError, match=r"^module 'jaxcompat' has no attribute '_nope'$"):
        jaxcompat._nope  # noqa: B018


def test_an_unknown_name_is_a_plain_attribute_error():
    with pytest.raises(AttributeError, match=r"^module 'jaxcompat.numpy' has no attribute 'nope'$"):
        jnp.nope  # noqa: B018
    assert not hasattr(jaxcompat, "nope")


def test_dir_lists_jax_names_and_stable_names():
    names = dir(jaxcompat)
    assert {"vmap", "jit", "numpy", "tree", "make_mesh", "typeof"} <= set(names)
    assert "sum" in dir(jaxcompat.numpy)
    assert {"map", "broadcast", "reduce_associative"} <= set(dir(jaxcompat.tree))


# --- The stable-name table --------------------------------------------------------------------


@pytest.mark.parametrize("entry", STABLE_NAMES, ids=lambda entry: entry.path)
def test_every_stable_name_resolves_or_says_which_release_has_it(entry):
    # Warnings are errors: resolving a stable name never emits JAX's deprecation warnings.
    if available(entry.path):
        found = lookup(entry.path)
        assert found is lookup(entry.path)  # resolved once, the same object afterwards
        assert found is not None
    else:
        with pytest.raises(AttributeError) as raised:
            lookup(entry.path)
        assert str(raised.value) == (
            f"jaxcompat.{entry.path} is not available on JAX {jaxcompat.JAX_VERSION_STRING}: "
            f"it needs JAX {entry.first} or newer, because {entry.reason}. Upgrade JAX to use "
            "it, or check for it with hasattr()."
        )
        module, _, name = f"jaxcompat.{entry.path}".rpartition(".")
        assert not hasattr(importlib.import_module(module), name)


def test_table_entries_are_well_formed():
    paths = [entry.path for entry in STABLE_NAMES]
    assert len(paths) == len(set(paths))
    for entry in STABLE_NAMES:
        assert entry.sources, entry.path
        assert (entry.first is None) == (entry.reason == ""), entry.path
        module = f"jaxcompat.{entry.path}".rpartition(".")[0]
        assert module in _namespace.MIRRORED, entry.path
        for source in entry.sources:
            assert source.where.count(":") == 1, source


@pytest.mark.one_row
def test_a_first_release_after_jaxs_own_name_is_a_limit_on_jaxs_own_source():
    # `first` is where jaxcompat starts to give a name. Where the recorded API surface shows
    # JAX with the name on an earlier row, the entry must say so on purpose: JAX's own object
    # limited to `releases=">=first"` (before it the object has another meaning, the entry's
    # reason), so a `first` that is simply wrong fails here instead of moving tests to their
    # "needs JAX" branch.
    from jaxcompat._releases import parse_release

    limited = {}
    for entry in STABLE_NAMES:
        if entry.first is None:
            continue
        module, _, name = f"jax.{entry.path}".rpartition(".")
        jax_first = _surface.first_row_with_status(module, name, "ow")
        if jax_first is None or parse_release(jax_first) >= parse_release(entry.first):
            continue
        limits = [source.releases for source in entry.sources if source.where == f"{module}:{name}"]
        assert limits == [f">={entry.first}"], (
            f"jaxcompat.{entry.path}: first {entry.first}, but JAX has it from {jax_first} "
            f"(the recorded API surface) and its own source is limited by {limits}"
        )
        limited[entry.path] = jax_first
    # Measured: 13 names JAX had with another meaning before the release jaxcompat names.
    assert {"ad", "lax.optimization_barrier", "sharding.AbstractMesh"} <= limited.keys()


# The names given through an adapter of JAX's own function on releases where that function's
# recorded signature is the newest one: what the adapter changes there is behaviour.
ADAPTED_FOR_BEHAVIOUR = {
    "typeof": "get_aval of a concrete value is a ConcreteArray before JAX 0.4.36",
    "random.split": "num is a count, not a shape, before JAX 0.4.14",
    "random.key_impl": "a built-in implementation is a PRNGSpec, not a name, before JAX 0.4.36",
    "lax.fft": "fft takes jaxlib's FftType, not JAX's own enum, before JAX 0.4.35",
    "dtypes.issubdtype": "a custom dtype is not an np.generic before JAX 0.4.17",
    "numpy.issubdtype": "a custom dtype is not an np.generic before JAX 0.4.17",
}


@pytest.mark.one_row
def test_an_adapter_of_jaxs_function_stops_where_its_signature_becomes_the_newest():
    # Where JAX's own function is the newest from a release on and an adapter of it serves the
    # rows before, no row before may already have a signature of the rows after (JAX 0.4.27's
    # clip took min=/max= and was adapted until 0.4.30, measured from the recorded API).
    from jaxcompat._releases import parse_release

    checked = {}
    for entry in STABLE_NAMES:
        for own in entry.sources:
            releases = own.releases or ""
            adapted = any(s.where == own.where and s.adapter for s in entry.sources)
            if own.adapter or not releases.startswith(">=") or "," in releases or not adapted:
                continue
            first = parse_release(releases.removeprefix(">="))
            path = own.where.replace(":", ".")
            signatures = {row: _surface.signature_at(path, row) for row in _surface.rows()}
            newest = {s for row, s in signatures.items() if parse_release(row) >= first}
            checked[entry.path] = [
                row
                for row, signature in signatures.items()
                if parse_release(row) < first and signature is not None and signature in newest
            ]
    assert {"numpy.clip", "numpy.reshape", "make_mesh"} <= checked.keys()
    same = {path for path, rows in checked.items() if rows}
    assert same == set(ADAPTED_FOR_BEHAVIOUR), {path: checked[path] for path in same}


def test_a_stable_name_present_in_jax_is_jaxs_own_object():
    # Where the installed JAX has the name with its newest meaning, it is JAX's object.
    assert jaxcompat.tree.map is getattr(jax, "tree", jax.tree_util).__dict__.get(
        "map", jax.tree_util.tree_map
    )
    if hasattr(jax, "typeof"):
        assert jaxcompat.typeof is jax.typeof


# --- jaxcompat.tree ---------------------------------------------------------------------------

TREE = {"a": [1, 2], "b": (3, None), "c": 4}


def test_tree_functions_match_tree_util():
    tree = jaxcompat.tree
    assert tree.map(lambda x: x * 10, TREE) == {"a": [10, 20], "b": (30, None), "c": 40}
    assert tree.leaves(TREE) == [1, 2, 3, 4]
    leaves, treedef = tree.flatten(TREE)
    assert tree.unflatten(treedef, leaves) == TREE
    assert tree.structure(TREE) == treedef
    assert tree.reduce(lambda a, b: a + b, TREE) == 10
    assert tree.reduce(lambda a, b: a + b, TREE, 100) == 110
    paths = [jax.tree_util.keystr(path) for path, _ in tree.leaves_with_path(TREE)]
    assert paths == ["['a'][0]", "['a'][1]", "['b'][0]", "['c']"]
    assert tree.map_with_path(lambda p, x: len(p) * x, TREE) == {
        "a": [2, 4],
        "b": (6, None),
        "c": 4,
    }
    flat, flat_def = tree.flatten_with_path(TREE)
    assert [leaf for _, leaf in flat] == leaves and flat_def == treedef
    assert tree.leaves([1, (2, 3)], is_leaf=lambda x: isinstance(x, tuple)) == [1, (2, 3)]


def test_tree_all_takes_is_leaf():
    assert jaxcompat.tree.all([1, [2, 3]])
    assert not jaxcompat.tree.all([1, [0, 3]])
    # With is_leaf, a whole list is one (truthy) leaf.
    assert jaxcompat.tree.all([1, (0, 3)], is_leaf=lambda x: isinstance(x, tuple))
    assert jaxcompat.tree_util.tree_all([()], is_leaf=lambda x: x == ()) is False


def test_tree_broadcast():
    assert jaxcompat.tree.broadcast((1, 2), ((3, 4), [5])) == ((1, 1), [2])
    assert jaxcompat.tree.broadcast(7, {"x": [1, 2], "y": 3}) == {"x": [7, 7], "y": 7}
    assert jaxcompat.tree_util.tree_broadcast([1, 2], [[0, 0], 0]) == [[1, 1], 2]
    with pytest.raises(ValueError):  # noqa: PT011  (JAX's message differs across releases)
        jaxcompat.tree.broadcast((1, 2, 3), ((3, 4), [5]))


def test_tree_reduce_associative_keeps_jaxs_association_order():
    pair = lambda a, b: (a, b)  # noqa: E731  (shows how the leaves were associated)
    reduce = jaxcompat.tree.reduce_associative
    assert reduce(pair, ["a", "b", "c", "d"]) == (("a", "b"), ("c", "d"))
    assert reduce(pair, ["a", "b", "c", "d", "e"]) == (("a", "b"), ("c", ("d", "e")))
    assert reduce(pair, {"k": "only"}) == "only"
    assert reduce(pair, [], identity=0) == 0
    with pytest.raises(
        TypeError, match=r"^Must specify identity for parallel reduction of empty sequence\.$"
    ):
        reduce(pair, [])
    assert jaxcompat.tree_util.tree_reduce_associative(lambda a, b: a + b, [1, [2, 3]]) == 6


def test_tree_transpose_infers_the_inner_structure():
    outer = jaxcompat.tree.structure([0, 0])
    transposed = jaxcompat.tree.transpose(outer, None, [(1, 2), (3, 4)])
    assert transposed == ([1, 3], [2, 4])
    inner = jaxcompat.tree.structure((0, 0))
    assert jaxcompat.tree.transpose(outer, inner, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])


def test_tree_static_marks_a_field_static():
    static = jaxcompat.tree.static

    @dataclasses.dataclass
    class Op:
        x: object
        name: str = static(default="add")

    jaxcompat.tree_util.register_dataclass(Op)
    leaves, treedef = jaxcompat.tree.flatten(Op(x=1.0, name="mul"))
    assert leaves == [1.0]
    assert jaxcompat.tree.unflatten(treedef, [2.0]) == Op(x=2.0, name="mul")


# --- Top-level names --------------------------------------------------------------------------


def test_typeof_gives_the_abstract_value():
    aval = jaxcompat.typeof(np_jax.ones((2, 3), np_jax.float32))
    assert aval.shape == (2, 3)
    assert aval.dtype == np.float32
    seen = []
    jax.jit(lambda x: seen.append(jaxcompat.typeof(x)) or x)(np_jax.ones(4))
    assert seen[0].shape == (4,)


def test_jax_runtime_error_catches_errors_from_compiled_code():
    def fail(x):
        raise ValueError("raised on the host")

    def run(x):
        return jax.pure_callback(fail, jax.ShapeDtypeStruct((), np_jax.float32), x)

    with pytest.raises(jaxcompat.errors.JaxRuntimeError, match="raised on the host"):
        jax.block_until_ready(jax.jit(run)(np_jax.float32(1.0)))


def test_partition_spec_alias():
    # One class under both names, as in JAX: JAX's own where it takes the newest keywords.
    assert jaxcompat.P is jaxcompat.sharding.PartitionSpec
    if jaxcompat.P is not jax.sharding.PartitionSpec:
        assert jaxcompat.P.__wrapped__ is jax.sharding.PartitionSpec
    assert jaxcompat.P("x", None) == jax.sharding.PartitionSpec("x", None)
    assert type(jaxcompat.P("x", None)) is type(jax.sharding.PartitionSpec("x", None))


def test_make_mesh_has_the_newest_signature():
    mesh = jaxcompat.make_mesh((2, 4), ("x", "y"))
    assert isinstance(mesh, jax.sharding.Mesh)
    assert dict(mesh.shape) == {"x": 2, "y": 4}
    assert sorted(d.id for d in mesh.devices.flat) == list(range(8))
    small = jaxcompat.make_mesh([2], ["x"], devices=jax.devices()[4:6])
    assert [d.id for d in small.devices.flat] == [4, 5]
    with pytest.raises(ValueError, match=r"must be >= the product of mesh_shape"):
        jaxcompat.make_mesh((4, 4), ("x", "y"))


def test_make_mesh_axis_types_are_explicit_where_the_release_has_them():
    mesh = jaxcompat.make_mesh((2,), ("x",))
    if hasattr(jaxcompat.sharding, "AxisType"):
        explicit = jaxcompat.sharding.AxisType.Explicit
        assert tuple(mesh.axis_types) == (explicit,)
        auto = jaxcompat.sharding.AxisType.Auto
        assert tuple(jaxcompat.make_mesh((2,), ("x",), (auto,)).axis_types) == (auto,)
    else:
        with pytest.raises(TypeError, match=r"axis_types=\.\.\.\) needs JAX 0\.5\.3 or newer"):
            jaxcompat.make_mesh((2,), ("x",), ("Explicit",))


def _manual_mesh():
    devices = np.array(jax.devices()[:8]).reshape(2, 4)
    return jax.sharding.Mesh(devices, ("x", "y"))


def test_shard_map_newest_signature():
    mesh = _manual_mesh()
    P = jax.sharding.PartitionSpec

    def block_sum(block):
        return jax.lax.psum(block, "y")

    x = np_jax.arange(16.0).reshape(2, 8)
    mapped = jaxcompat.shard_map(
        block_sum, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", None), check_vma=False
    )
    expected = x.reshape(2, 4, 2).sum(axis=1)
    np.testing.assert_allclose(jax.jit(mapped)(x), expected)

    @jaxcompat.shard_map(mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))
    def double(block):
        return block * 2

    np.testing.assert_allclose(double(x), x * 2)


def test_shard_map_maps_over_the_mesh_set_when_called():
    # The newest JAX's idiom: no mesh= given, the mesh is the one set_mesh set at the call.
    P = jax.sharding.PartitionSpec

    def block_sum(block):
        return jax.lax.psum(block, "y")

    summed = jaxcompat.shard_map(
        block_sum, in_specs=P("x", "y"), out_specs=P("x", None), check_vma=False
    )
    x = np_jax.arange(32.0).reshape(4, 8)
    devices = np.array(jax.devices()[:8])
    with jaxcompat.set_mesh(jax.sharding.Mesh(devices.reshape(2, 4), ("x", "y"))):
        np.testing.assert_allclose(summed(x), x.reshape(4, 4, 2).sum(axis=1))
        np.testing.assert_allclose(jax.jit(summed)(x), x.reshape(4, 4, 2).sum(axis=1))

        @jaxcompat.shard_map(in_specs=P("x", "y"), out_specs=P("x", "y"))
        def double(block):
            return block * 2

        np.testing.assert_allclose(double(x), x * 2)
    # Another mesh, another mapped function (the newest JAX refuses to map one function over
    # two meshes): the mesh is read from set_mesh, not fixed.
    summed = jaxcompat.shard_map(
        block_sum, in_specs=P("x", "y"), out_specs=P("x", None), check_vma=False
    )
    with jaxcompat.set_mesh(jax.sharding.Mesh(devices.reshape(4, 2), ("x", "y"))):
        np.testing.assert_allclose(summed(x), x.reshape(4, 2, 4).sum(axis=1))


def _needs_the_mesh(x):
    return jax.lax.with_sharding_constraint(x, jax.sharding.PartitionSpec("x"))


def test_set_mesh_as_context_manager_and_global_setter():
    mesh = _manual_mesh()
    x = np_jax.arange(8.0)
    with jaxcompat.set_mesh(mesh) as target:
        assert target is None
        np.testing.assert_allclose(jax.jit(_needs_the_mesh)(x), x)
    setting = jaxcompat.set_mesh(mesh)  # the global form: set when called
    try:
        np.testing.assert_allclose(jax.jit(_needs_the_mesh)(x), x * 1)
    finally:
        setting.__exit__(None, None, None)
    with pytest.raises(ValueError, match=r"Expected mesh of type `jax\.sharding\.Mesh`"):
        jaxcompat.set_mesh("not a mesh")


def test_get_abstract_mesh_reads_the_mesh_set():
    get_abstract_mesh = needs("get_abstract_mesh")
    mesh = jaxcompat.make_mesh((2, 4), ("x", "y"))
    with jaxcompat.set_mesh(mesh):
        assert dict(get_abstract_mesh().shape) == {"x": 2, "y": 4}


def test_get_mesh_reads_the_mesh_set():
    get_mesh = needs("get_mesh")
    mesh = jaxcompat.make_mesh((2, 4), ("x", "y"))
    with jaxcompat.set_mesh(mesh):
        assert get_mesh() == mesh


def test_refs():
    new_ref = needs("new_ref")
    ref = new_ref(np_jax.arange(3.0))
    assert isinstance(ref, jaxcompat.Ref)
    ref[...] = ref[...] + 1
    np.testing.assert_allclose(ref[...], [1.0, 2.0, 3.0])
    if available("freeze"):
        np.testing.assert_allclose(jaxcompat.freeze(ref), [1.0, 2.0, 3.0])


def test_enable_x64_context():
    assert np_jax.zeros(()).dtype == np.float32
    with jaxcompat.enable_x64(True):
        assert np_jax.zeros(()).dtype == np.float64
    assert np_jax.zeros(()).dtype == np.float32


# --- Submodule stable names -------------------------------------------------------------------


def test_random_clone_gives_a_usable_equal_key():
    key = jax.random.PRNGKey(3)
    cloned = jaxcompat.random.clone(key)
    np.testing.assert_array_equal(
        jax.random.key_data(cloned) if hasattr(jax.random, "key_data") else cloned, key
    )
    np.testing.assert_array_equal(jax.random.normal(cloned, (2,)), jax.random.normal(key, (2,)))


def test_prng_key_dtype():
    prng_key = needs("dtypes.prng_key")
    assert jax.dtypes.issubdtype(jax.random.key(0).dtype, prng_key)
    assert not jax.dtypes.issubdtype(np_jax.float32, prng_key)


def test_dtype_like_accepts_what_jax_does():
    import typing

    members = typing.get_args(jaxcompat.typing.DTypeLike)
    assert str in members
    assert any(member is type or typing.get_origin(member) is type for member in members)


def test_zero_from_primal():
    zero_from_primal = needs("custom_derivatives.zero_from_primal")
    primal = {"x": np_jax.ones((2, 3)), "n": np.arange(3), "b": np_jax.ones(2, np_jax.bfloat16)}
    zeros = zero_from_primal(primal)
    assert zeros["x"].dtype == np.float32 and zeros["x"].shape == (2, 3)
    assert not np.asarray(zeros["x"]).any()
    assert zeros["b"].dtype == np_jax.bfloat16
    # Integers have float0 tangents.
    assert zeros["n"].dtype == jax.dtypes.float0 and zeros["n"].shape == (3,)
    symbolic = zero_from_primal(primal, symbolic_zeros=True)
    assert all(type(z) is jax.custom_derivatives.SymbolicZero for z in symbolic.values())
    assert symbolic["x"].shape == (2, 3) and symbolic["x"].dtype == np.float32
    assert symbolic["n"].dtype == jax.dtypes.float0


def test_zero_from_primal_in_a_custom_vjp():
    # The use it was made public for: a backward pass that returns no cotangent for an input.
    zero_from_primal = needs("custom_derivatives.zero_from_primal")

    @jax.custom_vjp
    def scale(x, y):
        return x * y

    def forward(x, y):
        return x * y, (x, y)

    def backward(residuals, g):
        _, y = residuals
        return g * y, zero_from_primal(y)

    scale.defvjp(forward, backward)
    gx, gy = jax.grad(lambda x, y: scale(x, y).sum(), argnums=(0, 1))(
        np_jax.ones(3), np_jax.arange(3.0)
    )
    np.testing.assert_array_equal(gx, [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0, 0.0])


@pytest.mark.parametrize("symbolic_zeros", [False, True])
def test_zero_from_primal_is_a_custom_jvp_tangent_of_an_integer_output(symbolic_zeros):
    # Wherever jaxcompat gives it, a custom_jvp rule may return its float0 zeros for an
    # integer output (before JAX 0.4.34, where jaxcompat does not give it, JAX refused them).
    zero_from_primal = needs("custom_derivatives.zero_from_primal")

    @jax.custom_jvp
    def double_and_count(x, n):
        return x * 2, n

    @double_and_count.defjvp
    def rule(primals, tangents):
        x, n = primals
        return double_and_count(x, n), (tangents[0] * 2, zero_from_primal(n, symbolic_zeros))

    primal, tangent = jax.jvp(lambda x: double_and_count(x, np_jax.int32(3))[0], (1.0,), (1.0,))
    assert (float(primal), float(tangent)) == (2.0, 2.0)


def test_clip_takes_the_newest_keywords():
    x = np_jax.arange(6)
    np.testing.assert_array_equal(jnp.clip(x, min=1, max=4), [1, 1, 2, 3, 4, 4])
    np.testing.assert_array_equal(jnp.clip(x, max=2), [0, 1, 2, 2, 2, 2])
    np.testing.assert_array_equal(jnp.clip(x, 3), [3, 3, 3, 3, 4, 5])


def test_reshape_takes_the_newest_keywords():
    x = np_jax.arange(6)
    assert jnp.reshape(x, shape=(2, 3)).shape == (2, 3)
    assert jnp.reshape(x, (3, 2), order="F").tolist() == [[0, 3], [1, 4], [2, 5]]


def test_layout_format_takes_a_sharding():
    Format = needs("experimental.layout.Format")
    sharding = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    assert Format(sharding=sharding).sharding == sharding


def test_layout_format_is_the_class_of_the_formats_jax_makes():
    # JAX's own class of this role (Layout before 0.6.2): JAX 0.7.0 renamed its parameter and
    # attribute device_local_layout to layout, which is JAX's TypeError before it.
    Format = needs("experimental.layout.Format")
    sharding = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    x = np_jax.arange(4.0)
    compiled = jax.jit(lambda a: a * 2, in_shardings=Format(sharding=sharding)).lower(x).compile()
    formats = getattr(compiled, "input_formats", None) or compiled.input_layouts
    made_by_jax = (formats() if callable(formats) else formats)[0][0]
    assert type(made_by_jax) is Format
    names = list(inspect.signature(Format).parameters)
    chosen = getattr(made_by_jax, names[0])
    assert chosen is not None

    mine = Format(chosen, sharding)  # by position, as every release reads it
    assert getattr(mine, names[0]) is chosen
    assert mine == made_by_jax
    assert hash(mine) == hash(made_by_jax)
    np.testing.assert_array_equal(jax.device_put(x, mine), x)
    assert pickle.loads(pickle.dumps(Format())) == Format()
    with pytest.raises(TypeError):
        Format(chosen, sharding=sharding, unknown=1)


def test_extend_core_jaxpr_types():
    core = jaxcompat.extend.core
    closed = jax.make_jaxpr(lambda x: jax.numpy.sin(x) * 2.0)(np_jax.float32(1.0))
    assert isinstance(closed, core.ClosedJaxpr)
    assert isinstance(closed.jaxpr, core.Jaxpr)
    assert all(isinstance(eqn, core.JaxprEqn) for eqn in closed.jaxpr.eqns)
    assert isinstance(closed.jaxpr.invars[0], core.Var)
    assert issubclass(core.DropVar, core.Var)
    assert callable(core.Literal)
    np.testing.assert_allclose(core.jaxpr_as_fun(closed)(np_jax.float32(0.5))[0], 2 * np.sin(0.5))


def test_extend_core_primitive():
    double_p = jaxcompat.extend.core.Primitive("jaxcompat_test_double")
    double_p.def_impl(lambda x: x * 2)
    assert double_p.bind(np_jax.float32(3.0)) == 6.0


def test_extend_core_avals():
    core = jaxcompat.extend.core
    aval = jax.core.ShapedArray((3, 4), np.float32)
    assert core.mapped_aval(3, 0, aval).shape == (4,)
    assert core.unmapped_aval(5, 1, aval).shape == (3, 5, 4)


def test_extend_core_trace_state():
    take_current_trace = needs("extend.core.take_current_trace")
    seen = []

    def f(x):
        with take_current_trace() as trace:
            seen.append(trace)
        return x

    jax.jit(f)(1.0)
    assert seen and seen[0] is not None


def test_jit_primitive():
    jit_p = jaxcompat.extend.core.primitives.jit_p
    closed = jax.make_jaxpr(jax.jit(lambda x: x + 1))(1.0)
    assert closed.jaxpr.eqns[0].primitive is jit_p


# --- Laziness ---------------------------------------------------------------------------------


@pytest.mark.subprocess
def test_importing_jaxcompat_imports_no_extra_jax_module(fresh_jaxcompat):
    extra_jax_modules, resolved_names = fresh_jaxcompat.section("imports")
    assert extra_jax_modules == "[]"
    assert resolved_names == "[]"  # so the threads below are the first to resolve any name


@pytest.mark.subprocess
def test_resolution_is_thread_safe(fresh_jaxcompat):
    # In the fresh interpreter, where no name was resolved before the eight threads started.
    [line] = fresh_jaxcompat.section("threads")
    from jaxcompat._stable_names import STABLE_NAMES

    assert line == f"{len(STABLE_NAMES)} []"


# --- The whole newest surface -----------------------------------------------------------------


def _newest_surface():
    from jaxcompat import _surface

    for public, (jax_module, _) in sorted(_namespace.MIRRORED.items()):
        if jax_module not in _surface.modules():
            continue
        for name in _surface.newest_names(jax_module):
            # A name that warns on the newest row is deprecated there: not the newest API.
            if _surface.status(jax_module, name)[-1] == "o":
                yield public, jax_module, name


def test_every_newest_name_works_or_says_which_release_has_it():
    from jaxcompat import _surface

    unexplained = []
    for public, jax_module, name in _newest_surface():
        module = importlib.import_module(public)
        try:
            getattr(module, name)  # warnings are errors
        except AttributeError as error:
            path = f"{public}.{name}".removeprefix("jaxcompat.")
            if path in TABLE:
                expected = _namespace.unavailable_message(TABLE[path])
            else:
                first = _surface.first_row_with_status(jax_module, name, "o")
                expected = (
                    f"{public}.{name} is not available on JAX {jaxcompat.JAX_VERSION_STRING}: "
                    f"JAX added {jax_module}.{name} in {first}, and jaxcompat has no backport "
                    "of it for older releases yet. Upgrade JAX to use it, or check for it with "
                    "hasattr()."
                )
            if str(error) != expected:
                unexplained.append(f"{public}.{name}: {error}")
        except Exception as error:
            unexplained.append(f"{public}.{name}: {type(error).__name__}: {error}")
    assert unexplained == []


def test_shard_map_of_a_cond_without_the_replication_check():
    mesh = jax.sharding.Mesh(jax.devices()[:2], ("x",))
    spec = jax.sharding.PartitionSpec("x")

    def step(block):
        return jax.lax.cond(block.sum() > 0, lambda v: v + 1, lambda v: v - 1, block)

    mapped = jaxcompat.shard_map(step, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=False)
    assert jax.jit(mapped)(np_jax.arange(4.0) - 1.5).tolist() == [-2.5, -1.5, 1.5, 2.5]


#: Newest keywords that a name the table forwards as JAX's own does not take on some rows,
#: and why that is left so. Any other such (name, keyword) fails the test below: a name whose
#: newest signature grew must be adapted, or listed here with its reason.
FORWARDED_WITHOUT_A_NEWEST_KEYWORD = {
    **dict.fromkeys(
        [
            ("extend.core.ClosedJaxpr", p)
            for p in ("constvars", "invars", "outvars", "eqns", "effects", "debug_info")
        ]
        + [("extend.core.ClosedJaxpr", "is_high"), ("extend.core.Jaxpr", "is_high")]
        + [("extend.core.Jaxpr", "consts"), ("extend.core.JaxprEqn", "effs")]
        + [("extend.core.JaxprEqn", "ctx")],
        "jaxpr types are built by JAX's tracing: their constructors are its internals",
    ),
    **dict.fromkeys(
        [
            (fact_path.removeprefix("jax."), fact.parameter)
            for fact in CLASS_KEYWORDS
            for fact_path in fact.paths
        ],
        "JAX's own class: a newest constructor keyword it lacks is JAX's TypeError "
        "(_keywords/rules/classes.py, reported by jaxcompat check)",
    ),
    **dict.fromkeys(
        [("new_ref", p) for p in ("memory_space", "kind", "pin")]
        + [("empty_ref", "pin"), ("typeof", "x")]
        + [("extend.core.set_current_trace", p) for p in ("trace", "check_leaks")]
        + [("extend.core.find_top_trace", "_")],
        "a top-level or jax.extend function keeps JAX's own object: not adapted yet",
    ),
}


AVAILABLE_HERE = [entry for entry in STABLE_NAMES if available(entry.path)]


@pytest.mark.parametrize("entry", AVAILABLE_HERE, ids=lambda entry: entry.path)
def test_a_name_on_this_row_has_a_source(entry):
    assert _namespace.select_source(entry.path) is not None, entry.path


def _forwarded_signature(entry):
    """(the parameters of JAX's own object the table gives, the newest signature), or None
    where there is nothing to compare: no source, an adapter (the newest signature by
    construction), no signature recorded or readable (a builtin), or **kwargs (any keyword)."""
    selected = _namespace.select_source(entry.path)
    runs = _surface.signature_runs(f"jax.{entry.path}")
    newest = runs[-1][1] if runs else None
    if selected is None or selected[0].adapter is not None or newest is None:
        return None
    try:
        parameters = inspect.signature(lookup(entry.path)).parameters
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return None
    return parameters, newest


FORWARDED_HERE = [entry for entry in AVAILABLE_HERE if _forwarded_signature(entry) is not None]


@pytest.mark.parametrize("entry", FORWARDED_HERE, ids=lambda entry: entry.path)
def test_a_name_forwarded_as_jax_own_takes_the_newest_keywords(entry):
    # The newest behaviour, not only the name: where the table gives JAX's own object, its
    # signature on this row names every keyword of the newest signature.
    forwarded = _forwarded_signature(entry)
    assert forwarded is not None
    parameters, newest = forwarded
    by_name = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    for keyword in _surface.keyword_names(newest):
        if keyword in parameters and parameters[keyword].kind in by_name:
            continue
        assert (entry.path, keyword) in FORWARDED_WITHOUT_A_NEWEST_KEYWORD, (entry.path, keyword)
