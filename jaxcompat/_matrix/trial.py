"""One matrix row tried for ``jaxcompat floor``: a fresh virtualenv, the install, the tests.

The row's jax, jaxlib and companion pins are installed together with the library (its own
dependencies resolved with them, so a dependency that needs a newer JAX makes the install fail
rather than upgrade JAX) and the jaxcompat running the command; then the library's tests run
there: pytest with a JUnit report, whose passing, skipped and collected tests ``floor``
compares with the reference row's, or a command, which passes where it exits 0. What else the
row installed is listed too, to say what the row below a floor resolved differently. Nothing
here imports JAX.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from packaging.specifiers import SpecifierSet

from . import MatrixRow
from .pip_indexes import uv_index_environment, working_uv

__all__ = ["Library", "Outcome", "Tests", "jaxcompat_requirement", "passed_in", "try_row"]

#: A frame of a test function in faulthandler's dump: `  File "...", line 2 in test_x`.
_TEST_FRAME = re.compile(r", line \d+ in (test\w*)$")

#: How long one row's install and one row's tests may take, in seconds.
INSTALL_TIMEOUT = 1800
TEST_TIMEOUT = 3600


@dataclass(frozen=True)
class Library:
    root: Path
    #: The pyproject.toml whose jax requirement ``--write`` raises; None where no
    #: pyproject.toml declares one (a library declared in setup.py).
    writable: Path | None
    declared_in: str  # where the declared range comes from: "pyproject.toml" or "--jax"
    declared: list[str]  # the releases of the matrix the declared range admits, oldest first
    requires_python: SpecifierSet | None


@dataclass(frozen=True)
class Outcome:
    """One row tried: whether it installed, the tests that passed, and what to say of it."""

    installed: bool
    passed: frozenset[str]
    ran: int
    succeeded: bool  # pytest or the command exited 0
    said: str
    skipped: frozenset[str] = frozenset()
    collected: frozenset[str] = frozenset()  # every test of the report, whatever its outcome
    #: {distribution: version} of what the row installed beside its JAX, to say what changed
    #: between the row below the floor and the floor (its dependencies may, not JAX).
    distributions: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Tests:
    """How the library's tests run: pytest with `pytest_args`, or `command` (a shell-split
    command run with the row's virtualenv first on PATH)."""

    command: list[str] | None
    pytest_args: list[str]
    extras: list[str]
    also: list[str]  # more requirements to install beside the library


def _interpreter(row: MatrixRow, library: Library) -> tuple[str, str] | None:
    """(Python version, its interpreter) for `row`: this interpreter's version where the row
    and the library admit it, else the first such ``pythonX.Y`` on PATH, primary first."""
    admitted = row.pythons_for(library.requires_python)
    running = f"{sys.version_info[0]}.{sys.version_info[1]}"
    ordered = sorted(admitted, key=lambda v: (v != running, v != row.python))
    for version in ordered:
        if version == running:
            return version, sys.executable
        found = shutil.which(f"python{version}")
        if found is not None:
            return version, found
    return None


def _source_tree() -> Path | None:
    """The checkout this jaxcompat runs from, or None where it runs installed."""
    source = Path(__file__).resolve().parents[2]
    if (source / "pyproject.toml").is_file() and (source / "jaxcompat" / "__init__.py").is_file():
        return source
    return None


def jaxcompat_requirement() -> str:
    """The jaxcompat running this command (or a noxfile), as a requirement that installs the
    same one into a row's virtualenv: its checkout where it runs from one; the path of the
    checkout or wheel it was installed from (pip records it, PEP 610); else the same
    release from the package index."""
    source = _source_tree()
    if source is not None:
        return str(source)
    distribution = importlib.metadata.distribution("jaxcompat")
    recorded = distribution.read_text("direct_url.json")
    if recorded:
        url = urlparse(json.loads(recorded)["url"])
        if url.scheme == "file":
            return unquote(url.path)
    return f"jaxcompat=={distribution.version}"


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " | ".join(lines[-count:]) or "no message"


def _install(row: MatrixRow, python: str, venv: Path, library: Library, tests: Tests) -> str:
    """Make `venv` and install the row and the library into it: "" or why it failed."""
    uv = working_uv()
    target = f"{library.root}[{','.join(tests.extras)}]" if tests.extras else str(library.root)
    wanted = [*row.requirements, jaxcompat_requirement(), "-e", target, *tests.also]
    if tests.command is None:
        wanted.append("pytest")
    if uv is not None:
        make = [uv, "venv", "--quiet", "--python", python, str(venv)]
        install = [uv, "pip", "install", "--quiet", "--python", str(_bin(venv) / "python")]
        env = {**os.environ, **uv_index_environment()}
    else:
        make = [python, "-m", "venv", str(venv)]
        install = [str(_bin(venv) / "python"), "-m", "pip", "install", "--quiet"]
        env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    for command in (make, [*install, *wanted]):
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, env=env, timeout=INSTALL_TIMEOUT
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"{Path(command[0]).name} did not finish: {error}"
        if done.returncode != 0:  # uv's and pip's last lines name the conflict
            return _last_lines(done.stderr or done.stdout)
    return ""


def _bin(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def passed_in(report: Path) -> tuple[frozenset[str], int, frozenset[str], frozenset[str]]:
    """The tests a pytest JUnit report says passed, how many ran (not skipped), the tests it
    skipped, and every test it names."""
    passed, skipped, collected, ran = set(), set(), set(), 0
    for case in ElementTree.parse(report).iter("testcase"):
        outcome = {child.tag for child in case}
        name = f"{case.get('classname')}::{case.get('name')}"
        collected.add(name)
        if "skipped" in outcome:
            skipped.add(name)
            continue
        ran += 1
        if not outcome & {"failure", "error"}:
            passed.add(name)
    return frozenset(passed), ran, frozenset(skipped), frozenset(collected)


def _run_tests(venv: Path, library: Library, tests: Tests, scratch: Path) -> Outcome:
    env = {**os.environ, "VIRTUAL_ENV": str(venv)}
    env["PATH"] = os.pathsep.join([str(_bin(venv)), env.get("PATH", "")])
    env.pop("PYTHONPATH", None)
    report = scratch / "report.xml"
    if tests.command is None:
        command = [str(_bin(venv) / "python"), "-m", "pytest", "-p", "no:cacheprovider"]
        # A file that cannot be collected on one release (a test importing a newer JAX's
        # name, or written in a newer Python's syntax) loses its own tests, not the run's.
        command += ["--continue-on-collection-errors", f"--junitxml={report}"]
        command += tests.pytest_args
    else:
        command = tests.command
    try:
        done = subprocess.run(
            command,
            cwd=library.root,
            capture_output=True,
            text=True,
            env=env,
            timeout=TEST_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return Outcome(True, frozenset(), 0, False, f"the tests did not finish: {error}")
    if tests.command is not None:
        said = "exit 0" if done.returncode == 0 else f"exit {done.returncode}"
        if done.returncode != 0:
            said += f": {_last_lines(done.stdout + done.stderr)}"
        return Outcome(True, frozenset(), 0, done.returncode == 0, said)
    if not report.is_file():
        return Outcome(True, frozenset(), 0, False, f"pytest: {_no_report(done)}")
    passed, ran, skipped, collected = passed_in(report)
    said = f"{len(passed)} passed, {ran - len(passed)} failed, {len(skipped)} skipped"
    if ran and not passed:  # nothing to compare with: say why (an import that fails...)
        said += f"; the first: {_first_failure(report)}"
    return Outcome(True, passed, ran, done.returncode == 0, said, skipped, collected)


def _no_report(done: subprocess.CompletedProcess[str]) -> str:
    """Why pytest wrote no report: the signal that ended it and Python's own word on it (a
    crash in an extension module), or the end of what it printed."""
    if done.returncode < 0:
        try:
            name = signal.Signals(-done.returncode).name
        except ValueError:
            name = f"signal {-done.returncode}"
        lines = done.stderr.splitlines()
        fatal = [line for line in lines if line.startswith("Fatal Python")]
        # faulthandler's frames, innermost first: the first test function is the one running.
        tests = [found[1] for line in lines if (found := _TEST_FRAME.search(line))]
        return (
            f"ended by {name}"
            + (f" ({fatal[0]})" if fatal else "")
            + (f" in {tests[0]}" if tests else "")
        )
    return _last_lines(done.stderr)


def _first_failure(report: Path) -> str:
    """The first failed or erroring test of a pytest JUnit report, with its error: the last
    line of its traceback (a collection error's message only says "collection failure")."""
    for case in ElementTree.parse(report).iter("testcase"):
        for child in case:
            if child.tag in ("failure", "error"):
                lines = [line for line in (child.text or "").splitlines() if line.strip()]
                error = lines[-1].removeprefix("E").strip() if lines else child.get("message")
                name = "::".join(part for part in (case.get("classname"), case.get("name")) if part)
                return f"{name}: {' '.join(str(error).split())[:200]}"
    return "none recorded"


#: A test module that imports a top-level module no installed distribution provides.
_MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '(\w+)'")


def missing_module_hint(said: str) -> str:
    """Where a row's first failure is a top-level module that is not installed, what to pass:
    a test dependency the library does not declare (jax-md 0.2.29's ``test_util`` imports
    netCDF4), which only ``--with`` installs. A missing submodule (``flax.nnx``) is a
    dependency's release that lacks it: no hint."""
    found = _MISSING_MODULE.search(said)
    if found is None:
        return ""
    return (
        f"; `{found[1]}` is not installed: pass --with the package that provides it, or"
        " --extra NAME for an extra of the library that requires it"
    )


def try_row(row: MatrixRow, library: Library, tests: Tests) -> Outcome:
    found = _interpreter(row, library)
    if found is None:
        pythons = ", ".join(row.pythons_for(library.requires_python)) or "none"
        why = f"no Python for it on PATH (its wheels and requires-python admit: {pythons})"
        return Outcome(False, frozenset(), 0, False, why)
    version, python = found
    with tempfile.TemporaryDirectory(prefix=f"jaxcompat-floor-{row.jax}-") as scratch:
        venv = Path(scratch) / "venv"
        failed = _install(row, python, venv, library, tests)
        if failed:
            said = f"Python {version}: cannot install: {failed}"
            return Outcome(False, frozenset(), 0, False, said)
        distributions = _distributions(venv)
        outcome = _run_tests(venv, library, tests, Path(scratch))
    said = f"Python {version}: {outcome.said}"
    return dataclasses.replace(outcome, said=said, distributions=distributions)


# Prints {name: version} of every distribution of the interpreter it runs in.
_LIST_DISTRIBUTIONS = (
    "import importlib.metadata as m, json; "
    "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))"
)


def _distributions(venv: Path) -> dict[str, str]:
    """{normalized name: version} installed in `venv`; empty where it cannot be read."""
    try:
        done = subprocess.run(
            [str(_bin(venv) / "python"), "-c", _LIST_DISTRIBUTIONS],
            capture_output=True,
            text=True,
            timeout=120,
        )
        found = json.loads(done.stdout) if done.returncode == 0 else {}
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {}
    return {re.sub(r"[-_.]+", "-", str(name)).lower(): str(v) for name, v in found.items()}
