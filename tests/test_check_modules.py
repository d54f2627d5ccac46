"""jaxcompat check: modules that went away (JC001), config options (JC050), array
attributes by name (JC060) and attributes of JAX classes' instances (JC061), against fixed
fixture data.

Rows of the fixture (tests/_check_data.py): 0.4.13 0.4.25 0.4.30 0.5.3 0.7.0 0.10.0 0.12.0.
"""

import copy
import functools
import textwrap

import pytest

from jaxcompat import _surface
from jaxcompat._checker import _module_data
from jaxcompat._checker._checked import check_source
from jaxcompat._checker._ranges import row_list, spec_mask

from ._check_data import ALL, ROWS, SURFACE, _clear, fixture_data  # noqa: F401  (a fixture)

MODULES = {
    "rows": ROWS,
    "modules": {
        "jax.lib": ALL,
        "jax.lib.xla_bridge": "oooo...",
        "jax.config": "ow.....",
        "jax.experimental": ALL,
        "jax.experimental.maps": "oww....",
        "jax.linear_util": "o......",
        "jax.extend.linear_util": ".oooooo",
        "jax.interpreters": ALL,
        "jax.interpreters.pxla": ALL,
        "jax.extend": ALL,
        "jax.extend.backend": "..ooooo",
        "jax.experimental.jax2tf": "ddddddd",
    },
    # Each name as runs of a character and a count (tools/module_surface.py).
    "names": {
        "jax.interpreters.pxla": {"ShardedDeviceArray": "w1.6", "thread_resources": "o7"},
        "jax.extend.backend": {"get_backend": ".2o5"},
    },
    "array": {
        "device_buffer": "pP.....",
        "device_buffers": "pP.....",
        "device()": "mm.....",
        "device": "mm..ppp",
        "devices": "mmmmmmm",
        "layout": "..ppp..",
        "addressable_data": "mmmmmmm",
    },
    # Attributes of JAX classes' instances; "-": the row lacks the class.
    "classes": {
        "jax.ShapeDtypeStruct": {"sharding": "rpppppp"},
        "jax.sharding.Mesh": {"axis_types": "...pppp", "abstract_mesh": "..Ppppp"},
        "jax.sharding.AbstractMesh": {"axis_types": "--.pppp"},
    },
}

CONFIG = {
    "jax_array": "o......",
    "jax_enable_x64": ALL,
    "jax_num_cpu_devices": "...oooo",
    "jax_host_callback_inline": "o......",
}


@pytest.fixture(autouse=True)
def module_data(fixture_data, monkeypatch):  # noqa: F811  (the fixture, used)
    surface = copy.deepcopy(SURFACE)
    jax_names = surface["modules"]["jax"]["names"]
    jax_names["config"] = {"status": ALL, "object": [[0, "value:Config"]]}
    jax_names["lib"] = {"status": ALL, "object": [[0, "module:jax.lib"]]}
    jax_names["interpreters"] = {"status": ALL, "object": [[0, "module:jax.interpreters"]]}
    surface["config"] = CONFIG
    monkeypatch.setattr(_surface, "_data", functools.cache(lambda: surface))
    monkeypatch.setattr(_module_data, "_data", functools.cache(lambda: MODULES))
    _clear()


def check(source, spec=">=0"):
    """The findings of the codes this file is about (gates are test_check.py's)."""
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [f"{f.line}:{f.col}: {f.code} {f.message}" for f in found if f.code not in GATES]


def releases(source, spec=">=0"):
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [row_list(f.releases) for f in found]


GATES = {"JC030", "JC033", "JC034"}

XLA_BRIDGE_FIX = (
    "its functions are in `jax.extend.backend` (`get_backend`, `default_backend`, "
    "`clear_backends`); `jax.devices()` and `jax.default_backend()` for the common uses"
)


# --- JC001: modules ----------------------------------------------------------------------


def test_from_import_of_a_removed_module_is_reported_once():
    source = """\
        from jax.lib import xla_bridge
        xla_bridge.get_backend()
    """
    assert check(source) == [
        f"1:1: JC001 module `jax.lib.xla_bridge` cannot be imported on 0.7.0-0.12.0; "
        f"{XLA_BRIDGE_FIX}"
    ]
    assert releases(source) == [["0.7.0", "0.10.0", "0.12.0"]]
    assert check(source, "<0.7") == []


def test_a_removed_module_reached_by_attribute():
    assert check("import jax\njax.lib.xla_bridge.get_backend()\n") == [
        f"2:1: JC001 module `jax.lib.xla_bridge` does not exist on 0.7.0-0.12.0; {XLA_BRIDGE_FIX}"
    ]
    assert check("import jax.lib.xla_bridge as xb\nxb.get_backend()\n") == [
        f"1:1: JC001 module `jax.lib.xla_bridge` cannot be imported on 0.7.0-0.12.0; "
        f"{XLA_BRIDGE_FIX}"
    ]


def test_the_config_module_and_the_config_object():
    fix = (
        "use the `jax.config` object: `import jax`, then `jax.config` (or `from jax import config`)"
    )
    expected = (
        "JC001 module `jax.config` cannot be imported on 0.4.30-0.12.0, importing it emits a "
        f"DeprecationWarning on 0.4.25; {fix}"
    )
    assert check("from jax.config import config\nconfig.update('jax_enable_x64', True)\n") == [
        f"1:1: {expected}"
    ]
    assert check("import jax.config\n") == [f"1:1: {expected}"]
    # The object: on every release.
    source = """\
        import jax
        from jax import config
        jax.config.update("jax_enable_x64", True)
        config.update("jax_enable_x64", True)
    """
    assert check(source) == []


def test_a_module_that_only_warns_is_jc002():
    assert check("import jax.experimental.maps\n", "<0.4.30") == [
        "1:1: JC002 module `jax.experimental.maps` importing it emits a DeprecationWarning on "
        "0.4.25; xmap is gone: use `jax.shard_map` (or `jax.vmap` with `spmd_axis_name`); "
        "`Mesh` is `jax.sharding.Mesh`"
    ]


def test_imports_of_removed_modules():
    source = """\
        from jax.experimental.maps import xmap
        import jax.linear_util as lu
    """
    assert check(source) == [
        "1:1: JC001 module `jax.experimental.maps` cannot be imported on 0.5.3-0.12.0, "
        "importing it emits a DeprecationWarning on 0.4.25-0.4.30; xmap is gone: use "
        "`jax.shard_map` (or `jax.vmap` with `spmd_axis_name`); `Mesh` is `jax.sharding.Mesh`",
        "2:1: JC001 module `jax.linear_util` cannot be imported on 0.4.25-0.12.0; use "
        "`jax.extend.linear_util`",
    ]


def test_a_module_through_jaxcompat_is_jaxs():
    # jaxcompat's modules forward what they do not give to JAX's (as `migrate` writes it).
    assert check("from jaxcompat.lib import xla_bridge\nimport jaxcompat.numpy\n") == [
        f"1:1: JC001 module `jax.lib.xla_bridge` cannot be imported on 0.7.0-0.12.0; "
        f"{XLA_BRIDGE_FIX}"
    ]


def test_a_module_that_came_later_asks_for_a_floor():
    assert check("from jax.extend import backend\n") == [
        "1:1: JC001 module `jax.extend.backend` cannot be imported on 0.4.13-0.4.25; raise the "
        "floor to jax>=0.4.30"
    ]


def test_names_of_a_module_the_data_lists():
    source = """\
        from jax.interpreters.pxla import ShardedDeviceArray
        from jax.interpreters import pxla
        pxla.thread_resources
        pxla.ShardedDeviceArray
    """
    expected = (
        "JC001 `jax.interpreters.pxla.ShardedDeviceArray` fails on 0.4.25-0.12.0, "
        "emits a DeprecationWarning on 0.4.13; use `jax.Array`"
    )
    assert check(source) == [f"1:1: {expected}", f"4:1: {expected}"]


def test_guarded_imports_and_modules_needing_other_packages_are_not_reported():
    source = """\
        try:
            from jax.lib import xla_bridge
        except ImportError:
            xla_bridge = None
        from jax.experimental import jax2tf
    """
    assert check(source) == []


def test_a_version_gate_narrows_the_rows():
    source = """\
        import jax
        if jax.__version_info__ < (0, 7, 0):
            from jax.lib import xla_bridge
    """
    assert check(source) == []


# --- JC050: config options ----------------------------------------------------------------


def test_config_update_of_a_removed_option():
    source = """\
        import jax
        jax.config.update("jax_array", True)
    """
    assert check(source) == [
        '2:1: JC050 `jax.config.update("jax_array", ...)`: JAX has no config option '
        "`jax_array` on 0.4.25-0.12.0 (AttributeError: Unrecognized config option); it has had "
        "no effect since 0.4.7 (jax.Array is the only array type); drop the call"
    ]
    assert releases(source) == [["0.4.25", "0.4.30", "0.5.3", "0.7.0", "0.10.0", "0.12.0"]]


def test_config_reads_and_other_spellings():
    source = """\
        import jax
        from jax import config
        config.read("jax_array")
        flag = jax.config.jax_array
        config.update("jax_num_cpu_devices", 8)
        jax.config.update("jax_enable_x64", True)
        jax.config.update("jax_host_callback_inline", True)
        jax.config.update(name, True)
    """
    assert check(source) == [
        '3:1: JC050 `jax.config.read("jax_array", ...)`: JAX has no config option `jax_array` '
        "on 0.4.25-0.12.0 (AttributeError: Unrecognized config option); it has had no effect "
        "since 0.4.7 (jax.Array is the only array type); drop the call",
        "4:8: JC050 `jax.config.jax_array`: JAX has no config option `jax_array` on "
        "0.4.25-0.12.0 (AttributeError: Unrecognized config option); it has had no effect "
        "since 0.4.7 (jax.Array is the only array type); drop the call",
        '5:1: JC050 `jax.config.update("jax_num_cpu_devices", ...)`: JAX has no config option '
        "`jax_num_cpu_devices` on 0.4.13-0.4.30 (AttributeError: Unrecognized config option); "
        "JAX has it from 0.5.3: raise the floor to jax>=0.5.3",
    ]


def test_config_through_jaxcompat():
    # jaxcompat.config honours the newest jax_num_cpu_devices on every release.
    assert check('import jaxcompat as jax\njax.config.update("jax_num_cpu_devices", 8)\n') == []
    assert check('import jaxcompat as jax\njax.config.update("jax_array", True)\n') == [
        '2:1: JC050 `jaxcompat.config.update("jax_array", ...)`: JAX has no config option '
        "`jax_array` on 0.4.25-0.12.0 (AttributeError: Unrecognized config option); it has had "
        "no effect since 0.4.7 (jax.Array is the only array type); drop the call"
    ]


# --- JC060: array attributes by name -------------------------------------------------------


def test_array_attributes_by_name():
    source = """\
        def f(x):
            return x.device_buffer, x.device()
    """
    assert check(source) == [
        "2:12: JC060 `x.device_buffer` (by name: a guess that `x` is a JAX array) fails on "
        "0.4.30-0.12.0, emits a DeprecationWarning on 0.4.25; use `x.addressable_data(0)`",
        "2:29: JC060 `x.device()` (by name: a guess that `x` is a JAX array) fails on "
        "0.4.30-0.12.0; `next(iter(x.devices()))` gives the device on every release",
    ]


def test_the_message_names_the_object_as_written():
    assert check("devices = [b.device() for b in array.device_buffers]\n") == [
        "1:12: JC060 `b.device()` (by name: a guess that `b` is a JAX array) fails on "
        "0.4.30-0.12.0; `next(iter(b.devices()))` gives the device on every release",
        "1:32: JC060 `array.device_buffers` (by name: a guess that `array` is a JAX array) "
        "fails on 0.4.30-0.12.0, emits a DeprecationWarning on 0.4.25; use "
        "`[shard.data for shard in array.addressable_shards]`",
    ]


def test_names_other_libraries_share_are_not_reported():
    source = """\
        def f(x, t):
            return x.device, x.layout, t.to_device("cpu"), x.device(0), x.addressable_data(0)
    """
    assert check(source) == []


def test_layout_is_read_in_a_jax_file_without_another_tensor_library():
    # Array.layout is JAX's on 0.4.26-0.6.2 (the fixture's rows: 0.4.30-0.7.0), renamed
    # format in 0.7.0; torch's tensors have a layout too.
    source = """\
        import jax
        def f(x):
            return x.layout
    """
    assert check(source) == [
        "3:12: JC060 `x.layout` (by name: a guess that `x` is a JAX array) fails on "
        "0.4.13-0.4.25, 0.10.0-0.12.0; `x.format` is its name from JAX 0.6.2"
    ]
    assert check(source, ">=0.4.30,<0.7") == []
    assert check("import torch\nimport jax\ny = x.layout\n") == []
    assert check("from torch import nn\nimport jaxcompat as jax\ny = x.layout\n") == []
    assert check("y = x.layout\n") == []  # no JAX: whose layout it is, nothing says
    guarded = "import jax\ny = x.layout if hasattr(x, 'layout') else x.format\n"
    assert check(guarded) == []
    # A module's attribute is no array's: jax.experimental.layout is a module.
    assert check("import jax\nimport jax.experimental.layout\ny = jax.experimental.layout\n") == []


def test_array_attributes_follow_gates_and_guards():
    source = """\
        import jax
        def device_of(x):
            if jax.__version_info__ >= (0, 4, 31):
                return x.device
            else:
                return x.device()
        def buffer(x):
            if hasattr(x, "device_buffer"):
                return x.device_buffer
            try:
                return x.device_buffer
            except AttributeError:
                return x.addressable_data(0)
        def ignored(x):
            return x.device_buffer  # jaxcompat: ignore[JC060]
    """
    assert check(source) == [
        "6:16: JC060 `x.device()` (by name: a guess that `x` is a JAX array) fails on 0.4.30; "
        "`next(iter(x.devices()))` gives the device on every release"
    ]


def all_findings(source, spec=">=0"):
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [f"{f.line}:{f.col}: {f.code} {f.message}" for f in found]


FALLBACK_IMPORT = """\
    try:
        from jax.extend import backend
    except ImportError:
        from jax.lib import xla_bridge as backend
"""


def test_a_fallback_import_runs_only_where_the_import_it_follows_fails():
    # jax.extend.backend is a module jaxcompat does not mirror: the module data says where it
    # imports, so the fallback is judged on 0.4.13-0.4.25 alone, where jax.lib.xla_bridge is
    # there (it is gone from 0.7.0).
    assert all_findings(FALLBACK_IMPORT) == [
        "1:1: JC034 this try/except import gate is still needed: importing "
        "`jax.extend.backend` works on 0.4.30-0.12.0 and fails on 0.4.13-0.4.25; a floor of "
        "jax>=0.4.30 makes it dead"
    ]
    assert all_findings(FALLBACK_IMPORT, ">=0.4.30") == [
        "1:1: JC033 this try/except import gate is dead on the declared range: importing "
        "`jax.extend.backend` works on every release of it (0.4.30-0.12.0), so its "
        "`except` branch never runs; keep only its first branch"
    ]


def test_a_gate_around_a_module_jaxcompat_mirrors_on_every_release_is_not_needed():
    # jaxcompat.extend.linear_util imports on every release (JAX's jax.linear_util was its
    # place before 0.4.18): the gate becomes that one import.
    source = """\
        try:
            from jax.extend import linear_util as lu
        except ImportError:
            from jax import linear_util as lu
    """
    assert all_findings(source) == [
        "1:1: JC030 this try/except import gate can become `jaxcompat.extend.linear_util`: "
        "jaxcompat gives it on every release of the range (0.4.13-0.12.0), so the gate is not "
        "needed"
    ]


def test_a_name_of_an_unmirrored_module_gates_by_where_it_is():
    source = """\
        try:
            from jax.extend.backend import get_backend
        except ImportError:
            get_backend = None
    """
    assert all_findings(source, ">=0.4.30") == [
        "1:1: JC033 this try/except import gate is dead on the declared range: importing "
        "`jax.extend.backend.get_backend` works on every release of it (0.4.30-0.12.0), so "
        "its `except` branch never runs; keep only its first branch"
    ]


# --- JC061: attributes of JAX classes' instances -------------------------------------------


def test_an_attribute_of_a_class_built_and_read_at_once():
    source = """\
        import jax
        spec = jax.ShapeDtypeStruct((2,), "float32").sharding
    """
    assert check(source) == [
        "2:8: JC061 `jax.ShapeDtypeStruct((2,), 'float32').sharding` (a jax.ShapeDtypeStruct) "
        "fails on 0.4.13; raise the floor to jax>=0.4.25"
    ]
    assert check(source, ">=0.4.25") == []


def test_an_instance_is_followed_through_a_name_in_its_function():
    source = """\
        from jax.sharding import Mesh
        import jaxcompat as jax
        def axes(devices):
            mesh = Mesh(devices, ("x",))
            other = jax.make_mesh((1,), ("x",))
            return mesh.axis_types, other.abstract_mesh, mesh.devices
    """
    assert check(source, ">=0.4.25") == [
        "5:13: JC001 `jaxcompat.make_mesh` (JAX's `jax.make_mesh`) does not exist on 0.4.25; "
        "raise the floor to jax>=0.4.30",
        "6:12: JC061 `mesh.axis_types` (a jax.sharding.Mesh) fails on 0.4.25-0.4.30; "
        "raise the floor to jax>=0.5.3",
        "6:29: JC061 `other.abstract_mesh` (a jax.sharding.Mesh) fails on 0.4.25, emits a "
        "DeprecationWarning on 0.4.30; raise the floor to jax>=0.5.3",
    ]
    assert releases(source, ">=0.4.30") == [["0.4.30"], ["0.4.30"]]


def test_what_is_not_known_to_be_an_instance_is_not_reported():
    source = """\
        from jax.sharding import Mesh
        def f(mesh, devices):
            a = mesh.axis_types  # an argument: not followed
            built = Mesh(devices, ("x",))
            built = object()
            b = built.axis_types  # rebound to something else
            for built in [Mesh(devices, ("x",))]:
                c = built.axis_types  # a loop's target
            return a, b, c
        def g():
            return built.axis_types  # another function's name
    """
    assert check(source) == []


@pytest.mark.parametrize("postponed", [False, True])
def test_a_parameter_annotated_with_the_class_is_an_instance(postponed):
    source = """\
        import jax
        from jax.sharding import Mesh
        def f(mesh: Mesh, spec: jax.ShapeDtypeStruct, other: "Mesh", n: int = 0):
            return mesh.axis_types, spec.sharding, other.axis_types, n
        def g(mesh):
            return mesh.axis_types
    """
    if postponed:
        source = "from __future__ import annotations\n" + textwrap.dedent(source)
    assert check(source) == [
        f"{4 + postponed}:12: JC061 `mesh.axis_types` (a jax.sharding.Mesh) fails on "
        "0.4.13-0.4.30; raise the floor to jax>=0.5.3",
        f"{4 + postponed}:29: JC061 `spec.sharding` (a jax.ShapeDtypeStruct) fails on 0.4.13; "
        "raise the floor to jax>=0.4.25",
    ]


def test_gates_and_handling_code_decide_where_the_read_runs():
    source = """\
        import jax
        from jax.sharding import Mesh
        def f(devices):
            mesh = Mesh(devices, ("x",))
            if jax.__version_info__ >= (0, 5, 0):
                a = mesh.axis_types
            if hasattr(mesh, "axis_types"):
                b = mesh.axis_types
            try:
                c = mesh.axis_types
            except AttributeError:
                c = None
            with Mesh(devices, ("x",)) as entered:
                d = entered.axis_types
            return a, b, c, d
    """
    assert check(source) == [
        "14:13: JC061 `entered.axis_types` (a jax.sharding.Mesh) fails on 0.4.13-0.4.30; "
        "raise the floor to jax>=0.5.3"
    ]
