"""The edit of a library's pyproject.toml that ends a port: ``jaxcompat`` added to
``[project].dependencies``, and every jax (and jaxlib) floor lowered to the port's, in place,
keeping every other byte (comments, layout, quoting). Caps and exclusions stay; a floor is
never raised; an entry under a marker goes no lower than the first release with wheels for
its Pythons. What it does not edit (Poetry's table, a setup.cfg's install_requires) and what
installed dependencies say of jax are notes for the summary.
"""

from __future__ import annotations

import configparser
import importlib.metadata
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from .._matrix import rows as matrix_rows
from .._releases import parse_release
from .._surface import rows
from ._ranges import leading_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "PyprojectEdit",
    "PyprojectError",
    "project_table",
    "pyproject_tables",
    "raise_floor",
    "update",
    "validate",
]

_FLOOR = re.compile(r"(>=|>)\s*([0-9]+(?:\.[0-9]+)*)")


@dataclass(frozen=True)
class PyprojectEdit:
    """What the update did (``text`` is the new file) and what it reports."""

    path: Path
    text: str
    changes: list[str]
    notes: list[str]


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


class PyprojectError(ValueError):
    """A pyproject.toml the port cannot edit: it does not parse, or a jax or jaxlib entry of
    its dependencies is no valid requirement. Found before anything is written."""


def _setup_cfg_note(setup_cfg: Path, floor: str) -> str | None:
    """What to do by hand in a setup.cfg that declares dependencies (``[options]
    install_requires``); None for one that declares none (``[egg_info]`` alone)."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(setup_cfg, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError, OSError) as error:
        return f"{setup_cfg} could not be read ({str(error).splitlines()[0]}): it is not edited"
    if not parser.has_option("options", "install_requires"):
        return None
    return (
        f"{setup_cfg} is not edited: add jaxcompat to its install_requires and set "
        f"jax>={floor} there yourself"
    )


def _lowest_for_marker(requirement: Requirement, floor: str) -> str | None:
    """The lowest release an entry with this requirement's marker can be lowered to: the
    floor, or the first row with wheels for a Python the marker admits (an entry under
    ``python_version >= '3.13'`` cannot go below the first JAX built for 3.13); None where
    no row has one."""
    if requirement.marker is None:
        return floor
    at_or_above = [row for row in matrix_rows() if parse_release(row.jax) >= parse_release(floor)]
    for row in at_or_above:
        for python in row.pythons:
            environment = {"python_version": python, "python_full_version": f"{python}.0"}
            try:
                if requirement.marker.evaluate(environment):
                    return row.jax
            except UndefinedEnvironmentName:
                return None
    return None


def pyproject_tables(pyproject: Path) -> dict[str, object]:
    """The tables of a pyproject.toml ``validate`` passed."""
    tables: dict[str, object] = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    return tables


def project_table(pyproject: Path) -> dict[str, object]:
    """The ``[project]`` table of a pyproject.toml ``validate`` passed ({} if it has none)."""
    project = pyproject_tables(pyproject).get("project")
    return project if isinstance(project, dict) else {}


def validate(pyproject: Path) -> None:
    """Raise PyprojectError where ``update`` of `pyproject` would: the port checks this
    before it reads a file, so that nothing is ported that could not be declared."""
    update(pyproject, rows()[-1])


def update(pyproject: Path, floor: str, *, installed: bool = True) -> PyprojectEdit:
    """The pyproject.toml with jaxcompat added and every jax (and jaxlib) floor lowered to
    ``floor``, each entry under a marker no lower than the first release with wheels for
    its Pythons. Raises PyprojectError for a file it cannot edit. With `installed`, the
    notes say what the installed dependencies' own jax requirements say (where a resolver
    did not read them)."""
    try:
        text = pyproject.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise PyprojectError(f"{pyproject}: cannot read it: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise PyprojectError(f"{pyproject}: it is not valid TOML: {error}") from None
    notes: list[str] = []
    if isinstance(data.get("tool"), dict) and "poetry" in data["tool"]:
        notes.append(
            f"{pyproject}: [tool.poetry] dependencies are not edited: add jaxcompat and set "
            f"jax >={floor} there yourself"
        )
    setup_cfg = pyproject.parent / "setup.cfg"
    if setup_cfg.is_file() and (note := _setup_cfg_note(setup_cfg, floor)) is not None:
        notes.append(note)
    bracket = _dependencies_array(text)
    if bracket is None:
        notes.append(f"{pyproject}: no [project] dependencies array: add jaxcompat yourself")
        return PyprojectEdit(pyproject, text, [], notes)
    strings, _ = _array_strings(text, bracket)
    for entry in strings:
        leading = canonicalize_name(leading_name(entry.value))
        if leading in ("jax", "jaxlib") and _name(entry.value) is None:
            raise PyprojectError(
                f"{pyproject}: the {leading} requirement {entry.value!r} is not a valid PEP 508 "
                "requirement: fix it, then migrate again"
            )
    changes: list[str] = []
    # jaxlib's floor goes down with jax's: a jaxlib newer than the jax it runs with is refused.
    jaxlib_of = {row.jax: row.jaxlib for row in matrix_rows()}
    index = 0
    while index < len(strings):
        entry = strings[index]
        index += 1
        name = _name(entry.value)
        match = _FLOOR.search(entry.value) if name in ("jax", "jaxlib") else None
        if match is None:
            continue
        lowest_jax = _lowest_for_marker(Requirement(entry.value), floor)
        if lowest_jax is None:
            notes.append(
                f"{name} entry {entry.value!r} is kept: no tested JAX release has wheels for "
                "a Python its marker admits"
            )
            continue
        lowest = jaxlib_of.get(lowest_jax, lowest_jax) if name == "jaxlib" else lowest_jax
        if parse_release(match.group(2)) <= parse_release(lowest):
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
    if installed:
        notes.extend(_installed_floors(others, floor))
    return PyprojectEdit(pyproject, text, changes, notes)


def raise_floor(pyproject: Path, floor: str) -> list[str]:
    """Raise each jax (and jaxlib) entry of `pyproject`'s ``[project].dependencies`` whose
    floor is below `floor` (or that has none) to it, writing the file in place and keeping
    every other byte; what changed. ``jaxcompat floor --write`` proves the floor first.
    Raises PyprojectError or OSError."""
    try:
        text = pyproject.read_text(encoding="utf-8")
        tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as error:
        raise PyprojectError(f"{pyproject}: cannot read it: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise PyprojectError(f"{pyproject}: it is not valid TOML: {error}") from None
    bracket = _dependencies_array(text)
    if bracket is None:
        raise PyprojectError(f"{pyproject}: no [project] dependencies array to raise")
    jaxlib_of = {row.jax: row.jaxlib for row in matrix_rows()}
    changes: list[str] = []
    strings, _ = _array_strings(text, bracket)
    for index in range(len(strings)):
        entry = strings[index]
        name = _name(entry.value)
        if name not in ("jax", "jaxlib"):
            continue
        wanted = jaxlib_of.get(floor, floor) if name == "jaxlib" else floor
        match = _FLOOR.search(entry.value)
        if match is not None:
            if parse_release(match.group(2)) >= parse_release(wanted):
                continue
            value = entry.value[: match.start()] + f">={wanted}" + entry.value[match.end() :]
        else:  # no floor: one goes in front of the other specifiers
            requirement = Requirement(entry.value)
            at = entry.value.find("]") + 1 if requirement.extras else len(leading_name(entry.value))
            rest = entry.value[at:].lstrip()
            joint = "," if rest and rest[0] not in ";@" else ""
            value = entry.value[:at] + f">={wanted}{joint}" + rest
        text = text[: entry.start + 1] + value + text[entry.end - 1 :]
        changes.append(f"{name}: {entry.value!r} -> {value!r}")
        strings, _ = _array_strings(text, bracket)
    if changes:
        pyproject.write_text(text, encoding="utf-8")
    return changes
