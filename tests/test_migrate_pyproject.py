"""jaxcompat migrate finishes the port: the nearest pyproject.toml, and what is left."""

import os
import shutil
from pathlib import Path

import pytest

from jaxcompat._checker import main as check
from jaxcompat._checker._migrate_cli import main
from jaxcompat._checker._migrate_pyproject import PortedFile, end_of_port
from jaxcompat._checker._pyproject_edit import update
from jaxcompat._matrix import rows as matrix_rows
from jaxcompat._surface import rows

from ._helpers import ROOT

# The resolver that migrate runs on a library's other dependencies reads a fake index.
pytestmark = pytest.mark.usefixtures("resolver_on_fake_index")

NEWEST = rows()[-1]


def all_rows():
    return (1 << len(rows())) - 1


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A library whose code runs on every release through jaxcompat, floor 0.4.30."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("import jax\n\nleaves = jax.tree.leaves\n")
    return tmp_path


MULTILINE = """\
[project]
name = "lib"
# The floor JAX's own API set.
dependencies = [
    "jax>=0.4.30",  # jax.tree
    'numpy>=1.24',
]

[tool.other]
dependencies = ["jax>=9"]
"""


def test_jaxcompat_is_added_and_the_floor_lowered_keeping_layout(project, capsys):
    (project / "pyproject.toml").write_text(MULTILINE)
    assert main(["lib"]) == 0
    assert (project / "pyproject.toml").read_text() == MULTILINE.replace(
        '"jax>=0.4.30",  # jax.tree\n', '"jax>=0.4.13",  # jax.tree\n    "jaxcompat",\n'
    )
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        f"migrated {os.path.join('lib', '__init__.py')}",
        f"updated {project / 'pyproject.toml'}: jax: 'jax>=0.4.30' -> 'jax>=0.4.13'; "
        "added 'jaxcompat'",
    ]
    assert out[-1] == (
        "Migrated 1 of 1 file; removed 0 version gates; 0 findings left for a person; the "
        "ported code runs on JAX 0.4.13 and newer."
    )
    # A second run changes nothing.
    before = (project / "pyproject.toml").read_text()
    assert main(["--check", "lib"]) == 0
    assert (project / "pyproject.toml").read_text() == before


@pytest.mark.parametrize(
    ("dependencies", "expected"),
    [
        ('["jax>=0.5", "numpy"]', '["jax>=0.4.13", "jaxcompat", "numpy"]'),
        ('["numpy", "jax>=0.5"]', '["numpy", "jax>=0.4.13", "jaxcompat"]'),
        ("['jax >= 0.5, <0.7']", "['jax >=0.4.13, <0.7', 'jaxcompat']"),
        ("[\"jax[cpu]>=0.5; python_version >= '3.10'\"]", None),
        ('["jax", "jaxcompat"]', '["jax", "jaxcompat"]'),
        ('["jax>=0.4.13"]', '["jax>=0.4.13", "jaxcompat"]'),
        ('["numpy"]', '["numpy", "jaxcompat"]'),
        ("[]", '["jaxcompat"]'),
    ],
)
def test_one_line_arrays(tmp_path, dependencies, expected):
    path = tmp_path / "pyproject.toml"
    path.write_text(f"[project]\ndependencies = {dependencies}\n")
    edit = update(path, "0.4.13")
    if expected is None:  # extras and a marker are kept as they are written
        expected = '["jax[cpu]>=0.4.13; python_version >= \'3.10\'", "jaxcompat"]'
    assert edit.text == f"[project]\ndependencies = {expected}\n"


def test_a_multiline_array_without_a_trailing_comma(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\ndependencies = [\n  "numpy",\n  "jax>=0.5"  # last\n]\n')
    assert update(path, "0.4.13").text == (
        '[project]\ndependencies = [\n  "numpy",\n  "jax>=0.4.13",  # last\n  "jaxcompat"\n]\n'
    )


def test_the_jaxlib_floor_goes_down_with_jax_s(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\ndependencies = ["jax>=0.5", "jaxlib>=0.5"]\n')
    edit = update(path, "0.4.37")  # installed with jaxlib 0.4.36 (matrix.yml)
    assert edit.text == (
        '[project]\ndependencies = ["jax>=0.4.37", "jaxcompat", "jaxlib>=0.4.36"]\n'
    )
    assert edit.changes == [
        "jax: 'jax>=0.5' -> 'jax>=0.4.37'",
        "jaxlib: 'jaxlib>=0.5' -> 'jaxlib>=0.4.36'",
        "added 'jaxcompat'",
    ]


def test_a_floor_is_never_raised(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\ndependencies = ["jax>=0.4.20"]\n')
    assert update(path, "0.4.30").text == '[project]\ndependencies = ["jax>=0.4.20", "jaxcompat"]\n'


def test_poetry_and_setup_cfg_are_reported_not_edited(tmp_path):
    path = tmp_path / "pyproject.toml"
    text = '[tool.poetry.dependencies]\njax = ">=0.5"\n'
    path.write_text(text)
    (tmp_path / "setup.cfg").write_text("[options]\ninstall_requires = jax>=0.5\n")
    edit = update(path, "0.4.13")
    assert edit.text == text
    assert edit.notes == [
        f"{path}: [tool.poetry] dependencies are not edited: add jaxcompat and set jax >=0.4.13 "
        "there yourself",
        f"{tmp_path / 'setup.cfg'} is not edited: add jaxcompat to its install_requires and set "
        "jax>=0.4.13 there yourself",
        f"{path}: no [project] dependencies array: add jaxcompat yourself",
    ]


def test_an_installed_dependency_that_pulls_jax_up_is_named(tmp_path, monkeypatch):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\ndependencies = ["jax>=0.5", "flaxish", "absent-lib"]\n')
    site = tmp_path / "site"
    info = site / "flaxish-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: flaxish\nVersion: 1.0\nRequires-Dist: jax>=0.4.27\n"
    )
    monkeypatch.syspath_prepend(str(site))
    assert update(path, "0.4.13").notes == [
        "flaxish (installed) requires jax>=0.4.27: it pulls JAX above 0.4.13",
        "checked the jax requirement of the installed flaxish",
        "not installed, so not checked (the package index is not read): absent-lib",
    ]


def test_no_pyproject_leaves_it_alone(project, capsys):
    (project / "pyproject.toml").write_text(MULTILINE)
    assert main(["--no-pyproject", "lib"]) == 0
    assert (project / "pyproject.toml").read_text() == MULTILINE
    assert "pyproject" not in capsys.readouterr().out


def test_diff_shows_the_pyproject_change_and_writes_nothing(project, capsys):
    (project / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.5"]\n')
    assert main(["--diff", "lib"]) == 0
    out = capsys.readouterr().out
    assert (
        f"--- {project / 'pyproject.toml'} (before)\n"
        f"+++ {project / 'pyproject.toml'} (migrated)\n"
        "@@ -1,2 +1,2 @@\n"
        " [project]\n"
        '-dependencies = ["jax>=0.5"]\n'
        '+dependencies = ["jax>=0.4.13", "jaxcompat"]\n'
    ) in out
    assert (project / "pyproject.toml").read_text() == '[project]\ndependencies = ["jax>=0.5"]\n'
    assert main(["--check", "lib"]) == 1  # the pyproject.toml would change


def test_the_pinned_example(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "examples" / "pinned", tmp_path / "pinned")
    monkeypatch.chdir(tmp_path / "pinned")
    assert main(["."]) == 0
    text = (tmp_path / "pinned" / "pyproject.toml").read_text()
    assert 'dependencies = ["jax>=0.4.13,<0.7,!=0.5.0", "jaxcompat", "numpy"]\n' in text
    out = capsys.readouterr().out.splitlines()
    left = [line for line in out if line.startswith("left for a person: ")]
    # devices.py's jax.config module's config object (imported, then used), removed config
    # option and array attribute (no jaxcompat name gives them); jnp.clip's and jnp.reshape's
    # old keywords: the names jaxcompat gives take the newest JAX's signature, so a person
    # changes the calls. jax.tree_map became jax.tree.map, the same function.
    assert [line.split(": ")[2].split()[0] for line in left] == [
        "JC001",
        "JC001",
        "JC050",
        "JC060",
        "JC010",
        "JC010",
        "JC010",
        "JC041",
    ]
    # jax.make_mesh(shape, names, devices): through jaxcompat the third positional argument
    # is the newest signature's axis_types, which no release of the range takes as devices.
    assert left[-1] == (
        "left for a person: pinnedlib/ops.py:32:12: JC041 the 3rd positional argument of "
        "`jaxcompat.make_mesh` is `axis_types` in the newest signature, which jaxcompat takes "
        "only on 0.5.3 and newer (only at its default on 0.4.13-0.4.38, 0.5.1-0.5.2: JAX before "
        "it has no mesh axis types (jax.sharding.AxisType)); if it is the devices, pass "
        "`devices=`; else raise the floor to jax>=0.5.3"
    )
    assert out[-1] == (
        "Migrated 2 of 4 files; removed 3 version gates; 8 findings left for a person "
        "(JC001: 2, JC010: 3, JC041: 1, JC050: 1, JC060: 1); the ported code runs on "
        "JAX 0.4.13 and newer once those are fixed."
    )
    assert main(["--check", "."]) == 0  # a second run changes nothing
    assert (tmp_path / "pinned" / "pyproject.toml").read_text() == text


# --- nothing is written unless everything can be ---------------------------------------------


def _tree(project):
    return {
        path.relative_to(project).as_posix(): path.read_bytes()
        for path in sorted(project.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize(
    ("pyproject", "jax", "error"),
    [
        (
            '[project\nname = "lib"\ndependencies = ["jax>=0.5"]\n',
            None,
            "it is not valid TOML: Expected ']' at the end of a table declaration (at line 1, "
            "column 9)",
        ),
        (
            '[project\nname = "lib"\ndependencies = ["jax>=0.5"]\n',
            ">=0.5",
            "it is not valid TOML: Expected ']' at the end of a table declaration (at line 1, "
            "column 9)",
        ),
        (
            '[project]\nname = "lib"\ndependencies = ["jax>=>0.4", "numpy"]\n',
            ">=0.5",
            "the jax requirement 'jax>=>0.4' is not a valid PEP 508 requirement: fix it, then "
            "migrate again",
        ),
        (
            '[project]\nname = "lib"\ndependencies = ["jaxlib>=>0.4", "jax>=0.5"]\n',
            None,
            "the jaxlib requirement 'jaxlib>=>0.4' is not a valid PEP 508 requirement: fix it, "
            "then migrate again",
        ),
    ],
)
def test_a_pyproject_that_cannot_be_edited_stops_the_port_before_it_reads(
    project, capsys, pyproject, jax, error
):
    (project / "pyproject.toml").write_text(pyproject)
    before = _tree(project)
    assert main(["lib", *(["--jax", jax] if jax else [])]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"error: {project / 'pyproject.toml'}: {error}",
        "1 problem found, so nothing was read or written.",
    ]
    assert _tree(project) == before


def test_a_pyproject_that_cannot_be_written_leaves_every_file_as_it_was(
    project, capsys, monkeypatch
):
    (project / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.5"]\n')
    (project / "lib" / "more.py").write_text("import jax.numpy as jnp\n")
    before = _tree(project)
    write_bytes = Path.write_bytes

    def full_disk_at_pyproject(self: Path, data: bytes) -> int:
        if self.name == "pyproject.toml":
            raise OSError(28, "No space left on device", str(self))
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", full_disk_at_pyproject)
    assert main(["lib"]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{project / 'pyproject.toml'}:1:1: error: cannot write: No space left on device",
        "1 problem found, so nothing was written (would migrate 2 of 2 files once they are fixed).",
    ]
    assert _tree(project) == before  # the two files written first have their bytes back


def test_a_setup_cfg_without_install_requires_is_not_mentioned(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\ndependencies = ["jax>=0.5"]\n')
    (tmp_path / "setup.cfg").write_text("[egg_info]\ntag_build =\ntag_date = 0\n")
    assert update(path, "0.4.13").notes == []


def test_every_jax_entry_is_lowered_each_no_lower_than_its_pythons_allow(tmp_path):
    path = tmp_path / "pyproject.toml"
    newest_python = max(
        (python for row in matrix_rows() for python in row.pythons),
        key=lambda python: tuple(map(int, python.split("."))),
    )
    first_on_newest = next(row.jax for row in matrix_rows() if newest_python in row.pythons)
    path.write_text(
        "[project]\ndependencies = [\n"
        "    \"jax>=0.6,<0.12; python_version < '3.12'\",\n"
        f"    \"jax>=0.8.1,<0.12; python_version >= '{newest_python}'\",\n"
        "    \"jax>=0.8.1,<0.12; python_version >= '9.9'\",\n"
        "]\n"
    )
    edit = update(path, "0.4.13")
    assert edit.changes == [
        "jax: \"jax>=0.6,<0.12; python_version < '3.12'\" -> "
        "\"jax>=0.4.13,<0.12; python_version < '3.12'\"",
        f"jax: \"jax>=0.8.1,<0.12; python_version >= '{newest_python}'\" -> "
        f"\"jax>={first_on_newest},<0.12; python_version >= '{newest_python}'\"",
        "added 'jaxcompat'",
    ]
    assert edit.notes == [
        "jax entry \"jax>=0.8.1,<0.12; python_version >= '9.9'\" is kept: no tested JAX "
        "release has wheels for a Python its marker admits"
    ]


def test_check_and_matrix_read_every_jax_entry(project, capsys):
    (project / "pyproject.toml").write_text(
        "[project]\ndependencies = [\n"
        "    \"jax>=0.6,<0.12; python_version < '3.14'\",\n"
        "    \"jax>=0.5.3,<0.6; python_version >= '3.14'\",\n"
        "]\n"
    )
    assert check(["lib"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "Checked for JAX 0.5.3-0.11.2 (from pyproject.toml: jax<0.12,>=0.6 or jax<0.6,>=0.5.3)."
    )


def test_the_floor_is_never_below_the_range_the_gates_were_judged_on(project):
    ported = [PortedFile(project / "lib" / "__init__.py", "x = 1\n", "x = 1\n", all_rows())]
    assert end_of_port([project / "lib"], ported, "0.4.30", pyproject=False).floor == "0.4.30"
    assert end_of_port([project / "lib"], ported, rows()[0], pyproject=False).floor == rows()[0]


# --- the other dependencies, read by a real resolver (on tests/_fake_index.py) ---------------


def _library(project, dependencies, requires_python=None):
    lines = ["[project]", 'name = "lib"']
    if requires_python:
        lines.append(f'requires-python = "{requires_python}"')
    lines.append(f"dependencies = {dependencies!r}".replace("'", '"'))
    (project / "pyproject.toml").write_text("\n".join(lines) + "\n")


def test_a_dependency_that_needs_a_newer_jax_sets_the_floor_and_is_named(project, capsys):
    # chexlike's lowest release needs jax>=0.4.27; the gate below it is judged on that range.
    (project / "lib" / "__init__.py").write_text(
        "import jax\n"
        "if jax.__version_info__ < (0, 4, 27):\n"
        "    raise ImportError('too old')\n"
        "leaves = jax.tree.leaves\n"
    )
    _library(project, ["jax>=0.5", "chexlike"])
    assert main(["lib"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "note: the other dependencies hold JAX at 0.4.27 and newer: chexlike" in out
    # The floor was lowered: the library's own tests are what prove it.
    assert out[-2] == "note: your tests prove the floor: python -m jaxcompat floor ."
    assert out[-1] == (
        "Migrated 1 of 1 file; removed 1 version gate; 0 findings left for a person; the "
        "ported code runs on JAX 0.4.27 and newer."
    )
    assert '"jax>=0.4.27"' in (project / "pyproject.toml").read_text()
    assert (project / "lib" / "__init__.py").read_text() == (
        "import jaxcompat as jax\nleaves = jax.tree.leaves\n"
    )


@pytest.mark.parametrize(
    ("dependencies", "requires_python", "floor", "note"),
    [
        # Nothing holds JAX up: one resolution says so.
        (["jax>=0.5", "plain"], None, "0.4.13", "the other dependencies admit JAX 0.4.13"),
        # A cap admits the floor.
        (["jax>=0.4.30", "capped"], None, "0.4.13", "the other dependencies admit JAX 0.4.13"),
        # numpy>=2 against the rows that pin numpy<2 (up to 0.4.25).
        (
            ["jax>=0.5", "numpy2only"],
            None,
            "0.4.26",
            "the other dependencies hold JAX at 0.4.26 and newer: numpy2only",
        ),
        # Each row is resolved on the oldest Python of it the library supports.
        (
            ["jax>=0.5", "plain"],
            ">=3.12",
            "0.4.18",
            "JAX below 0.4.18 has no wheels for a Python that requires-python >=3.12 admits; "
            "the other dependencies admit JAX 0.4.18",
        ),
    ],
)
def test_the_floor_the_other_dependencies_admit(
    project, capsys, dependencies, requires_python, floor, note
):
    _library(project, dependencies, requires_python)
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"note: {note}" in out
    assert out[-1].endswith(f"the ported code runs on JAX {floor} and newer.")


@pytest.mark.parametrize(
    "table",
    [
        '[project.optional-dependencies]\ntest = ["chexlike", "jax"]\n',
        '[dependency-groups]\ntests = ["chexlike"]\n',
    ],
)
def test_test_requirements_that_hold_jax_higher_are_named_and_leave_the_floor(
    project, capsys, table
):
    # The library runs on 0.4.13; its tests need chexlike (jax>=0.4.27): `floor` and
    # `matrix` cannot install them below that.
    _library(project, ["jax>=0.5", "plain"])
    with (project / "pyproject.toml").open("a") as pyproject:
        pyproject.write(table)
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out.splitlines()
    where = "extra 'test'" if "optional" in table else "dependency group 'tests'"
    assert "note: the other dependencies admit JAX 0.4.13" in out
    assert (
        f"note: the test requirements ({where}): they hold JAX at 0.4.27 and newer: "
        "chexlike; `jaxcompat floor` and `jaxcompat matrix` cannot run the library's tests "
        "below that"
    ) in out
    assert out[-1].endswith("the ported code runs on JAX 0.4.13 and newer.")


def test_test_requirements_below_the_code_s_floor_say_nothing(project, capsys):
    # The code needs 0.5.3 (jax.sharding.AxisType), above what chexlike needs.
    (project / "lib" / "__init__.py").write_text("import jax\nt = jax.sharding.AxisType\n")
    _library(project, ["jax>=0.6", "plain"])
    with (project / "pyproject.toml").open("a") as pyproject:
        pyproject.write('[project.optional-dependencies]\ntest = ["chexlike"]\n')
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out
    assert "test requirements" not in out
    assert out.splitlines()[-1].endswith("the ported code runs on JAX 0.5.3 and newer.")


def test_requirements_that_admit_no_release_leave_the_code_s_floor(project, capsys):
    # The code needs 0.5.3 (jax.sharding.AxisType); capped needs JAX below 0.5.
    (project / "lib" / "__init__.py").write_text("import jax\nt = jax.sharding.AxisType\n")
    _library(project, ["jax>=0.6", "capped"])
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert (
        "note: no tested JAX release from 0.5.3 on resolves with the other dependencies: the "
        "floor is the code's"
    ) in out


def test_without_a_resolver_the_summary_says_so(project, capsys, monkeypatch):
    from jaxcompat._checker import _dependency_floor
    from jaxcompat._matrix import pip_indexes

    monkeypatch.setattr(pip_indexes.shutil, "which", lambda name, path=None: None)
    monkeypatch.setattr(_dependency_floor.sys, "executable", "/nonexistent/python")
    _library(project, ["jax>=0.5", "chexlike"])
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert (
        "note: the other dependencies were not resolved (neither uv nor pip is installed): the "
        "floor is the code's; check that they admit it"
    ) in out
    assert main(["--check", "--no-resolve", "lib"]) == 1
    assert "resolved" not in capsys.readouterr().out


def test_pip_resolves_where_uv_is_not_installed(project, capsys, monkeypatch):
    from jaxcompat._checker import _dependency_floor

    monkeypatch.setattr(_dependency_floor, "_uv_command", lambda: None)
    _library(project, ["jax>=0.5", "chexlike"])
    assert main(["--check", "lib"]) == 1
    assert "note: the other dependencies hold JAX at 0.4.27 and newer: chexlike" in (
        capsys.readouterr().out.splitlines()
    )


@pytest.mark.parametrize(
    ("code", "declared", "floor", "setter"),
    [
        (
            "import jax\n\ndef f(a, taus, c):\n    return jax.lax.linalg.ormqr(a, taus, c)\n",
            "0.10.0",
            "0.10.0",
            "lib/__init__.py:4:12: JC001 `jaxcompat.lax.linalg.ormqr` (JAX's "
            "`jax.lax.linalg.ormqr`) does not exist on 0.4.13-0.9.2",
        ),
        (
            "import jax\n\nspec = jax.ShapeDtypeStruct((2,), 'float32')\n"
            "sharding = spec.sharding\n",
            "0.4.18",
            "0.4.18",
            "lib/__init__.py:4:12: JC061 `spec.sharding` (a jax.ShapeDtypeStruct) fails on 0.4.13",
        ),
        (
            "import jax\n\ndef axes(devices):\n    return jax.make_mesh((1,), ('x',)).axis_types\n",
            "0.5.0",
            "0.4.36",
            "lib/__init__.py:4:12: JC061 `jax.make_mesh((1,), ('x',)).axis_types` (a "
            "jax.sharding.Mesh) fails on 0.4.13-0.4.35",
        ),
        (
            # optax 0.2.8's own line: an aval's sharding is 0.5.1's (measured on every row).
            "import jax\n\ndef f(x):\n    return jax.typeof(x).sharding\n",
            "0.5.3",
            "0.5.1",
            "lib/__init__.py:4:12: JC061 `jax.typeof(x).sharding` (a jax.core.ShapedArray) "
            "fails on 0.4.13-0.5.0",
        ),
        (
            "from jax.experimental.pallas import triton\n",
            "0.5.0",
            "0.4.35",
            "lib/__init__.py:1:1: JC001 module `jax.experimental.pallas.triton` cannot be "
            "imported on 0.4.13-0.4.34",
        ),
    ],
)
def test_the_floor_keeps_what_the_code_needs_and_names_it(
    project, capsys, code, declared, floor, setter
):
    (project / "lib" / "__init__.py").write_text(code)
    _library(project, [f"jax>={declared}"])
    main(["lib"])
    out = capsys.readouterr().out.splitlines()
    assert f"the floor is {floor}: {setter}" in out
    assert f'"jax>={floor}"' in (project / "pyproject.toml").read_text()
    assert out[-1].endswith(f"the ported code runs on JAX {floor} and newer.")


def test_a_row_the_indexes_lack_is_no_answer_not_a_conflict(project, capsys, fake_index):
    # An index without the floor's own jax wheel: the row cannot be judged, and the floor is
    # not raised past it as if a dependency kept it out.
    (Path(fake_index["UV_FIND_LINKS"]) / "jax-0.4.13-py3-none-any.whl").rename(
        Path(fake_index["UV_FIND_LINKS"]) / "hidden.zip"
    )
    try:
        _library(project, ["jax>=0.5", "plain"])
        assert main(["--check", "lib"]) == 1
        out = capsys.readouterr().out.splitlines()
        assert any(
            line.startswith("note: the other dependencies were not resolved (uv could not ")
            for line in out
        )
        assert out[-1].endswith("the ported code runs on JAX 0.4.13 and newer.")
    finally:
        (Path(fake_index["UV_FIND_LINKS"]) / "hidden.zip").rename(
            Path(fake_index["UV_FIND_LINKS"]) / "jax-0.4.13-py3-none-any.whl"
        )
