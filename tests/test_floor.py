"""``jaxcompat floor``: the lowest matrix row on which a library's own tests pass.

Each row is really installed, into a fresh virtualenv, from the package index on disk of
tests/_fake_index.py (jax, jaxlib and the libraries there carry metadata only), and the
library's tests really run there: a command that reads the installed JAX's version. The
library builds with a backend of its own (``backend-path``), so nothing needs a real index.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxcompat._matrix import floor, rows, trial
from jaxcompat._matrix.pip_indexes import working_uv

pytestmark = [
    pytest.mark.usefixtures("resolver_on_fake_index"),
    pytest.mark.skipif(working_uv() is None, reason="the rows install with uv"),
]

RUNNING = f"{sys.version_info[0]}.{sys.version_info[1]}"
#: The rows with wheels for this Python, so that no other interpreter is needed.
HERE = [row for row in rows() if RUNNING in row.pythons]

# An in-tree PEP 517 backend: a wheel with the library's metadata and a .pth to its tree.
BACKEND = """
import os, zipfile

def _wheel(directory):
    info = "fakelib-1.0.dist-info"
    requires = "".join(f"Requires-Dist: {r}\\n" for r in REQUIRES)
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: fakelib\\nVersion: 1.0\\n{requires}",
        f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\n"
        "Tag: py3-none-any\\n",
        "fakelib.pth": os.path.dirname(os.path.abspath(__file__)) + "\\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{p},,\\n" for p in [*files, f"{info}/RECORD"])
    name = "fakelib-1.0-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)
    return name

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory)

def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory)

def get_requires_for_build_wheel(config_settings=None):
    return []

get_requires_for_build_editable = get_requires_for_build_wheel
"""

# Exits 1 below the JAX release in NEEDS, as a test suite that fails there would.
NEEDS_JAX = (
    'python -c "import importlib.metadata as m, sys; '
    "sys.exit(tuple(map(int, m.version('jax').split('.'))) < NEEDS)\""
)


BUILD_SYSTEM = """\
[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]
"""


def _library(root: Path, requires: list[str], *, project_table: bool = True) -> Path:
    """A library whose pyproject.toml declares jax>=0.4.13 and `requires`; without its
    `project_table`, only its build backend declares them, as a setup.py does."""
    root.mkdir()
    dependencies = ", ".join(f'"{r}"' for r in ["jax>=0.4.13", *requires])
    project = textwrap.dedent(f"""
        [project]
        name = "fakelib"
        version = "1.0"
        dependencies = [{dependencies}]  # the floor
        """)
    (root / "pyproject.toml").write_text(BUILD_SYSTEM + (project if project_table else ""))
    (root / "backend.py").write_text(f"REQUIRES = {['jax', *requires]!r}\n" + BACKEND)
    return root


def _command(needs: str) -> str:
    return NEEDS_JAX.replace("NEEDS", repr(tuple(map(int, needs.split(".")))))


@pytest.fixture
def no_jaxcompat_build(monkeypatch):
    # The rows install the jaxcompat under test; here the index's stand-in, as nothing on the
    # fake index can build it from source.
    monkeypatch.setattr(trial, "jaxcompat_requirement", lambda: "plain")


pytestmark.append(pytest.mark.usefixtures("no_jaxcompat_build"))


def test_the_first_row_where_the_tests_pass_is_the_floor_and_write_raises_it(tmp_path, capsys):
    start, needed, reference = HERE[0], HERE[3], HERE[5]
    library = _library(tmp_path / "lib", [])
    argv = [str(library), "--from", start.jax, "--reference", reference.jax]
    argv += ["--command", _command(needed.jax)]
    assert floor.main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(
        f"declared floor: jax>=0.4.13 (pyproject.toml); reference: {reference.jax}"
    )
    assert out[1] == f"  {reference.jax} (reference): Python {RUNNING}: exit 0"
    # Five releases below the reference, halved at each try: the middle one fails, so the
    # floor is above it; the fifth holds, then the fourth does.
    tried = [line.split(":")[0].strip() for line in out[2:-3]]
    assert tried == [HERE[2].jax, HERE[4].jax, needed.jax]
    assert out[2].startswith(f"  {HERE[2].jax}: Python {RUNNING}: exit 1")
    assert out[2].endswith(" s)")
    assert out[3].startswith(f"  {HERE[4].jax}: Python {RUNNING}: exit 0 (")
    assert out[4].startswith(f"  {needed.jax}: Python {RUNNING}: exit 0 (")
    assert out[3].endswith("<- holds") and out[4].endswith("<- holds")
    assert out[-3].startswith(
        f"the tests pass as on {reference.jax} from jax>={needed.jax} (halving the 5 "
        "releases below it; "
    )
    # Only JAX's release tells the row below the floor from the floor: the tests need it.
    assert out[-2] == f"{HERE[2].jax} and {needed.jax} install the same besides jax and jaxlib"
    assert out[-1] == (
        f"the declared floor jax>=0.4.13 does not hold: --write raises it to {needed.jax}"
    )
    assert "jax>=0.4.13" in (library / "pyproject.toml").read_text()

    assert floor.main([*argv, "--write"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (f"{library / 'pyproject.toml'}: jax: 'jax>=0.4.13' -> 'jax>={needed.jax}'")
    text = (library / "pyproject.toml").read_text()
    assert f'dependencies = ["jax>={needed.jax}"]  # the floor' in text
    # Now the declared floor holds, from the floor the pyproject.toml declares.
    assert floor.main(argv[:1] + argv[3:]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"the declared floor jax>={needed.jax} holds"


def test_from_above_the_declared_floor_says_nothing_of_the_rows_below(tmp_path, capsys):
    # Only the rows from --from up are tried: where the first of them passes, the declared
    # floor below it is neither proved nor disproved, and nothing is written.
    library = _library(tmp_path / "lib", [])
    start, reference = HERE[2], HERE[4]
    argv = [str(library), "--from", start.jax, "--reference", reference.jax, "--write"]
    assert floor.main([*argv, "--command", "python -c pass"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"the releases below {start.jax} (--from) were not tried: nothing to raise"
    assert '"jax>=0.4.13"' in (library / "pyproject.toml").read_text()


def test_a_dependency_that_needs_a_newer_jax_fails_the_install_of_the_rows_below(tmp_path, capsys):
    # chexlike 1.0 needs jax>=0.4.27: below, the row's pins and it cannot be installed
    # together, and the row is not the floor however its tests would do.
    library = _library(tmp_path / "lib", ["chexlike"])
    below = [row for row in HERE if row.release < (0, 4, 27)]
    if not below:
        pytest.skip(f"Python {RUNNING} has no row below JAX 0.4.27")
    start, reference = below[-1], next(row for row in HERE if row.release >= (0, 4, 28))
    argv = [str(library), "--from", start.jax, "--reference", reference.jax]
    assert floor.main([*argv, "--command", "python -c pass"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("  0.4.27: Python") and out[2].endswith("<- holds")
    assert out[3].startswith(f"  {start.jax}: Python {RUNNING}: cannot install: ")
    assert "chexlike" in out[3]
    assert out[-1].endswith("--write raises it to 0.4.27")


def test_the_floor_names_what_its_dependencies_resolve_to_beside_the_row_below(tmp_path, capsys):
    # The library's own requirement admits chexlike 1.0 (rows 0.4.27 to 0.4.38) and 1.1 (from
    # 0.5.0), and its tests pass with 1.1 only: the floor is 0.5.0, and what stops it there
    # is the dependency the rows resolve to, not JAX (gpjax 1.0.0's equinox>=0.11.0, measured).
    library = _library(tmp_path / "lib", ["chexlike"])
    rows_here = [row for row in HERE if (0, 4, 27) <= row.release <= (0, 5, 1)]
    if len(rows_here) < 3 or not any(row.jax == "0.5.0" for row in rows_here):
        pytest.skip(f"Python {RUNNING} has no rows 0.4.27 to 0.5.1")
    below = [row for row in rows_here if row.release < (0, 5, 0)][-1]
    needs = "import importlib.metadata as m, sys; sys.exit(m.version('chexlike') != '1.1')"
    argv = [str(library), "--from", rows_here[0].jax, "--reference", rows_here[-1].jax]
    assert floor.main([*argv, "--command", f'python -c "{needs}"']) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-3].startswith(f"the tests pass as on {rows_here[-1].jax} from jax>=0.5.0 ")
    assert out[-2] == f"besides jax and jaxlib, {below.jax} -> 0.5.0 install: chexlike 1.0 -> 1.1"


def test_the_reference_must_pass(tmp_path, capsys):
    library = _library(tmp_path / "lib", [])
    reference = HERE[1]
    argv = [
        str(library),
        "--reference",
        reference.jax,
        "--command",
        "python -c 'raise SystemExit(3)'",
    ]
    assert floor.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"python -m jaxcompat floor: the tests cannot be judged on the reference, "
        f"{reference.jax}: Python {RUNNING}: exit 3: no message"
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--reference", "0.4.14"], "--reference 0.4.14: not a release of jaxcompat's matrix"),
        (["--from", "0.12.0.1"], "--from 0.12.0.1 is not below the reference 0.12.0.1"),
        (["--command", ""], "--command is empty"),
        (["--command", "true", "--", "-x"], "arguments after -- go to pytest, which --command"),
    ],
)
def test_usage_errors_exit_2_naming_the_problem(tmp_path, capsys, argv, message):
    library = _library(tmp_path / "lib", [])
    assert floor.main([str(library), *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_directory_without_pyproject_is_a_usage_error(tmp_path, capsys):
    assert floor.main([str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"python -m jaxcompat floor: no pyproject.toml in {tmp_path}: pass the library's root, "
        "or give its declared jax range with --jax SPEC (a library declared in setup.py)\n"
    )
    assert floor.main([str(tmp_path), "--jax", ">=0.4.30", "--write"]) == 2
    assert capsys.readouterr().err == (
        "python -m jaxcompat floor: --write raises the jax requirement of the pyproject.toml's "
        f"[project] dependencies, and {tmp_path} has none: run without --write and raise the "
        "floor where the library declares it\n"
    )


def test_jax_goes_around_a_bad_jax_requirement_but_write_cannot(tmp_path, capsys):
    # The error names --jax where --jax is a way around it, and only there.
    library = tmp_path / "lib"
    library.mkdir()
    (library / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=>0.4"]\n')
    bad = f"{library / 'pyproject.toml'}: the jax requirement 'jax>=>0.4' is not a valid PEP 508"
    assert floor.main([str(library)]) == 2
    error = capsys.readouterr().err
    assert bad in error and error.endswith("; fix it, or pass --jax SPEC\n")
    assert floor.main([str(library), "--jax", ">=0.4.30", "--write"]) == 2
    error = capsys.readouterr().err
    assert bad in error and error.endswith("; fix it\n")
    declared = floor._library(library, ">=0.4.30", write=False)
    assert (declared.declared_in, declared.declared[0], declared.writable) == (
        "--jax",
        "0.4.30",
        None,
    )


def test_a_library_declared_in_setup_py_gives_its_range_with_jax(tmp_path, capsys):
    # Its pyproject.toml holds the build system only: the declared range is not guessed.
    library = _library(tmp_path / "lib", [], project_table=False)
    assert floor.main([str(library)]) == 2
    assert capsys.readouterr().err == (
        f"python -m jaxcompat floor: {library / 'pyproject.toml'} has no jax requirement in "
        "[project] dependencies: give its declared jax range with --jax SPEC (a library "
        "declared in setup.py)\n"
    )
    start, needed, reference = HERE[0], HERE[1], HERE[2]
    argv = [str(library), "--jax", f">={start.jax}", "--reference", reference.jax]
    assert floor.main([*argv, "--command", _command(needed.jax)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"declared floor: jax>={start.jax} (--jax); reference: {reference.jax}"
    assert out[-1] == (
        f"the declared floor jax>={start.jax} does not hold: declare jax>={needed.jax}"
    )


def _junit_report(suite: Path, file: str, source: str) -> Path:
    """Run pytest on one test file written into `suite`; its JUnit report."""
    suite.mkdir()
    (suite / file).write_text(source)
    report = suite / "report.xml"
    # Without jaxcompat's plugin, whose report header imports JAX: these files do not use it.
    quiet = ["-q", "-p", "no:cacheprovider", "-p", "no:jaxcompat"]
    subprocess.run(
        [sys.executable, "-m", "pytest", *quiet, f"--junitxml={report}"],
        cwd=suite,
        capture_output=True,
        check=False,
    )
    return report


def test_a_row_holds_when_it_passes_every_test_the_reference_passes(tmp_path):
    # pytest's own JUnit report, read as the rows' are.
    report = _junit_report(
        tmp_path / "suite",
        "test_a.py",
        "import pytest\n"
        "def test_passes(): pass\n"
        "def test_fails(): assert False\n"
        "@pytest.mark.skip\n"
        "def test_skipped(): pass\n"
        "def test_errors(broken): pass\n"
        "@pytest.fixture\n"
        "def broken(): raise RuntimeError\n",
    )
    passed, ran, skipped, collected = trial.passed_in(report)
    assert passed == {"test_a::test_passes"}
    assert ran == 3
    assert skipped == {"test_a::test_skipped"}
    assert len(collected) == 4 and "test_a::test_errors" in collected
    tests = trial.Tests(None, [], [], [])
    both = frozenset({"test_a::test_passes", "test_a::test_skipped"})
    reference = trial.Outcome(True, both, 4, False, "")
    more = trial.Outcome(True, both | {"t::x"}, 5, True, "")
    assert floor._holds(more, reference, tests) == (True, "")
    # A test skipped here is the library's word that it does not apply: counted, not lost.
    skipping = trial.Outcome(True, frozenset({"test_a::test_passes"}), 3, True, "", skipped)
    assert floor._holds(skipping, reference, tests) == (
        True,
        "; 1 skipped here pass on the reference",
    )
    fewer = trial.Outcome(True, frozenset(), 3, False, "", skipped)
    assert floor._holds(fewer, reference, tests) == (
        False,
        "; 1 skipped here pass on the reference; 1 passing on the reference do not: "
        "test_a::test_passes",
    )
    not_installed = trial.Outcome(False, frozenset(), 0, False, "")
    assert floor._holds(not_installed, reference, tests) == (False, "")


def _outcome_of(tmp_path: Path, name: str, source: str) -> trial.Outcome:
    """A real pytest run's outcome, read from its JUnit report as the rows' are."""
    report = _junit_report(tmp_path / name, "test_p.py", source)
    passed, ran, skipped, collected = trial.passed_in(report)
    return trial.Outcome(True, passed, ran, True, "", skipped, collected)


def test_a_parameter_whose_id_changed_is_not_lost_but_a_failure_is(tmp_path):
    # pytest names a class parameter by its __name__: JAX's jnp.bool_ is `bool_` up to 0.4.25
    # and `bool` from 0.4.26, so gymnax's test_x[bool] of the reference is test_x[bool_] there.
    tests = trial.Tests(None, [], [], [])
    params = "import pytest\n@pytest.mark.parametrize('kind', [{}])\ndef test_x(kind): {}\n"
    reference = _outcome_of(tmp_path, "reference", params.format("'int8', 'bool'", "pass"))
    renamed = _outcome_of(tmp_path, "renamed", params.format("'int8', 'bool_'", "pass"))
    assert floor._holds(renamed, reference, tests) == (True, "; 1 pass under another parameter id")
    # The renamed one fails: lost, under the reference's name.
    failing = _outcome_of(
        tmp_path, "failing", params.format("'int8', 'bool_'", "assert kind == 'int8'")
    )
    assert floor._holds(failing, reference, tests) == (
        False,
        "; 1 passing on the reference do not: test_p::test_x[bool]",
    )
    # A case that failed on the reference and passes here stands in for none that is lost.
    mixed = "assert kind == {!r}"
    before = _outcome_of(tmp_path, "before", params.format("'a', 'b'", mixed.format("a")))
    after = _outcome_of(tmp_path, "after", params.format("'a', 'b'", mixed.format("b")))
    assert floor._holds(after, before, tests) == (
        False,
        "; 1 passing on the reference do not: test_p::test_x[a]",
    )


def test_a_reference_where_nothing_passes_says_why(tmp_path):
    # gymnax 1.0.1 imports six without requiring it: every test file fails to import, and
    # the row's line names the first one's error rather than only "0 passed, 6 failed".
    source = "import not_installed_anywhere\ndef test_x(): pass\n"
    report = _junit_report(tmp_path / "suite", "test_b.py", source)
    assert trial._first_failure(report) == (
        "test_b: ModuleNotFoundError: No module named 'not_installed_anywhere'"
    )


def test_a_reference_that_lacks_a_test_dependency_says_how_to_install_it(
    tmp_path, capsys, monkeypatch
):
    # jax-md 0.2.29's test_util imports netCDF4, which the library does not declare.
    source = "import absent_test_dependency\ndef test_x(): pass\n"
    report = _junit_report(tmp_path / "suite", "test_b.py", source)
    said = f"Python {RUNNING}: 0 passed, 1 failed, 0 skipped; the first: "
    said += trial._first_failure(report)
    ran = trial.Outcome(True, frozenset(), 1, False, said)
    monkeypatch.setattr(floor, "try_row", lambda row, library, tests: ran)
    library = _library(tmp_path / "lib", [])
    reference = HERE[1].jax
    assert floor.main([str(library), "--reference", reference]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"python -m jaxcompat floor: no test passes on the reference, {reference}: {said};"
        " `absent_test_dependency` is not installed: pass --with the package that provides"
        " it, or --extra NAME for an extra of the library that requires it"
    ]


@pytest.mark.parametrize(
    "error",
    [
        "ModuleNotFoundError: No module named 'flax.nnx'",  # a dependency's release lacks it
        "ImportError: cannot import name 'nnx' from 'flax'",
        "AssertionError: assert 1 == 2",
    ],
)
def test_only_a_missing_top_level_module_gets_the_install_hint(error):
    assert trial.missing_module_hint(f"0 passed, 1 failed; the first: test_a: {error}") == ""


def test_a_file_that_cannot_be_collected_loses_only_its_own_tests(tmp_path):
    # jax_dataclasses 1.6.3 has a test file in Python 3.12's syntax: on 3.11 pytest stopped
    # at its collection error, and no test of the other files ran.
    (tmp_path / "test_ok.py").write_text("def test_a(): pass\ndef test_b(): assert False\n")
    (tmp_path / "test_newer_syntax.py").write_text("def test_c(:\n    pass\n")
    library = trial.Library(tmp_path, None, "--jax", [rows()[0].jax], None)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    outcome = trial._run_tests(Path(sys.prefix), library, trial.Tests(None, [], [], []), scratch)
    assert outcome.passed == {"test_ok::test_a"}
    assert outcome.said == "1 passed, 2 failed, 0 skipped"


def test_a_test_run_that_crashes_names_the_signal(tmp_path):
    # interpax 0.3.16's tests end in a segmentation fault inside jaxlib 0.12.0.1 (raw JAX
    # too): no report is written, and the line says so instead of faulthandler's last lines.
    (tmp_path / "test_c.py").write_text("import ctypes\ndef test_crash(): ctypes.string_at(0)\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_c.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode < 0
    assert trial._no_report(done) == (
        "ended by SIGSEGV (Fatal Python error: Segmentation fault) in test_crash"
    )
