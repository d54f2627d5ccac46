"""Newest constructor keywords of the sharding and layout classes, on every row: the default
is the call without the keyword and makes JAX's own object; a value the release's class takes
under another name is passed under it; any other value is what the release's class makes
(where it takes the keyword) or a clear error naming the first release that takes it."""

import functools
import inspect

import jax
import numpy as np
import pytest

import jaxcompat
from jaxcompat._backports import keywords

VERSION = jaxcompat.JAX_VERSION_STRING


def _first_taking(path, parameter):
    """The first release that takes ``parameter`` where this one does not, else None."""
    found = keywords.keywords_to_adapt(path).get(parameter)
    if found is None:
        return None
    first, rule = found
    return max(first, rule.fixed_in or first, key=jaxcompat._version.parse_release)


@pytest.mark.parametrize("spec_class", ["P", "sharding.PartitionSpec"])
def test_partition_spec_takes_the_newest_defaults_and_makes_jax_own_spec(spec_class):
    spec = functools.reduce(getattr, spec_class.split("."), jaxcompat)
    made = spec("x", None, unreduced=frozenset(), reduced=set(), unreduced_kind=None)
    assert type(made) is type(jax.sharding.PartitionSpec("x", None))
    assert made == jax.sharding.PartitionSpec("x", None)
    assert isinstance(made, spec)
    assert isinstance(jax.sharding.PartitionSpec("x"), spec)
    assert issubclass(type(made), spec)
    assert spec("x", None) == jax.sharding.PartitionSpec("x", None)
    assert list(inspect.signature(spec).parameters)[-3:] == [
        "unreduced",
        "reduced",
        "unreduced_kind",
    ]


def test_partition_spec_unreduced_axes_are_taken_or_a_clear_error():
    first = _first_taking("jax.sharding.PartitionSpec", "unreduced")
    if first is None:
        made = jaxcompat.sharding.PartitionSpec("x", unreduced={"y"})
        assert made.unreduced == frozenset({"y"})
        return
    with pytest.raises(TypeError) as error:
        jaxcompat.sharding.PartitionSpec("x", unreduced={"y"})
    # 0.6.1 names unreduced=, but reads a set as one axis name.
    named = "unreduced" in inspect.signature(jax.sharding.PartitionSpec).parameters
    lacks = "reads it otherwise" if named else "has no unreduced parameter"
    assert str(error.value) == (
        f"jaxcompat.sharding.PartitionSpec(unreduced=...) needs JAX {first} or newer: JAX "
        f"{VERSION} cannot mark mesh axes unreduced or reduced in a PartitionSpec (its "
        f"jax.sharding.PartitionSpec {lacks}). Pass unreduced=frozenset(), the default, or "
        "leave it out; or upgrade JAX."
    )
    if named:  # 0.6.1's own call, with a tuple of axis names, is 0.6.1's
        spec = jaxcompat.sharding.PartitionSpec("x", unreduced=("y",))
        assert spec == jax.sharding.PartitionSpec("x", unreduced=("y",))


def test_partition_spec_unreduced_kind_other_than_none_is_a_clear_error_before_it_exists():
    first = _first_taking("jax.P", "unreduced_kind")
    if first is None:
        kind = jaxcompat.sharding.UnreducedKind.sum
        assert jaxcompat.P("x", unreduced={"y"}, unreduced_kind=kind).unreduced_kind == kind
        return
    with pytest.raises(TypeError) as error:
        jaxcompat.P("x", unreduced_kind="sum")
    # One class for both names, named as JAX names its class (PartitionSpec before 0.10.1).
    name = "P" if jax.sharding.PartitionSpec.__name__ == "P" else "sharding.PartitionSpec"
    assert str(error.value) == (
        f"jaxcompat.{name}(unreduced_kind=...) needs JAX {first} or newer: JAX {VERSION} has "
        f"no kinds of unreduced axes (UnreducedKind) (its jax.{name} has no unreduced_kind "
        "parameter). Pass unreduced_kind=None, the default, or leave it out; or upgrade JAX."
    )


def _subclass(base):
    class Spec(base):
        pass

    return Spec


def test_a_class_written_as_a_subclass_of_partition_spec_is_one_of_jax_own():
    try:
        raw = _subclass(jax.sharding.PartitionSpec)
    except TypeError as raw_error:  # JAX prohibits it (0.9.0 on): so does jaxcompat's
        refused = type(raw_error)
    else:
        spec = _subclass(jaxcompat.P)
        assert issubclass(spec, jax.sharding.PartitionSpec)
        assert spec("x") == raw("x")
        return
    with pytest.raises(refused):
        _subclass(jaxcompat.P)


def test_mesh_takes_axis_types_none_and_refuses_types_before_it_has_them():
    devices = np.array(jax.devices()[:1])
    mesh = jaxcompat.sharding.Mesh(devices, ("x",), axis_types=None)
    assert type(mesh) is jax.sharding.Mesh
    assert mesh.axis_names == ("x",)
    assert isinstance(mesh, jaxcompat.sharding.Mesh)
    first = _first_taking("jax.sharding.Mesh", "axis_types")
    if first is None:  # the release's own Mesh
        assert jaxcompat.sharding.Mesh is jax.sharding.Mesh
        if hasattr(jaxcompat.sharding, "AxisType"):  # (0.4.36-0.5.2 type axes otherwise)
            explicit = (jaxcompat.sharding.AxisType.Explicit,)
            typed = jaxcompat.sharding.Mesh(devices, ("x",), axis_types=explicit)
            assert typed.axis_types == explicit
        return
    with pytest.raises(TypeError) as error:
        jaxcompat.sharding.Mesh(devices, ("x",), axis_types=("Explicit",))
    assert str(error.value) == (
        f"jaxcompat.sharding.Mesh(axis_types=...) needs JAX {first} or newer: JAX {VERSION} "
        "cannot give a mesh's axes types (explicit sharding) (its jax.sharding.Mesh has no "
        "axis_types parameter). Pass axis_types=None, the default, or leave it out; or "
        "upgrade JAX."
    )


def test_a_mesh_made_with_the_newest_keywords_runs_a_sharded_computation():
    mesh = jaxcompat.sharding.Mesh(np.array(jax.devices()[:1]), ("x",), axis_types=None)
    spec = jaxcompat.P("x", unreduced=frozenset(), reduced=frozenset())
    sharding = jax.sharding.NamedSharding(mesh, spec)
    placed = jax.device_put(np.arange(4.0), sharding)
    assert placed.sharding == sharding
    np.testing.assert_array_equal(jax.jit(lambda v: v * 2)(placed), np.arange(4.0) * 2)


def test_abstract_mesh_and_manual_axis_type_take_the_newest_defaults():
    if hasattr(jaxcompat.sharding, "AbstractMesh"):
        mesh = jaxcompat.sharding.AbstractMesh((2,), ("x",), abstract_device=None)
        assert mesh == jax.sharding.AbstractMesh((2,), ("x",))
        assert isinstance(mesh, jaxcompat.sharding.AbstractMesh)
    if hasattr(jaxcompat.sharding, "ManualAxisType"):
        axis_type = jaxcompat.sharding.ManualAxisType(unreduced_kind=None)
        assert axis_type == jax.sharding.ManualAxisType()


def test_abstract_device_platform_is_taken_or_a_clear_error():
    if not hasattr(jaxcompat.sharding, "AbstractDevice"):
        return  # a name this row cannot have (its AttributeError is tested elsewhere)
    device_class = jaxcompat.sharding.AbstractDevice
    assert list(inspect.signature(device_class).parameters) == [
        "device_kind",
        "num_cores",
        "platform",
    ]
    first = _first_taking("jax.sharding.AbstractDevice", "platform")
    if first is None:
        assert device_class("cpu", None, "cpu") == device_class(
            device_kind="cpu", num_cores=None, platform="cpu"
        )
        assert device_class("cpu", None, "cpu").platform == "cpu"
        return
    for call in (
        lambda: device_class("cpu", None, "cpu"),
        lambda: device_class(device_kind="cpu", num_cores=None, platform="cpu"),
    ):
        with pytest.raises(TypeError) as error:
            call()
        assert str(error.value) == (
            f"jaxcompat.sharding.AbstractDevice(platform=...) needs JAX {first} or newer: JAX "
            f"{VERSION} has no platform in an abstract device (its jax.sharding.AbstractDevice "
            f"has no platform parameter). Upgrade JAX, or call it as JAX {VERSION}'s own is "
            "called."
        )
    assert device_class("cpu", None) == jax.sharding.AbstractDevice("cpu", None)


def test_layout_takes_tiling_and_element_size_by_their_newest_names():
    if not hasattr(jaxcompat.experimental.layout, "Layout"):
        return
    layout_class = jaxcompat.experimental.layout.Layout
    first = _first_taking("jax.experimental.layout.Layout", "major_to_minor")
    if first is not None:  # a class that only wraps a compiled function's layout
        with pytest.raises(TypeError) as error:
            layout_class(major_to_minor=(1, 0))
        assert str(error.value) == (
            f"jaxcompat.experimental.layout.Layout(major_to_minor=...) needs JAX {first} or "
            f"newer: JAX {VERSION} cannot make a layout from its parts, only read a compiled "
            "function's (its jax.experimental.layout.Layout has no major_to_minor parameter). "
            f"Upgrade JAX, or call it as JAX {VERSION}'s own is called."
        )
        return
    layout = layout_class((1, 0), tiling=((8, 128),), sub_byte_element_size_in_bits=4)
    assert layout.major_to_minor == (1, 0)
    tiling = getattr(layout, "tiling", None) or layout._tiling
    size = getattr(layout, "sub_byte_element_size_in_bits", None)
    size = layout._sub_byte_element_size_in_bits if size is None else size
    assert (tiling, size) == (((8, 128),), 4)
    assert layout_class((1, 0), tiling=None) == layout_class((1, 0))
    if "tiling" in keywords.keywords_to_adapt("jax.experimental.layout.Layout"):
        with pytest.raises(TypeError) as error:
            layout_class((1, 0), tiling=((8,),), _tiling=((8,),))
        assert str(error.value) == (
            "jaxcompat.experimental.layout.Layout() got tiling= and _tiling=, the name JAX's "
            "own class gives it: pass one"
        )


def test_ref_takes_the_arrays_it_holds_as_refs():
    if not hasattr(jaxcompat, "Ref") or not keywords.keywords_to_adapt("jax.Ref"):
        return  # none, or the release's own Ref takes refs
    assert list(inspect.signature(jaxcompat.Ref).parameters) == ["aval", "refs"]
    ref = jaxcompat.new_ref(jax.numpy.arange(3.0))
    again = jaxcompat.Ref(aval=ref.aval, refs=ref._buf)
    assert type(again) is type(ref)
    np.testing.assert_array_equal(again[...], np.arange(3.0))
