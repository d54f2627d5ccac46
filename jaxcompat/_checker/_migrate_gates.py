"""``jaxcompat migrate``'s removal of dead gate branches (the checker's JC033).

A gate whose test has the same answer on every release of the declared range keeps only the
branch that runs, as pyupgrade removes ``sys.version_info`` branches below its floor:

- ``if``: the body when the test always holds, else the ``elif`` (which becomes the ``if``) or
  the ``else`` block, dedented to the ``if``; with neither, the whole statement goes (``pass``
  takes the place of the last statement a block loses);
- ``elif``, judged on the releases where the tests before it fail: when its test always
  holds it becomes ``else:`` and the rest of the chain goes; when it never does, it goes;
- ``x if test else y`` on one line: the expression that is taken, parenthesised where it
  must be;
- ``try``/``except ImportError`` whose imports work on every release: the ``try`` body.

A comment block right above a removed ``if`` or ``try`` (no blank line between, at its
indentation) goes with it when every line of it speaks of releases (``# JAX v0.8.0 or
later``): it described the gate, and would describe nothing once the gate is gone. So do the
comment lines atop the branch kept, before its first statement, when each of them does.

Only whole lines are replaced. A gate is left as it is (and still reported by ``check``)
where moving its lines could change what the code means: a block on the same line as its
header, a string or f-string that spans lines in a block that would be dedented, a line that
does not start with the block's indentation, a ``try`` with an ``else`` or ``finally`` clause,
or an ``a if t else b`` that spans lines.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass

from ._files import LINE_END, char_column, source_lines
from ._gate_findings import dead_branch, replacing_branch
from ._resolve import resolve_file
from ._retree import statement_blocks
from ._uses import Gate
from ._walk import walk

__all__ = [
    "LINE_BREAK",
    "Removal",
    "dead_branches_removed",
    "every_statement",
    "remove_dead_branches",
]

# Expressions that need parentheses when they replace ``a if t else b`` in any context.
_LOOSE = (ast.Lambda, ast.IfExp, ast.NamedExpr, ast.Tuple, ast.Yield, ast.YieldFrom)


@dataclass(frozen=True)
class _Replacement:
    """Lines ``first``..``last`` (from 1, inclusive) become ``text``. A removal (``text``
    empty) that would leave its block empty writes ``placeholder`` (``pass``) instead."""

    first: int
    last: int
    text: str
    placeholder: str = ""
    #: The old line the first line of ``text`` was (0: ``first``); the lines of ``text``
    #: are the old lines from there on, dedented.
    text_from: int = 0


#: A comment line that speaks of releases: a release number or a word that compares them.
_ABOUT_RELEASES = re.compile(r"\d+\.\d+|\b(versions?|releases?|older|newer|later|earlier)\b", re.I)


def _describing_comments(lines: list[str], line: int) -> int:
    """The first line of the comment block right above line ``line`` (no blank line between,
    at its indentation) where every line of the block speaks of releases; else ``line``."""
    indent = _indent(lines[line - 1])
    first = line
    while first > 1 and _indent(lines[first - 2]) == indent:
        if not lines[first - 2].lstrip().startswith("#"):
            break
        first -= 1
    about = all(_ABOUT_RELEASES.search(lines[number - 1]) for number in range(first, line))
    return first if about else line


def _past_describing_comments(lines: list[str], start: int, block: list[ast.stmt]) -> int:
    """The line of the block's first statement where the lines from ``start`` up to it are
    all comments that speak of releases (``# JAX v0.8.0 or later`` atop the branch kept):
    they described the gate's test, and go with it. Else ``start``."""
    first = block[0].lineno
    between = lines[start - 1 : first - 1]
    if between and all(
        line.lstrip().startswith("#") and _ABOUT_RELEASES.search(line) for line in between
    ):
        return first
    return start


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _spans_lines(statements: list[ast.stmt]) -> bool:
    """Whether a string in ``statements`` spans lines (dedenting would change it)."""
    return any(
        isinstance(node, ast.Constant | ast.JoinedStr)
        and node.end_lineno is not None
        and node.end_lineno != node.lineno
        for statement in statements
        for node in walk(statement)
    )


def _dedented(lines: list[str], block: list[ast.stmt], to: str, start: int) -> str | None:
    """The lines of ``block`` from line ``start`` (the line after its header, so that the
    comments above its first statement stay with it) re-indented from the block's
    indentation to ``to``; None where that could change their meaning."""
    if _spans_lines(block):
        return None
    last = block[-1].end_lineno
    assert last is not None
    own = _indent(lines[block[0].lineno - 1])
    if not own.startswith(to) or own == to:
        return None
    kept = []
    for line in lines[start - 1 : last]:
        if not line.strip():
            kept.append(line)
        elif line.startswith(own):
            kept.append(to + line[len(own) :])
        elif line.lstrip().startswith("#"):
            kept.append(to + line.lstrip(" \t"))
        else:
            return None  # a continuation line indented less than the block: leave it
    return "".join(kept)


def _keyword_line(lines: list[str], after: int, before: int, keyword: str, indent: str) -> int:
    """The line of ``else:``/``elif``, written at ``indent`` between two lines; 0 if none."""
    for number in range(after + 1, before + 1):
        line = lines[number - 1]
        if _indent(line) == indent and line.lstrip().startswith(keyword):
            return number
    return 0


def _if_replacement(node: ast.If, keep: str, lines: list[str]) -> _Replacement | None:
    assert node.end_lineno is not None
    indent = _indent(lines[node.lineno - 1])
    if node.body[0].lineno == node.lineno:
        return None  # `if test: body` on one line
    if keep == "first":
        start = _past_describing_comments(lines, node.lineno + 1, node.body)
        text = _dedented(lines, node.body, indent, start)
        if text is None:
            return None
        return _Replacement(node.lineno, node.end_lineno, text, text_from=start)
    if not node.orelse:
        line_end = LINE_END.search(lines[node.end_lineno - 1])
        placeholder = f"{indent}pass{line_end.group() if line_end else ''}"
        return _Replacement(node.lineno, node.end_lineno, "", placeholder)
    body_end = node.body[-1].end_lineno
    assert body_end is not None
    following = node.orelse[0]
    if isinstance(following, ast.If) and lines[following.lineno - 1].lstrip().startswith("elif"):
        # `elif test:` becomes `if test:`; the rest of the chain stays as written.
        line = lines[following.lineno - 1]
        start = len(indent) + len("el")
        rewritten = indent + line[start:]
        return _Replacement(node.lineno, following.lineno, rewritten, text_from=following.lineno)
    else_line = _keyword_line(lines, body_end, following.lineno - 1, "else", indent)
    if not else_line or following.lineno == else_line:
        return None  # `else: body` on one line, or an `else` not found where expected
    start = _past_describing_comments(lines, else_line + 1, node.orelse)
    text = _dedented(lines, node.orelse, indent, start)
    if text is None:
        return None
    return _Replacement(node.lineno, node.end_lineno, text, text_from=start)


def _elif_replacement(node: ast.If, keep: str, lines: list[str]) -> _Replacement | None:
    """A dead ``elif``: its test always holds (it becomes ``else:`` and what follows it
    goes), or never does (it goes, and the chain goes on with what follows it)."""
    assert node.end_lineno is not None
    body_end = node.body[-1].end_lineno
    assert body_end is not None
    if node.body[0].lineno == node.lineno or node.test.end_lineno != node.lineno:
        return None  # `elif test: body` on one line, or a test that spans lines
    line = lines[node.lineno - 1]
    indent = line[: node.col_offset]
    following = node.orelse[0].lineno if node.orelse else 0
    if node.orelse and not isinstance(node.orelse[0], ast.If):
        following = _keyword_line(lines, body_end, following - 1, "else", indent)
        if not following or following == node.orelse[0].lineno:
            return None  # `else: body` on one line, or an `else` not found where expected
    if keep == "first":
        line_end = LINE_END.search(line)
        header = f"{indent}else:{line_end.group() if line_end else ''}"
        body = "".join(lines[node.lineno : body_end])
        return _Replacement(node.lineno, node.end_lineno, header + body)
    return _Replacement(node.lineno, following - 1 if following else node.end_lineno, "")


def _try_replacement(node: ast.Try, lines: list[str]) -> _Replacement | None:
    assert node.end_lineno is not None
    if node.orelse or node.finalbody or node.body[0].lineno == node.lineno:
        return None
    start = _past_describing_comments(lines, node.lineno + 1, node.body)
    text = _dedented(lines, node.body, _indent(lines[node.lineno - 1]), start)
    if text is None:
        return None
    return _Replacement(node.lineno, node.end_lineno, text, text_from=start)


def _expression_replacement(node: ast.IfExp, keep: str, lines: list[str]) -> _Replacement | None:
    """The line of a dead ``a if t else b`` with the expression taken in its place; None
    where the expression spans lines."""
    if node.end_lineno != node.lineno or node.end_col_offset is None:
        return None
    line = lines[node.lineno - 1]
    taken = node.body if keep == "first" else node.orelse
    assert taken.end_col_offset is not None
    text = line[char_column(line, taken.col_offset) : char_column(line, taken.end_col_offset)]
    if isinstance(taken, _LOOSE):
        text = f"({text})"
    start, end = char_column(line, node.col_offset), char_column(line, node.end_col_offset)
    return _Replacement(node.lineno, node.lineno, line[:start] + text + line[end:])


def every_statement(tree: ast.Module) -> list[ast.stmt]:
    """Every statement of `tree`, at any depth (blocks, handlers, match cases), without
    walking into expressions, which hold no statement."""
    found: list[ast.stmt] = []
    blocks: list[list[ast.stmt]] = [tree.body]
    while blocks:
        for statement in blocks.pop():
            found.append(statement)
            blocks += [block for block, _ in statement_blocks(statement)]
    return found


def _blocks(tree: ast.Module) -> dict[int, tuple[int, int]]:
    """For each statement in a block that must not be empty, the block's id and length (a
    module may be empty: its statements are not here)."""
    blocks: dict[int, tuple[int, int]] = {}
    for parent in every_statement(tree):
        for block, _ in statement_blocks(parent):
            for statement in block:
                blocks[id(statement)] = (id(block), len(block))
    return blocks


def remove_dead_branches(
    source: str, tree: ast.Module, scope: int, gates: list[Gate] | None = None
) -> tuple[str, bool]:
    """``source`` with one pass of dead gate branches removed (the outermost first; gates
    inside an edited span wait for the next pass), and whether any gate waits. ``gates``:
    those of ``tree``, where resolving it for ``check`` read them already."""
    lines = source_lines(source)
    replacements, waiting = _replacements(lines, tree, scope, gates)
    return _applied(lines, replacements), waiting


@dataclass(frozen=True)
class Removal:
    """One pass of dead branches removed from a text, as ``remove_dead_branches`` removes
    them: the new ``text``, and the same text with every line at its old number
    (``numbered``: a removed line is left empty, a kept one dedented in its place), whose
    syntax tree is the old text's with the statements holding the ``spans`` the pass
    changed parsed again (``_retree``); ``new_line[n]`` is the line of ``text`` that line
    ``n`` of ``numbered`` is (0 for an emptied one)."""

    text: str
    waiting: bool
    numbered: list[str] | None  # None where a replacement would not keep the numbers
    spans: list[tuple[int, int]]
    new_line: list[int]


def dead_branches_removed(
    source: str, tree: ast.Module, scope: int, gates: list[Gate] | None = None
) -> Removal:
    """``remove_dead_branches``, with the text at its old line numbers too."""
    lines = source_lines(source)
    replacements, waiting = _replacements(lines, tree, scope, gates)
    text = _applied(list(lines), replacements)
    numbered = list(lines)
    emptied = [False] * (len(lines) + 1)  # by old line number
    for r in replacements:
        new = source_lines(r.text)
        start = r.text_from or r.first
        if start + len(new) - 1 > r.last:  # more lines than it replaces: none does
            return Removal(text, waiting, None, [], [])
        numbered[r.first - 1 : r.last] = [LINE_BREAK] * (r.last - r.first + 1)
        numbered[start - 1 : start - 1 + len(new)] = new
        for number in range(r.first, r.last + 1):
            emptied[number] = not start <= number < start + len(new)
    # Each line that is not emptied is the next line of the new text (the new text may
    # lose trailing blank lines, which hold no node).
    new_line, count = [0], 0
    for number in range(1, len(numbered) + 1):
        count += not emptied[number]
        new_line.append(0 if emptied[number] else count)
    spans = [(r.first, r.last) for r in replacements]
    return Removal(text, waiting, numbered, spans, new_line)


#: What an emptied line of ``Removal.numbered`` holds.
LINE_BREAK = "\n"


def _replacements(
    lines: list[str], tree: ast.Module, scope: int, gates: list[Gate] | None
) -> tuple[list[_Replacement], bool]:
    """The replacements of one pass over the dead gates of ``tree`` (the outermost first),
    and whether any gate waits for the next pass."""
    if gates is None:
        _, gates, _ = resolve_file(tree, lines)
    waiting = False
    blocks: dict[int, tuple[int, int]] | None = None  # read once a statement is removed
    removed: dict[int, int] = {}  # block id -> statements removed from it in this pass
    replacements: list[_Replacement] = []
    for gate in sorted(gates, key=lambda g: (g.line, g.col)):
        keep = _keep(gate, scope)
        if keep is None:
            continue
        node = gate.node
        replacement: _Replacement | None = None
        if isinstance(node, ast.If) and gate.is_elif:
            replacement = _elif_replacement(node, keep, lines)
        elif isinstance(node, ast.If):
            replacement = _if_replacement(node, keep, lines)
        elif isinstance(node, ast.Try) and keep == "first":
            replacement = _try_replacement(node, lines)
        elif isinstance(node, ast.IfExp):
            replacement = _expression_replacement(node, keep, lines)
        if replacement is None:
            continue
        if isinstance(node, ast.If | ast.Try) and not gate.is_elif:
            above = _describing_comments(lines, replacement.first)
            if above < replacement.first:
                replacement = dataclasses.replace(
                    replacement, first=above, text_from=replacement.text_from or replacement.first
                )
        if any(r.first <= replacement.last and replacement.first <= r.last for r in replacements):
            waiting = True
            continue  # inside another gate's span: the next pass sees it
        if not replacement.text and not gate.is_elif:
            if blocks is None:
                blocks = _blocks(tree)
            if id(node) in blocks:
                block, size = blocks[id(node)]
                removed[block] = removed.get(block, 0) + 1
                if removed[block] == size:  # the last statement of its block: `pass` stays
                    replacement = _Replacement(
                        replacement.first, replacement.last, replacement.placeholder
                    )
        replacements.append(replacement)
    return replacements, waiting


def _applied(lines: list[str], replacements: list[_Replacement]) -> str:
    ended_blank = bool(lines) and not lines[-1].strip()
    for r in sorted(replacements, key=lambda r: r.first, reverse=True):
        lines[r.first - 1 : r.last] = [r.text]
    lines = [line for line in lines if line]
    if not ended_blank:  # removed statements ended the file: so do the blank lines before them
        while lines and not lines[-1].strip():
            lines.pop()
    return "".join(lines)


def _keep(gate: Gate, scope: int) -> str | None:
    """ "first" or "else": the branch of a dead gate that runs, or the branch that replaces a
    gate jaxcompat makes unneeded (JC030); None for a gate that stays."""
    if gate.node is None:
        return None
    dead = dead_branch(gate, scope)
    if dead is not None:
        return dead
    replacing = replacing_branch(gate, scope)
    branch = gate.branches[0 if replacing == "first" else 1] if replacing else []
    if any(path == "jax" or path.startswith("jax.") for path in branch):
        # The branch reads a name that is JAX's in this file (bound by an import migrate
        # leaves JAX's): jaxcompat giving it everywhere says nothing of JAX's own.
        return None
    return replacing
