"""``ast.walk``, about twice as fast: the checker and ``migrate`` walk every node of 50,000
lines several times (``bench/bench_check.py``), and ``ast.walk`` runs two generators per node."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Iterator, Sequence


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` (itself first), each before its children, children in
    source order."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        children: list[ast.AST] = []
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                children.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                children.append(value)
        stack.extend(reversed(children))


def walk_lines(node: ast.AST, lines: Sequence[int]) -> Iterator[ast.AST]:
    """As ``walk``, but only the nodes whose lines hold one of `lines` (sorted line numbers),
    and the nodes without a position (a module, a block's ``arguments``) on the way to them:
    a rewrite that looks for a few words finds their lines first, and skips the rest of the
    tree."""
    stack = [node]
    while stack:
        node = stack.pop()
        first = getattr(node, "lineno", None)
        if first is not None:
            found = bisect_left(lines, first)
            if found == len(lines) or lines[found] > (node.end_lineno or first):  # type: ignore[attr-defined]
                continue
        yield node
        children: list[ast.AST] = []
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                children.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                children.append(value)
        stack.extend(reversed(children))
