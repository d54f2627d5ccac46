"""The JAX releases a library claims: matrix rows, as bit masks, from a specifier or pyproject.

A set of rows is an ``int`` whose bit ``i`` stands for ``rows()[i]`` (oldest first), so that
intersecting the range with a version gate's branch is one ``&``.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from .._releases import parse_release
from .._surface import rows

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "RangeError",
    "describe",
    "every_row_mask",
    "fails_and_warns",
    "leading_name",
    "range_for_file",
    "release_tuples",
    "row_list",
    "shown_path",
    "spec_mask",
]


class RangeError(ValueError):
    """A specifier or a pyproject.toml that does not give a usable range of JAX releases."""


@functools.cache
def release_tuples() -> tuple[tuple[int, ...], ...]:
    """Every row as an int tuple (``_releases.parse_release``)."""
    return tuple(parse_release(row) for row in rows())


def every_row_mask() -> int:
    """The mask of every row."""
    return (1 << len(rows())) - 1


def row_list(mask: int) -> list[str]:
    """The releases in `mask`, oldest first."""
    return [row for index, row in enumerate(rows()) if mask >> index & 1]


@functools.cache  # a few distinct masks, named in most findings' messages
def describe(mask: int) -> str:
    """``0.4.13-0.4.24, 0.7.0`` style: runs of consecutive rows, named by their ends."""
    names = rows()
    runs: list[str] = []
    index = 0
    while index < len(names):
        if not mask >> index & 1:
            index += 1
            continue
        end = index
        while end + 1 < len(names) and mask >> (end + 1) & 1:
            end += 1
        runs.append(names[index] if end == index else f"{names[index]}-{names[end]}")
        index = end + 1
    return ", ".join(runs)


def fails_and_warns(fails: int, warns: int) -> str:
    """``fails on 0.4.13-0.4.26, emits a DeprecationWarning on 0.4.27``: either part alone
    where the other has no row."""
    parts = [f"fails on {describe(fails)}"] if fails else []
    if warns:
        parts.append(f"emits a DeprecationWarning on {describe(warns)}")
    return ", ".join(parts)


def spec_mask(text: str, origin: str) -> int:
    """The rows a PEP 440 specifier such as ``>=0.4.20,<0.9,!=0.7.0`` admits."""
    try:
        spec = SpecifierSet(text)
    except InvalidSpecifier:
        raise RangeError(f"{origin}: {text!r} is not a PEP 440 version specifier") from None
    mask = 0
    for index, row in enumerate(rows()):
        if spec.contains(Version(row), prereleases=True):
            mask |= 1 << index
    if not mask:
        raise RangeError(
            f"{origin}: {text!r} admits none of the {len(rows())} tested JAX releases"
            f"{_untested(spec)}; `jaxcompat matrix --select all` lists them"
        )
    return mask


def _untested(spec: SpecifierSet) -> str:
    """Where the releases a specifier names stand among the tested ones: the matrix has
    gaps (0.4.14-0.4.17 are no rows), so "0.4.13 to 0.12.0.1" would not say why."""
    tested = [Version(row) for row in rows()]
    said: list[str] = []
    for specifier in spec:
        try:
            named = Version(specifier.version.removesuffix(".*"))
        except InvalidVersion:
            continue
        if named in tested:
            continue
        below = [release for release in tested if release < named]
        above = [release for release in tested if release > named]
        if below and above:
            said.append(f"{named} is not one of them (the nearest are {below[-1]} and {above[0]})")
        elif below:
            said.append(f"the newest is {below[-1]}")
        else:
            said.append(f"the oldest is {above[0]}")
    return f": {'; '.join(dict.fromkeys(said))}" if said else ""


def _jax_requirements(pyproject: Path, fix_option: str | None) -> list[str] | None:
    """The specifier of every ``jax`` entry of ``[project].dependencies`` (one per marker,
    such as ``python_version < '3.14'``), or None where there is none."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise RangeError(f"{pyproject}: cannot read it: {error}") from None
    project = data.get("project", {})
    dependencies = project.get("dependencies", []) if isinstance(project, dict) else []
    found: list[str] = []
    for entry in dependencies if isinstance(dependencies, list) else []:
        try:
            requirement = Requirement(str(entry))
        except InvalidRequirement as error:
            # Another package's bad entry is not ours to judge; a bad jax entry would leave the
            # range unknown, and checking every release instead would be a silent guess.
            if canonicalize_name(leading_name(str(entry))) == "jax":
                fix = f"fix it, or pass {fix_option}" if fix_option else "fix it"
                raise RangeError(
                    f"{pyproject}: the jax requirement {str(entry)!r} is not a valid PEP 508 "
                    f"requirement ({str(error).splitlines()[0]}); {fix}"
                ) from None
            continue
        if canonicalize_name(requirement.name) == "jax":
            found.append(str(requirement.specifier))
    return found or None


def leading_name(entry: str) -> str:
    """The distribution name a requirement starts with, even where the rest is not valid."""
    return re.split(r"[^A-Za-z0-9._-]", entry.strip(), maxsplit=1)[0]


#: Where the range comes from when no pyproject.toml declares a jax requirement.
NO_JAX_REQUIREMENT = "every supported release"


def _range_for_directory(directory: Path, fix_option: str | None) -> tuple[int, str]:
    for candidate in (directory, *directory.parents):
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            specifiers = _jax_requirements(pyproject, fix_option)
            if specifiers is None:
                break
            shown = shown_path(pyproject)
            if "" in specifiers:
                return every_row_mask(), f"{shown}: jax, unpinned"
            # Entries under different markers (one per Python) each hold on their own
            # Pythons: the library supports the releases any of them admits.
            mask, refused = 0, []
            for text in specifiers:
                try:
                    mask |= spec_mask(text, shown)
                except RangeError as error:
                    refused.append(error)
            if not mask:
                raise refused[0]
            return mask, f"{shown}: " + " or ".join(f"jax{text}" for text in specifiers)
    return every_row_mask(), NO_JAX_REQUIREMENT


def shown_path(path: Path) -> str:
    """`path` relative to the working directory when it is under it (stable output)."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def range_for_file(
    path: Path,
    override: int | None,
    known: dict[Path, tuple[int, str]],
    fix_option: str | None = None,
) -> tuple[int, str]:
    """The rows `path` is checked on, and where that range comes from.

    `override` (from ``--jax``) wins; else the nearest ``pyproject.toml`` that exists is read
    (a ``jax`` requirement in ``[project].dependencies``, ``!=`` included); else every row.
    `known` holds the ranges of the directories seen so far in this run (each read once; a
    later run reads the files again, as they may have changed). `fix_option` is the
    command's option that overrides the range, named where the pyproject.toml's is invalid.
    """
    if override is not None:
        return override, "--jax"
    directory = path.resolve().parent
    if directory not in known:
        known[directory] = _range_for_directory(directory, fix_option)
    return known[directory]
