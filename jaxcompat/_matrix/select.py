"""Which rows of jaxcompat's matrix to test a library on: ``all``, ``breakpoints``, ``needed``.

``needed`` reads the library as ``jaxcompat check`` does (its declared range from the nearest
pyproject.toml, its findings on each release) and picks the fewest rows that still test:

- the floor and the newest release of the declared range;
- both sides of every boundary where a finding changes: a name appears or disappears, a
  keyword is taken or refused, a version gate takes its other branch;
- one row of every jaxcompat backend the range reaches, since jaxcompat's own behaviour
  changes only where the backend does (the newest row of that backend's part of the range).

Each row comes with why it was picked. Nothing here imports JAX.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import itertools
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from .._checker._checked import suppressed
from .._checker._files import (
    file_problem,
    python_files,
    read_source,
    source_lines,
    with_deep_recursion,
)
from .._checker._ranges import RangeError, range_for_file
from .._checker._resolve import resolve_file
from .._checker._rules import Finding, findings
from .._releases import parse_release
from . import MatrixRow, backend_ranges, rows

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = ["SELECTIONS", "LibraryError", "Selected", "select"]

SELECTIONS = ("all", "breakpoints", "needed")


class LibraryError(ValueError):
    """A library that cannot be read: a file that does not parse, a bad pyproject.toml."""


@dataclass
class Selected:
    """A row of the matrix and why it is tested."""

    row: MatrixRow
    why: list[str] = field(default_factory=list)


@dataclass
class _Library:
    scope: int  # the declared range, as a mask of rows (jaxcompat._checker._ranges)
    origin: str  # where the range comes from, as `check` says it
    #: Each change: (the row index where it starts, what changes there).
    changes: list[tuple[int, str]]
    #: The library's ``requires-python``, where its pyproject.toml gives one.
    requires_python: SpecifierSet | None = None


def _indices(mask: int) -> list[int]:
    return [index for index in range(len(rows())) if mask >> index & 1]


def _changes_in(mask: int, scope: int) -> list[int]:
    """The rows of `scope` where `mask` differs from the row of `scope` before them."""
    indices = _indices(scope)
    return [
        after
        for before, after in itertools.pairwise(indices)
        if (mask >> before & 1) != (mask >> after & 1)
    ]


def _file_findings(source: str, scope: int) -> tuple[list[Finding], list[tuple[int, str, int]]]:
    """What ``check`` finds in one file on `scope`, and each gate as (line, test, truth)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # as `check`: a file's own SyntaxWarnings are not ours
        tree = ast.parse(source)
    lines = source_lines(source)
    uses, gates, annotated = resolve_file(tree, lines)
    found = [
        f for f in findings(uses, gates, scope, tree, source, annotated) if not suppressed(f, lines)
    ]
    branches = [
        (gate.line, gate.test or gate.kind, gate.truth & gate.mask & scope)
        for gate in gates
        if gate.truth is not None and gate.kind != "string"
    ]
    return found, branches


def _read_library(path: Path) -> _Library:
    known: dict[Path, tuple[int, str]] = {}
    scope = 0
    origins: list[str] = []
    changes: list[tuple[int, str]] = []
    files = list(python_files(path)) if path.is_dir() else [path]
    if not files:  # no Python yet: the range is the nearest pyproject.toml's
        try:
            files_scope, origin = range_for_file(path / "__init__.py", None, known)
        except RangeError as error:
            raise LibraryError(str(error)) from None
        return _Library(files_scope, origin, [], _requires_python(path))
    for file in files:
        try:
            source = read_source(file)
            file_scope, origin = range_for_file(file, None, known)
            try:
                found, gates = _file_findings(source, file_scope)
            except RecursionError:
                found, gates = with_deep_recursion(
                    functools.partial(_file_findings, source, file_scope)
                )
        except RangeError as error:
            raise LibraryError(str(error)) from None
        except (OSError, SyntaxError, ValueError, RecursionError) as error:
            line, _, problem = file_problem(error)
            raise LibraryError(f"{file}:{line}: {problem}") from None
        scope |= file_scope
        if origin not in origins:
            origins.append(origin)
        for finding in found:
            where = f"{file}:{finding.line}:{finding.col}"
            for index in _changes_in(finding.releases, file_scope):
                changes.append((index, f"{finding.code} at {where}"))
        for line, test, truth in gates:
            for index in _changes_in(truth, file_scope):
                shown = test.replace("`", "")
                changes.append((index, f"the gate at {file}:{line} ({shown}) changes branch"))
    return _Library(scope, "; ".join(origins), changes, _requires_python(path))


def _requires_python(path: Path) -> SpecifierSet | None:
    """``[project].requires-python`` of the nearest pyproject.toml above `path`."""
    directory = path.resolve() if path.is_dir() else path.resolve().parent
    for candidate in (directory, *directory.parents):
        pyproject = candidate / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise LibraryError(f"{pyproject}: cannot read it: {error}") from None
        text = project.get("requires-python") if isinstance(project, dict) else None
        if text is None:
            return None
        try:
            return SpecifierSet(str(text))
        except InvalidSpecifier:
            raise LibraryError(
                f"{pyproject}: requires-python {text!r} is not a PEP 440 version specifier"
            ) from None
    return None


def _on_pythons(row: MatrixRow, requires_python: SpecifierSet | None) -> MatrixRow | None:
    """`row` with only the Pythons the library supports (its primary one too: the oldest
    supported Python from the row's primary up, else the newest supported); None where
    the row has wheels for none of them."""
    if requires_python is None:
        return row
    pythons = row.pythons_for(requires_python)
    if not pythons:
        return None
    primary = next(
        (p for p in pythons if parse_release(p) >= parse_release(row.python)), pythons[-1]
    )
    return dataclasses.replace(row, python=primary, pythons=pythons)


def _name(index: int) -> str:
    return rows()[index].jax


def _needed(path: Path) -> list[Selected]:
    library = _read_library(path)
    requires = library.requires_python
    testable = {
        index: row
        for index in _indices(library.scope)
        if (row := _on_pythons(rows()[index], requires)) is not None
    }
    if not testable:
        raise LibraryError(
            f"no JAX release of the declared range ({library.origin}) has wheels for a Python "
            f"that requires-python {requires} admits"
        )
    indices = list(testable)
    chosen: dict[int, list[str]] = {}

    def pick(index: int, why: str) -> None:
        reasons = chosen.setdefault(index, [])
        if why not in reasons:
            reasons.append(why)

    # A release without wheels for the library's Pythons cannot be tested: each end of the
    # range is the first (last) release that has them.
    python_note = f", on Python {requires}" if indices[0] != _indices(library.scope)[0] else ""
    pick(indices[0], f"the floor of the declared range ({library.origin}){python_note}")
    pick(indices[-1], f"the newest release of the declared range ({library.origin})")
    for index, what in sorted(library.changes):
        before = [i for i in indices if i < index]
        after = [i for i in indices if i >= index]
        if not before or not after:
            continue  # the change is outside what the library's Pythons can install
        change = f"{what}: differs between {_name(before[-1])} and {_name(after[0])}"
        pick(before[-1], change)
        pick(after[0], change)
    for backend_rows in backend_ranges():
        covered = [i for i in indices if rows()[i].backend == backend_rows[0].backend]
        if covered and not any(i in chosen for i in covered):
            pick(covered[-1], f"jaxcompat's backend {backend_rows[0].backend}")
    return [Selected(testable[index], chosen[index]) for index in sorted(chosen)]


def _breakpoints() -> list[Selected]:
    chosen: dict[str, Selected] = {}
    for backend_rows in backend_ranges():
        backend = backend_rows[0].backend
        for row, end in ((backend_rows[0], "first"), (backend_rows[-1], "last")):
            chosen.setdefault(row.jax, Selected(row)).why.append(f"{end} row of {backend}")
    newest = rows()[-1]
    chosen.setdefault(newest.jax, Selected(newest)).why.append("the newest release")
    order = {row.jax: index for index, row in enumerate(rows())}
    return sorted(chosen.values(), key=lambda selected: order[selected.row.jax])


def select(selection: str, path: Path | None) -> list[Selected]:
    """The rows of `selection` (one of SELECTIONS), oldest first; `path` is read for
    ``needed`` (raises LibraryError when it cannot be)."""
    if selection == "all":
        return [Selected(row, ["every tested release"]) for row in rows()]
    if selection == "breakpoints":
        return _breakpoints()
    if selection == "needed":
        return _needed(path if path is not None else Path("."))
    raise ValueError(f"unknown selection {selection!r}; choose one of {', '.join(SELECTIONS)}")
