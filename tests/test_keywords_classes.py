"""JAX's classes stay JAX's classes: on every row, each class jaxcompat gives where JAX has it is
JAX's own class object, so a newest constructor keyword the release's class lacks is JAX's own
TypeError, message and all. The last test is a backend test (``@pytest.mark.jax``): the class
keyword data (``_keywords/rules/classes.py``) against the installed release's classes."""

import functools
import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
from jaxcompat._keywords.rules.classes import CLASS_KEYWORDS
from tests._stable_names_helpers import TABLE, available


def _jax_attribute(path):
    """JAX's object at ``path`` (``sharding.Mesh``), read from the module's namespace (never
    through a deprecation's ``__getattr__``), or None."""
    module_path, _, name = f"jax.{path}".rpartition(".")
    module = functools.reduce(getattr, module_path.split(".")[1:], jax)
    return vars(module).get(name)


def _jaxcompat(path):
    """jaxcompat's object at ``path``, or None where this release cannot have it."""
    try:
        return functools.reduce(getattr, path.split("."), jaxcompat)
    except AttributeError:
        return None


def _layout_module():
    try:
        from jax.experimental import layout
    except ImportError:  # before JAX 0.4.26
        return None
    return layout


def _jax_classes():
    """``{jaxcompat path: JAX's class of the newest meaning}`` where JAX has one, found from
    JAX's modules, never from the release number."""
    found = {
        path: _jax_attribute(path)
        for path in (
            "sharding.PartitionSpec",
            "sharding.Mesh",
            "sharding.AbstractMesh",
            "sharding.AbstractDevice",
            "sharding.ManualAxisType",
            "custom_jvp",
            "custom_vjp",
            "custom_derivatives.custom_jvp",
            "custom_derivatives.custom_vjp",
            "lax.GatherDimensionNumbers",
            "lax.ScatterDimensionNumbers",
            "ShapeDtypeStruct",
            "numpy.ufunc",
        )
    }
    found["P"] = jax.sharding.PartitionSpec  # jax.P, where it exists, is the same class
    layout = _layout_module()
    if layout is not None:
        names = vars(layout)
        # The class of a layout's parts is DeviceLocalLayout until JAX 0.7.0 renamed it
        # Layout; the class of a layout with a sharding is Format, named Layout before 0.6.2.
        # Before JAX 0.4.26 the module has neither (SpecifiedLayout), and 0.4.26 has no Layout.
        found["experimental.layout.Layout"] = names.get("DeviceLocalLayout") or names.get("Layout")
        found["experimental.layout.Format"] = names.get("Format") or names.get("Layout")
    experimental = vars(jax.experimental)
    found["Ref"] = (
        vars(jax).get("Ref") or vars(jax).get("ArrayRef") or experimental.get("MutableArray")
    )
    return {path: cls for path, cls in found.items() if cls is not None}


JAX_CLASSES = _jax_classes()


@pytest.mark.parametrize(
    "path",
    [
        "P",
        "sharding.PartitionSpec",
        "sharding.Mesh",
        "sharding.AbstractMesh",
        "sharding.AbstractDevice",
        "sharding.ManualAxisType",
        "custom_jvp",
        "custom_vjp",
        "custom_derivatives.custom_jvp",
        "custom_derivatives.custom_vjp",
        "lax.GatherDimensionNumbers",
        "lax.ScatterDimensionNumbers",
        "ShapeDtypeStruct",
        "Ref",
        "experimental.layout.Layout",
        "experimental.layout.Format",
        "numpy.ufunc",
    ],
)
def test_each_class_is_jax_own_class_where_jax_has_it(path):
    own = JAX_CLASSES.get(path)
    found = _jaxcompat(path)
    if found is None or own is None:
        # A name that arrived later, or whose class here has another meaning (AbstractMesh
        # before 0.5.3): the stable-name table says from which release jaxcompat has it.
        assert path in TABLE and not available(path), path
        return
    assert isinstance(own, type)
    assert found is own


def test_p_and_partition_spec_are_one_class_and_make_jax_own_specs():
    assert jaxcompat.P is jaxcompat.sharding.PartitionSpec is jax.sharding.PartitionSpec
    spec = jaxcompat.P("x", None)
    assert type(spec) is jax.sharding.PartitionSpec
    assert spec == jax.sharding.PartitionSpec("x", None)


def test_what_jax_makes_itself_is_an_instance_of_the_class_by_type():
    @jaxcompat.custom_vjp
    def f(x):
        return x

    assert type(f) is jax.custom_vjp
    assert type(jax.custom_jvp(lambda x: x)) is jaxcompat.custom_jvp
    struct = jax.eval_shape(lambda x: x, jnp.ones(3))
    assert type(struct) is jaxcompat.ShapeDtypeStruct
    if "numpy.ufunc" in JAX_CLASSES:
        assert type(jaxcompat.numpy.frompyfunc(lambda a, b: a + b, 2, 1)) is jaxcompat.numpy.ufunc


def test_singledispatch_on_a_jax_class_sees_jaxcompat_objects():
    @functools.singledispatch
    def kind(value):
        return "other"

    @kind.register(jax.sharding.PartitionSpec)
    def _(value):
        return "spec"

    @kind.register(jax.lax.GatherDimensionNumbers)
    def _(value):
        return "gather"

    assert kind(jaxcompat.P("x")) == "spec"
    gather = jaxcompat.lax.GatherDimensionNumbers((0,), (1,), (1,))
    assert kind(gather) == "gather"


def _add(a, b):
    return a + b


def _mesh_arguments():
    return np.array(jax.devices()[:1]), ("x",)


def _ref_arguments():
    return (jaxcompat.new_ref(jnp.arange(3.0)).aval,)


#: A call of each class that passes one newest keyword at its newest default: (jaxcompat path,
#: keyword, the call's positional arguments, or a function that makes them).
CALLS = [
    *[
        ("numpy.ufunc", keyword, (_add, 2, 1))
        for keyword in ("call", "reduce", "accumulate", "at", "reduceat")
    ],
    *[
        ("ShapeDtypeStruct", keyword, ((3,), jnp.float32))
        for keyword in ("weak_type", "is_ref", "manual_axis_type", "_memory_space")
    ],
    ("lax.GatherDimensionNumbers", "operand_batching_dims", ((0,), (1,), (1,))),
    ("lax.GatherDimensionNumbers", "start_indices_batching_dims", ((0,), (1,), (1,))),
    ("lax.ScatterDimensionNumbers", "operand_batching_dims", ((0,), (1,), (1,))),
    ("lax.ScatterDimensionNumbers", "scatter_indices_batching_dims", ((0,), (1,), (1,))),
    ("sharding.Mesh", "axis_types", _mesh_arguments),
    *[("P", keyword, ("x",)) for keyword in ("unreduced", "reduced", "unreduced_kind")],
    *[("sharding.PartitionSpec", keyword, ("x",)) for keyword in ("reduced", "unreduced_kind")],
    ("custom_jvp", "nondiff_argnames", (_add,)),
    ("custom_vjp", "nondiff_argnames", (_add,)),
    ("custom_derivatives.custom_vjp", "nondiff_argnames", (_add,)),
    ("experimental.layout.Format", "layout", ()),
    ("experimental.layout.Layout", "major_to_minor", ()),
    ("experimental.layout.Layout", "tiling", ((1, 0),)),
    ("experimental.layout.Layout", "sub_byte_element_size_in_bits", ((1, 0),)),
    ("sharding.AbstractMesh", "abstract_device", ((2,), ("x",))),
    ("sharding.AbstractDevice", "platform", ("cpu", None)),
    ("sharding.ManualAxisType", "unreduced_kind", ()),
    ("Ref", "refs", _ref_arguments),
]

#: The newest default of each keyword above (a value every release that takes it reads as
#: leaving it out), or the value the call needs (``major_to_minor``, ``platform``).
NEWEST_VALUES = {
    "call": None,
    "reduce": None,
    "accumulate": None,
    "at": None,
    "reduceat": None,
    "weak_type": False,
    "is_ref": False,
    "manual_axis_type": None,
    "_memory_space": None,
    "operand_batching_dims": (),
    "start_indices_batching_dims": (),
    "scatter_indices_batching_dims": (),
    "axis_types": None,
    "unreduced": frozenset(),
    "reduced": frozenset(),
    "unreduced_kind": None,
    "nondiff_argnames": (),
    "layout": None,
    "major_to_minor": (1, 0),
    "tiling": None,
    "sub_byte_element_size_in_bits": 0,
    "abstract_device": None,
    "platform": "cpu",
    "refs": None,
}


def _outcome(cls, args, keyword):
    """What calling ``cls`` with ``keyword`` at its newest value does: the made object's type
    and repr, or the exception's type and message."""
    if callable(args):
        args = args()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            made = cls(*args, **{keyword: NEWEST_VALUES[keyword]})
        except Exception as error:
            return type(error), str(error)
    try:
        shown = type(made).__name__ if callable(made) else repr(made)
    except Exception:  # a Ref made with no arrays shows none
        shown = type(made).__name__
    return type(made), shown


@pytest.mark.parametrize(("path", "keyword", "args"), CALLS, ids=lambda v: str(v)[:40])
def test_a_newest_class_keyword_does_what_jax_own_class_does(path, keyword, args):
    own = JAX_CLASSES.get(path)
    if own is None or _jaxcompat(path) is None:
        assert path in TABLE and not available(path), path
        return
    through_jaxcompat = _outcome(_jaxcompat(path), args, keyword)
    assert through_jaxcompat == _outcome(own, args, keyword)
    if isinstance(through_jaxcompat[0], type) and issubclass(through_jaxcompat[0], Exception):
        # JAX's own refusal of a keyword its class lacks, never a jaxcompat message.
        assert through_jaxcompat[0] is TypeError, through_jaxcompat
        assert keyword in through_jaxcompat[1] or "argument" in through_jaxcompat[1]
        assert "jaxcompat" not in through_jaxcompat[1]


def test_every_class_keyword_of_the_data_has_a_call_above():
    covered = {(path, keyword) for path, keyword, _ in CALLS}
    for fact in CLASS_KEYWORDS:
        names = {path.removeprefix("jax.") for path in fact.paths}
        assert any((name, fact.parameter) in covered for name in names), fact
    assert not [k for k in NEWEST_VALUES if k not in {fact.parameter for fact in CLASS_KEYWORDS}]


@pytest.mark.parametrize(
    ("path", "keyword", "args"),
    [
        pytest.param(
            path,
            keyword,
            args,
            marks=pytest.mark.jax(f"<{fact.first}"),
            id=f"{path}({keyword}=) before {fact.first}",
        )
        for path, keyword, args in CALLS
        for fact in CLASS_KEYWORDS
        if f"jax.{path}" in fact.paths and fact.parameter == keyword
    ],
)
def test_backend_a_class_keyword_is_refused_by_jax_own_class_before_its_first_release(
    path, keyword, args
):
    # Backend test (@pytest.mark.jax): the data's first release is right about this row.
    cls = _jaxcompat(path)
    if cls is None:
        # The name arrived later, or its class here has another meaning (AbstractMesh before
        # 0.5.3): the stable-name table withholds it.
        assert path in TABLE and not available(path), path
        return
    outcome = _outcome(cls, args, keyword)
    if (path, keyword) == ("P", "unreduced") and "unreduced" in str(inspect.signature(cls)):
        # 0.6.1 names unreduced=, and reads a set given as it as one axis name.
        assert outcome[0] is jax.sharding.PartitionSpec
        return
    assert outcome[0] is TypeError, outcome


@pytest.mark.parametrize(
    ("path", "keyword", "args"),
    [
        pytest.param(
            path,
            keyword,
            args,
            marks=pytest.mark.jax(f">={fact.first}"),
            id=f"{path}({keyword}=) from {fact.first}",
        )
        for path, keyword, args in CALLS
        for fact in CLASS_KEYWORDS
        if f"jax.{path}" in fact.paths and fact.parameter == keyword
    ],
)
def test_backend_a_class_keyword_is_taken_from_its_first_release(path, keyword, args):
    # Backend test (@pytest.mark.jax): from the data's first release, JAX's class takes it.
    cls = _jaxcompat(path)
    if cls is None:
        # The name arrived later, or its class here has another meaning (AbstractMesh before
        # 0.5.3): the stable-name table withholds it.
        assert path in TABLE and not available(path), path
        return
    outcome = _outcome(cls, args, keyword)
    assert not (isinstance(outcome[0], type) and issubclass(outcome[0], Exception)), outcome
