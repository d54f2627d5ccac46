"""The API surface data: fresh against matrix.yml, true to the installed JAX, and queryable."""

import importlib
import importlib.util
import json
import re

import pytest
import yaml

import jaxcompat
from jaxcompat import _surface

from ._helpers import PACKAGE, ROOT, run_python

MATRIX = [str(row["jax"]) for row in yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]]
DATA = PACKAGE / "_data" / "api_surface.json"


def test_rows_are_the_matrix_releases():
    # Stale data fails here: after adding a matrix.yml row, run `nox -s api_surface`.
    assert _surface.rows() == tuple(MATRIX)


def test_format_version():
    assert json.loads(DATA.read_text())["format"] == _surface.FORMAT == 1


def test_every_record_covers_every_row():
    count = len(_surface.rows())
    for module in _surface.modules():
        assert len(_surface.importable(module)) == count
        assert set(_surface.importable(module)) <= set("ow.")
        for name in _surface.names(module):
            status = _surface.status(module, name)
            assert len(status) == count, (module, name)
            assert set(status) <= set(".owr"), (module, name)
            assert "o" in status or "w" in status or "r" in status, (module, name)
            firsts = [_surface.rows().index(r) for r, _ in _surface.object_runs(module, name)]
            assert firsts == sorted(set(firsts)), (module, name)
            if firsts:
                assert status[firsts[0]] in "ow", (module, name)


def test_modules():
    assert _surface.modules(mirrored=True) == (
        "jax",
        "jax.numpy",
        "jax.numpy.fft",
        "jax.numpy.linalg",
        "jax.lax",
        "jax.tree",
        "jax.tree_util",
        "jax.random",
        "jax.sharding",
        "jax.errors",
        "jax.typing",
        "jax.dtypes",
        "jax.nn",
        "jax.custom_derivatives",
        "jax.extend.core",
        "jax.extend.core.primitives",
        "jax.experimental.layout",
    )
    assert "jax.core" in _surface.modules(mirrored=False)
    assert set(_surface.modules()) == set(_surface.modules(mirrored=True)) | set(
        _surface.modules(mirrored=False)
    )
    with pytest.raises(KeyError, match=re.escape("'jax.nonexistent' is not a module recorded")):
        _surface.status("jax.nonexistent", "x")


# --- The installed JAX agrees with the data recorded for its row ----------------------------


@pytest.fixture
def row():
    release = jaxcompat.JAX_VERSION_STRING
    if release not in _surface.rows():
        pytest.skip(f"JAX {release} is not a matrix.yml row, so the data has no record of it")
    return release


def _first_read(module, name: str):
    """`module.name` read as if for the first time in this process.

    From JAX 0.4.38 a module's deprecation `__getattr__` is a `functools.cache`: only the
    first read of a deprecated name in a process warns, and an earlier test may have read it.
    """
    cache_clear = getattr(getattr(module, "__getattr__", None), "cache_clear", None)
    if cache_clear is not None:
        cache_clear()
    return getattr(module, name)


@pytest.mark.parametrize("module", ["jax.numpy", "jax.lax"])
def test_live_module_has_the_names_recorded_for_this_row(module, row):
    live = importlib.import_module(module)
    index = _surface.rows().index(row)
    by_status = {"o": [], "w": [], "r": []}
    for name in _surface.names(module):
        char = _surface.status(module, name)[index]
        if char != ".":
            by_status[char].append(name)
    assert len(by_status["o"]) > 300
    # Warnings are errors here, so reading a name that warns fails this line.
    assert [name for name in by_status["o"] if not hasattr(live, name)] == []
    for name in by_status["w"]:
        with pytest.warns((DeprecationWarning, FutureWarning)):
            _first_read(live, name)
    for name in by_status["r"]:
        with pytest.raises(AttributeError):
            getattr(live, name)


def test_live_objects_match_the_data(row):
    import jax.numpy as jnp

    assert _surface.object_at("jax.numpy", "clip", row) == (
        f"{jnp.clip.__module__}.{jnp.clip.__qualname__}"
    )
    assert _surface.object_at("jax", "numpy", row) == "module:jax.numpy"


def test_live_signature_matches_the_data(row):
    import jax.numpy as jnp

    assert _surface.signature_string(jnp.clip) == _surface.signature_at("jax.numpy.clip", row)
    assert _surface.signature_string(jnp.reshape) == _surface.signature_at("jax.numpy.reshape", row)


# --- Queries, on facts measured on the matrix rows -----------------------------------------


def runs(text):
    """'..ooww' -> [('.', '0.4.13', '0.4.18'), ('o', ...), ...] over the data's rows."""
    releases = _surface.rows()
    out = []
    for index, char in enumerate(text):
        if out and out[-1][0] == char:
            out[-1][2] = releases[index]
        else:
            out.append([char, releases[index], releases[index]])
    return [tuple(run) for run in out]


NEWEST = MATRIX[-1]
TREE_NAMES = (
    "all",
    "broadcast",
    "flatten",
    "flatten_with_path",
    "leaves",
    "leaves_with_path",
    "map",
    "map_with_path",
    "reduce",
    "reduce_associative",
    "static",
    "structure",
    "transpose",
    "unflatten",
)


def test_jax_tree_module_and_names():
    assert runs(_surface.importable("jax.tree")) == [
        (".", "0.4.13", "0.4.24"),
        ("o", "0.4.25", NEWEST),
    ]
    assert _surface.newest_names("jax.tree") == TREE_NAMES
    first = {name: _surface.first_row_with_status("jax.tree", name) for name in TREE_NAMES}
    assert first == {
        **dict.fromkeys(TREE_NAMES, "0.4.25"),
        "broadcast": "0.6.2",
        "flatten_with_path": "0.4.38",
        "leaves_with_path": "0.4.38",
        "map_with_path": "0.4.38",
        "reduce_associative": "0.7.0",
        "static": "0.9.1",
    }


def test_typeof_and_its_objects():
    assert _surface.first_row_with_status("jax", "typeof") == "0.5.3"
    assert _surface.status("jax", "typeof") == "." * 24 + "o" * 23
    assert _surface.object_runs("jax", "typeof") == (
        ("0.5.3", "jax._src.core.get_aval"),
        ("0.8.2", "jax._src.core.typeof"),
    )
    assert _surface.object_at("jax", "typeof", "0.5.2") is None
    assert _surface.object_at("jax", "typeof", "0.8.1") == "jax._src.core.get_aval"
    assert runs(_surface.status("jax.core", "get_aval")) == [
        ("o", "0.4.13", "0.8.1"),
        ("w", "0.8.2", "0.9.2"),
        ("r", "0.10.0", "0.10.2"),
        (".", "0.11.0", NEWEST),
    ]


def test_moved_trace_names_warn_then_raise_then_go():
    assert runs(_surface.status("jax.core", "find_top_trace")) == [
        ("o", "0.4.13", "0.9.2"),
        ("w", "0.10.0", "0.10.2"),
        ("r", "0.11.0", "0.11.2"),
        (".", "0.12.0", NEWEST),
    ]
    assert _surface.first_row_with_status("jax.extend.core", "find_top_trace") == "0.10.0"
    assert _surface.first_row_with_status("jax.extend.core", "take_current_trace") == "0.9.2"
    assert _surface.first_row_with_status("jax.core", "Primitive", "w") == "0.4.38"
    assert _surface.first_row_with_status("jax.core", "Primitive", "r") == "0.6.0"
    assert _surface.first_row_with_status("jax.extend.core", "Primitive") == "0.4.27"
    assert _surface.signature_runs("jax.core.unmapped_aval") == (
        ("0.4.13", "size,axis_name,axis,aval"),
        ("0.5.1", "size,axis,aval,explicit_mesh_axis="),
        ("0.10.0", None),
    )


def test_mesh_names():
    assert runs(_surface.status("jax.sharding", "use_mesh")) == [
        (".", "0.4.13", "0.4.38"),
        ("o", "0.5.0", "0.7.0"),
        (".", "0.7.1", NEWEST),
    ]
    assert _surface.first_row_with_status("jax", "set_mesh") == "0.7.1"
    assert _surface.first_row_with_status("jax.sharding", "set_mesh") == "0.5.3"
    assert _surface.first_row_with_status("jax", "get_abstract_mesh") == "0.11.1"
    assert _surface.signature_runs("jax.make_mesh") == (
        ("0.4.13", None),
        ("0.4.33", "axis_shapes,axis_names,*,devices="),
        ("0.4.38", "axis_shapes,axis_names,*,devices=,axis_types="),
        ("0.5.1", "axis_shapes,axis_names,*,devices=,auto_axes=,explicit_axes=,manual_axes="),
        ("0.5.3", "axis_shapes,axis_names,*,devices=,axis_types="),
        ("0.7.0", "axis_shapes,axis_names,axis_types=,*,devices="),
        ("0.11.1", "axis_sizes,axis_names,axis_types=,*,devices="),
    )
    assert _surface.signature_at("jax.make_mesh", "0.5.2") == (
        "axis_shapes,axis_names,*,devices=,auto_axes=,explicit_axes=,manual_axes="
    )


def test_layout_changed_meaning():
    assert _surface.object_runs("jax.experimental.layout", "Layout") == (
        ("0.4.27", "jax._src.layout.Layout"),
        ("0.6.2", "jax._src.layout.Format"),
        ("0.7.0", "jax._src.layout.Layout"),
    )
    assert runs(_surface.status("jax.experimental.layout", "DeviceLocalLayout")) == [
        (".", "0.4.13", "0.4.25"),
        ("o", "0.4.26", "0.6.2"),
        (".", "0.7.0", NEWEST),
    ]


def test_experimental_names_that_moved():
    for name in ("enable_x64", "MutableArray", "mutable_array"):
        assert runs(_surface.status("jax.experimental", name))[-3:] == [
            ("w", "0.8.0", "0.8.3"),
            ("r", "0.9.0", "0.9.2"),
            (".", "0.10.0", NEWEST),
        ], name
    assert _surface.first_row_with_status("jax", "enable_x64") == "0.8.0"
    assert _surface.first_row_with_status("jax.extend.core.primitives", "jit_p") == "0.7.0"
    assert runs(_surface.status("jax.experimental.pjit", "pjit_p")) == [
        ("o", "0.4.13", "0.6.2"),
        (".", "0.7.0", NEWEST),
    ]
    assert runs(_surface.importable("jax.lib.xla_client")) == [
        (".", "0.4.13", "0.4.31"),
        ("o", "0.4.33", "0.7.2"),
        ("w", "0.8.0", "0.8.3"),
        (".", "0.9.0", NEWEST),
    ]


def test_numpy_signatures():
    assert _surface.signature_runs("jax.numpy.clip") == (
        ("0.4.13", "a,a_min=,a_max=,out="),
        ("0.4.27", "x=,/,min=,max=,*,a=!,a_min=!,a_max=!"),
        ("0.4.31", "arr=,/,min=,max=,*,a=!,a_min=!,a_max=!"),
        ("0.10.0", "arr=,/,min=,max="),
    )
    assert _surface.signature_at("jax.numpy.reshape", "0.4.13") == "a,newshape,order="
    assert _surface.signature_at("jax.numpy.reshape", NEWEST) == (
        "a,shape,order=,*,copy=,out_sharding="
    )


def test_unknown_names():
    assert _surface.status("jax", "no_such_name") == "." * len(MATRIX)
    assert _surface.first_row_with_status("jax", "no_such_name") is None
    assert _surface.object_runs("jax", "no_such_name") == ()
    assert _surface.signature_runs("jax.no_such_name") == ()
    with pytest.raises(ValueError, match=r"JAX 0\.4\.14 is not a matrix\.yml row recorded"):
        _surface.signature_at("jax.numpy.clip", "0.4.14")


def test_signature_string_notation():
    def f(a, b=1, /, c=2, *, d, **kwargs):
        pass

    def g(x, *args, y=None):
        pass

    assert _surface.signature_string(f) == "a,b=,/,c=,*,d,**kwargs"
    assert _surface.signature_string(g) == "x,*args,y="
    assert _surface.signature_string(lambda: None) == ""
    assert _surface.signature_string(3) is None


@pytest.mark.subprocess
def test_reading_the_data_imports_no_jax():
    result = run_python(
        "import sys\n"
        "sys.modules['jax'] = None\n"  # importing JAX now fails
        "from jaxcompat import _surface\n"
        "print(_surface.first_row_with_status('jax', 'typeof'))\n"
        "print(sorted(m for m, v in sys.modules.items() if v and m.split('.')[0] == 'jax'))\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["0.5.3", "[]"]


# --- The merge step (tools/api_surface.py, in the repository only) -------------------------


@pytest.fixture
def tool():
    path = ROOT / "tools" / "api_surface.py"
    if not path.is_file():
        pytest.skip("tools/api_surface.py is not part of this source tree")
    spec = importlib.util.spec_from_file_location("api_surface_tool", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def probe_result(jax, names, signatures, config_options=("jax_enable_x64",)):
    modules = {m: {"importable": "."} for m in ("jax", "jax.core")}
    modules["jax"] = {"importable": "o", "names": names}
    return {
        "jax": jax,
        "python": "3.11.7",
        "modules": modules,
        "signatures": signatures,
        "config_options": list(config_options),
    }


def test_merge_joins_rows_in_matrix_order(tool, tmp_path):
    matrix = tmp_path / "matrix.yml"
    matrix.write_text("releases:\n  - jax: '0.4.13'\n  - jax: '0.4.18'\n  - jax: '0.4.19'\n")
    results = tmp_path / "api-results"
    results.mkdir()
    rows = {
        "0.4.13": probe_result(
            "0.4.13", {"f": {"status": "o", "object": "m.f"}}, {"jax.f": "a", "jax.h": "a"}
        ),
        "0.4.18": probe_result(
            "0.4.18", {"f": {"status": "w", "object": "m.f"}}, {"jax.f": "a", "jax.h": "a"}
        ),
        "0.4.19": probe_result(
            "0.4.19",
            {"g": {"status": "o", "object": "m.g"}},
            {"jax.g": None, "jax.h": "a,b="},
            ("jax_enable_x64", "jax_newer_option"),
        ),
    }
    for release, data in rows.items():
        (results / f"{release}.json").write_text(json.dumps(data))
    merged = tool.merge(results, matrix)
    assert merged["format"] == _surface.FORMAT
    assert merged["rows"] == ["0.4.13", "0.4.18", "0.4.19"]
    assert merged["modules"]["jax"] == {
        "mirrored": True,
        "importable": "ooo",
        "names": {
            "f": {"status": "ow.", "object": [[0, "m.f"]]},
            "g": {"status": "..o", "object": [[2, "m.g"]]},
        },
    }
    assert merged["modules"]["jax.core"] == {"mirrored": False, "importable": "...", "names": {}}
    assert merged["signatures"] == {
        "jax.f": [[0, "a"], [2, None]],
        "jax.g": [[0, None]],
        "jax.h": [[0, "a"], [2, "a,b="]],
    }
    assert merged["config"] == {"jax_enable_x64": "ooo", "jax_newer_option": "..o"}
    newest = json.loads(tool.newest_keywords_text(merged, {"jax.h": {"a": 1, "b": None}}))
    assert newest["config_options"] == {"jax_newer_option": "0.4.19"}
    # jax.h's b is new in 0.4.19; a is on every row, so its default is not kept.
    assert newest["callables"] == {"jax.h": ["a,b=", {"b": "0.4.19"}]}
    assert newest["defaults"] == {"jax.h": {"b": None}}

    (results / "0.4.18.json").unlink()
    with pytest.raises(SystemExit, match=r"no probe result for 1 matrix row\(s\): 0\.4\.18\."):
        tool.merge(results, matrix)
