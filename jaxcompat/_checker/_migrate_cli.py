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
import ast
import dataclasses
import difflib
import functools
import sys
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .._cli.program import parse_arguments, program_name
from ._checked import SUPPRESSION, CheckedSource, read_checked
from ._dependency_bound import DependencyBound, dependency_bound
from ._edits import applied, edited_tree
from ._files import (
    LEADS_OUTSIDE,
    NO_PYTHON_FILES,
    Write,
    decode_keeping_line_ends,
    existing_paths,
    few_collections,
    file_problem,
    python_files,
    read_regular_file,
    unwritable,
    with_deep_recursion,
    write_all_or_none,
)
from ._migrate import import_edits, keyword_edits, remove_gates
from ._migrate_gates import dead_branches_removed
from ._migrate_pyproject import (
    KEPT_LINES,
    PortedFile,
    down_to,
    end_of_port,
    gate_count,
    lowest_release,
    nearest_pyproject,
    nothing_written,
    say_pyproject,
)
from ._migrate_renames import rename_edits
from ._pyproject_edit import PyprojectError, validate
from ._ranges import RangeError, every_row_mask, range_for_file, shown_path, spec_mask
from ._retree import reparsed_statements
from ._rules import Finding

__all__ = ["main"]

_T = TypeVar("_T")


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


def _protected(function: Callable[[str, int | None], _T], source: str, scope: int | None) -> _T:
    with warnings.catch_warnings():
        # Compiling warns about things such as invalid escape sequences: not our business,
        # and under `-W error` they would turn a valid file into one that "does not parse".
        warnings.simplefilter("ignore")
        try:
            return function(source, scope)
        except RecursionError:  # a deep tree that Python may still compile
            return with_deep_recursion(functools.partial(function, source, scope))


def _parsed(source: str, scope: int | None) -> ast.Module:
    return ast.parse(source)


@dataclass(frozen=True)
class _Loaded:
    """A file read, with its imports pointed at jaxcompat (its gates not yet judged), and
    what ``check`` finds in that text on every row."""

    file: Path
    source: str
    encoding: str
    scope: int  # the rows of its declared range
    imported: str
    every_row: tuple[Finding, ...] | None  # None where the text could not be read
    #: The text as read, kept where its gates are still to be judged (their removal starts
    #: from the tree and gates ``check`` read, instead of parsing the text again) or its
    #: findings on the lowered range are still to be read (``_keeps_reading``).
    checked: CheckedSource | None


def _load(file: Path, override: int | None, known_ranges: dict[Path, tuple[int, str]]) -> _Loaded:
    """Raises OSError, SyntaxError, ValueError (a RangeError among them, for a pyproject.toml
    whose jax requirement is invalid)."""
    text, encoding = decode_keeping_line_ends(read_regular_file(file))
    scope, _ = range_for_file(file, override, known_ranges, "--jax SPEC")
    tree = _protected(_parsed, text, scope)
    edits = _protected(lambda source, _: import_edits(source, tree, scope), text, scope)
    imported = applied(text, edits)
    every_row = every_row_mask()
    try:
        # Parsed once: the rewritten text's tree is the source's, with the statements the
        # rewrite changed parsed again; its reading serves the keyword insertions and `check`.
        if edits:
            tree = _protected(lambda source, _: edited_tree(tree, source, edits), imported, None)
        checked = _protected(lambda source, _: read_checked(source, tree), imported, None)
        # Positional arguments the newest signature binds otherwise, passed by keyword;
        # old names read through jaxcompat, given their newest name (jax.tree_map).
        insertions = _protected(
            lambda source, _: (
                keyword_edits(source, checked.tree, scope, checked.uses)
                + rename_edits(checked.tree, checked.lines, checked.uses, scope)
            ),
            imported,
            None,
        )
        if insertions:
            imported = applied(imported, insertions)
            tree = _protected(
                lambda source, _: edited_tree(checked.tree, source, insertions), imported, None
            )
            checked = _protected(lambda source, _: read_checked(source, tree), imported, None)
        found = tuple(_protected(lambda _, __: checked.findings(every_row), imported, None))
    except (SyntaxError, ValueError, RecursionError):
        return _Loaded(file, text, encoding, scope, imported, None, None)  # reported later
    return _Loaded(file, text, encoding, scope, imported, found, checked)


def _keeps_reading(item: _Loaded, kept_lines: int) -> bool:
    """Whether the reading of `item` stays alive past the reading of every file: where its
    gates are still to be removed from it, or where its findings on the lowered range (not
    every row) are to be read from it once the port's floor is known, while the trees kept
    for the latter stay few (``KEPT_LINES``)."""
    if item.checked is None or item.every_row is None:
        return False
    # Only a file with a gate (or a suppression, which hides one) has gates to remove.
    if gate_count(list(item.every_row)) > 0 or SUPPRESSION.search(item.imported):
        return True
    every_row = every_row_mask()
    return item.scope != every_row and kept_lines + len(item.checked.lines) <= KEPT_LINES


def _gates_removed(item: _Loaded, judged: int) -> tuple[str, CheckedSource | None]:
    """The text of `item` with its dead gate branches removed on the rows `judged`, as
    ``remove_gates`` removes them, and where it could be had without parsing the new text,
    its reading: its first pass reads the tree and gates ``check`` read, and its tree is
    that tree with the statements holding a removed gate parsed again (``_retree``)."""
    checked = item.checked
    if checked is None:
        text = _protected(lambda source, _: remove_gates(source, judged), item.imported, judged)
        return text, None

    def removed(source: str, _: int | None) -> tuple[str, CheckedSource | None]:
        assert checked is not None
        removal = dead_branches_removed(source, checked.tree, judged, checked.gates)
        if removal.text == source:
            return source, checked
        if removal.waiting:  # a gate inside a removed span: read in the next pass
            return remove_gates(removal.text, judged), None
        tree, numbered = checked.tree, removal.numbered
        if numbered is None or not reparsed_statements(
            tree, numbered, removal.spans, same_kind=False
        ):
            return removal.text, None
        return removal.text, read_checked("".join(numbered), tree, removal.new_line)

    return _protected(removed, item.imported, judged)


def _port_floor(loaded: list[_Loaded]) -> tuple[str, list[PortedFile]]:
    """The lowest release the ported files run on, read on their imports alone: the floor
    the port declares, below the library's own where jaxcompat gives what it lacked. Gates
    are judged down to it, as a gate that never runs above the old floor may run below it.
    And for each file, what ``check`` finds in it on every row, and how many gates it holds
    (``check`` gives each gate a finding; a file it finds none in has none to remove)."""
    read: list[PortedFile] = []
    for item in loaded:
        if item.every_row is None:
            read.append(PortedFile(item.file, item.source, item.imported, item.scope))
            continue  # reported when its gates are read
        found = item.every_row
        read.append(
            PortedFile(
                item.file, item.source, item.imported, item.scope, found, gate_count(list(found))
            )
        )
    floor = lowest_release([f for file in read for f in file.every_row or ()])
    return floor, read


def problems_in(loaded: list[_Loaded | tuple[Path, Exception]]) -> bool:
    """Whether a file could not be read: the port stops, so nothing is resolved for it."""
    return any(isinstance(item, tuple) for item in loaded)


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
    write = not (args.diff or args.check)
    pyproject = nearest_pyproject(paths[0]) if not args.no_pyproject and paths else None
    try:
        if pyproject is not None:
            validate(pyproject)
    except PyprojectError as error:
        print(f"error: {error}")
        print("1 problem found, so nothing was read or written.")
        return 2
    known_ranges: dict[Path, tuple[int, str]] = {}
    files = changed = 0
    problems: list[str] = []  # each a "file:line:1: error: ..." line
    ported: list[PortedFile] = []
    writes: list[Write] = []
    loaded: list[_Loaded | tuple[Path, Exception]] = []
    every_row = every_row_mask()
    kept_lines = 0  # of the trees kept for the findings on the lowered range
    with few_collections():
        for path in paths:
            found_any = False
            left_outside: list[Path] = []
            for file in python_files(path, left_outside):
                found_any = True
                try:
                    read_file = _load(file, override, known_ranges)
                except (OSError, SyntaxError, ValueError, RecursionError) as error:
                    loaded.append((file, error))
                    continue
                if read_file.checked is None or not _keeps_reading(read_file, kept_lines):
                    read_file = dataclasses.replace(read_file, checked=None)
                elif read_file.scope != every_row:
                    kept_lines += len(read_file.checked.lines)
                loaded.append(read_file)
            loaded.extend((link, NotADirectoryError(LEADS_OUTSIDE)) for link in left_outside)
            if not found_any and not left_outside:
                loaded.append((path, NotADirectoryError(NO_PYTHON_FILES)))
        floor, read = _port_floor([item for item in loaded if isinstance(item, _Loaded)])
        # The floor the port declares is known before its gates are judged on it.
        bound = DependencyBound(floor)
        if pyproject is not None and not args.no_resolve and not problems_in(loaded):
            bound = dependency_bound(pyproject, floor)
        floor = bound.floor
        reads = iter(read)
        # A tree kept for its gates or the lowered range is let go once they are read:
        # the collector walks every tree still alive.
        pending = deque(loaded)
        loaded.clear()
        while pending:
            item = pending.popleft()
            if isinstance(item, tuple):
                file, unreadable = item
                line, _, problem = file_problem(unreadable)
                problems.append(f"{file}:{line}:1: error: {problem}")
                print(problems[-1])
                continue
            file, source, scope = item.file, item.source, item.scope
            imported = next(reads)
            # With --no-pyproject the port declares the library's own range; else the
            # lowered one.
            judged = scope if args.no_pyproject else down_to(scope, floor)
            try:
                # A suppressed gate has no finding: a file with a suppression is read for
                # gates all the same.
                gateless = imported.gates_before == 0 and not SUPPRESSION.search(item.imported)
                migrated, removed_reading = (
                    (item.imported, item.checked) if gateless else _gates_removed(item, judged)
                )
            except (SyntaxError, ValueError, RecursionError) as error:
                line, _, problem = file_problem(error)
                problems.append(f"{file}:{line}:1: error: {problem}")
                print(problems[-1])
                continue
            files += 1
            reading = item.checked
            if migrated != item.imported:  # read again, for what is left in it
                reading = removed_reading or _protected(
                    lambda text, _: read_checked(text), migrated, None
                )
                found = tuple(reading.findings(every_row))
                imported = dataclasses.replace(imported, every_row=found)
            # And on the range lowered to the port's floor, while its tree is at hand: the
            # floor read from every ported file is that one unless the port removed a
            # failing line.
            lowered = down_to(scope, floor)
            if reading is not None and lowered != every_row:
                found = tuple(reading.findings(lowered))
                imported = dataclasses.replace(imported, lowered=(lowered, found))
            ported.append(dataclasses.replace(imported, migrated=migrated))
            if migrated == source:
                continue
            changed += 1
            if args.diff:
                sys.stdout.writelines(
                    difflib.unified_diff(
                        source.splitlines(keepends=True),
                        migrated.splitlines(keepends=True),
                        f"{file} (before)",
                        f"{file} (migrated)",
                    )
                )
            if write:
                writes.append(Write(file, migrated.encode(item.encoding), b""))
            elif not args.diff:
                print(f"would migrate {file}")
    try:
        with few_collections():
            end = end_of_port(
                paths,
                ported,
                floor,
                pyproject=not args.no_pyproject,
                resolved=bound.resolved,
            )
    except PyprojectError as error:
        problems.append(f"{error}")
        print(f"error: {error}")
        end = None
    verb = "Migrated" if write else "Would migrate"
    if end is None or problems:
        return nothing_written(verb, changed, files, len(problems), write)
    pyproject_changed = end.edit is not None and end.edit.text != end.edit.path.read_text(
        encoding="utf-8"
    )
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
            return nothing_written(verb, changed, files, len(refused), write)
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
    summary = f"{verb} {changed} of {files} file{'s' if files != 1 else ''}"
    print("; ".join([summary, *end.closing]) + ".")
    return 1 if args.check and (changed or pyproject_changed) else 0
