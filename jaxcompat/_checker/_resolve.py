"""Import resolution: which JAX (or jaxcompat) name every expression in a file refers to.

One pass over the syntax tree, without importing anything. Imports bind local names to dotted
paths (``jnp`` -> ``jax.numpy``) in the scope that holds them; any other binding of the name
(an assignment, a parameter, a ``def``) shadows it. Function bodies are read after the
enclosing module, with its final bindings, as Python runs them. Each use records the rows its
code runs on: a version gate narrows its branches (``_resolve_gates``), a ``TYPE_CHECKING``
block runs on none.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ._gates import Evaluator
from ._ranges import every_row_mask
from ._resolve_gates import GateVisits
from ._scopes import Binding, Scope, annotation_nodes, parameters
from ._syntax_facts import (
    DECORATOR_CALL,
    JAX_ROOTS,
    call_info,
    marked_releases,
)
from ._uses import CallInfo, Gate, Use

__all__ = ["resolve_file"]


class _Resolver(GateVisits):
    def __init__(self, future_annotations: bool, lines: Sequence[str]) -> None:
        self.full = every_row_mask()
        self.future_annotations = future_annotations
        self.lines = lines
        self.uses: list[Use] = []
        self.gates: list[Gate] = []
        #: The JAX or jaxcompat path each annotated parameter's annotation names, by the
        #: parameter's (line, col): ``mesh: jax.sharding.Mesh`` (``_class_findings``).
        self.annotated: dict[tuple[int, int], str] = {}
        self.elifs: set[int] = set()
        self.scopes: list[Scope] = [Scope(False)]
        self.mask = self.full
        self.guarded = False
        self.deferred: list[tuple[ast.AST, list[Scope], int, bool]] = []
        self.gates_ev = Evaluator(self.path_of)
        self.misordered_at: set[tuple[int, int]] = set()

    # --- names -----------------------------------------------------------------------
    def lookup(self, name: str) -> Binding | None:
        innermost = self.scopes[-1]
        if name in innermost:
            return innermost[name]
        for scope in reversed(self.scopes[:-1]):
            if not scope.is_class and name in scope:
                return scope[name]
        return None

    def chain(self, node: ast.expr) -> tuple[Binding, list[str]] | None:
        attributes: list[str] = []
        while isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        binding = self.lookup(node.id)
        if binding is None or binding.path is None:
            return None
        return binding, attributes[::-1]

    def path_of(self, node: ast.expr) -> str | None:
        found = self.chain(node)
        if found is None:
            return None
        binding, attributes = found
        return ".".join([binding.path or "", *attributes])

    def record(self, node: ast.expr, call: CallInfo | None = None) -> bool:
        found = self.chain(node)
        if found is None:
            return False
        self.add_use(node, found, call)
        return True

    def add_use(
        self, node: ast.expr, found: tuple[Binding, list[str]], call: CallInfo | None
    ) -> None:
        binding, attributes = found
        if attributes or call is not None:
            self.uses.append(
                Use(
                    ".".join([binding.path or "", *attributes]),
                    node.lineno,
                    node.col_offset + 1,
                    self.mask & binding.mask,
                    self.guarded,
                    check_name=bool(attributes),
                    call=call,
                    bound=binding.path,
                )
            )

    def bind_target(self, target: ast.expr, value: ast.expr | None = None) -> None:
        if isinstance(target, ast.Name):
            path = self.path_of(value) if value is not None else None
            self.bind(target.id, path, alias=True)
            self.track(target.id, value)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.bind_target(element)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value)

    # --- imports ---------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            root = alias.name.split(".")[0]
            if root not in JAX_ROOTS:
                self.bind(alias.asname or root, None)
                continue
            self.add_import_use(alias.name, node, "import")
            if alias.asname:
                self.bind(alias.asname, alias.name)
            else:
                self.bind(root, root)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        inside = node.level == 0 and module.split(".")[0] in JAX_ROOTS
        for alias in node.names:
            if alias.name == "*":
                continue
            path = f"{module}.{alias.name}" if inside else None
            if path is not None:
                self.add_import_use(path, node, "from")
            self.bind(alias.asname or alias.name, path, alias=True)

    def add_import_use(self, path: str, node: ast.stmt, kind: str) -> None:
        if (path.split(".")[0] == "jax" and path != "jax") or path.startswith("jaxcompat."):
            self.uses.append(
                Use(
                    path,
                    node.lineno,
                    node.col_offset + 1,
                    self.mask,
                    self.guarded,
                    True,
                    imported=kind,
                )
            )

    # --- expressions -----------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        if not self.record(node):
            self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        found = self.chain(node.func)
        if found is None:  # not a JAX or jaxcompat name: what it is called on may be
            self.visit(node.func)
        else:
            self.add_use(node.func, found, call_info(node))
        for argument in node.args:
            self.visit(argument)
        for keyword in node.keywords:
            self.visit(keyword.value)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.scopes.append(Scope(False))
        self.bind_arguments(node.args)
        self.visit(node.body)
        self.scopes.pop()

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.bind_target(node.target, node.value)

    # --- statements ------------------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.bind_target(target, node.value)
            elif isinstance(target, ast.Tuple | ast.List):
                self.bind_target(target)
            else:
                self.visit(target)  # x.attr = ... or x[i] = ...: the base is a use

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        # Annotations of module and class variables are evaluated (unless postponed by
        # `from __future__ import annotations`); those of local variables never are.
        in_function = len(self.scopes) > 1 and not self.scopes[-1].is_class
        if not self.future_annotations and not in_function:
            self.visit(node.annotation)
        if isinstance(node.target, ast.Name):
            self.bind_target(node.target, node.value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self.bind(node.target.id, None)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self.bind_target(node.target)
        self.statements(node.body)
        self.statements(node.orelse)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.bind_target(item.optional_vars)
        self.statements(node.body)

    visit_AsyncWith = visit_With

    def visit_decorator(self, decorator: ast.expr) -> None:
        # A bare decorator is a call with one argument, the function or class it decorates:
        # `@jax.tree_util.register_dataclass` fails where JAX requires more.
        if not self.record(decorator, DECORATOR_CALL):
            self.visit(decorator)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit_decorator(decorator)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.visit(default)
        if not self.future_annotations:
            for annotation in annotation_nodes(node):
                self.visit(annotation)
        for argument in parameters(node.args):
            if argument.annotation is not None:
                path = self.path_of(argument.annotation)
                if path is not None:
                    self.annotated[argument.lineno, argument.col_offset + 1] = path
        self.bind(node.name, None)
        self.track_helper(node)
        mask = self.mask & marked_releases(node.decorator_list)
        self.deferred.append((node, list(self.scopes), mask, self.guarded))

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit_decorator(decorator)
        for expression in [*node.bases, *node.keywords]:
            self.visit(expression)
        self.scopes.append(Scope(True))
        self.statements(node.body)
        self.scopes.pop()
        self.bind(node.name, None)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        return None

    visit_Nonlocal = visit_Global

    def bind_arguments(self, arguments: ast.arguments) -> None:
        for argument in parameters(arguments):
            self.bind(argument.arg, None)

    def run_deferred(self) -> None:
        while self.deferred:
            node, scopes, mask, guarded = self.deferred.pop(0)
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            saved = (self.scopes, self.mask, self.guarded)
            self.scopes = [*scopes, Scope(False)]
            self.mask, self.guarded = mask, guarded
            self.bind_arguments(node.args)
            self.statements(node.body)
            self.scopes, self.mask, self.guarded = saved


def resolve_file(
    tree: ast.Module, lines: Sequence[str]
) -> tuple[list[Use], list[Gate], dict[tuple[int, int], str]]:
    """The JAX and jaxcompat uses, the version gates and the annotated parameters (the path
    each one's annotation names, by its line and column) of one file, parsed as `tree` from
    the source `lines` (``source_lines``: cut at the line ends Python counts)."""
    future = any(
        isinstance(s, ast.ImportFrom)
        and s.module == "__future__"
        and any(a.name == "annotations" for a in s.names)
        for s in tree.body
    )
    resolver = _Resolver(future, lines)
    resolver.statements(tree.body)
    resolver.run_deferred()
    return resolver.uses, resolver.gates, resolver.annotated
