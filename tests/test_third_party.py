"""tools/third_party*.py: the libraries' test files, the JUnit reading and the report (the
rewrite is ``jaxcompat migrate``'s, tested in test_migrate.py)."""

import importlib
import json
import sys
import tarfile

import pytest

from ._helpers import ROOT


def _load_tool(name):
    # The tools import each other as scripts in one directory do.
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    return importlib.import_module(name)


third_party = _load_tool("third_party")
third_party_report = _load_tool("third_party_report")


def _library(**fields):
    """A library named pkg 1.0, declaring jax>=0.9.0, with FIELDS changed."""
    defaults = {
        "name": "pkg",
        "version": "1.0",
        "floor": "0.9.0",
        "below_floor": (),
        "dependencies": (),
    }
    return third_party.Library(**{**defaults, **fields})


JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="work.raw.lib.core_test.CoreTest" name="test_ok" time="0.1"/>
<testcase classname="work.raw.lib.core_test.CoreTest" name="test_bad" time="0.1">
<failure message="AttributeError: module 'jax' has no attribute 'P'">trace</failure></testcase>
<testcase classname="lib.skip_test.SkipTest" name="test_skip" time="0.0">
<skipped message="needs a GPU">skip</skipped></testcase>
<testcase classname="" name="lib.broken_test" time="0.0">
<error message="collection failure">Traceback
E   ImportError: cannot import name 'typeof' from 'jax'</error></testcase>
</testsuite></testsuites>
"""


def test_outcomes_are_read_per_test_from_junit_xml(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text(JUNIT)
    assert third_party._outcomes(junit, "lib") == {
        "lib.core_test.CoreTest::test_ok": "passed",
        "lib.core_test.CoreTest::test_bad": "failed",
        "lib.core_test.CoreTest::test_bad#message": (
            "AttributeError: module 'jax' has no attribute 'P'"
        ),
        "lib.skip_test.SkipTest::test_skip": "skipped",
        "::lib.broken_test": "error",
        "::lib.broken_test#message": "ImportError: cannot import name 'typeof' from 'jax'",
    }


def test_report_writes_the_tables_and_replaces_only_its_block(tmp_path):
    library = third_party.LIBRARIES["chex"]
    results = tmp_path / "results"
    results.mkdir()
    for row, mode, counts in [
        (library.floor, "raw", {"passed": 10, "failed": 0, "error": 0, "skipped": 1}),
        (library.below_floor[0], "raw", {"passed": 2, "failed": 8, "error": 0, "skipped": 1}),
        (library.below_floor[0], "jaxcompat", {"passed": 9, "failed": 1, "error": 0, "skipped": 1}),
    ]:
        record = {
            "library": "chex",
            "row": row,
            "mode": mode,
            "seconds": 1.5,
            "counts": counts,
            "tests": {"chex.a_test.T::test_x": "failed" if counts["failed"] else "passed"},
            "messages": {"chex.a_test.T::test_x": "boom"},
        }
        (results / f"chex-{row}-{mode}.json").write_text(json.dumps(record))
    compatibility = tmp_path / "COMPATIBILITY.md"
    compatibility.write_text("# Compatibility\n\nOther sections.\n")
    markdown = tmp_path / "THIRD_PARTY.md"
    third_party.report(results, markdown, compatibility)
    third_party.report(results, markdown, compatibility)  # a second run replaces its block
    text = markdown.read_text()
    assert f"| {library.below_floor[0]} | 2 / 8 / 0 | 9 / 1 / 0 | 90.0% | 1.5, 1.5 |" in text
    assert "| boom | unclassified | " in text
    block = compatibility.read_text()
    assert block.startswith("# Compatibility\n\nOther sections.\n\n")
    assert block.count(third_party_report.COMPATIBILITY_START) == 1
    assert block.count("## Third-party test suites") == 1


def test_test_files_leave_out_ignored_files_and_directories(tmp_path):
    for name in ["a_test.py", "slow/b_test.py", "slow_c_test.py", "nets/d_test.py", "e.py"]:
        path = tmp_path / "pkg" / "_src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    library = third_party.Library(
        name="dist-pkg",
        import_name="pkg",
        version="1.0",
        floor="0.5.0",
        below_floor=("0.4.30",),
        dependencies=(),
        ignore=("pkg/_src/slow", "pkg/_src/a_test.py"),
    )
    assert library.package == "pkg"
    # `slow` leaves out the directory, not `slow_c_test.py` beside it.
    assert third_party._test_files(library, tmp_path) == [
        "pkg/_src/nets/d_test.py",
        "pkg/_src/slow_c_test.py",
    ]


def test_tests_beside_the_package_are_found_by_their_own_file_pattern(tmp_path):
    for name in [
        "pkg/core.py",
        "pkg/core_test.py",
        "tests/test_a.py",
        "tests/sub/test_b.py",
        "tests/fixtures.py",
        "tests/slow/test_c.py",
    ]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    library = _library(
        below_floor=("0.4.30",),
        test_directory="tests",
        test_files="test_*.py",
        ignore=("tests/slow",),
    )
    assert library.copied == ("pkg", "tests")
    assert third_party._test_files(library, tmp_path) == ["tests/sub/test_b.py", "tests/test_a.py"]


@pytest.mark.parametrize("given", ["sdist", "checkout"])
def test_prepare_copies_and_rewrites_the_tests_beside_the_package(tmp_path, given):
    # A library whose sdist holds no tests (equinox) comes as a checkout of its release tag.
    source = tmp_path / "pkg-1.0"
    for name, text in [
        ("pkg/__init__.py", "import jax\n"),
        ("tests/test_a.py", "import jax\n"),
        ("tests/test_py312.py", "type Alias = int\ndef f(:\n"),  # left out: not ported
        ("tests/slow/test_s.py", "import jax\n"),  # in a directory left out
        ("tests/slow/helpers.py", "import jax\n"),  # kept: something may import it
    ]:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    sdist = tmp_path / "pkg-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        archive.add(source, arcname="pkg-1.0")
    library = _library(
        test_directory="tests",
        test_files="test_*.py",
        ignore=("tests/test_py312.py", "tests/slow"),
    )
    third_party.prepare(library, sdist if given == "sdist" else source, tmp_path / "work")
    for name in ("pkg/__init__.py", "tests/test_a.py", "tests/slow/helpers.py"):
        assert (tmp_path / "work" / "raw" / name).read_text() == "import jax\n"
        assert (tmp_path / "work" / "jaxcompat" / name).read_text() == "import jaxcompat as jax\n"
    assert (source / "tests" / "test_a.py").read_text() == "import jax\n"  # copied, not edited
    assert not (tmp_path / "work" / "jaxcompat" / "tests" / "test_py312.py").exists()
    assert not (tmp_path / "work" / "raw" / "tests" / "test_py312.py").exists()
    assert not (tmp_path / "work" / "raw" / "tests" / "slow" / "test_s.py").exists()
    assert not (tmp_path / "work" / "jaxcompat" / "tests" / "slow" / "test_s.py").exists()


def test_prepare_ports_for_the_releases_from_the_lowest_row_up(tmp_path):
    # distrax declares jax>=0.7.0 and runs on 0.4.30 too: its gate on square_p (JAX 0.4.36)
    # is dead for the declared range but needed on the lowest row, so the port keeps it.
    gate = 'import jax\nif hasattr(jax.lax, "square_p"):\n    new = 1\nelse:\n    old = 1\n'
    source = tmp_path / "pkg-1.0"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "__init__.py").write_text(gate)
    library = _library(floor="0.7.0", below_floor=("0.4.30",))
    assert third_party.ported_from(library) == "0.4.30"
    third_party.prepare(library, source, tmp_path / "work")
    ported = (tmp_path / "work" / "jaxcompat" / "pkg" / "__init__.py").read_text()
    assert ported == gate.replace("import jax\n", "import jaxcompat as jax\n")
    above_floor = _library(floor="0.7.0")
    third_party.prepare(above_floor, source, tmp_path / "work_above")
    ported = (tmp_path / "work_above" / "jaxcompat" / "pkg" / "__init__.py").read_text()
    assert ported == "import jaxcompat as jax\nnew = 1\n"


def test_what_a_library_carries_is_copied_and_ported_beside_it_below_its_floor(
    tmp_path, monkeypatch
):
    # optimistix needs equinox, whose releases it admits all declare jax>=0.4.38: on 0.4.30
    # the installed equinox comes along, raw as published and ported with optimistix.
    installed = tmp_path / "site-packages"
    (installed / "dep" / "__pycache__").mkdir(parents=True)
    (installed / "dep" / "__init__.py").write_text("import jax\n")
    (installed / "dep" / "__pycache__" / "x.pyc").write_bytes(b"")
    monkeypatch.syspath_prepend(str(installed))
    source = tmp_path / "pkg-1.0"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "__init__.py").write_text("import dep\n")
    library = _library(floor="0.4.38", below_floor=("0.4.30",), carried=("dep==2.0",))
    assert library.carried_on("0.4.30") == ("dep==2.0",)
    assert library.requirements_on("0.4.30") == ()
    assert library.carried_on("0.4.38") == library.carried_on("newest") == ()
    assert library.requirements_on("0.4.38") == ("dep",)  # resolved there, as any dependency
    third_party.prepare(library, source, tmp_path / "below", "0.4.30")
    assert (tmp_path / "below" / "raw" / "dep" / "__init__.py").read_text() == "import jax\n"
    ported = (tmp_path / "below" / "jaxcompat" / "dep" / "__init__.py").read_text()
    assert ported == "import jaxcompat as jax\n"
    assert not (tmp_path / "below" / "raw" / "dep" / "__pycache__").exists()
    third_party.prepare(library, source, tmp_path / "floor", "0.4.38")
    assert not (tmp_path / "floor" / "raw" / "dep").exists()
    missing = _library(below_floor=("0.4.30",), carried=("absent-dep==1.0",))
    with pytest.raises(SystemExit, match="absent_dep is carried, but no package of that name"):
        third_party.prepare(missing, source, tmp_path / "missing", "0.4.30")


def test_report_counts_tests_and_test_files_that_run_only_through_jaxcompat(tmp_path):
    library = third_party.LIBRARIES["numpyro"]
    row = library.below_floor[-1]
    results = tmp_path / "results"
    results.mkdir()
    message = "ImportError: cannot import name 'jit_p' from 'jax.extend.core.primitives'"
    for mode, tests, messages in [
        (
            "raw",
            {"::test.test_a": "error", "test.test_b::test_z": "failed"},
            {"::test.test_a": f"{message} (/site/jax/p.py)", "test.test_b::test_z": "boom"},
        ),
        (
            "jaxcompat",
            {
                "test.test_a::test_x": "passed",
                "test.test_a.Case::test_y": "passed",
                "test.test_b::test_z": "passed",
            },
            {},
        ),
    ]:
        record = {
            "library": "numpyro",
            "row": row,
            "mode": mode,
            "seconds": 1.0,
            "counts": {"passed": 0, "failed": 0, "error": 0, "skipped": 0},
            "tests": tests,
            "messages": messages,
        }
        (results / f"numpyro-{row}-{mode}.json").write_text(json.dumps(record))
    markdown = tmp_path / "THIRD_PARTY.md"
    third_party.report(results, markdown, tmp_path / "COMPATIBILITY.md")
    text = markdown.read_text()
    assert f"- {row}: 1 test that fails raw with `boom` passes.\n" in text
    assert (
        f"- {row}: 1 test file that fails to import raw with `{message}` import, and 2 of "
        "their tests pass." in text
    )


def test_a_raw_failure_by_timing_is_never_reported_as_fixed(tmp_path):
    # diffrax's tqdm line count failed raw once on 0.4.38 and passed through jaxcompat: chance.
    library = third_party.LIBRARIES["diffrax"]
    test = "test.test_progress_meter::test_tqdm_progress_meter"
    records = {
        ("diffrax", "0.4.38", "raw"): {
            "tests": {test: "failed"},
            "messages": {test: "AssertionError: assert 103 == 102"},
        },
        ("diffrax", "0.4.38", "jaxcompat"): {"tests": {test: "passed"}, "messages": {}},
    }
    assert third_party_report._fixed_lines(library, records) == ["- none."]
    other = "test.test_progress_meter::test_text_progress_meter"
    records["diffrax", "0.4.38", "raw"]["tests"][other] = "failed"
    records["diffrax", "0.4.38", "raw"]["messages"][other] = "AssertionError: assert 3 == 2"
    records["diffrax", "0.4.38", "jaxcompat"]["tests"][other] = "passed"
    assert third_party_report._fixed_lines(library, records) == [
        "- 0.4.38: 1 test that fails raw with `AssertionError: assert 3 == 2` passes."
    ]


def test_prepare_refuses_a_left_out_file_the_source_lacks(tmp_path):
    source = tmp_path / "pkg-1.0"
    (source / "tests").mkdir(parents=True)
    (source / "pkg").mkdir()
    library = _library(
        test_directory="tests",
        ignore=("tests/test_gone.py",),
    )
    with pytest.raises(SystemExit) as raised:
        third_party.prepare(library, source, tmp_path / "work")
    assert str(raised.value) == f"pkg: it leaves out tests/test_gone.py, which {source} lacks"


def test_report_keeps_the_last_section_of_a_library_not_run_since(tmp_path):
    optax = third_party.LIBRARIES["optax"]
    heading = f"## optax {optax.version} (declares jax>={optax.floor})"
    results = tmp_path / "results"
    results.mkdir()
    markdown = tmp_path / "THIRD_PARTY.md"
    markdown.write_text(f"# Old\n\n{heading}\n\n| 0.4.30 | 5 / 0 / 0 |\n\n## Not run: x\n")
    compatibility = tmp_path / "COMPATIBILITY.md"
    compatibility.write_text(
        f"{third_party_report.COMPATIBILITY_START}\n"
        f"| optax {optax.version} | 0.4.30 | 5 / 0 / 0 | 5 / 0 / 0 |\n"
        f"{third_party_report.COMPATIBILITY_END}\n"
    )
    third_party.report(results, markdown, compatibility)
    text = markdown.read_text()
    assert f"{heading}\n\n| 0.4.30 | 5 / 0 / 0 |\n\n## " in text
    assert text.count(heading) == 1
    assert "## chex" in text and "not run" in text  # no previous section: generated
    block = compatibility.read_text()
    assert f"| optax {optax.version} | 0.4.30 | 5 / 0 / 0 | 5 / 0 / 0 |" in block
    assert f"| optax {optax.version} | {optax.floor} |" not in block


def _raw_run(tmp_path, monkeypatch, files, **fields):
    """Run the raw copy holding FILES (path -> text) of a library with FIELDS; its record."""
    for name, text in files.items():
        path = tmp_path / "work" / "raw" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "work" / "raw" / "pytest.ini").write_text("[pytest]\n")
    monkeypatch.setattr(third_party, "RESULTS", tmp_path / "results")
    library = _library(below_floor=("0.4.30",), **fields)
    out = third_party.run(library, "0.4.30", "raw", tmp_path / "work", [])
    return json.loads(out.read_text())


def test_run_starts_pytest_in_the_working_directory_the_tests_open_files_from(
    tmp_path, monkeypatch
):
    # mctx's tree_test.py opens "../mctx/_src/tests/test_data/...": it runs from mctx/.
    files = {
        "pkg/_src/data.json": "[1, 2]",
        "pkg/_src/data_test.py": (
            "import json\n\n\ndef test_reads_its_data():\n"
            "    with open('../pkg/_src/data.json') as data:\n"
            "        assert json.load(data) == [1, 2]\n"
        ),
    }
    record = _raw_run(tmp_path, monkeypatch, files, working_directory="pkg")
    assert record["counts"] == {"passed": 1, "failed": 0, "error": 0, "skipped": 0}
    assert record["tests"] == {"pkg._src.data_test::test_reads_its_data": "passed"}


def test_run_leaves_out_the_deselected_tests_each_parametrization_included(tmp_path, monkeypatch):
    # equinox's timing test: a machine shared with other work fails or passes it by chance.
    files = {
        "tests/test_loop.py": (
            "import pytest\n\n\ndef test_result():\n    assert 1 + 1 == 2\n\n\n"
            "@pytest.mark.parametrize('buffer', [True, False])\n"
            "def test_speed(buffer):\n    raise AssertionError('Non-linear scaling detected')\n"
        )
    }
    record = _raw_run(
        tmp_path,
        monkeypatch,
        files,
        test_directory="tests",
        test_files="test_*.py",
        deselect=("tests/test_loop.py::test_speed",),
    )
    assert record["tests"] == {"tests.test_loop::test_result": "passed"}
