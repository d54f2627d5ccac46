"""The newest names of ``jax.extend``, ``jax.experimental``, ``jax.sharding``, the
``jax.tree_util`` one-level flatteners, ``jax.numpy.ufunc`` and ``jax.export`` on every release.

Contract tests: the same inputs and assertions on every matrix row. A name sourced from an
internal location is the very object JAX keeps there on every release (on the newest, JAX's
public name is that object too); a backport gives the newest JAX's results, written here as
literal values; a name that cannot be had raises the AttributeError its table entry words.
"""

import collections
import importlib
import inspect

import jax
import jax.numpy as np_jax
import numpy as np
import pytest
from jax._src import abstract_arrays
from jax._src import core as core_internal

import jaxcompat
from jaxcompat import _namespace, _surface
from tests._stable_names_helpers import TABLE, available, needs


def closed_jaxpr():
    inner = jax.jit(lambda y: y * 2.0)
    return jax.make_jaxpr(lambda x: inner(np_jax.sin(x)))(np_jax.float32(1.0))


# --- jax.extend.core: the objects jax._src.core has always had -----------------------------------

FROM_CORE = (
    "AbstractToken",
    "Effect",
    "Effects",
    "InconclusiveDimensionOperation",
    "JaxprTypeError",
    "check_jaxpr",
    "concrete_or_error",
    "jaxprs_in_params",
    "no_effects",
    "primal_dtype_to_tangent_dtype",
    "subjaxprs",
    "valid_jaxtype",
)


@pytest.mark.parametrize("name", FROM_CORE)
def test_extend_core_names_are_jax_internal_objects(name):
    assert getattr(jaxcompat.extend.core, name) is getattr(core_internal, name)


def test_extend_core_array_types_is_jaxs_set():
    array_types = jaxcompat.extend.core.array_types
    assert array_types is abstract_arrays.array_types
    assert {np.ndarray, np.float32, np.int32, np.bool_} <= set(array_types)


def test_extend_core_exceptions_and_effects():
    core = jaxcompat.extend.core
    assert issubclass(core.JaxprTypeError, TypeError)
    assert issubclass(core.InconclusiveDimensionOperation, Exception)
    assert len(core.no_effects) == 0
    assert isinstance(core.AbstractToken(), core.AbstractToken)
    assert isinstance(core.Effect(), core.Effect)


def test_extend_core_check_jaxpr_and_subjaxprs():
    core = jaxcompat.extend.core
    closed = closed_jaxpr()
    assert core.check_jaxpr(closed.jaxpr) is None
    inner = list(core.subjaxprs(closed.jaxpr))
    assert len(inner) == 1
    assert [eqn.primitive.name for eqn in inner[0].eqns] == ["mul"]
    jit_eqn = closed.jaxpr.eqns[1]
    assert len(list(core.jaxprs_in_params(jit_eqn.params))) == 1


def test_extend_core_value_helpers():
    core = jaxcompat.extend.core
    assert core.valid_jaxtype(np.float32(1.0))
    assert not core.valid_jaxtype("text")
    assert core.concrete_or_error(float, np.float32(2.5)) == 2.5
    assert core.primal_dtype_to_tangent_dtype(np.dtype(np.float32)) == np.dtype(np.float32)
    assert core.primal_dtype_to_tangent_dtype(np.dtype(np.int32)) == jax.dtypes.float0


def test_extend_core_gensym_makes_new_vars_of_an_aval():
    core = jaxcompat.extend.core
    assert list(inspect.signature(core.gensym).parameters) == []
    aval = core_internal.ShapedArray((2, 3), np.dtype(np.float32))
    new_var = core.gensym()
    first, second = new_var(aval), new_var(aval)
    assert isinstance(first, core.Var)
    assert first.aval == aval
    assert first is not second


def test_extend_core_new_jaxpr_eqn_builds_an_equation():
    core = jaxcompat.extend.core
    assert list(inspect.signature(core.new_jaxpr_eqn).parameters) == [
        "invars",
        "outvars",
        "primitive",
        "params",
        "effects",
        "source_info",
        "ctx",
    ]
    aval = core_internal.ShapedArray((3,), np.dtype(np.float32))
    x, y = core.gensym()(aval), core.gensym()(aval)
    eqn = core.new_jaxpr_eqn([x], [y], jax.lax.sin_p, {}, core.no_effects)
    assert isinstance(eqn, core.JaxprEqn)
    assert eqn.primitive is jax.lax.sin_p
    assert eqn.invars == [x]
    assert eqn.outvars == [y]
    assert eqn.params == {}


def test_extend_core_debug_info():
    debug_info = needs("extend.core.DebugInfo")
    closed = jax.make_jaxpr(lambda x: x + 1.0)(np_jax.float32(1.0))
    assert isinstance(closed.jaxpr.debug_info, debug_info)
    assert isinstance(closed.jaxpr.debug_info.func_src_info, str)


def test_extend_core_token_is_a_class():
    token = needs("extend.core.Token")
    assert token is core_internal.Token


def _trace_state_seen(transform, x):
    """(under a jit, axis names, nonempty axis env) as seen by the function ``transform`` traces."""
    core = jaxcompat.extend.core
    seen = []

    def probe(y):
        seen.append(
            (
                core.unsafe_am_i_under_a_jit_DO_NOT_USE(),
                list(core.unsafe_get_axis_names_DO_NOT_USE()),
                core.nonempty_axis_env_DO_NOT_USE(),
            )
        )
        return y

    transform(probe)(x)
    return seen[0]


# The newest JAX's answers (0.12.0.1), measured; every release gives them through jaxcompat.
TRACE_STATES = [
    ("plain", lambda f: f, (False, [], False)),
    ("jit", jax.jit, (True, [], False)),
    ("vmap", jax.vmap, (False, [], False)),
    ("named vmap", lambda f: jax.vmap(f, axis_name="i"), (False, ["i"], True)),
    ("jit of vmap", lambda f: jax.jit(jax.vmap(f)), (True, [], False)),
    ("vmap of jit", lambda f: jax.vmap(jax.jit(f), axis_name="i"), (True, ["i"], True)),
    (
        "vmaps",
        lambda f: jax.vmap(jax.vmap(f, axis_name="a"), axis_name="b"),
        (False, ["b", "a"], True),
    ),
    ("grad", lambda f: jax.grad(lambda y: f(y).sum()), (False, [], False)),
    ("linearize", lambda f: lambda y: jax.linearize(f, y), (False, [], False)),
    ("checkpoint", jax.checkpoint, (True, [], False)),
    ("make_jaxpr", jax.make_jaxpr, (True, [], False)),
    (
        "scan",
        lambda f: lambda y: jax.lax.scan(lambda c, _: (f(c), None), y, None, length=1),
        (True, [], False),
    ),
    ("pmap", lambda f: lambda y: jax.pmap(f, axis_name="p")(y[None]), (True, ["p"], True)),
]


@pytest.mark.parametrize(
    ("transform", "expected"), [t[1:] for t in TRACE_STATES], ids=[t[0] for t in TRACE_STATES]
)
def test_extend_core_trace_state_queries(transform, expected):
    assert _trace_state_seen(transform, np_jax.ones((2, 2))) == expected


def test_extend_core_under_a_vmap():
    under_vmap = needs("extend.core.unsafe_am_i_under_a_vmap_DO_NOT_USE")
    seen = []

    def probe(y):
        seen.append(under_vmap())
        return y

    assert not under_vmap()
    jax.vmap(probe)(np_jax.ones(2))
    jax.vmap(jax.jit(probe))(np_jax.ones(2))
    jax.jit(probe)(np_jax.ones(2))
    assert seen == [True, True, False]


# --- jax.api_util.debug_info and jax.extend.linear_util.wrap_init ---------------------------


def _traced(x, y=2.0, *, z):
    return {"sum": x * y + z}


def test_debug_info_names_the_function_and_its_arguments():
    info = jaxcompat.api_util.debug_info("probe", _traced, (1.0,), {"z": 3.0})
    assert info.traced_for == "probe"
    assert info.func_src_info.startswith("_traced at ")
    assert info.func_src_info.endswith(f":{_traced.__code__.co_firstlineno}")
    assert info.arg_names == ("x", "z")
    static = jaxcompat.api_util.debug_info(
        "probe", _traced, (1.0,), {"z": 3.0}, static_argnums=(0,), sourceinfo="given here"
    )
    assert (static.func_src_info, static.arg_names) == ("given here", ("z",))
    signature = inspect.signature(lambda a, *, z: None)
    renamed = jaxcompat.api_util.debug_info(
        "probe", _traced, (1.0,), {"z": 3.0}, signature=signature
    )
    assert renamed.arg_names == ("a", "z")
    assert renamed.func_src_info.startswith("_traced at ")


def test_wrap_init_attaches_the_record_and_traces_as_jax_does():
    # numpyro's eval_provenance: a wrapped function with its record, flattened and traced.
    lu = jaxcompat.extend.linear_util
    info = jaxcompat.api_util.debug_info("probe", _traced, (1.0,), {"z": 3.0})
    attached = lu.wrap_init(_traced, debug_info=info).debug_info
    assert (attached.traced_for, attached.func_src_info, attached.arg_names) == (
        "probe",
        info.func_src_info,
        ("x", "z"),
    )
    leaves, in_tree = jax.tree_util.tree_flatten(((1.0,), {"z": 3.0}))
    wrapped, out_tree = jaxcompat.api_util.flatten_fun(
        lu.wrap_init(_traced, debug_info=info), in_tree
    )
    closed = jax.make_jaxpr(wrapped.call_wrapped)(*leaves)
    flat = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, *leaves)
    assert jax.tree_util.tree_unflatten(out_tree(), flat) == {"sum": 5.0}


# --- jax.extend.sharding ---------------------------------------------------------------------


def test_extend_sharding_round_trips_a_serialized_sharding():
    from jax._src import sharding_impls
    from jax._src.lib import xla_client

    sharding = jaxcompat.extend.sharding
    assert sharding.GSPMDSharding is sharding_impls.GSPMDSharding
    replicated = xla_client.HloSharding.replicate()
    serialized = sharding.get_serialized_proto_from_hlo_sharding(replicated)
    assert isinstance(serialized, bytes)
    proto = sharding.get_op_sharding_from_serialized_proto(serialized)
    assert isinstance(proto, xla_client.OpSharding)
    assert proto.type == xla_client.OpSharding.Type.REPLICATED
    assert sharding.get_hlo_sharding_from_serialized_proto(serialized) == replicated


# --- jax.tree_util.flatten_one_level(_with_keys) ---------------------------------------------

Point = collections.namedtuple("Point", "x y")


class Pair:
    def __init__(self, first, second):
        self.first, self.second = first, second


jax.tree_util.register_pytree_with_keys(
    Pair,
    lambda p: (
        (
            (jax.tree_util.GetAttrKey("first"), p.first),
            (jax.tree_util.GetAttrKey("second"), p.second),
        ),
        "pair",
    ),
    lambda meta, children: Pair(*children),
    lambda p: ((p.first, p.second), "pair"),
)


class Unkeyed:
    def __init__(self, first, second):
        self.first, self.second = first, second


# Registered without keys: its children are keyed by their position.
jax.tree_util.register_pytree_node(
    Unkeyed, lambda u: ((u.first, u.second), "unkeyed"), lambda meta, children: Unkeyed(*children)
)

DictKey, SequenceKey, GetAttrKey = (
    jax.tree_util.DictKey,
    jax.tree_util.SequenceKey,
    jax.tree_util.GetAttrKey,
)

# Node -> (children, metadata, keys, keyed container) as the newest JAX gives them: the
# children's container too.
ONE_LEVEL = [
    (
        {"b": [1, 2], "a": {"c": 3}},
        ({"c": 3}, [1, 2]),
        ("a", "b"),
        [DictKey("a"), DictKey("b")],
        tuple,
    ),
    ([1, None], [1, None], None, [SequenceKey(0), SequenceKey(1)], tuple),
    ((1,), (1,), None, [SequenceKey(0)], tuple),
    (None, (), None, [], tuple),
    (Point(1, 2), [1, 2], Point, [GetAttrKey("x"), GetAttrKey("y")], list),
    (Pair(5, [6]), (5, [6]), "pair", [GetAttrKey("first"), GetAttrKey("second")], list),
    (
        Unkeyed(1, None),
        (1, None),
        "unkeyed",
        [jax.tree_util.FlattenedIndexKey(0), jax.tree_util.FlattenedIndexKey(1)],
        list,
    ),
    (collections.OrderedDict(b=1, a=2), [1, 2], ("b", "a"), [DictKey("b"), DictKey("a")], list),
]


@pytest.mark.parametrize(("node", "children", "meta", "keys", "keyed"), ONE_LEVEL)
def test_flatten_one_level(node, children, meta, keys, keyed):
    found_children, found_meta = jaxcompat.tree_util.flatten_one_level(node)
    assert type(found_children) is type(children)
    assert found_children == children
    assert found_meta == meta
    assert list(inspect.signature(jaxcompat.tree_util.flatten_one_level).parameters) == ["tree"]


@pytest.mark.parametrize(("node", "children", "meta", "keys", "keyed"), ONE_LEVEL)
def test_flatten_one_level_with_keys(node, children, meta, keys, keyed):
    flatten = jaxcompat.tree_util.flatten_one_level_with_keys
    found, found_meta = flatten(node)
    assert type(found) is keyed
    assert found == keyed(zip(keys, children, strict=True))
    assert found_meta == meta
    assert list(inspect.signature(flatten).parameters) == ["tree"]


@pytest.mark.parametrize("name", ["flatten_one_level", "flatten_one_level_with_keys"])
def test_flatten_one_level_of_a_leaf_raises(name):
    flatten = getattr(jaxcompat.tree_util, name)
    with pytest.raises(ValueError, match=r"^can't tree-flatten type: <class 'float'>$"):
        flatten(1.0)


# --- jax.sharding ------------------------------------------------------------------------------


def test_make_single_device_sharding():
    device = jax.devices()[0]
    sharding = jaxcompat.sharding.make_single_device_sharding(device)
    assert isinstance(sharding, jax.sharding.SingleDeviceSharding)
    assert sharding == jax.sharding.SingleDeviceSharding(device)
    assert sharding.device_set == {device}
    placed = jax.device_put(np.arange(3.0), sharding)
    assert placed.sharding == sharding
    assert list(inspect.signature(jaxcompat.sharding.make_single_device_sharding).parameters) == [
        "device",
        "memory_kind",
    ]


def test_abstract_mesh_takes_sizes_and_names():
    abstract_mesh = needs("sharding.AbstractMesh")
    mesh = abstract_mesh((1,), ("x",))
    assert mesh.axis_names == ("x",)
    assert dict(mesh.shape) == {"x": 1}


# --- jax.numpy.ufunc ---------------------------------------------------------------------------


def test_frompyfunc_makes_a_ufunc():
    frompyfunc = needs("numpy.frompyfunc")
    ufunc = needs("numpy.ufunc")
    add = frompyfunc(lambda a, b: a + b, nin=2, nout=1, identity=0)
    assert isinstance(add, ufunc)
    np.testing.assert_array_equal(add.reduce(np_jax.arange(5)), 10)


# --- Names that cannot be had: their exact reasons --------------------------------------------

# path -> (first release, reason), written out: the message a user sees on an older release.
CANNOT_BE_HAD = {
    "extend.core.Token": (
        "0.4.27",
        "a token before it is a placeholder that holds no buffer (Token() takes none)",
    ),
    "extend.core.DebugInfo": (
        "0.5.1",
        "jaxprs carry an optional JaxprDebugInfo, not a DebugInfo, before it",
    ),
    "extend.core.unsafe_am_i_under_a_vmap_DO_NOT_USE": (
        "0.6.2",
        "a function traced by jit, cond or scan inside a vmap does not see the vmap before it",
    ),
    "extend.core.eval_jaxpr_transpose": (
        "0.11.1",
        "JAX has no helpers that build call primitives from a jaxpr evaluator",
    ),
    "extend.core.create_call_primitive": (
        "0.11.2",
        "the call primitives it builds have no remat rule (nor an inline_jax_late option) "
        "before it",
    ),
    "extend.core.primitives.register_call_primitive_rules": (
        "0.11.2",
        "the call primitives it builds have no remat rule (nor an inline_jax_late option) "
        "before it",
    ),
    "extend.xla": (
        "0.10.2",
        "jax.extend has no xla module before it, and no other module has its names",
    ),
    "experimental.EArray": (
        "0.4.27",
        "arrays of extended dtypes (jax._src.earray) do not exist before it",
    ),
    "experimental.primal_tangent_dtype": (
        "0.4.34",
        "JAX cannot make a dtype with its own tangent dtype before it",
    ),
    "experimental.layout.with_layout_constraint": (
        "0.6.1",
        "JAX cannot constrain the layout of an intermediate value before it",
    ),
    "experimental.layout.explicit_layout": (
        "0.12.0",
        "JAX has no explicit layout mode for tracing a function before it",
    ),
    "sharding.AbstractMesh": (
        "0.5.3",
        "sharding in types (explicit axes) does not exist before it",
    ),
    "sharding.AbstractDevice": ("0.7.2", "an abstract mesh has no abstract device before it"),
    "sharding.use_abstract_mesh": (
        "0.7.2",
        "no public function sets the abstract mesh alone before it",
    ),
    "sharding.ManualAxisType": (
        "0.10.0",
        "manual mesh axes have no type (varying, unreduced, reduced) before it",
    ),
    "sharding.UnreducedKind": ("0.11.0", "unreduced axes have no kind before it"),
    "sharding.no_collectives": (
        "0.12.0",
        "JAX has no switch that forbids collectives before it",
    ),
    "numpy.ufunc": ("0.4.18", "jax.numpy has no ufunc objects before it"),
    "export": (
        "0.6.2",
        "importing jax.export needs absl-py, which JAX does not install, before it (and before "
        "0.4.30 it is jax.experimental.export, with another API)",
    ),
    "make_array_from_process_local_data": (
        "0.4.29",
        "JAX cannot build a global array from each process's local data and a sharding before it",
    ),
}


@pytest.mark.parametrize("path", sorted(CANNOT_BE_HAD))
def test_a_name_that_cannot_be_had_says_why(path):
    first, reason = CANNOT_BE_HAD[path]
    assert (TABLE[path].first, TABLE[path].reason) == (first, reason)
    module_name, _, name = f"jaxcompat.{path}".rpartition(".")
    module = importlib.import_module(module_name)
    if available(path):
        assert getattr(module, name) is not None
        return
    with pytest.raises(AttributeError) as raised:
        getattr(module, name)
    assert str(raised.value) == (
        f"jaxcompat.{path} is not available on JAX {jaxcompat.JAX_VERSION_STRING}: it needs "
        f"JAX {first} or newer, because {reason}. Upgrade JAX to use it, or check for it with "
        "hasattr()."
    )


# --- Every newest name of these modules is backported or has a reason -------------------------

COVERED = {
    "jax.extend": "jaxcompat.extend",
    "jax.extend.core": "jaxcompat.extend.core",
    "jax.extend.core.primitives": "jaxcompat.extend.core.primitives",
    "jax.experimental": "jaxcompat.experimental",
    "jax.experimental.layout": "jaxcompat.experimental.layout",
    "jax.sharding": "jaxcompat.sharding",
    "jax.tree_util": "jaxcompat.tree_util",
    "jax.custom_derivatives": "jaxcompat.custom_derivatives",
}


@pytest.mark.parametrize("jax_module", sorted(COVERED))
def test_every_newest_name_has_a_source_or_a_reason(jax_module):
    # Primitives (``*_p``) are resolved elsewhere; every other name of the newest JAX either
    # works here or is an entry of the stable-name table, with its first release and reason.
    public = COVERED[jax_module]
    module = importlib.import_module(public)
    prefix = public.removeprefix("jaxcompat.")
    untreated = []
    for name in _surface.newest_names(jax_module):
        if name.endswith("_p") or _surface.status(jax_module, name)[-1] != "o":
            continue
        if hasattr(module, name):
            continue
        if f"{prefix}.{name}" not in TABLE:
            untreated.append(name)
    assert untreated == []
    assert _namespace.MIRRORED[public][0] == jax_module
