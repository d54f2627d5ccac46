"""``jaxcompat migrate``: positional arguments whose parameter the newest JAX signature
changes, passed by keyword.

A ported call goes through a jaxcompat name, which takes the newest JAX's signature on every
release, so a positional argument written for an older signature may land on another
parameter there: ``jnp.array(x, dtype, False)`` passes ``copy`` third on JAX 0.4.13-0.7.2,
where the newest ``jnp.array`` takes ``copy`` by keyword only. Where every release of the
range the code was written for binds the argument to one parameter, and the newest signature
takes that parameter by keyword, the argument is passed by that keyword (with every
positional argument after it); any other call is left as written, and ``check`` reports it
(JC020 or JC041).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Sequence

from .._surface import rows
from ._api import Signature, signature_masks, stable_names
from ._files import char_column
from ._resolve import resolve_file
from ._syntax_facts import JAX_ROOTS
from ._uses import Use
from ._walk import walk

__all__ = ["keyword_insertions"]


def _newest(jax_path: str) -> Signature | None:
    newest = 1 << (len(rows()) - 1)
    return next((s for s, m in signature_masks(jax_path) if m & newest), None)


@functools.cache
def _candidates() -> dict[str, int]:
    """{last part of a stable name: the fewest positional arguments a call needs to have one
    whose parameter differs between some release and the newest signature}."""
    found: dict[str, int] = {}
    for stable in stable_names():
        newest = _newest(f"jax.{stable}")
        if newest is None:
            continue
        for signature, _ in signature_masks(f"jax.{stable}"):
            names = signature.positional_names
            for index, name in enumerate(names):
                if index >= len(newest.positional_names) or newest.positional_names[index] != name:
                    last = stable.rpartition(".")[2]
                    found[last] = min(found.get(last, index + 1), index + 1)
                    break
    return found


def _agreed(signatures: list[Signature], index: int) -> str | None:
    """The parameter that every signature binds the positional argument ``index`` to, where
    each also takes it by keyword; else None."""
    names = set()
    for signature in signatures:
        if index >= len(signature.positional_names):
            return None
        name = signature.positional_names[index]
        if not any(p.name == name and p.keyword for p in signature.parameters):
            return None
        names.add(name)
    return names.pop() if len(names) == 1 else None


def _keywords_for(jax_path: str, call: ast.Call, scope: int) -> list[str] | None:
    """The keywords for the positional arguments of ``call`` from the first that the newest
    signature binds otherwise, or None if there is none or one is not unambiguous."""
    newest = _newest(jax_path)
    written = [s for s, m in signature_masks(jax_path) if m & scope]
    if newest is None or not written:
        return None
    newest_positions = newest.positional_names
    taken_by_keyword = {p.name for p in newest.parameters if p.keyword}
    passed = {keyword.arg for keyword in call.keywords}
    for first in range(len(call.args)):
        agreed = _agreed(written, first)
        if agreed is None:
            return None  # the releases disagree, or one cannot take it: left as written
        if first < len(newest_positions) and newest_positions[first] == agreed:
            continue
        if first >= len(newest_positions) and newest.var_positional:
            continue
        keywords = [_agreed(written, index) for index in range(first, len(call.args))]
        if any(k is None or k not in taken_by_keyword or k in passed for k in keywords):
            return None
        return [k for k in keywords if k is not None]
    return None


@functools.cache
def _call_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\s*\(")


#: An import of jaxcompat (or of JAX, which jaxcompat forwards to where it must).
_JAX_IMPORT = re.compile(r"^[ \t]*(?:import|from)[ \t]+jax(?:compat)?\b", re.MULTILINE)


def _line_numbers(source: str, pattern: re.Pattern[str]) -> list[int]:
    """The numbers of the lines on which ``pattern`` matches, in order."""
    found: list[int] = []
    line, position = 1, 0
    for match in pattern.finditer(source):
        line += source.count("\n", position, match.start())
        position = match.start()
        if not found or found[-1] != line:
            found.append(line)
    return found


def _jax_roots(tree: ast.Module, source: str) -> set[str]:
    """The local names that the file's imports bind to jaxcompat (or JAX) modules or names."""
    roots = set()
    for node in walk(tree, _line_numbers(source, _JAX_IMPORT)):
        if isinstance(node, ast.Import):
            roots |= {
                a.asname or a.name.partition(".")[0]
                for a in node.names
                if a.name.partition(".")[0] in JAX_ROOTS
            }
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in JAX_ROOTS:
            roots |= {a.asname or a.name for a in node.names if node.level == 0}
    return roots


def keyword_insertions(
    tree: ast.Module,
    source: str,
    lines: Sequence[str],
    scope: int,
    uses: list[Use] | None = None,
) -> list[tuple[int, int, str]]:
    """(line, column in characters, ``name=``) to insert before positional arguments of the
    calls of ``tree`` through a jaxcompat name that the newest signature binds otherwise, on
    the rows ``scope``. ``source`` is a file whose imports point at jaxcompat already (a call
    left to JAX's own object keeps its JAX release's signature), resolved as ``uses`` where
    given."""
    candidates = _candidates()
    # A scan for each name is much faster than one pattern of them all over the text.
    present = tuple(name for name in candidates if name in source)
    if not present or not _JAX_IMPORT.search(source):
        return []
    if uses is None:
        watched = _line_numbers(source, _call_pattern(present))
    else:
        # Resolved already: the lines where a call through a jaxcompat name starts that has
        # as many positional arguments as a changed parameter needs.
        watched = sorted({use.line for use in uses if _may_change(use, candidates)})
    if not watched:
        return []
    roots = _jax_roots(tree, source)
    calls = {
        (node.func.lineno, node.func.col_offset + 1): node
        for node in walk(tree, watched)
        if isinstance(node, ast.Call)
        and _root_name(node.func) in roots
        and not any(isinstance(a, ast.Starred) for a in node.args)
        and len(node.args) >= candidates.get(_last_name(node.func), len(node.args) + 1)
    }
    if not calls:
        return []
    if uses is None:
        uses, _, _ = resolve_file(tree, lines)
    insertions = []
    for use in uses:
        call = calls.get((use.line, use.col))
        if call is None or not use.path.startswith("jaxcompat."):
            continue
        name = use.path.removeprefix("jaxcompat.")
        if name not in stable_names():
            continue  # not a jaxcompat name of its own: JAX's object, as written for
        keywords = _keywords_for(f"jax.{name}", call, use.mask & scope)
        if keywords is None:
            continue
        arguments = call.args[len(call.args) - len(keywords) :]
        found = [
            (a.lineno, char_column(lines[a.lineno - 1], a.col_offset), f"{k}=")
            for a, k in zip(arguments, keywords, strict=True)
        ]
        if _still_a_call(call, lines, found, len(call.args) - len(keywords)):
            insertions += found
    return insertions


def _may_change(use: Use, candidates: dict[str, int]) -> bool:
    """Whether ``use`` calls a jaxcompat name with as many positional arguments as one of
    its names' changed parameters needs."""
    if use.call is None or use.call.positional is None or not use.path.startswith("jaxcompat."):
        return False
    return use.call.positional >= candidates.get(
        use.path.rpartition(".")[2], use.call.positional + 1
    )


def _root_name(node: ast.expr) -> str:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _still_a_call(
    call: ast.Call, lines: Sequence[str], found: list[tuple[int, int, str]], positional: int
) -> bool:
    """Whether the call's text with the insertions reads as the same call, the arguments by
    keyword (not where one is parenthesized, or a bare generator)."""
    assert call.end_lineno is not None
    assert call.end_col_offset is not None
    text = list(lines[call.lineno - 1 : call.end_lineno])
    text[-1] = text[-1][: char_column(text[-1], call.end_col_offset)]
    for line, column, insert in sorted(found, reverse=True):
        row = line - call.lineno
        text[row] = text[row][:column] + insert + text[row][column:]
    start = char_column(lines[call.lineno - 1], call.col_offset)
    text[0] = text[0][start:]
    try:
        parsed = ast.parse("(" + "".join(text) + ")", mode="eval").body
    except SyntaxError:
        return False
    return isinstance(parsed, ast.Call) and len(parsed.args) == positional
