"""Text edits that keep every line's number, and the syntax tree of the text they make.

``migrate`` edits a file's text in place (its imports pointed at jaxcompat, keywords added
to positional arguments) without moving a line, so that tracebacks through a ported file
point at the library's own lines; the tree of the edited text is the old one with the
statements the edits touch parsed again (``_retree``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ._files import source_lines
from ._retree import reparsed_statements

__all__ = ["Edit", "applied", "edited_tree"]


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, column) to (end line, end column); lines count from 1."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


def applied(source: str, edits: list[Edit]) -> str:
    """``source`` with ``edits`` (which do not overlap) made; every line keeps its number."""
    if not edits:
        return source
    lines = source_lines(source)
    # Applied from the end, so that earlier positions stay valid.
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        head = lines[edit.line - 1][: edit.column]
        tail = lines[edit.end_line - 1][edit.end_column :]
        lines[edit.line - 1 : edit.end_line] = [head + edit.text + tail]
    migrated = "".join(lines)
    assert len(source_lines(migrated)) == len(source_lines(source)), "the rewrite moved lines"
    return migrated


def edited_tree(tree: ast.Module, edited: str, edits: list[Edit]) -> ast.Module:
    """The syntax tree of ``edited``, made by ``edits`` from the text ``tree`` was parsed
    from: ``tree`` with the statements the edits touch parsed again (``_retree``), or
    ``edited`` parsed whole where that cannot be done. ``tree`` is not to be used after."""
    spans = [(edit.line, edit.end_line) for edit in edits]
    if reparsed_statements(tree, source_lines(edited), spans):
        return tree
    return ast.parse(edited)
