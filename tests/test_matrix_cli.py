"""jaxcompat matrix: each selection and format, bad input, and the needed rows of the examples."""

import contextlib
import io
import itertools
import json
import shlex
import sys

import pytest
import yaml

from jaxcompat import _surface
from jaxcompat._checker import main as check
from jaxcompat._dispatch import backend_floors
from jaxcompat._matrix.cli import main as matrix
from jaxcompat._releases import parse_release

from ._helpers import ROOT

ROWS = yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]
RELEASES = [str(row["jax"]) for row in ROWS]


def _backend(release):
    floors = backend_floors()
    return max((name for name in floors if floors[name] <= parse_release(release)), key=floors.get)


def _run(command, *argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = command(list(argv))
    return code, out.getvalue(), err.getvalue()


def _json_rows(*argv):
    code, out, err = _run(matrix, *argv, "--format", "json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_all_is_every_row_with_what_installs_it():
    assert _json_rows("--select", "all") == [
        {
            "jax": str(row["jax"]),
            "jaxlib": str(row["jaxlib"]),
            "python": str(row["primary"]),
            "pythons": [str(python) for python in row["python"]],
            "pins": list(row.get("pins", [])),
            "backend": _backend(str(row["jax"])),
        }
        for row in ROWS
    ]
    assert _json_rows() == _json_rows("--select", "all")  # no PATH: every row


def test_the_oldest_row_as_the_documentation_shows_it():
    assert _json_rows()[0] == {
        "jax": "0.4.13",
        "jaxlib": "0.4.13",
        "python": "3.11",
        "pythons": ["3.10", "3.11"],
        "pins": ["numpy<2", "scipy<1.13"],
        "backend": "jax_0_4_13",
    }


def test_breakpoints_are_the_ends_of_every_backend_range_and_the_newest():
    by_backend = {}
    for release in RELEASES:
        by_backend.setdefault(_backend(release), []).append(release)
    ends = {end for releases in by_backend.values() for end in (releases[0], releases[-1])}
    expected = [r for r in RELEASES if r in ends or r == RELEASES[-1]]
    assert [row["jax"] for row in _json_rows("--select", "breakpoints")] == expected
    assert len(expected) == 2 * len(backend_floors()) - 1  # jax_0_4_13 has one row


def test_github_format_is_a_strategy_matrix_include_list():
    code, out, _ = _run(matrix, "--select", "breakpoints", "--format", "github")
    assert code == 0
    assert out.count("\n") == 1  # one line, for $GITHUB_OUTPUT
    include = json.loads(out)["include"]
    oldest = ROWS[0]
    assert include[0] == {
        "jax": "0.4.13",
        "jaxlib": "0.4.13",
        "python": "3.11",
        "backend": "jax_0_4_13",
        "requirements": "jax==0.4.13 jaxlib==0.4.13 'numpy<2' 'scipy<1.13'",
    }
    assert shlex.split(include[0]["requirements"]) == [
        "jax==0.4.13",
        "jaxlib==0.4.13",
        *oldest["pins"],
    ]
    assert [entry["jax"] for entry in include] == [
        row["jax"] for row in _json_rows("--select", "breakpoints")
    ]


def test_text_format_names_each_row_and_why(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.11.2"]\n')
    (tmp_path / "lib.py").write_text("import jax\n")
    code, out, err = _run(matrix, str(tmp_path))
    assert (code, err) == (0, "")
    newest = ROWS[-1]
    origin = f"{tmp_path / 'pyproject.toml'}: jax>=0.11.2"
    assert out == (
        f"2 JAX releases to test for {tmp_path} (needed):\n"
        "jax       jaxlib    python  pythons    pins  backend\n"
        "0.11.2    0.11.2    3.12    3.12,3.13  -     jax_0_6_0\n"
        f"    - the floor of the declared range ({origin})\n"
        f"{newest['jax']:<8}  {newest['jaxlib']:<8}  3.12    3.12,3.13  -     jax_0_6_0\n"
        f"    - the newest release of the declared range ({origin})\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no-such-dir"], "python -m jaxcompat matrix: no such file or directory: no-such-dir\n"),
        (
            [".", "--select", "all"],
            "python -m jaxcompat matrix: a PATH is read only by --select needed, not all\n",
        ),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_2(argv, message):
    assert _run(matrix, *argv) == (2, "", message)


def test_bad_choices_are_usage_errors():
    code, out, err = _run(matrix, "--select", "some")
    assert (code, out) == (2, "")
    assert "argument --select: invalid choice: 'some'" in err
    code, _, err = _run(matrix, "--format", "yaml")
    assert code == 2
    assert "argument --format: invalid choice: 'yaml'" in err


def test_a_library_that_cannot_be_read_is_exit_2(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.4.20"]\n')
    (tmp_path / "broken.py").write_text("def f(:\n")
    code, out, err = _run(matrix, str(tmp_path))
    assert (code, out) == (2, "")
    assert err == (
        f"python -m jaxcompat matrix: {tmp_path / 'broken.py'}:1: cannot parse with "
        f"Python {sys.version_info.major}.{sys.version_info.minor}: invalid syntax\n"
    )
    (tmp_path / "broken.py").unlink()
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=99"]\n')
    code, out, err = _run(matrix, str(tmp_path))
    assert (code, out) == (2, "")
    assert err.startswith("python -m jaxcompat matrix: ")
    assert f"'>=99' admits none of the {len(_surface.rows())} tested JAX releases" in err


# --- needed: what the findings of `check` imply -----------------------------------------


def _changes(present, scope):
    """The releases of `scope` where `present` (a set of releases) starts or stops holding."""
    return [
        (before, after)
        for before, after in itertools.pairwise(scope)
        if (before in present) != (after in present)
    ]


def _implied(path, gates):
    """The needed rows, from `check --format json` on `path` and the gates' true releases."""
    code, out, _ = _run(check, "--format", "json", str(path))
    assert code in (0, 1)
    data = json.loads(out)
    (scope,) = data["ranges"].values()  # the declared range, as `check` read it
    needed = {scope[0], scope[-1]}
    for finding in data["findings"]:
        for pair in _changes(set(finding["releases"]), scope):
            needed.update(pair)
    for true_on in gates:
        for pair in _changes(true_on, scope):
            needed.update(pair)
    for backend in backend_floors():
        covered = [r for r in scope if _backend(r) == backend]
        if covered and not needed & set(covered):
            needed.add(covered[-1])
    return [r for r in RELEASES if r in needed]


def _true_on(module, name):
    """The releases on which `module` has `name` (working or deprecated)."""
    return {
        r for r, state in zip(RELEASES, _surface.status(module, name), strict=True) if state in "ow"
    }


def test_needed_rows_of_the_downstream_example():
    path = ROOT / "examples" / "downstream"
    needed = [row["jax"] for row in _json_rows(str(path))]
    assert needed == _implied(path, gates=[])
    # No findings: the floor, the newest release, and one release of each other backend.
    assert len(needed) == len(backend_floors())


def test_needed_rows_of_the_pinned_example():
    path = ROOT / "examples" / "pinned"
    gates = [
        # pinnedlib/_compat.py: `jax.__version_info__ >= (0, 5, 3)`, importing
        # jax.extend.core.Primitive, and `hasattr(jax, "shard_map")`.
        {r for r in RELEASES if parse_release(r) >= (0, 5, 3)},
        _true_on("jax.extend.core", "Primitive"),
        _true_on("jax", "shard_map"),
    ]
    needed = [row["jax"] for row in _json_rows(str(path))]
    assert needed == _implied(path, gates)
    assert "0.5.0" not in needed  # the range excludes it (jax!=0.5.0)
    assert {"0.5.2", "0.5.3"} <= set(needed)  # the version gate's two branches


def test_needed_rows_install_on_the_library_s_own_pythons(tmp_path):
    (tmp_path / "lib.py").write_text("import jax\n")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nrequires-python = ">=3.12"\ndependencies = ["jax>=0.4.13"]\n'
    )
    selected = _json_rows(str(tmp_path))
    assert all(row["pythons"] and set(row["pythons"]) <= {"3.12", "3.13"} for row in selected)
    assert all(row["python"] in row["pythons"] for row in selected)
    # The floor is the first release with wheels for Python 3.12, not 0.4.13 (3.10, 3.11).
    first_on_312 = next(row for row in ROWS if "3.12" in map(str, row["python"]))
    assert selected[0]["jax"] == str(first_on_312["jax"])
    code, out, _ = _run(matrix, str(tmp_path))
    assert code == 0
    pyproject = tmp_path / "pyproject.toml"
    assert (
        f"    - the floor of the declared range ({pyproject}: jax>=0.4.13), on Python >=3.12"
    ) in out.splitlines()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nrequires-python = ">=3.99"\ndependencies = ["jax>=0.4.13"]\n'
    )
    code, out, err = _run(matrix, str(tmp_path))
    assert (code, out) == (2, "")
    assert err.endswith(
        f"no JAX release of the declared range ({pyproject}: jax>=0.4.13) has wheels for a "
        "Python that requires-python >=3.99 admits\n"
    )


def test_an_invalid_jax_requirement_names_no_option_matrix_lacks(tmp_path):
    (tmp_path / "lib.py").write_text("import jax\n")
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=>0.4"]\n')
    code, _, err = _run(matrix, str(tmp_path))
    assert code == 2
    assert err.endswith("; fix it\n")
    assert "--jax" not in err
