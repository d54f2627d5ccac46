"""Third-party proof: published JAX libraries' own test suites, through ``import jaxcompat as jax``.

python tools/third_party.py rewrite DIR          rewrite DIR's JAX imports in place
python tools/third_party.py prepare LIB SDIST WORK  copy the library (and JAX-using
                                                    dependencies) to WORK/raw and WORK/jaxcompat
python tools/third_party.py run LIB ROW MODE WORK   run the library's tests, write the results
python tools/third_party.py report                  THIRD_PARTY.md and the COMPATIBILITY.md block

The rewrite is AST-based and touches only the text of import statements, so every line keeps
its number and tracebacks through the rewritten copy point at the library's own lines.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import tokenize
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "third-party-results"

# --- The rewrite ---------------------------------------------------------------------------


def mirrored_jax_modules() -> frozenset[str]:
    """The JAX modules that jaxcompat mirrors under the same path (``jax.numpy``, ...)."""
    from jaxcompat._namespace import MIRRORED

    return frozenset(jax_module for jax_module, _ in MIRRORED.values())


def _to_jaxcompat(module: str) -> str:
    return "jaxcompat" + module.removeprefix("jax")


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, column) to (end line, end column); lines count from 1."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


def _import_edit(node: ast.Import, lines: list[str], mirrored: frozenset[str]) -> Edit | None:
    """``import jax.numpy as jnp`` -> ``import jaxcompat.numpy as jnp``, and so on."""
    aliases: list[ast.alias] = []
    changed = False
    for alias in node.names:
        name, asname = alias.name, alias.asname
        if name != "jax" and not name.startswith("jax."):
            aliases.append(alias)
        elif asname is not None:
            # `import jax.numpy as jnp` binds jnp to that module: rewrite it where mirrored.
            if name in mirrored:
                aliases.append(ast.alias(_to_jaxcompat(name), asname))
                changed = True
            else:
                aliases.append(alias)
        elif name in mirrored:
            # `import jax` and `import jax.numpy` both bind `jax`; jaxcompat resolves its
            # mirrored submodules on first access, so the alias alone serves both.
            aliases.append(ast.alias("jaxcompat", "jax"))
            changed = True
        else:
            # `import jax.scipy.special` binds `jax` to JAX itself: import the module, then
            # bind `jax` back to jaxcompat, which forwards `jax.scipy` to JAX's own module.
            aliases.extend([alias, ast.alias("jaxcompat", "jax")])
            changed = True
    if not changed:
        return None
    text = ast.unparse(ast.Import(names=aliases))
    return _edit(node, lines, text)


def _column(lines: list[str], line: int, byte_offset: int) -> int:
    """ast counts columns in UTF-8 bytes; the edits count characters."""
    return len(lines[line - 1].encode()[:byte_offset].decode())


def _edit(node: ast.stmt, lines: list[str], text: str) -> Edit:
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    # A statement continued over several lines keeps its line count: continuation lines.
    text += " \\\n" * (node.end_lineno - node.lineno)
    return Edit(
        node.lineno,
        _column(lines, node.lineno, node.col_offset),
        node.end_lineno,
        _column(lines, node.end_lineno, node.end_col_offset),
        text,
    )


def _module_span(lines: list[str], node: ast.ImportFrom) -> tuple[int, int, int, int]:
    """Where the module name of ``from <module> import ...`` is written in the source."""
    assert node.end_lineno is not None
    first = _column(lines, node.lineno, node.col_offset)
    source = lines[node.lineno - 1][first:] + "".join(lines[node.lineno : node.end_lineno])
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string == "from" and start is None:
            continue
        if token.type == tokenize.NAME and token.string == "import":
            break
        if token.type in (tokenize.NAME, tokenize.OP):
            start = start or token.start
            end = token.end
    assert start is not None
    assert end is not None

    def position(row: int, column: int) -> tuple[int, int]:
        # Token rows count from the statement's start; only its first line was cut.
        return node.lineno + row - 1, column + first if row == 1 else column

    return (*position(*start), *position(*end))


def _import_from_edit(
    node: ast.ImportFrom, lines: list[str], mirrored: frozenset[str]
) -> Edit | None:
    """``from jax import lax`` -> ``from jaxcompat import lax``: the module name only."""
    if node.level or node.module not in mirrored:
        return None
    # jaxcompat forwards no private names and its star export is its own __all__.
    if any(alias.name == "*" or alias.name.startswith("_") for alias in node.names):
        return None
    line, column, end_line, end_column = _module_span(lines, node)
    return Edit(line, column, end_line, end_column, _to_jaxcompat(node.module))


def rewrite_source(source: str, mirrored: frozenset[str] | None = None) -> str:
    """``source`` with its JAX imports pointed at jaxcompat, every line at its own number."""
    mirrored = mirrored_jax_modules() if mirrored is None else mirrored
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits: list[Edit] = []
    for node in ast.walk(tree):
        edit: Edit | None = None
        if isinstance(node, ast.Import):
            edit = _import_edit(node, lines, mirrored)
        elif isinstance(node, ast.ImportFrom):
            edit = _import_from_edit(node, lines, mirrored)
        if edit is not None:
            edits.append(edit)
    # Apply from the end, so earlier positions stay valid.
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        head = lines[edit.line - 1][: edit.column]
        tail = lines[edit.end_line - 1][edit.end_column :]
        lines[edit.line - 1 : edit.end_line] = [head + edit.text + tail]
    result = "".join(lines)
    assert result.count("\n") == source.count("\n"), "the rewrite moved lines"
    return result


def rewrite_tree(directory: Path, mirrored: frozenset[str] | None = None) -> list[Path]:
    """Rewrite every Python file under ``directory`` in place; return the files changed."""
    mirrored = mirrored_jax_modules() if mirrored is None else mirrored
    changed = []
    for path in sorted(directory.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        rewritten = rewrite_source(source, mirrored)
        if rewritten != source:
            path.write_text(rewritten, encoding="utf-8")
            changed.append(path)
    return changed


# --- The libraries -------------------------------------------------------------------------


@dataclass(frozen=True)
class Library:
    """A published JAX library whose own tests are run, and the rows they are run on."""

    name: str
    version: str  # the release whose sdist (source and tests) is used
    floor: str  # the JAX floor that release declares (its requirement jax>=floor)
    below_floor: tuple[str, ...]  # matrix rows below the floor, the proof
    dependencies: tuple[str, ...]  # its non-JAX requirements and test requirements
    tests: tuple[str, ...] = ()  # a fixed subset of its test files; () runs them all
    ignore: tuple[str, ...] = ()  # test files left out, each for the reason in `why`
    why: str = ""
    # Each test file in a fresh interpreter, where some must set up JAX's devices first.
    per_file: bool = False
    # Warnings are errors, except the library's own warnings about itself listed here.
    allowed_warnings: tuple[str, ...] = ()

    @property
    def rows(self) -> tuple[str, ...]:
        return (*self.below_floor, self.floor, NEWEST)


NEWEST = "newest"

LIBRARIES = {
    library.name: library
    for library in (
        Library(
            name="optax",
            version="0.2.8",
            floor="0.5.3",
            below_floor=("0.4.30", "0.4.36", "0.5.0"),
            dependencies=("absl-py>=0.7.1", "numpy>=1.18.0", "scipy>=1.7.1", "scikit-learn"),
            # The whole suite takes well over 5 minutes per run on a shared 2-core machine:
            # the core (the update machinery, transforms, tree utilities, schedules).
            tests=(
                "optax/optax_test.py",
                "optax/_src",
                "optax/transforms",
                "optax/tree_utils",
                "optax/schedules",
                "optax/microbatching",
            ),
            ignore=(
                "optax/_src/alias_test.py",
                "optax/_src/linear_algebra_test.py",
                "optax/transforms/_accumulation_test.py",
                "optax/_src/linesearch_test.py",
            ),
            why=(
                "the first three import flax, which pins a newer JAX and would need the same "
                "rewrite; linesearch_test.py alone takes minutes"
            ),
            # sharding_test.py builds an optimizer without a key at import time: optax's
            # own deprecation of itself, not JAX's, would stop the whole file.
            allowed_warnings=("ignore:Specifying a key will be required:UserWarning",),
        ),
        Library(
            name="chex",
            version="0.1.92",
            floor="0.7.0",
            below_floor=("0.5.3", "0.6.2"),
            dependencies=(
                "absl-py>=2.3.1",
                "typing_extensions>=4.15.0",
                "numpy>=1.24.1",
                "toolz>=1.0.0",
                "cloudpickle",
            ),
            # fake_test.py and fake_set_n_cpu_devices_test.py set the CPU device count, which
            # only works before JAX initialises its backends.
            per_file=True,
        ),
    )
}


def _sdist_root(sdist: Path, destination: Path) -> Path:
    with tarfile.open(sdist) as archive:
        archive.extractall(destination, filter="data")
    (root,) = (path for path in destination.iterdir() if path.is_dir())
    return root


def prepare(library: Library, sdist: Path, work: Path) -> None:
    """Copy the library's package (source and tests) to WORK/raw and, rewritten, WORK/jaxcompat."""
    if work.exists():
        shutil.rmtree(work)
    unpacked = _sdist_root(sdist, work / "sdist")
    for mode in ("raw", "jaxcompat"):
        shutil.copytree(unpacked / library.name, work / mode / library.name)
        # The library's own (empty) pytest configuration, not that of a directory above.
        (work / mode / "pytest.ini").write_text("[pytest]\n")
    changed = rewrite_tree(work / "jaxcompat")
    print(f"{library.name} {library.version}: rewrote the JAX imports of {len(changed)} files")


# --- Running the tests ---------------------------------------------------------------------


def _message(element: ET.Element) -> str:
    """The exception a failed test ended with, on one line."""
    message = (element.get("message") or "").strip()
    if message and message not in ("collection failure", "failed on setup"):
        return message.splitlines()[0][:300]
    # A collection error's message says only that: its exception is the last `E` line.
    raised = [line[1:].strip() for line in (element.text or "").splitlines() if line[:2] == "E "]
    return (raised[-1] if raised else message)[:300]


def _outcomes(junit: Path, package: str) -> dict[str, str]:
    """test id -> passed | failed | error | skipped, from pytest's JUnit XML."""
    outcomes = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        parts = case.get("classname", "").split(".")
        # The class name starts at the package, whatever directory pytest took as its root.
        parts = parts[parts.index(package) :] if package in parts else parts
        test = f"{'.'.join(parts)}::{case.get('name', '')}"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
                if outcome != "skipped":
                    outcomes[f"{test}#message"] = _message(child)
        outcomes[test] = outcome
    return outcomes


def _test_files(library: Library, directory: Path) -> list[str]:
    paths = [directory / test for test in library.tests or (library.name,)]
    files = [p for path in paths for p in ([path] if path.is_file() else path.rglob("*_test.py"))]
    names = sorted(str(file.relative_to(directory)) for file in files)
    return [name for name in names if name not in library.ignore]


def run(library: Library, row: str, mode: str, work: Path, pytest_args: list[str]) -> Path:
    """Run the library's tests in WORK/MODE and record each test's outcome."""
    work = work.resolve()  # pytest runs in WORK/MODE
    directory = work / mode
    files = _test_files(library, directory)
    batches = [[file] for file in files] if library.per_file else [files]
    environment = {**os.environ, "PYTHONPATH": str(directory)}
    started = time.monotonic()
    found: dict[str, str] = {}
    statuses = []
    for number, batch in enumerate(batches):
        junit = work / f"junit-{mode}-{number}.xml"
        junit.unlink(missing_ok=True)
        command = [
            sys.executable,
            "-m",
            "pytest",
            *batch,
            "-p",
            "no:cacheprovider",
            "-q",
            "--tb=line",
            # A test file that fails to import is one error; the other files still run.
            "--continue-on-collection-errors",
            # Neither library configures pytest's warning filters: warnings are errors.
            "-W",
            "error",
            *(f"-W{allowed}" for allowed in library.allowed_warnings),
            f"--junitxml={junit}",
            "-o",
            "junit_family=xunit2",
            *pytest_args,
        ]
        completed = subprocess.run(command, cwd=directory, env=environment, check=False)
        statuses.append(completed.returncode)
        if junit.exists():
            found.update(_outcomes(junit, library.name))
        else:  # pytest itself failed: the whole batch is one error
            found[f"{' '.join(batch)}::pytest"] = "error"
            found[f"{' '.join(batch)}::pytest#message"] = f"pytest exited {completed.returncode}"
    seconds = time.monotonic() - started
    messages = {k.removesuffix("#message"): v for k, v in found.items() if k.endswith("#message")}
    outcomes = {k: v for k, v in found.items() if not k.endswith("#message")}
    counts = {key: 0 for key in ("passed", "failed", "error", "skipped")}
    for outcome in outcomes.values():
        counts[outcome] += 1
    import jax

    record = {
        "library": library.name,
        "version": library.version,
        "row": row,
        "mode": mode,
        "jax": jax.__version__,
        "python": platform.python_version(),
        "seconds": round(seconds, 1),
        "exit_status": max(statuses, default=0),
        "counts": counts,
        "tests": outcomes,
        "messages": messages,
    }
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"{library.name}-{row}-{mode}.json"
    out.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"{library.name} {row} {mode}: {counts} in {seconds:.0f} s -> {out}")
    return out


# --- The report ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Cause:
    """Why some tests fail through jaxcompat: matched on their failure message."""

    library: str
    pattern: str  # a substring of the failure message
    kind: str
    explanation: str
    test: str = ""  # a substring of the failing test's id, where the message is generic


MISSING = "missing stable name"
BEHAVIOUR = "behaviour difference"
DETAIL = "needs a newer JAX (cannot pass)"
OWN = "the library's own (every row, both modes)"
NEWEST_DETAIL = "checks a detail the newest JAX changed (fails raw too)"

# The causes of the failures measured through jaxcompat; unmatched ones show as unclassified.
CAUSES: tuple[Cause, ...] = (
    Cause(
        "chex",
        "has no attribute '_src'",
        BEHAVIOUR,
        "`jax._src.xla_bridge` is read through the alias (chex's `fake.set_n_cpu_devices`, run "
        "by `setUpModule` of fake_test.py): jaxcompat forwards no private name, so "
        "`jaxcompat._src` raises AttributeError. Fix: forward JAX's private submodules "
        "(`jaxcompat._src is jax._src`), on every row",
    ),
    Cause(
        "chex",
        "False is not true",
        BEHAVIOUR,
        "chex's `is_traceable` recognises a jitted function by `PjitFunction` in its type name "
        "or `_cpp_pjit` in its repr; below JAX 0.6.0 `jaxcompat.jit` returns its own wrapper, "
        "which says neither",
        test="test_is_traceable__with_jit",
    ),
    Cause(
        "chex",
        "ValueError not raised",
        BEHAVIOUR,
        "`assert_max_traces` applied outside `jax.jit` must raise ValueError; chex detects "
        "the jit with `is_traceable`, which does not recognise `jaxcompat.jit`'s wrapper "
        "below JAX 0.6.0",
        test="test_incorrect_ordering",
    ),
    Cause(
        "optax",
        "object has no attribute 'sharding'",
        DETAIL,
        "`jax.typeof(x).sharding` (optax's `tree_random_like`, used by `add_noise` and "
        "`noisy_sgd`): avals carry their sharding from JAX 0.5.1 (measured: absent on "
        "0.5.0, a NamedSharding over an empty AbstractMesh on 0.5.1); before 0.5.3 "
        "`jaxcompat.typeof` is `jax.core.get_aval`, whose avals have none. optax only reads it "
        "to drop it where the sampler has no `out_sharding`, but an aval with a made-up "
        "sharding would be a stand-in",
    ),
    Cause(
        "optax",
        "Dict key mismatch",
        NEWEST_DETAIL,
        "the test expects the text of JAX's old pytree-structure error ('Dict key "
        "mismatch'); the newest JAX says 'pytree structure error: different numbers of "
        "pytree children'",
    ),
    Cause(
        "optax",
        "within 7 places",
        NEWEST_DETAIL,
        "`clip_by_block_rms` gives 0.9999999, not 1.0 to 7 places, on the newest JAX",
    ),
    Cause(
        "optax",
        "Specifying a key will be required",
        OWN,
        "sharding_test.py calls an optimizer without a key at import, and optax's own "
        "UserWarning is an error",
    ),
)

# Measured by hand, not visible in the counts: what the numbers above hide.
NOTES: dict[str, tuple[str, ...]] = {
    "chex": (
        "Behind the `_src` error: with `jaxcompat._src` set to `jax._src` by hand (JAX "
        "0.6.2, the whole suite in 70 s), chex passes 614 / fails 4 / errors 0 through "
        "jaxcompat, 99.4% of the floor row's raw passes: the 48 `jax.P` tests pass, "
        "variants_test.py passes as it does raw (99 passed, 25 skipped) and fake_test.py "
        "passes 30 of its 34 tests. The 4 left (`test_fake_parallel_axis`, "
        "`test_fake_pmap_axis_name`, `test_pmap_with_complex_static_broadcasted_object0` and "
        "`1`) are a behaviour difference: chex's `fake_pmap` patches `jax.pmap` and "
        "`jax.lax.psum` etc. with `mock.patch('jax.pmap', ...)`, on JAX's module, while the "
        "code under test reads `jaxcompat.pmap`, which was resolved once and cached, so the "
        "patch is not seen.",
    ),
    "optax": (
        "optax compares `jax.__version__` strings (`tree_utils/_tree_math.py`, "
        "`microbatching/_microbatching.py`, `_src/sharding_test.py`). Through the alias it "
        "reads jaxcompat's own version (the documented trap), so on every row it takes its "
        "pre-0.7 code paths and skips its sharding-in-types tests; a port reads "
        "`jaxcompat.JAX_VERSION` instead. Raw JAX 0.12.0.1 does the same, since "
        "'0.12.0.1' < '0.7.2' as strings: the 54 skipped sharding tests are skipped on "
        "every row in both modes.",
    ),
}

COMPATIBILITY_START = "<!-- third-party: generated by tools/third_party.py report -->"
COMPATIBILITY_END = "<!-- third-party: end -->"


def _load_results(results: Path) -> dict[tuple[str, str, str], dict[str, object]]:
    records = {}
    for path in sorted(results.glob("*.json")):
        record = json.loads(path.read_text())
        records[(record["library"], record["row"], record["mode"])] = record
    return records


def _cell(record: dict[str, object] | None) -> str:
    if record is None:
        return "not run"
    counts = record["counts"]
    assert isinstance(counts, dict)
    return f"{counts['passed']} / {counts['failed']} / {counts['error']}"


def _passed(record: dict[str, object] | None) -> int | None:
    if record is None:
        return None
    counts = record["counts"]
    assert isinstance(counts, dict)
    passed: int = counts["passed"]
    return passed


def _failures(record: dict[str, object]) -> dict[str, str]:
    tests = record["tests"]
    messages = record["messages"]
    assert isinstance(tests, dict)
    assert isinstance(messages, dict)
    return {
        test: str(messages.get(test, ""))
        for test, outcome in tests.items()
        if outcome in ("failed", "error")
    }


def _classify(library: str, test: str, message: str) -> Cause | None:
    for cause in CAUSES:
        if cause.library == library and cause.pattern in message and cause.test in test:
            return cause
    return None


def _row_lines(
    library: Library, records: dict[tuple[str, str, str], dict[str, object]]
) -> list[str]:
    floor_raw = _passed(records.get((library.name, library.floor, "raw")))
    lines = [
        "| JAX row | raw JAX: passed / failed / errored | through jaxcompat | "
        "through jaxcompat, share of the floor row's raw passes | seconds (raw, jaxcompat) |",
        "|---|---|---|---|---|",
    ]
    for row in library.rows:
        raw = records.get((library.name, row, "raw"))
        compat = records.get((library.name, row, "jaxcompat"))
        passed = _passed(compat)
        share = f"{100 * passed / floor_raw:.1f}%" if passed is not None and floor_raw else "n/a"
        seconds = ", ".join(str(r["seconds"]) if r else "-" for r in (raw, compat))
        label = f"{row} (floor)" if row == library.floor else row
        lines.append(f"| {label} | {_cell(raw)} | {_cell(compat)} | {share} | {seconds} |")
    return lines


def _cause_lines(
    library: Library, records: dict[tuple[str, str, str], dict[str, object]]
) -> list[str]:
    groups: dict[tuple[str, str], dict[str, list[str]]] = {}
    for row in library.rows:
        record = records.get((library.name, row, "jaxcompat"))
        if record is None:
            continue
        for test, message in _failures(record).items():
            cause = _classify(library.name, test, message)
            key = (cause.kind, cause.explanation) if cause else ("unclassified", message)
            groups.setdefault(key, {}).setdefault(row, []).append(test)
    if not groups:
        return ["Every test that ran passed through jaxcompat."]
    lines = ["| cause | kind | rows: number of tests | tests |", "|---|---|---|---|"]
    for (kind, explanation), rows in sorted(groups.items()):
        where = "; ".join(f"{row}: {len(tests)}" for row, tests in rows.items())
        names = sorted(
            {test.rpartition("::")[2] or test for tests in rows.values() for test in tests}
        )
        shown = ", ".join(f"`{name}`" for name in names[:6])
        if len(names) > 6:
            shown += f" and {len(names) - 6} more"
        text = explanation.replace("|", "\\|")
        lines.append(f"| {text} | {kind} | {where} | {shown} |")
    return lines


def _fixed_lines(
    library: Library, records: dict[tuple[str, str, str], dict[str, object]]
) -> list[str]:
    """The tests that fail with raw JAX and pass through jaxcompat, by their raw failure."""
    lines = []
    for row in library.rows:
        raw = records.get((library.name, row, "raw"))
        compat = records.get((library.name, row, "jaxcompat"))
        if raw is None or compat is None:
            continue
        passed = compat["tests"]
        assert isinstance(passed, dict)
        fixed: dict[str, int] = {}
        for test, message in _failures(raw).items():
            if passed.get(test) == "passed":
                fixed[message] = fixed.get(message, 0) + 1
        for message, count in sorted(fixed.items()):
            lines.append(f"- {row}: {count} tests that fail raw with `{message}` pass.")
    return lines or ["- none."]


def report(results: Path, markdown: Path, compatibility: Path) -> None:
    """Write THIRD_PARTY.md and the third-party block of COMPATIBILITY.md."""
    records = _load_results(results)
    lines = [
        "# Third-party test suites through `import jaxcompat as jax`",
        "",
        "Generated by `nox -s third_party` (`tools/third_party.py report`); do not edit.",
        "",
        "Each library's own tests run from its sdist, on matrix rows below the JAX floor it",
        "declares, on the floor row and on `newest`: once as published (raw JAX) and once with",
        "its JAX imports rewritten to jaxcompat (`import jax` -> `import jaxcompat as jax`,",
        "`from jax import lax` -> `from jaxcompat import lax`, and so on; modules jaxcompat does",
        "not mirror, such as `jax.scipy` or `jax._src`, stay JAX's). The library is installed",
        "with `--no-deps`, so its JAX pin cannot pull JAX up. Warnings are errors (neither",
        "library configures pytest's warning filters; the exceptions, the library's own",
        "warnings about itself, are listed below). Counts are tests passed / failed /",
        "errored (a test file that fails to import counts as one error). Seconds are the",
        "test run alone, measured with two to four sessions sharing two CPU cores; a whole",
        "session, venv included, takes 4 to 14 minutes.",
        "",
    ]
    summary = [
        "| library | JAX row | raw JAX: passed / failed / errored | through jaxcompat |",
        "|---|---|---|---|",
    ]
    for library in LIBRARIES.values():
        lines += [
            f"## {library.name} {library.version} (declares jax>={library.floor})",
            "",
            f"Test files: {', '.join(library.tests) if library.tests else 'all of them'}.",
        ]
        if library.ignore:
            lines.append(f"Left out: {', '.join(library.ignore)}: {library.why}.")
        if library.allowed_warnings:
            lines.append(f"Warnings allowed: {', '.join(library.allowed_warnings)}.")
        if library.per_file:
            lines.append("Each test file runs in its own interpreter.")
        lines += ["", *_row_lines(library, records), ""]
        lines += ["Fixed by jaxcompat:", "", *_fixed_lines(library, records), ""]
        lines += ["Failures through jaxcompat, by cause:", ""]
        lines += [*_cause_lines(library, records), ""]
        lines += [f"- {note}" for note in NOTES.get(library.name, ())]
        lines += [""] if library.name in NOTES else []
        for row in library.rows:
            raw = records.get((library.name, row, "raw"))
            compat = records.get((library.name, row, "jaxcompat"))
            summary.append(
                f"| {library.name} {library.version} | {row} | {_cell(raw)} | {_cell(compat)} |"
            )
    lines += [
        "## Not run: equinox",
        "",
        "equinox (0.13.8 declares jax>=0.4.38) ships no tests in its sdist or wheel (its build",
        "includes `equinox/*` only, in every release checked: 0.11.12, 0.12.2, 0.13.2, 0.13.8),",
        "and its test suite is published only in its source repository, which is not a",
        "package index. It joins when its tests can be fetched from an index.",
        "",
    ]
    markdown.write_text("\n".join(lines))
    block = "\n".join(
        [
            COMPATIBILITY_START,
            "## Third-party test suites",
            "",
            "Published libraries' own tests on rows below the JAX floor they declare, raw and "
            "through `import jaxcompat as jax` (passed / failed / errored). Details, subsets "
            "and failure causes: [THIRD_PARTY.md](THIRD_PARTY.md).",
            "",
            *summary,
            COMPATIBILITY_END,
        ]
    )
    text = compatibility.read_text() if compatibility.exists() else ""
    if COMPATIBILITY_START in text:
        head, _, rest = text.partition(COMPATIBILITY_START)
        tail = rest.partition(COMPATIBILITY_END)[2]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    compatibility.write_text(text)
    print(f"wrote {markdown} and the third-party block of {compatibility}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rewrite = commands.add_parser("rewrite")
    rewrite.add_argument("directory", type=Path)
    prepare_cmd = commands.add_parser("prepare")
    prepare_cmd.add_argument("library", choices=sorted(LIBRARIES))
    prepare_cmd.add_argument("sdist", type=Path)
    prepare_cmd.add_argument("work", type=Path)
    run_cmd = commands.add_parser("run")
    run_cmd.add_argument("library", choices=sorted(LIBRARIES))
    run_cmd.add_argument("row")
    run_cmd.add_argument("mode", choices=("raw", "jaxcompat"))
    run_cmd.add_argument("work", type=Path)
    run_cmd.add_argument("pytest_args", nargs="*")
    report_cmd = commands.add_parser("report")
    report_cmd.add_argument("--results", type=Path, default=RESULTS)
    report_cmd.add_argument("--markdown", type=Path, default=ROOT / "THIRD_PARTY.md")
    report_cmd.add_argument("--compatibility", type=Path, default=ROOT / "COMPATIBILITY.md")
    args = parser.parse_args(argv)
    if args.command == "rewrite":
        for path in rewrite_tree(args.directory):
            print(path)
    elif args.command == "prepare":
        prepare(LIBRARIES[args.library], args.sdist, args.work)
    elif args.command == "run":
        run(LIBRARIES[args.library], args.row, args.mode, args.work, args.pytest_args)
    else:
        report(args.results, args.markdown, args.compatibility)


if __name__ == "__main__":
    main()
