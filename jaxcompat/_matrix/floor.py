"""``jaxcompat floor [PATH]``: the lowest JAX release on which a library's own tests pass.

The floor a pyproject.toml declares, or the one ``jaxcompat migrate`` wrote, is a claim: the
library installs there and runs. This command tries the claim. For one matrix row at a time it
makes a fresh virtualenv, installs the row's jax, jaxlib and companion pins together with the
library (its own dependencies resolved with them, so a dependency that needs a newer JAX makes
the install fail rather than upgrade JAX) and the jaxcompat running this command, and runs the
library's tests: pytest, or ``--command``.

First on the reference release (by default the newest the declared range admits, the JAX the
code is written for), to learn which tests pass there; then the rows from the declared floor up
to it, halved at each try as ``git bisect`` halves commits, for the lowest row that installs
and passes every test the reference passes (about five tries for thirty rows). That row is
the floor the tests prove. ``--write`` raises the pyproject.toml's jax floor to it. A library
declared in setup.py gives its declared range with ``--jax``. Nothing here imports JAX.

One row's install and test run is in ``trial.py``.

Exit 0 when the declared floor holds, 1 when the tests prove a higher one (written with
``--write``), 2 on a usage error or where the reference itself cannot be tested.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from .._checker._pyproject_edit import PyprojectError, project_table, raise_floor
from .._checker._ranges import (
    NO_JAX_REQUIREMENT,
    RangeError,
    range_for_file,
    row_list,
    spec_mask,
)
from .._cli.program import parse_arguments, program_name
from . import MatrixRow, rows
from .trial import Library, Outcome, Tests, missing_module_hint, try_row

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{program_name()} floor",
        description="The lowest JAX release on which the library's own tests pass as on the "
        "reference release: each matrix row from the declared floor up is installed into a "
        "fresh virtualenv with the library and its dependencies resolved together, and the "
        "tests run there. Arguments after -- go to pytest.",
    )
    parser.add_argument("path", nargs="?", default=".", help="the library's root (default: .)")
    parser.add_argument(
        "--reference",
        metavar="RELEASE",
        help="the release whose passing tests every lower row must pass (default: the newest "
        "release the declared range admits)",
    )
    parser.add_argument(
        "--from",
        dest="start",
        metavar="RELEASE",
        help="the lowest release to try (default: the declared floor)",
    )
    parser.add_argument(
        "--command",
        help="run this instead of pytest (a row passes where it exits 0), for example "
        "'python -m unittest'",
    )
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="NAME",
        help="install the library with this extra (repeatable), for example test",
    )
    parser.add_argument(
        "--with",
        dest="also",
        action="append",
        default=[],
        metavar="REQUIREMENT",
        help="also install this requirement (repeatable), for example a test dependency",
    )
    parser.add_argument(
        "--jax",
        metavar="SPEC",
        help="the declared jax range, a PEP 440 specifier such as '>=0.4.30' (default: the "
        "jax requirement of the library's pyproject.toml; needed where it has none, a "
        "library declared in setup.py)",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="raise the jax floor of the pyproject.toml to the floor the tests prove",
    )
    return parser


class UsageError(ValueError):
    """What stops the command before any row is tried: exit 2."""


def _library(path: Path, spec: str | None, write: bool) -> Library:
    """The library at `path`, its declared range from `spec` (``--jax``) or else its
    pyproject.toml, and the Pythons its pyproject.toml admits."""
    root = path.resolve()
    if not root.is_dir():
        raise UsageError(f"{path}: no such directory: pass the library's root")
    pyproject = root / "pyproject.toml" if (root / "pyproject.toml").is_file() else None
    try:
        # A library declared in setup.py keeps at most its build system in pyproject.toml:
        # taking every release as its declared range would be a guess. Its requirement is
        # read where it is the range (no --jax) or what --write raises; a bad one is then
        # named with the option that goes around it, if any.
        declared = None
        if pyproject is not None and (spec is None or write):
            fix_option = None if write else "--jax SPEC"
            declared = range_for_file(pyproject, None, {}, fix_option)
        if declared is not None and declared[1] == NO_JAX_REQUIREMENT:
            declared = None
        if write and declared is None:
            raise UsageError(
                "--write raises the jax requirement of the pyproject.toml's [project] "
                f"dependencies, and {path} has none: run without --write and raise the floor "
                "where the library declares it"
            )
        if spec is not None:
            mask, declared_in = spec_mask(spec, "--jax"), "--jax"
        elif declared is not None and pyproject is not None:
            mask, declared_in = declared[0], pyproject.name
        else:
            where = (
                f"no pyproject.toml in {path}: pass the library's root, or"
                if pyproject is None
                else f"{pyproject} has no jax requirement in [project] dependencies:"
            )
            raise UsageError(
                f"{where} give its declared jax range with --jax SPEC (a library declared in "
                "setup.py)"
            )
        project = project_table(pyproject) if pyproject is not None else {}
    except (RangeError, PyprojectError) as error:  # range_for_file read the TOML first
        raise UsageError(str(error)) from None
    requires = project.get("requires-python")
    try:
        requires_python = SpecifierSet(str(requires)) if requires is not None else None
    except InvalidSpecifier:
        raise UsageError(f"{pyproject}: requires-python {requires!r} is not valid") from None
    writable = pyproject if declared is not None else None
    return Library(root, writable, declared_in, row_list(mask), requires_python)


def _row(release: str, option: str) -> MatrixRow:
    for row in rows():
        if row.jax == release:
            return row
    known = f"{rows()[0].jax} to {rows()[-1].jax}"
    raise UsageError(f"{option} {release}: not a release of jaxcompat's matrix ({known})")


def _what_differs(below: MatrixRow, failed: Outcome, floor: MatrixRow, held: Outcome) -> str:
    """What the row below the floor installed differently from the floor, besides JAX: the
    dependency releases that the two JAX releases resolve to, where a library's own
    requirement admits a release its tests fail with."""
    if not failed.distributions or not held.distributions:
        return ""
    names = sorted((failed.distributions.keys() | held.distributions.keys()) - {"jax", "jaxlib"})
    changed = [
        f"{name} {failed.distributions.get(name, 'absent')} -> "
        f"{held.distributions.get(name, 'absent')}"
        for name in names
        if failed.distributions.get(name) != held.distributions.get(name)
    ]
    if not changed:
        return f"{below.jax} and {floor.jax} install the same besides jax and jaxlib"
    return f"besides jax and jaxlib, {below.jax} -> {floor.jax} install: " + "; ".join(changed)


def _holds(outcome: Outcome, reference: Outcome, tests: Tests) -> tuple[bool, str]:
    """Whether `outcome` passes as the reference does, and what to add to its line.

    A test that passes on the reference must pass here too, or be skipped here: a skip is the
    library's own word that the test does not apply to this JAX (a feature it lacks), and is
    counted on the line. A test that fails, errors or is not collected here is lost, unless
    only its parameters' ids changed: see _renamed.
    """
    if not outcome.installed:
        return False, ""
    if tests.command is not None:
        return outcome.succeeded, ""
    unmatched = reference.passed - outcome.passed - outcome.skipped
    renamed = _renamed(unmatched, outcome.passed | outcome.skipped, reference)
    lost = sorted(unmatched - renamed)
    skipped = len(reference.passed & outcome.skipped)
    said = f"; {skipped} skipped here pass on the reference" if skipped else ""
    if renamed:
        said += f"; {len(renamed)} pass under another parameter id"
    if not lost:
        return True, said
    shown = ", ".join(lost[:3]) + (f" and {len(lost) - 3} more" if len(lost) > 3 else "")
    return False, f"{said}; {len(lost)} passing on the reference do not: {shown}"


def _renamed(unmatched: frozenset[str], here: frozenset[str], reference: Outcome) -> set[str]:
    """The reference's passing tests in `unmatched` that pass here under another id of the
    same test function: pytest names a parameter by its repr or __name__, which JAX changes
    between releases (``jnp.bool_`` is ``bool_`` up to 0.4.25, ``bool`` from 0.4.26, so
    gymnax's ``test_x[bool]`` is ``test_x[bool_]`` there). A function's unmatched tests count
    as renamed only where as many of its tests here match no test the reference ran."""
    renamed: set[str] = set()
    for function in {name.partition("[")[0] for name in unmatched}:
        gone = {name for name in unmatched if name.partition("[")[0] == function}
        new = {
            name
            for name in here - reference.collected
            if name.partition("[")[0] == function and name != function
        }
        if len(new) >= len(gone) and all(name != function for name in gone):
            renamed |= gone
    return renamed


def _say(text: str, end: str = "\n") -> None:
    print(text, end=end, flush=True)


def main(argv: list[str]) -> int:
    """Run ``jaxcompat floor`` with `argv` (the arguments after ``floor``)."""
    if "--" in argv:
        at = argv.index("--")
        argv, pytest_args = argv[:at], argv[at + 1 :]
    else:
        pytest_args = []
    parser = _parser()
    args = parse_arguments(parser, argv)
    if isinstance(args, int):  # --help (0) or a usage error, which argparse has printed
        return args
    prog = parser.prog
    try:
        command = shlex.split(args.command) if args.command is not None else None
        if command == []:
            raise UsageError("--command is empty")
        if command is not None and pytest_args:
            raise UsageError("arguments after -- go to pytest, which --command replaces")
        library = _library(Path(args.path), args.jax, args.write)
        tests = Tests(command, pytest_args, args.extra, args.also)
        reference = _row(args.reference or library.declared[-1], "--reference")
        start = _row(args.start or library.declared[0], "--from")
        if start.release >= reference.release:
            raise UsageError(f"--from {start.jax} is not below the reference {reference.jax}")
    except UsageError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    declared = library.declared[0]
    _say(f"declared floor: jax>={declared} ({library.declared_in}); reference: {reference.jax}")
    began = time.monotonic()
    # Each row's label is shown before its install and tests (minutes), its outcome after.
    _say(f"  {reference.jax} (reference): ", end="")
    on_reference = try_row(reference, library, tests)
    _say(on_reference.said)
    problem = None
    if not on_reference.installed or (command is not None and not on_reference.succeeded):
        problem = "the tests cannot be judged on the reference"
    elif command is None and not on_reference.passed:
        problem = "no test passes on the reference"
    if problem is not None:
        hint = missing_module_hint(on_reference.said)
        print(f"{prog}: {problem}, {reference.jax}: {on_reference.said}{hint}", file=sys.stderr)
        return 2
    # The releases between are halved at each try, as `git bisect` halves commits: a test
    # that passes on one release passes on the later ones (a feature JAX added stays), so a
    # release that holds puts the floor at or below it, one that does not puts it above.
    between = [
        row
        for row in rows()
        if start.release <= row.release < reference.release
        and (library.requires_python is None or row.pythons_for(library.requires_python))
    ]
    low, high = 0, len(between)  # the floor is between[high], or the reference past the end
    tried = {reference.jax: on_reference}
    while low < high:
        middle = (low + high) // 2
        row = between[middle]
        stepped = time.monotonic()
        _say(f"  {row.jax}: ", end="")
        outcome = tried[row.jax] = try_row(row, library, tests)
        holds, lost = _holds(outcome, on_reference, tests)
        seconds = time.monotonic() - stepped
        _say(f"{outcome.said}{lost} ({seconds:.0f} s){'  <- holds' if holds else ''}")
        if holds:
            high = middle
        else:
            low = middle + 1
    floor = between[high] if high < len(between) else reference
    minutes = (time.monotonic() - began) / 60
    _say(
        f"the tests pass as on {reference.jax} from jax>={floor.jax} (halving the "
        f"{len(between)} release{'s' * (len(between) != 1)} below it; {minutes:.1f} min)"
    )
    below = between[high - 1] if high > 0 else None
    if below is not None and below.jax in tried and tried[below.jax].installed:
        differs = _what_differs(below, tried[below.jax], floor, tried[floor.jax])
        if differs:
            _say(differs)
    if floor.release <= _row(declared, "the declared floor").release:
        _say(f"the declared floor jax>={declared} holds")
        return 0
    if floor is start:
        # --from above the declared floor, and its row passes: the rows below it were not
        # tried, so nothing is known against the declared floor.
        _say(f"the releases below {start.jax} (--from) were not tried: nothing to raise")
        return 0
    if args.write and library.writable is not None:
        try:
            changes = raise_floor(library.writable, floor.jax)
        except (PyprojectError, OSError) as error:
            print(f"{prog}: {error}", file=sys.stderr)
            return 2
        for change in changes:
            _say(f"{library.writable}: {change}")
    elif library.writable is not None:
        _say(f"the declared floor jax>={declared} does not hold: --write raises it to {floor.jax}")
    else:
        _say(f"the declared floor jax>={declared} does not hold: declare jax>={floor.jax}")
    return 1
