"""Import resolution: which JAX (or jaxcompat) name every expression in a file refers to.

One pass over the syntax tree, without importing anything. Imports bind local names to dotted
paths (``jnp`` -> ``jax.numpy``) in the scope that holds them; any other binding of the name
(an assignment, a parameter, a ``def``) shadows it. Function bodies are read after the
enclosing module, with its final bindings, as Python runs them. Each use records the rows its
code runs on: a version gate narrows its branches, a ``TYPE_CHECKING`` block runs on none.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ._api import is_module
from ._gates import (
    Evaluator,
    available_rows,
    catches_lookup_errors,
    ends,
    is_type_checking,
)
from ._ranges import every_row_mask
from ._scopes import Binding, Scope, annotation_nodes, parameters
from ._syntax_facts import (
    DECORATOR_CALL,
    JAX_ROOTS,
    call_info,
    looks_names_up,
    marked_releases,
    may_read_the_version,
    only_return,
)
from ._uses import CallInfo, Gate, Use
from ._walk import TableVisitor, walk

__all__ = ["resolve_file"]


class _Resolver(TableVisitor):
    def __init__(self, future_annotations: bool, lines: Sequence[str]) -> None:
        self.full = every_row_mask()
        self.future_annotations = future_annotations
        self.lines = lines
        self.uses: list[Use] = []
        self.gates: list[Gate] = []
        #: The JAX or jaxcompat path each annotated parameter's annotation names, by the
        #: parameter's (line, col): ``mesh: jax.sharding.Mesh`` (``_class_findings``).
        self.annotated: dict[tuple[int, int], str] = {}
        self.elifs: set[int] = set()  # the ids of `if` nodes written as `elif`
        self.scopes: list[Scope] = [Scope(False)]
        self.mask = self.full
        self.guarded = False
        self.deferred: list[tuple[ast.AST, list[Scope], int, bool]] = []
        self.gates_ev = Evaluator(self.path_of)
        # Where a misordered string comparison was reported: a test is read both where it
        # stands (visit_Compare) and as a gate's or a name's condition.
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

    def bind(self, name: str, path: str | None, alias: bool = False) -> None:
        self.scopes[-1][name] = Binding(path, self.mask, alias)

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

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        return None

    visit_Nonlocal = visit_Global

    # --- gates -----------------------------------------------------------------------
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

    def statements(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.visit(statement)

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
