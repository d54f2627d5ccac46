"""The syntax tree of a rewritten file, from the tree of the text before the rewrite.

``migrate``'s rewrite of imports and its keyword insertions keep every line's number and
change the text of a few statements only. Parsing the whole rewritten file again costs as
much as reading it (``bench/bench_check.py``); parsing only the statements an edit touches,
each on its own lines, and putting them in the old tree in place of the statements they
were gives the tree ``ast.parse`` gives for the new text (``tests/test_retree.py`` compares
the two, positions included). Where an edit is not inside one statement that has its lines
to itself (``import jax; x = 1``, ``if t: import jax``, a comment line), the caller parses
the whole text.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from typing import TypeGuard

__all__ = ["reparsed_statements", "statement_blocks"]


def reparsed_statements(
    tree: ast.Module,
    lines: Sequence[str],
    spans: Iterable[tuple[int, int]],
    *,
    same_kind: bool = True,
) -> bool:
    """Put into ``tree``, in place of each statement that holds a span (first line, last
    line) of an edit, what its lines in ``lines`` (the new text, cut with ``source_lines``,
    with every line at its old number) now hold: one statement of its kind, starting where
    it did (``same_kind``: an edit inside a statement), or any statements at its
    indentation (a dead gate replaced by the branch that runs, or by nothing). True where
    every span could be done so; False otherwise, and then ``tree`` is no longer the old
    text's (parse the new text instead)."""
    found: dict[int, _Place] = {}
    for first, last in spans:
        place = _innermost_statement(tree.body, first, last, [])
        if place is None:
            return False
        block, index, _ = place
        found[id(block[index])] = place
    # A statement inside another one that is parsed again is parsed with it.
    places = sorted(found.values(), key=lambda place: _first_line(place[0][place[1]]))
    outer: list[_Place] = []
    for place in places:
        statement = place[0][place[1]]
        if outer and _first_line(statement) <= _end_line(outer[-1][0][outer[-1][1]]):
            continue
        outer.append(place)
    # From the last: a block's later indices move when an earlier statement becomes several.
    for block, index, enclosing in reversed(outer):
        statement = block[index]
        new = _parsed_again(statement, lines, same_kind)
        if new is None:
            return False
        block[index : index + 1] = new
        if not block:
            return False  # only a module may be empty; `migrate` leaves `pass` in a block
        # A block (and a handler) ends where its last statement ends.
        old_end = (statement.end_lineno, statement.end_col_offset)
        for node in reversed(enclosing):  # statements, handlers and cases (no position)
            if not isinstance(node, ast.stmt | ast.excepthandler):
                continue
            if (node.end_lineno, node.end_col_offset) == old_end:
                ending = max(
                    (inner[-1] for inner, _ in statement_blocks(node)),
                    key=lambda s: (s.end_lineno or 0, s.end_col_offset or 0),
                )
                node.end_lineno, node.end_col_offset = ending.end_lineno, ending.end_col_offset
    return True


def _end_line(statement: ast.stmt) -> int:
    assert statement.end_lineno is not None
    return statement.end_lineno


def _first_line(statement: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", None) or []
    return min([statement.lineno, *(decorator.lineno for decorator in decorators)])


def statement_blocks(
    statement: ast.stmt | ast.excepthandler,
) -> list[tuple[list[ast.stmt], ast.AST | None]]:
    """The blocks a statement (or a handler) holds, none empty: body, else, finally, each
    handler's and case's, each with the handler (or case) it belongs to."""
    blocks = [getattr(statement, field, None) for field in ("body", "orelse", "finalbody")]
    parts = (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ()))
    return [
        (block, part)
        for block, part in (*((b, None) for b in blocks), *((p.body, p) for p in parts))
        if isinstance(block, list) and block
    ]


#: A statement's place: its block, its index there, and the nodes around it, outermost first.
_Place = tuple[list[ast.stmt], int, list[ast.AST]]


def _innermost_statement(
    block: list[ast.stmt], first: int, last: int, enclosing: list[ast.AST]
) -> _Place | None:
    """The place of the innermost statement whose lines hold lines ``first``..``last``,
    in ``block`` (inside the nodes ``enclosing``); None where no one statement does."""
    for index, statement in enumerate(block):
        assert statement.end_lineno is not None
        if statement.end_lineno < first:
            continue
        if not _first_line(statement) <= first <= last <= statement.end_lineno:
            return None
        for inner, part in statement_blocks(statement):
            end = inner[-1].end_lineno
            assert end is not None
            if _first_line(inner[0]) <= first and last <= end:
                around = [*enclosing, statement, *([part] if part is not None else [])]
                place = _innermost_statement(inner, first, last, around)
                if place is None or (_is_elif(statement) and place[0] is statement.orelse):
                    return block, index, enclosing  # an `elif` is parsed with its `if`
                return place
        return block, index, enclosing
    return None


def _is_elif(statement: ast.stmt) -> TypeGuard[ast.If]:
    """Whether the ``else`` block of ``statement`` is an ``elif`` (an ``if`` alone in it, at
    the column of the ``if`` it continues)."""
    return (
        isinstance(statement, ast.If)
        and len(statement.orelse) == 1
        and isinstance(statement.orelse[0], ast.If)
        and statement.orelse[0].col_offset == statement.col_offset
    )


def _parsed_again(
    statement: ast.stmt, lines: Sequence[str], same_kind: bool
) -> list[ast.stmt] | None:
    """The statements that the lines of ``statement`` hold in ``lines``, parsed at their
    place (line numbers and columns as in the whole text), each at its indentation; with
    ``same_kind``, exactly one, of its kind, starting and ending where it did. None where
    they are not that."""
    first, last = _first_line(statement), statement.end_lineno
    assert last is not None
    text = "".join(lines[first - 1 : last])
    if not same_kind and not _holds_code(lines[first - 1 : last]):
        return []
    if statement.col_offset == 0:
        body_of = None
        source = "\n" * (first - 1) + text
    elif first >= 2:
        # An indented statement is parsed as the body of a block on the line above.
        body_of = "if 1:\n"
        source = "\n" * (first - 2) + body_of + text
    else:
        return None
    try:
        module = ast.parse(source)
    except SyntaxError:
        return None
    statements = module.body
    if body_of is not None:
        if len(statements) != 1 or not isinstance(statements[0], ast.If):
            return None
        statements = statements[0].body
    if any(new.col_offset != statement.col_offset for new in statements):
        return None
    if not same_kind:
        return statements
    if len(statements) != 1:
        return None
    (new,) = statements
    same_place = (new.lineno, new.col_offset, new.end_lineno) == (
        statement.lineno,
        statement.col_offset,
        last,
    )
    return [new] if type(new) is type(statement) and same_place else None


def _holds_code(lines: Sequence[str]) -> bool:
    """Whether any of ``lines`` holds more than blanks and a comment."""
    return any(line.strip() and not line.lstrip().startswith("#") for line in lines)
