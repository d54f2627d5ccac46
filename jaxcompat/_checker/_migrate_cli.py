"""``jaxcompat migrate``: port a library to jaxcompat, in place.

    jaxcompat migrate [PATH ...] [--jax SPEC] [--diff] [--check]

Every Python file under the paths (default: the current directory) gets the rewrite of
``_migrate.migrate_source`` for the releases it supports (``--jax``, else the nearest
pyproject.toml's jax requirement, else every release, as ``check`` reads them) and is written
back in its own encoding, byte order mark and line ends. ``--diff`` prints a unified diff
instead of writing; ``--check`` writes nothing and exits 1 if any file would change (for CI;
with ``--diff`` it prints the diff too).

Exit 0 when done (with ``--check``: when nothing would change), 1 when ``--check`` finds a
file to change, 2 on a usage error (a path that does not exist, a bad ``--jax``) or when a
file cannot be migrated (it cannot be read or written, is not a regular file, does not parse,
or its pyproject.toml gives no range) or a directory holds no Python file, which is named
with the reason; the other files are still migrated. A reader that closes the output early
ends the command quietly (exit 141, as a shell reports SIGPIPE).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import sys
from collections import deque
from pathlib import Path

from .._cli.program import parse_arguments, program_name
from ._checked import SUPPRESSION, read_checked
from ._dependency_bound import DependencyBound, dependency_bound
from ._files import (
    LEADS_OUTSIDE,
    NO_PYTHON_FILES,
    Write,
    existing_paths,
    few_collections,
    file_problem,
    python_files,
    unwritable,
    write_all_or_none,
)
from ._migrate_files import (
    Loaded,
    gates_removed,
    keeps_reading,
    load,
    port_floor,
    problems_in,
    protected,
)
from ._migrate_pyproject import (
    PortedFile,
    down_to,
    end_of_port,
    nearest_pyproject,
    nothing_written,
    say_pyproject,
)
from ._pyproject_edit import PyprojectError, validate
from ._ranges import RangeError, every_row_mask, shown_path, spec_mask

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{program_name()} migrate",
        description="Port a library to jaxcompat: point its JAX imports at jaxcompat and its "
        "reads of JAX's release at jaxcompat.JAX_VERSION(_STRING), and remove the branches of "
        "version gates that never run on the releases it supports. Only those spans change: "
        "comments and formatting elsewhere are kept, and a second run changes nothing.",
    )
    parser.add_argument("paths", nargs="*", default=["."], help="files and directories")
    parser.add_argument(
        "--jax",
        metavar="SPEC",
        help="the JAX releases the library supports, a PEP 440 specifier such as '>=0.5' "
        "(default: the jax requirement of the nearest pyproject.toml, else every release): "
        "gate branches that never run on them are removed",
    )
    parser.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if any file would change"
    )
    parser.add_argument(
        "--no-pyproject",
        action="store_true",
        help="leave the nearest pyproject.toml alone (by default jaxcompat is added to its "
        "dependencies and the jax floor lowered to the lowest release the ported code runs on)",
    )
    parser.add_argument(
        "--no-resolve",
        action="store_true",
        help="do not resolve the library's other dependencies (by default the floor is no "
        "lower than the lowest JAX they admit, found by uv or pip on your package indexes)",
    )
    return parser


@dataclasses.dataclass
class _Port:
    """What the port of the files has come to so far."""

    files: int = 0  # read and ported
    changed: int = 0  # of those, changed by the port
    problems: list[str] = dataclasses.field(default_factory=list)  # "file:line:1: error: ..."
    ported: list[PortedFile] = dataclasses.field(default_factory=list)
    writes: list[Write] = dataclasses.field(default_factory=list)

    def problem(self, file: Path, error: Exception) -> None:
        line, _, problem = file_problem(error)
        self.problems.append(f"{file}:{line}:1: error: {problem}")
        print(self.problems[-1])


def main(argv: list[str]) -> int:
    """Run ``jaxcompat migrate`` with `argv` (the arguments after ``migrate``); return the
    exit code.

    Nothing is written unless everything can be: a file that cannot be read, parsed or
    written, or a pyproject.toml that cannot be edited, is named, and no file changes.
    """
    args = parse_arguments(_parser(), argv)
    if isinstance(args, int):
        return args
    try:
        override = spec_mask(args.jax, "--jax") if args.jax is not None else None
    except RangeError as error:
        print(f"jaxcompat migrate: {error}", file=sys.stderr)
        return 2
    paths = existing_paths("jaxcompat migrate", args.paths)
    if paths is None:
        return 2
    pyproject = nearest_pyproject(paths[0]) if not args.no_pyproject and paths else None
    try:
        if pyproject is not None:
            validate(pyproject)
    except PyprojectError as error:
        print(f"error: {error}")
        print("1 problem found, so nothing was read or written.")
        return 2
    port = _Port()
    with few_collections():
        loaded = _load_every_file(paths, override)
        floor, read = port_floor([item for item in loaded if isinstance(item, Loaded)])
        # The floor the port declares is known before its gates are judged on it.
        bound = DependencyBound(floor)
        if pyproject is not None and not args.no_resolve and not problems_in(loaded):
            bound = dependency_bound(pyproject, floor)
        # A tree kept for its gates or the lowered range is let go once they are read:
        # the collector walks every tree still alive.
        pending = deque(loaded)
        loaded.clear()
        reads = iter(read)
        while pending:
            item = pending.popleft()
            if isinstance(item, tuple):
                port.problem(*item)
            else:
                _port_file(item, next(reads), bound.floor, args, port)
    return _finish(paths, bound, args, port)


def _load_every_file(
    paths: list[Path], override: int | None
) -> list[Loaded | tuple[Path, Exception]]:
    """Each Python file under ``paths`` read and its imports ported, or why it cannot be;
    the trees kept for later reading are bounded by ``keeps_reading``."""
    known_ranges: dict[Path, tuple[int, str]] = {}
    loaded: list[Loaded | tuple[Path, Exception]] = []
    every_row = every_row_mask()
    kept_lines = 0  # of the trees kept for the findings on the lowered range
    for path in paths:
        found_any = False
        left_outside: list[Path] = []
        for file in python_files(path, left_outside):
            found_any = True
            try:
                read_file = load(file, override, known_ranges)
            except (OSError, SyntaxError, ValueError, RecursionError) as error:
                loaded.append((file, error))
                continue
            if read_file.checked is None or not keeps_reading(read_file, kept_lines):
                read_file = dataclasses.replace(read_file, checked=None)
            elif read_file.scope != every_row:
                kept_lines += len(read_file.checked.lines)
            loaded.append(read_file)
        loaded.extend((link, NotADirectoryError(LEADS_OUTSIDE)) for link in left_outside)
        if not found_any and not left_outside:
            loaded.append((path, NotADirectoryError(NO_PYTHON_FILES)))
    return loaded


def _port_file(
    item: Loaded, imported: PortedFile, floor: str, args: argparse.Namespace, port: _Port
) -> None:
    """Remove the gates of one loaded file that never run on the range the port declares,
    read what is left in it, and print or queue its change."""
    file, source, scope = item.file, item.source, item.scope
    every_row = every_row_mask()
    # With --no-pyproject the port declares the library's own range; else the lowered one.
    judged = scope if args.no_pyproject else down_to(scope, floor)
    try:
        # A suppressed gate has no finding: a file with a suppression is read for gates all
        # the same.
        gateless = imported.gates_before == 0 and not SUPPRESSION.search(item.imported)
        migrated, removed_reading = (
            (item.imported, item.checked) if gateless else gates_removed(item, judged)
        )
    except (SyntaxError, ValueError, RecursionError) as error:
        port.problem(file, error)
        return
    port.files += 1
    reading = item.checked
    if migrated != item.imported:  # read again, for what is left in it
        reading = removed_reading or protected(lambda text, _: read_checked(text), migrated, None)
        found = tuple(reading.findings(every_row))
        imported = dataclasses.replace(imported, every_row=found)
    # And on the range lowered to the port's floor, while its tree is at hand: the floor read
    # from every ported file is that one unless the port removed a failing line.
    lowered = down_to(scope, floor)
    if reading is not None and lowered != every_row:
        found = tuple(reading.findings(lowered))
        imported = dataclasses.replace(imported, lowered=(lowered, found))
    port.ported.append(dataclasses.replace(imported, migrated=migrated))
    if migrated == source:
        return
    port.changed += 1
    if args.diff:
        sys.stdout.writelines(
            difflib.unified_diff(
                source.splitlines(keepends=True),
                migrated.splitlines(keepends=True),
                f"{file} (before)",
                f"{file} (migrated)",
            )
        )
    if not (args.diff or args.check):
        port.writes.append(Write(file, migrated.encode(item.encoding), b""))
    elif not args.diff:
        print(f"would migrate {file}")


def _finish(
    paths: list[Path], bound: DependencyBound, args: argparse.Namespace, port: _Port
) -> int:
    """The pyproject.toml edit, every write or none, and what the port says at its end."""
    write = not (args.diff or args.check)
    try:
        with few_collections():
            end = end_of_port(
                paths,
                port.ported,
                bound.floor,
                pyproject=not args.no_pyproject,
                resolved=bound.resolved,
            )
    except PyprojectError as error:
        port.problems.append(f"{error}")
        print(f"error: {error}")
        end = None
    verb = "Migrated" if write else "Would migrate"
    if end is None or port.problems:
        return nothing_written(verb, port.changed, port.files, len(port.problems), write)
    pyproject_changed = end.edit is not None and end.edit.text != end.edit.path.read_text(
        encoding="utf-8"
    )
    writes = port.writes
    if pyproject_changed and write:
        assert end.edit is not None
        writes.append(Write(end.edit.path, end.edit.text.encode("utf-8"), b""))
    if write:
        refused = [(w.path, why) for w in writes if (why := unwritable(w.path)) is not None]
        if not refused:
            writes = [dataclasses.replace(w, old=w.path.read_bytes()) for w in writes]
            failed_write = write_all_or_none(writes)
            refused = [failed_write] if failed_write is not None else []
        if refused:
            for path, why in refused:
                print(f"{path}:1:1: error: {why}")
            return nothing_written(verb, port.changed, port.files, len(refused), write)
        for written in writes:
            if end.edit is None or written.path != end.edit.path:
                print(f"migrated {written.path}")
    for said in end.said_first:
        print(said)
    if end.edit is not None:
        say_pyproject(end.edit, changed=pyproject_changed, write=write, diff=args.diff)
    if bound.note:
        print(f"note: {bound.note}")
    if tests_note := bound.tests_note_above(end.floor):
        print(f"note: {tests_note}")
    for said in end.left:
        print(said)
    lowered = end.edit is not None and any(c.startswith("jax:") for c in end.edit.changes)
    if lowered and end.pyproject is not None:
        # The floor is what the code's names and the other dependencies admit; the library's
        # own tests are what prove it.
        root = shown_path(end.pyproject.parent)
        print(f"note: your tests prove the floor: {program_name()} floor {root}")
    summary = f"{verb} {port.changed} of {port.files} file{'s' if port.files != 1 else ''}"
    print("; ".join([summary, *end.closing]) + ".")
    return 1 if args.check and (port.changed or pyproject_changed) else 0
