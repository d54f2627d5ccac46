"""Third-party proof: published JAX libraries' own test suites, through ``import jaxcompat as jax``.

python tools/third_party.py prepare LIB SOURCE WORK [--row ROW]
                                                    copy the library from its sdist or its
                                                    source checkout to WORK/raw and WORK/jaxcompat
python tools/third_party.py run LIB ROW MODE WORK   run the library's tests, write the results
python tools/third_party.py report                  THIRD_PARTY.md and the COMPATIBILITY.md block

The rewrite is ``jaxcompat migrate``, as a library's author runs it; the libraries and their
rows are in third_party_libraries.py, why tests fail through jaxcompat in
third_party_causes.py, the report in third_party_report.py.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

# Run as a script, this file's directory is on sys.path; loaded by path (the noxfile, the
# tests), it is put there so that the sibling modules import alike.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from third_party_libraries import LIBRARIES, NEWEST, Library
from third_party_report import report

__all__ = [
    "LIBRARIES",
    "NEWEST",
    "Library",
    "prepare",
    "report",
    "run",
]

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "third-party-results"


def _source_root(source: Path, destination: Path) -> Path:
    """The library's source tree: a checkout as it is, an sdist unpacked into DESTINATION."""
    if source.is_dir():
        return source
    with tarfile.open(source) as archive:
        archive.extractall(destination, filter="data")
    (root,) = (path for path in destination.iterdir() if path.is_dir())
    return root


def prepare(library: Library, source: Path, work: Path, row: str = NEWEST) -> None:
    """Copy the library's package (source and tests) to WORK/raw and, rewritten, WORK/jaxcompat,
    with what it carries on ROW."""
    if work.exists():
        shutil.rmtree(work)
    unpacked = _source_root(source, work / "sdist")
    for mode in ("raw", "jaxcompat"):
        for directory in library.copied:
            shutil.copytree(unpacked / directory, work / mode / directory)
        # A test file left out is not in the copies: neither run nor ported (one in a newer
        # Python's syntax cannot even be read by the Python that ports it). A directory left
        # out loses its test files only: the package may import its other modules (haiku's
        # `_src/nets`).
        for left_out in library.ignore:
            path = work / mode / left_out
            if path.is_dir():
                for test_file in path.rglob(library.test_files):
                    test_file.unlink()
            elif path.is_file():
                path.unlink()
            else:
                raise SystemExit(f"{library.name}: it leaves out {left_out}, which {source} lacks")
        for package in library.carried_packages(row):
            copied = shutil.ignore_patterns("__pycache__")
            shutil.copytree(_installed(package), work / mode / package, ignore=copied)
        # The library's own (empty) pytest configuration, not that of a directory above.
        (work / mode / "pytest.ini").write_text("[pytest]\n")
    # In the session's environment, where jaxcompat is installed (the noxfile reads this
    # module for its library list before there is one).
    from jaxcompat._checker._migrate_cli import main as migrate

    # The range the port runs on, given: the copy has no pyproject.toml, and the nearest one
    # above it is this repository's (which migrate would read, and edit). It starts at the
    # lowest row run, not at the declared floor: a gate dead above the floor but needed below
    # it (distrax's `hasattr(jax.lax, "square_p")`, JAX 0.4.36) is kept, as `migrate` keeps it
    # for an author whose port declares a floor below that release.
    ported = ["--jax", f">={ported_from(library)}", "--no-pyproject"]
    print(f"{library.name} {library.version}: jaxcompat migrate {' '.join(ported)} {work}")
    if migrate([*ported, str(work / "jaxcompat")]) != 0:
        raise SystemExit(f"{library.name}: jaxcompat migrate failed on {work / 'jaxcompat'}")


def _installed(package: str) -> Path:
    """Where the session's environment installed PACKAGE (a carried library)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{package} is carried, but no package of that name is installed")
    return Path(next(iter(spec.submodule_search_locations)))


def ported_from(library: Library) -> str:
    """The lowest release the port is for: the lowest row the library runs on."""
    return library.rows[0]


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
    paths = [directory / test for test in library.tests or (library.copied[-1],)]
    pattern = library.test_files
    files = [p for path in paths for p in ([path] if path.is_file() else path.rglob(pattern))]
    names = sorted(str(file.relative_to(directory)) for file in files)
    # A file left out by its name, or by the name of a directory it is in.
    return [name for name in names if not any(name.startswith(part) for part in library.ignored)]


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
            *(str(directory / file) for file in batch),
            "-p",
            "no:cacheprovider",
            "-q",
            "--tb=line",
            # A test file that fails to import is one error; the other files still run.
            "--continue-on-collection-errors",
            # Warnings are errors: blackjax configures the same, the others configure none.
            "-W",
            "error",
            *(f"-W{allowed}" for allowed in library.allowed_warnings),
            # Test ids as pytest names them: from the copy, where its pytest.ini is.
            *(f"--deselect={test}" for test in library.deselect),
            f"--junitxml={junit}",
            "-o",
            "junit_family=xunit2",
            *pytest_args,
        ]
        completed = subprocess.run(
            command, cwd=directory / library.working_directory, env=environment, check=False
        )
        statuses.append(completed.returncode)
        if junit.exists():
            found.update(_outcomes(junit, library.package))
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepare_cmd = commands.add_parser("prepare")
    prepare_cmd.add_argument("library", choices=sorted(LIBRARIES))
    prepare_cmd.add_argument("source", type=Path, help="its sdist, or a checkout of its tag")
    prepare_cmd.add_argument("work", type=Path)
    prepare_cmd.add_argument("--row", default=NEWEST, help="the row it runs on (default: newest)")
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
    if args.command == "prepare":
        prepare(LIBRARIES[args.library], args.source, args.work, args.row)
    elif args.command == "run":
        run(LIBRARIES[args.library], args.row, args.mode, args.work, args.pytest_args)
    else:
        report(args.results, args.markdown, args.compatibility)


if __name__ == "__main__":
    main()
