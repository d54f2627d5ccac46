"""A walk of a file's statements that knows on which rows each node runs, for the finders that
read attributes by what an object is rather than by import (``_array_findings``,
``_class_findings``).

A version gate's branches run on the rows its test holds (or fails) on, as the resolver found;
inside ``try`` with ``except AttributeError`` (or another lookup error), or under
``if hasattr(obj, "name")``, the names it guards are handled by the code and never reported.
A subclass says what it looks for in :meth:`GatedWalk.inspect`.
"""

from __future__ import annotations

import ast
from typing import cast

from ._gates import catches_lookup_errors, hasattr_test
from ._uses import Gate

__all__ = ["GatedWalk", "hasattr_names"]


def hasattr_names(test: ast.expr) -> set[str]:
    """The attribute names a test checks with ``hasattr(..., "name")``."""
    tests = (hasattr_test(node) for node in ast.walk(test))
    return {tested[1] for tested in tests if tested is not None}


class GatedWalk:
    """Visits every node with the rows it runs on (`mask`) and the names the code handles
    there (`handled`); :meth:`inspect` sees each node before its children."""

    #: Names that a ``try`` catching lookup errors handles inside its body.
    guarded_names: frozenset[str] = frozenset()

    def __init__(self, gates: list[Gate]) -> None:
        # The version gates' truths, by the `if` (or conditional expression) they test.
        self.truths = {
            id(gate.node): gate.truth
            for gate in gates
            if gate.node is not None and gate.truth is not None and gate.kind == "version"
        }

    def inspect(self, node: ast.AST, mask: int, handled: frozenset[str]) -> None:
        raise NotImplementedError

    def visit(self, node: ast.AST, mask: int, handled: frozenset[str]) -> None:
        if isinstance(node, ast.If | ast.IfExp):
            self.branches(node, mask, handled)
            return
        if type(node).__name__ in ("Try", "TryStar"):
            block = cast(ast.Try, node)  # 3.11's try/except* (TryStar) has the same fields
            guards = any(catches_lookup_errors(h) for h in block.handlers)
            inner = self.guarded_names if guards else handled
            for statement in block.body:
                self.visit(statement, mask, inner)
            for part in [*block.handlers, *block.orelse, *block.finalbody]:
                self.visit(part, mask, handled)
            return
        self.inspect(node, mask, handled)
        for child in ast.iter_child_nodes(node):
            self.visit(child, mask, handled)

    def checked_names(self, test: ast.expr, handled: frozenset[str]) -> frozenset[str]:
        """What an ``if`` handles in its branches: `handled` and the names it tests with
        ``hasattr``."""
        return handled | hasattr_names(test)

    def branches(self, node: ast.If | ast.IfExp, mask: int, handled: frozenset[str]) -> None:
        self.visit(node.test, mask, handled)
        truth = self.truths.get(id(node))
        checked = self.checked_names(node.test, handled)
        body = node.body if isinstance(node.body, list) else [node.body]
        orelse = node.orelse if isinstance(node.orelse, list) else [node.orelse]
        for part in body:
            self.visit(part, mask & truth if truth is not None else mask, checked)
        for part in orelse:
            self.visit(part, mask & ~truth if truth is not None else mask, checked)
