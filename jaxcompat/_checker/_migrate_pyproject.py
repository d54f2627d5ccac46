"""The end of ``jaxcompat migrate``: the floor the port declares, and what is left for a person.

Once the sources are ported, the library's metadata still pins it: its ``jax>=`` floor stays
where JAX's own API put it, and without ``jaxcompat`` among its dependencies ``pip install``
of the ported library fails to import. This module finds the lowest release the ported code
runs on (the first release after every one on which ``check`` finds the ported code fails: a
missing or removed name, a keyword not taken, a positional call, a jaxcompat name JAX cannot
give there), never below the range its gates were judged on, and hands it to
``_pyproject_edit`` for the nearest pyproject.toml.
"""

from __future__ import annotations

import ast
import difflib
import sys
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .._releases import parse_release
from .._surface import rows

# A gate that a `# jaxcompat: ignore` comment (SUPPRESSION) suppresses has no finding, so a
# file with one is read for its gates.
from ._checked import SUPPRESSION, check_source
from ._codes import CODES
from ._files import source_lines
from ._pyproject_edit import PyprojectEdit, update
from ._ranges import every_row_mask
from ._resolve import resolve_file
from ._rules import Finding

__all__ = [
    "GATE_CODES",
    "PortEnd",
    "down_to",
    "end_of_port",
    "gate_count",
    "lowest_release",
    "nearest_pyproject",
    "nothing_written",
    "say_pyproject",
]


def lowest_release(findings: list[Finding]) -> str:
    """The first row after every row a failing finding concerns (the oldest row if none).

    A finding that fails on the newest release too is no question of a floor (no release
    runs that line): it is left for a person, and not counted here.
    """
    names = rows()
    newest = 1 << (len(names) - 1)
    failing = 0
    for finding in findings:
        if CODES[finding.code].holds_floor and not finding.releases & newest:
            failing |= finding.releases
    if not failing:
        return names[0]
    last = max(index for index in range(len(names)) if failing >> index & 1)
    return names[min(last + 1, len(names) - 1)]


def nearest_pyproject(path: Path) -> Path | None:
    directory = path.resolve() if path.is_dir() else path.resolve().parent
    for candidate in (directory, *directory.parents):
        if (candidate / "pyproject.toml").is_file():
            return candidate / "pyproject.toml"
    return None


#: The codes of the gates a port may remove: ``check`` gives each such gate one of them.
GATE_CODES = frozenset({"JC030", "JC033", "JC034"})


def gate_count(findings: list[Finding]) -> int:
    """How many version gates the findings of a file on every row say it holds."""
    return sum(finding.code in GATE_CODES for finding in findings)


def _read_gate_count(source: str) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    _, gates, _ = resolve_file(tree, source_lines(source))
    return sum(gate.kind in ("version", "hasattr", "try") for gate in gates)


def down_to(scope: int, floor: str) -> int:
    """`scope` with the rows from `floor` up to its first row added (the lowered range)."""
    names = rows()
    first = next(index for index in range(len(names)) if scope >> index & 1)
    for index in range(names.index(floor), first):
        scope |= 1 << index
    return scope


@dataclass(frozen=True)
class PortedFile:
    path: Path
    source: str
    migrated: str
    scope: int  # the rows of its declared range
    #: Where the port read them already: what ``check`` finds in ``migrated`` on every row,
    #: and how many gates ``source`` held.
    every_row: tuple[Finding, ...] | None = None
    gates_before: int | None = None
    #: What ``check`` finds in ``migrated`` on a lowered range, read with it: (the rows,
    #: the findings), used where the floor of every file gives that range.
    lowered: tuple[int, tuple[Finding, ...]] | None = None


#: How many lines of syntax trees a port keeps alive from their reading until the floor of
#: every file is known, for their findings on the lowered range: past them, a file is read
#: again instead.
KEPT_LINES = 200_000


@dataclass(frozen=True)
class PortEnd:
    """How a port ends, computed before anything is written: the floor it declares, the
    pyproject.toml edit, and what it says."""

    floor: str
    pyproject: Path | None  # the nearest pyproject.toml, where the port edits it
    edit: PyprojectEdit | None
    said_first: list[str]  # before the pyproject.toml's own lines (no pyproject.toml above)
    left: list[str]  # notes on the gates kept, then the findings left for a person
    closing: list[str]  # the summary's closing parts


def _floor_setter(
    ported: list[PortedFile], on_every_row: list[list[Finding]], floor: str
) -> list[str]:
    """Where the code keeps the floor from going lower: the first finding that fails on the
    release below it (none where the floor is the oldest row, or a dependency's)."""
    names = rows()
    index = names.index(floor)
    if index == 0:
        return []
    below = 1 << (index - 1)
    newest = 1 << (len(names) - 1)
    for file, found in zip(ported, on_every_row, strict=True):
        for finding in found:
            fails = CODES[finding.code].holds_floor and not finding.releases & newest
            if fails and finding.releases & below:
                what = finding.message.split("; ")[0]
                return [
                    f"the floor is {floor}: {file.path}:{finding.line}:{finding.col}: "
                    f"{finding.code} {what}"
                ]
    return []


def _later(first: str, second: str) -> str:
    return first if parse_release(first) >= parse_release(second) else second


def end_of_port(
    paths: list[Path],
    ported: list[PortedFile],
    port_floor: str,
    *,
    pyproject: bool,
    resolved: bool = False,
) -> PortEnd:
    """The floor the port declares, the edit of the nearest pyproject.toml (unless not
    ``pyproject``) and what is left for a person. Writes nothing; raises PyprojectError.

    The floor is the lowest release the ported code runs on, and never below `port_floor`:
    the gates were judged on the range from there, and a branch removed as dead above it
    would have run below it. `resolved`: a resolver read the other dependencies (the notes
    need not guess from the installed ones).
    """
    every_row = every_row_mask()
    on_every_row = [
        list(file.every_row)
        if file.every_row is not None
        else check_source(file.migrated, every_row)
        for file in ported
    ]
    floor = _later(
        lowest_release([finding for found in on_every_row for finding in found]), port_floor
    )
    said_first = _floor_setter(ported, on_every_row, floor)
    found: Path | None = None
    edit: PyprojectEdit | None = None
    if pyproject and paths:
        found = nearest_pyproject(paths[0])
        if found is None:
            said_first.append(
                f"no pyproject.toml above {paths[0]}: add jaxcompat and jax>={floor} yourself"
            )
        else:
            edit = update(found, floor, installed=not resolved)
    left: list[str] = []
    kept: list[str] = []  # notes on gates still needed
    codes: Counter[str] = Counter()
    removed = 0
    for file, on_every in zip(ported, on_every_row, strict=True):
        lowered = down_to(file.scope, floor)
        if lowered == every_row:
            still = on_every
        elif file.lowered is not None and file.lowered[0] == lowered:
            still = list(file.lowered[1])
        else:
            still = check_source(file.migrated, lowered)
        if file.gates_before is None or SUPPRESSION.search(file.source):
            removed += max(0, _read_gate_count(file.source) - _read_gate_count(file.migrated))
        else:
            removed += max(0, file.gates_before - gate_count(on_every))
        for finding in still:
            where = f"{file.path}:{finding.line}:{finding.col}"
            if not CODES[finding.code].fails_check:
                # A gate both of whose branches run on the declared range: it works.
                kept.append(f"note: {where}: {finding.code} {finding.message}")
                continue
            codes[finding.code] += 1
            left.append(f"left for a person: {where}: {finding.code} {finding.message}")
    counted = ", ".join(f"{code}: {count}" for code, count in sorted(codes.items()))
    closing = [
        f"removed {removed} version gate{'s' if removed != 1 else ''}",
        *([f"kept {len(kept)} still needed (JC034)"] if kept else []),
        f"{len(left)} finding{'s' if len(left) != 1 else ''} left for a person"
        + (f" ({counted})" if counted else ""),
        f"the ported code runs on JAX {floor} and newer"
        + (" once those are fixed" if left else ""),
    ]
    return PortEnd(floor, found, edit, said_first, [*kept, *left], closing)


def nothing_written(verb: str, changed: int, files: int, problems: int, write: bool) -> int:
    """The summary of a port stopped by `problems`: exit 2."""
    would = "would migrate" if write else verb.lower()
    what = "nothing was written" if write else "fix them first"
    print(
        f"{problems} problem{'s' if problems != 1 else ''} found, so {what} ({would} "
        f"{changed} of {files} file{'s' if files != 1 else ''} once they are fixed)."
    )
    return 2


def say_pyproject(edit: PyprojectEdit, *, changed: bool, write: bool, diff: bool) -> None:
    """The pyproject.toml's part of the output: its diff or its changes, and the notes."""
    if changed and diff:
        original = edit.path.read_text(encoding="utf-8")
        sys.stdout.writelines(
            difflib.unified_diff(
                original.splitlines(keepends=True),
                edit.text.splitlines(keepends=True),
                f"{edit.path} (before)",
                f"{edit.path} (migrated)",
            )
        )
    if changed and not diff:
        verb = "updated" if write else "would update"
        print(f"{verb} {edit.path}: {'; '.join(edit.changes)}")
    for note in edit.notes:
        print(f"note: {note}")
