"""``ast.walk`` and ``ast.NodeVisitor``, about twice as fast: the checker and ``migrate`` walk
every node of 50,000 lines several times (``bench/bench_check.py``), and ``ast.walk`` runs two
generators per node."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar


def walk(node: ast.AST, lines: Sequence[int] | None = None) -> Iterator[ast.AST]:
    """Every node under ``node`` (itself first), each before its children, children in
    source order.

    With ``lines`` (sorted line numbers), only the nodes whose lines hold one of them, and
    the nodes without a position (a module, a block's ``arguments``) on the way to them: a
    rewrite that looks for a few words finds their lines first, and skips the rest.
    """
    stack = [node]
    while stack:
        node = stack.pop()
        if lines is not None:
            first = getattr(node, "lineno", None)
            if first is not None:
                found = bisect_left(lines, first)
                last = getattr(node, "end_lineno", None) or first
                if found == len(lines) or lines[found] > last:
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


#: Nodes with nothing under them that a visitor reads (a bare name is read where the node
#: holding it is visited).
LEAVES = (ast.Name, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


class TableVisitor(ast.NodeVisitor):
    """``ast.NodeVisitor`` with its dispatch read from a table per node class, each subclass
    its own."""

    # ast.NodeVisitor builds the method's name on every node and walks the fields through
    # generators; the same dispatch from a table per node class costs about half as much
    # (``bench/bench_check.py``). A constant, a bare name (a name is read where the node
    # holding it is visited) and an operator have nothing to visit: three in four of the
    # nodes the generic visit reached.
    _methods: ClassVar[dict[type, Callable[[Any, Any], Any]]] = {}

    def visit(self, node: ast.AST) -> Any:
        cls = type(node)
        method = self._methods.get(cls)
        if method is None:
            found: Callable[[Any, Any], Any] = getattr(
                type(self), f"visit_{cls.__name__}", TableVisitor.generic_visit
            )
            if found is ast.NodeVisitor.visit_Constant or (
                found is TableVisitor.generic_visit and issubclass(cls, LEAVES)
            ):
                found = _visit_nothing
            method = self._methods[cls] = found
        return method(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        methods = self._methods  # `visit`'s table, read here: a call less for each child
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        method = methods.get(type(item))
                        if method is None:
                            self.visit(item)
                        else:
                            method(self, item)
            elif isinstance(value, ast.AST):
                method = methods.get(type(value))
                if method is None:
                    self.visit(value)
                else:
                    method(self, value)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}


def _visit_nothing(visitor: TableVisitor, node: ast.AST) -> None:
    return None
