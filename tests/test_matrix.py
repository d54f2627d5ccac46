"""matrix.yml, the backend floors and pyproject.toml agree."""

import ast
import json
import re
import sys

import pytest
import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

import jaxcompat
from jaxcompat._dispatch import backend_floors
from jaxcompat._releases import parse_release

from ._helpers import PACKAGE, ROOT

pytest_plugins = ["pytester"]

MATRIX = yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]
RELEASES = [parse_release(row["jax"]) for row in MATRIX]
FLOORS = backend_floors()


def test_rows_are_unique_and_ordered():
    assert sorted(RELEASES) == RELEASES
    assert len(set(RELEASES)) == len(RELEASES)


def test_rows_are_complete():
    for row in MATRIX:
        assert set(row) <= {"jax", "jaxlib", "python", "primary", "pins", "tags", "accelerate"}
        assert row["primary"] in row["python"], row
        assert parse_release(row["jaxlib"]) <= parse_release(row["jax"]), row
        for pin in row.get("pins", []):
            assert re.fullmatch(r"[A-Za-z0-9_.-]+\s*[<>=!~]=?\s*[0-9.]+", pin), pin
        for python in row["python"]:
            assert re.fullmatch(r"3\.\d+", python), python


def test_oldest_row_is_the_oldest_floor_and_the_pyproject_floor():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (jax_requirement,) = [d for d in pyproject["project"]["dependencies"] if d.startswith("jax")]
    floor = re.fullmatch(r"jax>=([0-9.]+)", jax_requirement.replace(" ", ""))
    assert floor, f"declare jax as 'jax>=X' with no upper cap, not {jax_requirement!r}"
    assert parse_release(floor.group(1)) == RELEASES[0] == min(FLOORS.values())


def test_every_backend_floor_is_a_breakpoint_row():
    tagged = {parse_release(r["jax"]) for r in MATRIX if "breakpoint" in r.get("tags", [])}
    for name, floor in FLOORS.items():
        assert floor in RELEASES, f"{name}: floor {floor} is not a matrix row"
        assert floor in tagged, f"{name}: tag the row {floor} as a breakpoint"
        earlier = [r for r in RELEASES if r < floor]
        if earlier:  # the last release before the break is tested as well
            assert max(earlier) in tagged, f"tag {max(earlier)}, the last row before {name}"


def test_newest_row_is_a_breakpoint_row():
    assert "breakpoint" in MATRIX[-1].get("tags", [])


@pytest.mark.every_row
def test_installed_jax_is_a_row_or_newer():
    assert jaxcompat.JAX_VERSION in RELEASES or RELEASES[-1] < jaxcompat.JAX_VERSION


def test_rows_needing_numpy_1_pin_it():
    # jaxlib < 0.4.26 is built against NumPy 1 and crashes under NumPy 2.
    for row, release in zip(MATRIX, RELEASES, strict=True):
        assert ("numpy<2" in row.get("pins", [])) == (release <= (0, 4, 25)), row["jax"]


def test_package_data_is_generated_from_matrix_yml():
    from jaxcompat import _matrix

    data = (PACKAGE / "_data" / "matrix.json").read_text()
    assert data == _matrix.dumps(_matrix.from_matrix_yml(MATRIX)), (
        "regenerate it: python -m jaxcompat._matrix matrix.yml > jaxcompat/_data/matrix.json"
    )
    assert [row.backend for row in _matrix.rows()] == [
        max((n for n in FLOORS if FLOORS[n] <= release), key=FLOORS.get) for release in RELEASES
    ]


def test_the_package_knows_its_matrix_without_the_repository(tmp_path):
    # A copy of the package alone, run with no site-packages (-S): no matrix.yml beside it,
    # no PyYAML and no JAX.
    import shutil
    import subprocess

    shutil.copytree(PACKAGE, tmp_path / "jaxcompat", ignore=shutil.ignore_patterns("__pycache__"))
    code = (
        "import sys; sys.modules['jax'] = None\n"
        "from jaxcompat._cli import diagnose as _diagnose\n"
        "rows, where = _diagnose.matrix_rows()\n"
        "print(where, rows[0], rows[-1]['jax'], len(rows))\n"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    first = {"jax": "0.4.13", "jaxlib": "0.4.13", "pins": ["numpy<2", "scipy<1.13"]}
    assert result.stdout == (
        f"jaxcompat/_data/matrix.json {first} {MATRIX[-1]['jax']} {len(MATRIX)}\n"
    )


@pytest.mark.parametrize(
    ("recorded", "tool"),
    [
        ("random_bits_newest.json", "tools/random_bits_newest.py"),
        ("key_data_newest.json", "tools/key_data_newest.py"),
        ("differential_newest.json", "tools/differential_newest.py"),
    ],
)
def test_the_newest_jaxs_samples_are_recorded_from_the_newest_row(recorded, tool):
    # Every row must draw the newest JAX's samples: a row added after them would leave the
    # tests comparing with an older release's.
    data = json.loads((ROOT / "tests" / recorded).read_text())
    newest = str(MATRIX[-1]["jax"])
    assert data["jax"] == newest, (
        f"tests/{recorded} records JAX {data['jax']}, the newest row is {newest}: run "
        f"`nox -s newest_results` ({tool})"
    )


def test_every_row_has_recorded_test_counts():
    # A row added without them fails its own run (tests/_test_counts.py): say so here first.
    from tests import _test_counts

    rows = [str(row["jax"]) for row in MATRIX]
    assert list(_test_counts.recorded_counts()) == rows, (
        f"tests/test_counts.json must record every matrix row: {_test_counts.HOW_TO_RECORD}"
    )


COUNTED_SUITE = """
import pytest

def test_one():
    pass

def test_two():
    pass

@pytest.mark.skipif({skip}, reason="skipped by the test")
def test_three():
    pass
"""


@pytest.mark.parametrize(
    ("skip", "record", "problem"),
    [
        ("False", {"passed": 3, "skipped": 0}, None),
        ("False", {"passed": 2, "skipped": 0}, None),  # a test added: more passed is kept
        (
            "True",
            {"passed": 3, "skipped": 0},
            "JAX 9.9.9: 2 passed, fewer than the 3 recorded and 1 skipped, more than the 0 "
            "recorded (tests/test_counts.json); where that is meant, record it: after a "
            "whole-matrix run (.ci/run), python tools/test_counts.py .ci/logs",
        ),
        (
            "True",
            {"passed": 2, "skipped": 0},
            "JAX 9.9.9: 1 skipped, more than the 0 recorded (tests/test_counts.json); where "
            "that is meant, record it: after a whole-matrix run (.ci/run), python "
            "tools/test_counts.py .ci/logs",
        ),
    ],
)
def test_a_row_that_passes_fewer_or_skips_more_than_recorded_fails(
    pytester, monkeypatch, skip, record, problem
):
    from tests import _test_counts

    counts = pytester.path / "counts.json"
    counts.write_text(json.dumps({"rows": {"9.9.9": record}}))
    monkeypatch.setattr(_test_counts, "RECORD", counts)
    monkeypatch.setenv("JAXCOMPAT_TEST_COUNTS", "9.9.9")
    pytester.makeconftest("from tests.conftest import pytest_sessionfinish\n")
    pytester.makepyfile(test_counted=COUNTED_SUITE.format(skip=skip))
    result = pytester.runpytest("-p", "no:jaxcompat", "-p", "no:cacheprovider")
    if problem is None:
        assert result.ret == pytest.ExitCode.OK
        assert "tests/test_counts.json" not in result.stdout.str()
    else:
        assert result.ret == pytest.ExitCode.TESTS_FAILED
        assert problem in result.stdout.str().replace("\n", " ")


@pytest.mark.parametrize("reported", ["pinned", "another"])
def test_a_row_whose_jax_reports_another_release_runs_no_test(pytester, monkeypatch, reported):
    # A jax/version.py changed in the package cache would pass a row as a release it is not.
    import jax
    import jaxlib

    jax_pin = jax.__version__ if reported == "pinned" else "9.9.9"
    monkeypatch.setenv("JAXCOMPAT_TEST_PINS", f"{jax_pin} {jaxlib.__version__}")
    pytester.makeconftest("from tests.conftest import pytest_configure\n")
    pytester.makepyfile(test_counted=COUNTED_SUITE.format(skip="False"))
    result = pytester.runpytest("-p", "no:jaxcompat", "-p", "no:cacheprovider")
    if reported == "pinned":
        result.assert_outcomes(passed=3)
        return
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "passed" not in result.stdout.str()
    assert (
        f"jax==9.9.9 and jaxlib=={jaxlib.__version__} were installed, but they report jax"
        f" {jax.__version__} and jaxlib {jaxlib.__version__}: a changed copy is in the package"
        " cache. Clear it (`uv cache clean jax`) and rerun this row."
    ) in (result.stdout.str() + result.stderr.str()).replace("\n", " ")


def test_an_unrecorded_row_fails_naming_how_to_record_it():
    from tests._test_counts import count_problem

    assert count_problem("9.9.9", 5, 0, {}) == (
        "no test counts are recorded for JAX 9.9.9 in tests/test_counts.json: after a "
        "whole-matrix run (.ci/run), python tools/test_counts.py .ci/logs"
    )


def test_every_nox_session_is_described_by_a_whole_sentence():
    # `nox -l` shows the first line of each session's docstring: a sentence cut there reads
    # as a cut sentence.
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    sessions = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any("session" in ast.unparse(decorator) for decorator in node.decorator_list)
    ]
    assert len(sessions) > 10
    cut = [
        s.name for s in sessions if not (ast.get_docstring(s) or "").split("\n")[0].endswith(".")
    ]
    assert cut == []
