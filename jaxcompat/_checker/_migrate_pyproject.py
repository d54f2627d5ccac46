"""The end of ``jaxcompat migrate``: the nearest pyproject.toml, and what is left for a person.

Once the sources are ported, the library's metadata still pins it: its ``jax>=`` floor stays
where JAX's own API put it, and without ``jaxcompat`` among its dependencies ``pip install``
of the ported library fails to import. This module

- finds the lowest release the ported code runs on: the first release after every one on
  which ``check`` finds the ported code fails (a missing or removed name, a keyword not
  taken, a positional call, a jaxcompat name JAX cannot give there);
- edits the ``[project].dependencies`` array of the nearest pyproject.toml in place, keeping
  every other byte (comments, layout, quoting): ``jaxcompat`` is added after ``jax``, and a
  ``>=``/``>`` floor above that release is lowered to it (never raised; caps and exclusions
  stay);
- reports what it does not edit: Poetry's ``[tool.poetry.dependencies]``, a setup.cfg, and
  installed dependencies whose own jax requirement has a higher floor.
"""

from __future__ import annotations

import ast
import difflib
import importlib.metadata
import re
import sys
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from .._matrix import rows as matrix_rows
from .._surface import rows
from ._files import source_lines
from ._resolve import resolve_file
from ._rules import Finding

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "FAILING_CODES",
    "GATE_CODES",
    "PyprojectEdit",
    "down_to",
    "finish_port",
    "gate_count",
    "lowest_release",
    "nearest_pyproject",
    "update",
]

#: The findings on which the code does not run: AttributeError/ImportError, TypeError, or a
#: position that means another parameter.
FAILING_CODES = frozenset({"JC001", "JC003", "JC010", "JC020", "JC040"})

_FLOOR = re.compile(r"(>=|>)\s*([0-9]+(?:\.[0-9]+)*)")


@dataclass(frozen=True)
class PyprojectEdit:
    """What the update did (``text`` is the new file) and what it reports."""

    path: Path
    text: str
    changes: list[str]
    notes: list[str]


def lowest_release(findings: list[Finding]) -> str:
    """The first row after every row a failing finding concerns (the oldest row if none).

    A finding that fails on the newest release too is no question of a floor (no release
    runs that line): it is left for a person, and not counted here.
    """
    names = rows()
    newest = 1 << (len(names) - 1)
    failing = 0
    for finding in findings:
        if finding.code in FAILING_CODES and not finding.releases & newest:
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


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


@dataclass(frozen=True)
class _String:
    start: int  # of the opening quote
    end: int  # after the closing quote
    value: str
    quote: str


def _array_strings(text: str, start: int) -> tuple[list[_String], int]:
    """The string literals of the TOML array whose ``[`` is at ``start``, and where it ends.

    A scanner, not a parser: strings (``"..."`` with escapes, ``'...'``), comments and
    nested arrays are stepped over, so that a ``]`` or ``#`` inside a string is read as text.
    """
    strings: list[_String] = []
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char in "\"'":
            end = index + 1
            while text[end] != char:
                end += 2 if char == '"' and text[end] == "\\" else 1
            strings.append(_String(index, end + 1, text[index + 1 : end], char))
            index = end + 1
            continue
        if char == "#":
            index = text.index("\n", index) if "\n" in text[index:] else len(text)
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return strings, index
        index += 1
    raise ValueError("the dependencies array does not end")


def _dependencies_array(text: str) -> int | None:
    """Where the ``[`` of ``[project].dependencies`` is, or None."""
    section = re.search(r"(?m)^\[project\]\s*$", text)
    if section is None:
        return None
    following = re.search(r"(?m)^\[", text[section.end() :])
    end = section.end() + following.start() if following else len(text)
    key = re.compile(r"(?m)^dependencies\s*=\s*\[").search(text, section.end(), end)
    return key.end() - 1 if key else None


def _name(value: str) -> str | None:
    try:
        return canonicalize_name(Requirement(value).name)
    except InvalidRequirement:
        return None


def _insert_after(text: str, entry: _String, new: str) -> str:
    """``text`` with the string ``new`` added after ``entry`` in its array, in its layout."""
    line_start = text.rfind("\n", 0, entry.start) + 1
    before = text[line_start : entry.start]
    multiline = before.strip() == ""
    after = entry.end
    has_comma = text[after : after + 1] == ","
    literal = f"{entry.quote}{new}{entry.quote}"
    if multiline:  # a line of its own, after the line of `entry` and its comment
        if not has_comma:
            text, after = text[:after] + "," + text[after:], after + 1
        line_end = text.find("\n", after)
        line_end = len(text) if line_end < 0 else line_end
        comma = "," if has_comma else ""
        return text[:line_end] + f"\n{before}{literal}{comma}" + text[line_end:]
    if has_comma:
        return text[: after + 1] + f" {literal}," + text[after + 1 :]
    return text[:after] + f", {literal}" + text[after:]


def _installed_floors(names: list[str], floor: str) -> list[str]:
    """What the installed dependencies' own jax requirements say, for the report."""
    notes, unchecked = [], []
    for name in names:
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            unchecked.append(name)
            continue
        for entry in requires:
            try:
                requirement = Requirement(entry)
            except InvalidRequirement:
                continue
            if canonicalize_name(requirement.name) != "jax" or requirement.marker is not None:
                continue
            if not requirement.specifier.contains(floor, prereleases=True):
                notes.append(
                    f"{name} (installed) requires jax{requirement.specifier}: it pulls JAX "
                    f"above {floor}"
                )
    checked = [n for n in names if n not in unchecked]
    if checked:
        notes.append(f"checked the jax requirement of the installed {', '.join(checked)}")
    if unchecked:
        notes.append(
            f"not installed, so not checked (the package index is not read): {', '.join(unchecked)}"
        )
    return notes


def update(pyproject: Path, floor: str) -> PyprojectEdit:
    """The pyproject.toml with jaxcompat added and the jax floor lowered to ``floor``."""
    text = pyproject.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    notes: list[str] = []
    if isinstance(data.get("tool"), dict) and "poetry" in data["tool"]:
        notes.append(
            f"{pyproject}: [tool.poetry] dependencies are not edited: add jaxcompat and set "
            f"jax >={floor} there yourself"
        )
    if (pyproject.parent / "setup.cfg").is_file():
        notes.append(
            f"{pyproject.parent / 'setup.cfg'} is not edited: add jaxcompat to its "
            f"install_requires and set jax>={floor} there yourself"
        )
    bracket = _dependencies_array(text)
    if bracket is None:
        notes.append(f"{pyproject}: no [project] dependencies array: add jaxcompat yourself")
        return PyprojectEdit(pyproject, text, [], notes)
    strings, _ = _array_strings(text, bracket)
    named = {_name(s.value): s for s in strings}
    changes: list[str] = []
    # jaxlib's floor goes down with jax's: a jaxlib newer than the jax it runs with is refused.
    jaxlib_floor = next((row.jaxlib for row in matrix_rows() if row.jax == floor), floor)
    for name, lowest in (("jax", floor), ("jaxlib", jaxlib_floor)):
        entry = named.get(name)
        match = _FLOOR.search(entry.value) if entry is not None else None
        if entry is None or match is None or _release(match.group(2)) <= _release(lowest):
            continue
        value = entry.value[: match.start()] + f">={lowest}" + entry.value[match.end() :]
        text = text[: entry.start + 1] + value + text[entry.end - 1 :]
        changes.append(f"{name}: {entry.value!r} -> {value!r}")
        strings, _ = _array_strings(text, bracket)
        named = {_name(s.value): s for s in strings}
    jax = named.get("jax")
    if "jaxcompat" not in named:
        anchor = jax if jax is not None else (strings[-1] if strings else None)
        if anchor is None:
            text = text[: bracket + 1] + '"jaxcompat"' + text[bracket + 1 :]
        else:
            text = _insert_after(text, anchor, "jaxcompat")
        changes.append("added 'jaxcompat'")
    others = sorted(n for n in named if n is not None and n not in ("jax", "jaxlib", "jaxcompat"))
    notes.extend(_installed_floors(others, floor))
    return PyprojectEdit(pyproject, text, changes, notes)


#: The codes of the gates a port may remove: ``check`` gives each such gate one of them.
GATE_CODES = frozenset({"JC030", "JC033", "JC034"})


#: A ``# jaxcompat: ignore`` comment (``check``'s suppression): a gate it suppresses has
#: no finding, so a file with one is read for its gates.
SUPPRESSION = re.compile(r"#\s*jaxcompat:\s*ignore")


def gate_count(findings: list[Finding]) -> int:
    """How many version gates the findings of a file on every row say it holds."""
    return sum(finding.code in GATE_CODES for finding in findings)


def _read_gate_count(source: str) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    _, gates = resolve_file(tree, source_lines(source))
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


def finish_port(
    paths: list[Path], ported: list[PortedFile], *, write: bool, diff: bool, pyproject: bool
) -> tuple[bool, list[str]]:
    """Update the nearest pyproject.toml (unless not ``pyproject``) and say what is left.

    Returns (whether the pyproject.toml changes, the closing lines for the summary).
    """
    from ._cli import check_source  # the findings as `check` gives them, suppressions kept

    every_row = (1 << len(rows())) - 1
    on_every_row = [
        list(file.every_row)
        if file.every_row is not None
        else check_source(file.migrated, every_row)
        for file in ported
    ]
    floor = lowest_release([finding for found in on_every_row for finding in found])
    changed = False
    if pyproject and paths:
        found = nearest_pyproject(paths[0])
        if found is None:
            print(f"no pyproject.toml above {paths[0]}: add jaxcompat and jax>={floor} yourself")
        else:
            original = found.read_text(encoding="utf-8")
            edit = update(found, floor)
            changed = edit.text != original
            if changed and diff:
                sys.stdout.writelines(
                    difflib.unified_diff(
                        original.splitlines(keepends=True),
                        edit.text.splitlines(keepends=True),
                        f"{found} (before)",
                        f"{found} (migrated)",
                    )
                )
            if changed and write:
                found.write_text(edit.text, encoding="utf-8")
            if changed and not diff:
                verb = "updated" if write else "would update"
                print(f"{verb} {found}: {'; '.join(edit.changes)}")
            for note in edit.notes:
                print(f"note: {note}")
    left: list[str] = []
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
            codes[finding.code] += 1
            where = f"{file.path}:{finding.line}:{finding.col}"
            left.append(f"left for a person: {where}: {finding.code} {finding.message}")
    for line in left:
        print(line)
    counted = ", ".join(f"{code}: {count}" for code, count in sorted(codes.items()))
    closing = [
        f"removed {removed} version gate{'s' if removed != 1 else ''}",
        f"{len(left)} finding{'s' if len(left) != 1 else ''} left for a person"
        + (f" ({counted})" if counted else ""),
        f"the ported code runs on JAX {floor} and newer"
        + (" once those are fixed" if left else ""),
    ]
    return changed, closing
