"""Each file of a ``jaxcompat migrate`` run: read, its imports pointed at jaxcompat, read as
``check`` reads it, and its dead gate branches removed once the port's floor is known.
``_migrate_cli`` runs them over the files and writes the result."""

from __future__ import annotations

import ast
import functools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ._checked import SUPPRESSION, CheckedSource, read_checked
from ._edits import applied, edited_tree
from ._files import decode_keeping_line_ends, read_regular_file, with_deep_recursion
from ._migrate import import_edits, keyword_edits, remove_gates
from ._migrate_gates import dead_branches_removed
from ._migrate_pyproject import KEPT_LINES, PortedFile, gate_count, lowest_release
from ._migrate_renames import rename_edits
from ._ranges import every_row_mask, range_for_file
from ._retree import reparsed_statements
from ._rules import Finding

__all__ = [
    "Loaded",
    "gates_removed",
    "keeps_reading",
    "load",
    "port_floor",
    "problems_in",
    "protected",
]

_T = TypeVar("_T")


def protected(function: Callable[[str, int | None], _T], source: str, scope: int | None) -> _T:
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
class Loaded:
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
    #: findings on the lowered range are still to be read (``keeps_reading``).
    checked: CheckedSource | None


def load(file: Path, override: int | None, known_ranges: dict[Path, tuple[int, str]]) -> Loaded:
    """Raises OSError, SyntaxError, ValueError (a RangeError among them, for a pyproject.toml
    whose jax requirement is invalid)."""
    text, encoding = decode_keeping_line_ends(read_regular_file(file))
    scope, _ = range_for_file(file, override, known_ranges, "--jax SPEC")
    tree = protected(_parsed, text, scope)
    edits = protected(lambda source, _: import_edits(source, tree, scope), text, scope)
    imported = applied(text, edits)
    every_row = every_row_mask()
    try:
        # Parsed once: the rewritten text's tree is the source's, with the statements the
        # rewrite changed parsed again; its reading serves the keyword insertions and `check`.
        if edits:
            tree = protected(lambda source, _: edited_tree(tree, source, edits), imported, None)
        checked = protected(lambda source, _: read_checked(source, tree), imported, None)
        # Positional arguments the newest signature binds otherwise, passed by keyword;
        # old names read through jaxcompat, given their newest name (jax.tree_map).
        insertions = protected(
            lambda source, _: (
                keyword_edits(source, checked.tree, scope, checked.uses)
                + rename_edits(checked.tree, checked.lines, checked.uses, scope)
            ),
            imported,
            None,
        )
        if insertions:
            imported = applied(imported, insertions)
            tree = protected(
                lambda source, _: edited_tree(checked.tree, source, insertions), imported, None
            )
            checked = protected(lambda source, _: read_checked(source, tree), imported, None)
        found = tuple(protected(lambda _, __: checked.findings(every_row), imported, None))
    except (SyntaxError, ValueError, RecursionError):
        return Loaded(file, text, encoding, scope, imported, None, None)  # reported later
    return Loaded(file, text, encoding, scope, imported, found, checked)


def keeps_reading(item: Loaded, kept_lines: int) -> bool:
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


def gates_removed(item: Loaded, judged: int) -> tuple[str, CheckedSource | None]:
    """The text of `item` with its dead gate branches removed on the rows `judged`, as
    ``remove_gates`` removes them, and where it could be had without parsing the new text,
    its reading: its first pass reads the tree and gates ``check`` read, and its tree is
    that tree with the statements holding a removed gate parsed again (``_retree``)."""
    checked = item.checked
    if checked is None:
        text = protected(lambda source, _: remove_gates(source, judged), item.imported, judged)
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

    return protected(removed, item.imported, judged)


def port_floor(loaded: list[Loaded]) -> tuple[str, list[PortedFile]]:
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


def problems_in(loaded: list[Loaded | tuple[Path, Exception]]) -> bool:
    """Whether a file could not be read: the port stops, so nothing is resolved for it."""
    return any(isinstance(item, tuple) for item in loaded)
