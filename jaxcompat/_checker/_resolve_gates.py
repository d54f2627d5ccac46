"""Version gates, for the resolver (``_resolve``): how an ``if``, an ``elif``, a conditional
expression or a ``try`` narrows the rows its branches run on, the ``Gate`` each is recorded
as, and the names that hold the JAX version or a gate's result.

``GateVisits`` is the base of ``_resolve._Resolver``: these visits read and set the
resolver's state, declared below. ``mask`` is the rows the code being visited runs on;
``guarded``, whether a ``try`` that catches a failed lookup holds it.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ._api import is_module
from ._gates import Evaluator, available_rows, catches_lookup_errors, ends, is_type_checking
from ._scopes import Binding, Scope
from ._syntax_facts import looks_names_up, may_read_the_version, only_return
from ._uses import Gate, Use
from ._walk import TableVisitor, walk

__all__ = ["GateVisits"]


class GateVisits(TableVisitor):
    full: int  # every row
    mask: int
    guarded: bool
    lines: Sequence[str]
    uses: list[Use]
    gates: list[Gate]
    elifs: set[int]  # the ids of `if` nodes written as `elif`
    scopes: list[Scope]
    gates_ev: Evaluator
    # Where a misordered string comparison was reported: a test is read both where it
    # stands (visit_Compare) and as a gate's or a name's condition.
    misordered_at: set[tuple[int, int]]

    def bind(self, name: str, path: str | None, alias: bool = False) -> None:
        self.scopes[-1][name] = Binding(path, self.mask, alias)

    def statements(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.visit(statement)

    # --- names that hold the version or a gate's result ------------------------------
    def track(self, name: str, value: ast.expr | None) -> None:
        """Remember names that hold the JAX version or a gate's result."""
        gates = self.gates_ev
        gates.names.pop(name, None)
        gates.names.pop(f"{name}()", None)  # a helper function rebound
        if value is None or not self.mentions_the_version(value):
            return
        if not any(may_read_the_version(n, gates.names) for n in walk(value)):
            return
        truth = gates.truth(value)
        self.drain_misordered()
        if truth is not None:
            gates.names[name] = truth
            return
        kind = gates.version_kind(value)
        if kind is not None:
            gates.names[name] = kind

    def mentions_the_version(self, value: ast.expr) -> bool:
        """Whether the text of `value` could read the JAX version: every node that
        ``_may_read_the_version`` accepts names one of these words or a tracked name. Most
        assigned values mention none, and the text test costs a tenth of the walk."""
        assert value.end_lineno is not None
        text = "".join(self.lines[value.lineno - 1 : value.end_lineno])
        if "version" in text or "VERSION" in text or "hasattr" in text:
            return True
        return any(name.removesuffix("()") in text for name in self.gates_ev.names)

    def track_helper(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """``def jax_is_new(): return jax.__version_info__ >= (0, 5)``: a call of it, with no
        arguments, is that gate (``Evaluator.names`` keeps it as ``"jax_is_new()"``)."""
        returned = only_return(node)
        if returned is None or isinstance(node, ast.AsyncFunctionDef):
            return
        self.track(f"{node.name}()", returned)

    # --- gates ---------------------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> None:
        # A string comparison of the version orders releases wrongly wherever it stands, not
        # only as a gate's test: `assert jax.__version__ >= "0.8.1"` fails on 0.10.0.
        self.generic_visit(node)
        if self.mentions_the_version(node):
            self.gates_ev.truth(node)
            self.drain_misordered()

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.visit(node.test)
        self.branches(node.test, [[node.body], [node.orelse]], node)

    def visit_If(self, node: ast.If) -> None:
        # An `elif` is a gate of its own, on the releases where the tests before it fail
        # (written at the `if`'s column, unlike an `if` nested in an `else` block).
        chained = node.orelse[0] if len(node.orelse) == 1 else None
        if isinstance(chained, ast.If) and chained.col_offset == node.col_offset:
            self.elifs.add(id(chained))
        if is_type_checking(node.test):
            saved, self.mask = self.mask, 0
            self.statements(node.body)
            self.mask = saved
            self.statements(node.orelse)
            return
        self.visit(node.test)
        self.branches(node.test, [node.body, node.orelse], node)

    def visit_Try(self, node: ast.Try) -> None:
        guards = any(catches_lookup_errors(handler) for handler in node.handlers)
        start = len(self.uses)
        saved_guarded, self.guarded = self.guarded, self.guarded or guards
        self.statements(node.body)
        self.guarded = saved_guarded
        imported = {n: b for n, b in self.scopes[-1].items() if b.path is not None}
        failing = 0
        tried = self.uses[start:]
        # A try around modules every release has (`import jax`) guards JAX being installed,
        # not its version: no gate. One around a name, a module some release lacks, or one
        # the data does not know (a private name), is.
        all_known, ever_failing = True, 0
        for use in tried:
            available = available_rows(use.path)
            if available is None:
                all_known = False
                continue
            failing |= self.full & ~available & use.mask
            ever_failing |= self.full & ~available
        names_tried = any(not is_module(use.path) for use in tried)
        version_gate = (
            bool(tried)
            and looks_names_up(node.body)
            and (names_tried or ever_failing != 0 or not all_known)
        )
        saved_mask = self.mask
        branches: list[list[str]] = [[use.path for use in tried]]
        for handler in node.handlers:
            if handler.type is not None:
                self.visit(handler.type)
            if guards and failing:
                self.mask = saved_mask & failing
            if handler.name:
                self.bind(handler.name, None)
            begin = len(self.uses)
            self.statements(handler.body)
            branches.append([use.path for use in self.uses[begin:]])
            self.mask = saved_mask
        if guards and failing:
            self.mask = saved_mask & ~failing
        self.statements(node.orelse)
        self.mask = saved_mask
        # `except ImportError: jax = None` rebinds the name only where the import failed.
        for bound, binding in imported.items():
            current = self.scopes[-1].get(bound)
            if guards and current is not None and current.path is None:
                self.scopes[-1][bound] = binding
        self.statements(node.finalbody)
        if guards and len(node.handlers) >= 1 and version_gate:
            names = ", ".join(f"`{path}`" for path in dict.fromkeys(use.path for use in tried))
            imports = any(isinstance(s, ast.Import | ast.ImportFrom) for s in node.body)
            verb = "importing" if imports else "reading"
            self.gates.append(
                Gate(
                    "try",
                    node.lineno,
                    node.col_offset + 1,
                    branches,
                    self.mask,
                    truth=self.full & ~failing if all_known else None,
                    test=f"{verb} {names}" if names else "its `try` block",
                    node=node,
                )
            )

    visit_TryStar = visit_Try

    def branches(self, test: ast.expr, bodies: Sequence[Sequence[ast.AST]], node: ast.AST) -> None:
        ev = self.gates_ev
        truth = ev.truth(test)
        hasattr_path = ev.hasattr_path(test)
        misordered = bool(ev.misordered)  # JC031 reports the test: it is no gate to classify
        self.drain_misordered()
        kind = (
            "hasattr"
            if hasattr_path or ev.tests_hasattr(test)
            else "version"
            if ev.is_version_gate(test)
            else None
        )
        saved = self.mask
        paths: list[list[str]] = []
        for index, body in enumerate(bodies):
            if truth is not None:
                self.mask = saved & (truth if index == 0 else self.full & ~truth)
            begin = len(self.uses)
            for part in body:
                self.visit(part)
            paths.append([use.path for use in self.uses[begin:]])
        self.mask = saved
        if kind is not None and not misordered:
            if hasattr_path:
                paths[0].append(hasattr_path)
            # An `if` without an `else` has an empty branch: no stable name is every branch.
            branches = paths
            assert isinstance(node, ast.If | ast.IfExp)
            self.gates.append(
                Gate(
                    kind,
                    node.lineno,
                    node.col_offset + 1,
                    branches,
                    self.mask,
                    truth=truth,
                    test=ast.unparse(test),
                    has_else=bool(bodies[1]),
                    is_elif=id(node) in self.elifs,
                    node=node,
                )
            )
        if truth is not None and isinstance(node, ast.If) and ends(node.body):
            self.mask &= self.full & ~truth  # the rest runs only where the body did not

    def drain_misordered(self) -> None:
        for line, col, source, rows_wrong in self.gates_ev.misordered:
            if (line, col) not in self.misordered_at:
                self.misordered_at.add((line, col))
                self.gates.append(Gate("string", line, col, [[source]], self.mask & rows_wrong))
        self.gates_ev.misordered.clear()
