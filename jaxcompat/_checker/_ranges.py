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

from .._surface import rows

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "ALL",
    "RangeError",
    "describe",
    "mask_of",
    "range_for_file",
    "release_tuple",
    "release_tuples",
    "row_list",
    "spec_mask",
]


class RangeError(ValueError):
    """A specifier or a pyproject.toml that does not give a usable range of JAX releases."""


def release_tuple(release: str) -> tuple[int, ...]:
    """A release as an int tuple: ``0.9.0.1`` is ``(0, 9, 0, 1)``, like ``__version_info__``."""
    return tuple(int(part) for part in release.split("."))


@functools.cache
def release_tuples() -> tuple[tuple[int, ...], ...]:
    """Every row as an int tuple (:func:`release_tuple`)."""
    return tuple(release_tuple(row) for row in rows())


def _all_rows() -> int:
    return (1 << len(rows())) - 1


ALL = -1  # stands for every row until masked with `_all_rows()`


def mask_of(indices: list[int] | range) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


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
            f"{origin}: {text!r} admits no supported JAX release "
            f"(the matrix has {rows()[0]} to {rows()[-1]})"
        )
    return mask


def _jax_requirement(pyproject: Path) -> str | None:
    """The specifier of the ``jax`` entry of ``[project].dependencies``, or None."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise RangeError(f"{pyproject}: cannot read it: {error}") from None
    project = data.get("project", {})
    dependencies = project.get("dependencies", []) if isinstance(project, dict) else []
    for entry in dependencies if isinstance(dependencies, list) else []:
        try:
            requirement = Requirement(str(entry))
        except InvalidRequirement as error:
            # Another package's bad entry is not ours to judge; a bad jax entry would leave the
            # range unknown, and checking every release instead would be a silent guess.
            if canonicalize_name(_leading_name(str(entry))) == "jax":
                raise RangeError(
                    f"{pyproject}: the jax requirement {str(entry)!r} is not a valid PEP 508 "
                    f"requirement ({str(error).splitlines()[0]}); fix it, or pass --jax SPEC"
                ) from None
            continue
        if canonicalize_name(requirement.name) == "jax":
            return str(requirement.specifier)
    return None


def _leading_name(entry: str) -> str:
    """The distribution name a requirement starts with, even where the rest is not valid."""
    return re.split(r"[^A-Za-z0-9._-]", entry.strip(), maxsplit=1)[0]


def _range_for_directory(directory: Path) -> tuple[int, str]:
    for candidate in (directory, *directory.parents):
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            text = _jax_requirement(pyproject)
            if text is None:
                break
            shown = _shown(pyproject)
            if not text:
                return _all_rows(), f"{shown}: jax, unpinned"
            return spec_mask(text, shown), f"{shown}: jax{text}"
    return _all_rows(), "every supported release"


def _shown(path: Path) -> str:
    """`path` relative to the working directory when it is under it (stable output)."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def range_for_file(
    path: Path, override: int | None, known: dict[Path, tuple[int, str]]
) -> tuple[int, str]:
    """The rows `path` is checked on, and where that range comes from.

    `override` (from ``--jax``) wins; else the nearest ``pyproject.toml`` that exists is read
    (a ``jax`` requirement in ``[project].dependencies``, ``!=`` included); else every row.
    `known` holds the ranges of the directories seen so far in this run (each read once; a
    later run reads the files again, as they may have changed).
    """
    if override is not None:
        return override, "--jax"
    directory = path.resolve().parent
    if directory not in known:
        known[directory] = _range_for_directory(directory)
    return known[directory]


def parse_release(text: str) -> tuple[int, ...] | None:
    """``"0.4.31"`` as ``(0, 4, 31)``; None when it is no release."""
    try:
        return Version(text).release
    except InvalidVersion:
        return None
