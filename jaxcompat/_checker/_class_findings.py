"""JC061: an attribute of an instance of a JAX class that some release of the range lacks.

``jax.ShapeDtypeStruct(...).sharding`` raises AttributeError on JAX 0.4.13 (which lists the slot
and never sets it); ``jax.sharding.Mesh(...).axis_types`` exists from 0.4.36. Which
attributes change, and where, is measured on every matrix row (the module surface data's
``classes``, ``tools/module_surface.py``).

What an object is, is known where the code builds it: a call of the class, or of a factory
that returns one (``FACTORIES``), read at once (``jax.make_mesh(...).axis_types``) or through
a name assigned from such a call in the same function, or bound by ``with ... as``; and where
a parameter is annotated with the class (``mesh: jax.sharding.Mesh``), in its function. A
name assigned anything else forgets it; an unannotated argument is never followed. The rows a read
runs on follow the file's version gates, and a read inside ``try`` with ``except
AttributeError`` or under ``if hasattr(obj, "name")`` is the code's own handling.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator

from ._api import first_good_row
from ._codes import CLASS_ATTRIBUTE
from ._gated_walk import GatedWalk
from ._module_data import attribute_rows, class_attributes
from ._ranges import fails_and_warns
from ._scopes import parameters
from ._uses import Gate, Use

__all__ = ["FACTORIES", "class_findings"]

#: Functions whose result is an instance of a JAX class, by the class's path: an array's
#: ``jax.typeof`` (``jaxcompat.typeof`` before 0.5.3) is a ShapedArray.
FACTORIES = {
    "jax.make_mesh": "jax.sharding.Mesh",
    "jax.typeof": "jax.core.ShapedArray",
    "jax.core.get_aval": "jax.core.ShapedArray",
}


def _jax_path(path: str) -> str:
    """JAX's path of a jaxcompat name: its classes and factories are JAX's own."""
    return "jax." + path.removeprefix("jaxcompat.") if path.startswith("jaxcompat.") else path


def _recorded_class(path: str) -> str | None:
    """The JAX class `path` names, where the data records its instances' attributes."""
    path = _jax_path(path)
    return path if class_attributes(path) else None


def _class_built(path: str) -> str | None:
    """The JAX class whose instance a call of `path` returns, where the data records it."""
    path = _jax_path(path)
    return _recorded_class(FACTORIES.get(path, path))


class _Finder(GatedWalk):
    def __init__(
        self,
        gates: list[Gate],
        built: dict[tuple[int, int], str],
        annotated: dict[tuple[int, int], str],
        attribute_lines: list[int],
    ) -> None:
        super().__init__(gates)
        self.built = built  # (line, col) of a call's function -> the class it builds
        self.annotated = annotated  # (line, col) of a parameter -> the class annotating it
        # A function or class is walked only where its span holds a line where an instance can
        # start (a name never leaks into a nested function) and one that reads an attribute
        # of the data's by name: most hold neither.
        self.instance_lines = sorted({line for line, _ in [*built, *annotated]})
        self.attribute_lines = attribute_lines
        classes = {*built.values(), *annotated.values()}
        self.guarded_names = frozenset(name for path in classes for name in class_attributes(path))
        self.names: list[dict[str, str]] = [{}]  # per function: local name -> class
        # class, attribute, the object's text, line, col, rows
        self.found: list[tuple[str, str, str, int, int, int]] = []

    def instance_of(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Call):
            return self.built.get((node.func.lineno, node.func.col_offset + 1))
        if isinstance(node, ast.Name):
            return self.names[-1].get(node.id)
        return None

    def assign(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            built = None if value is None else self.instance_of(value)
            if built is None:
                self.names[-1].pop(target.id, None)
            else:
                self.names[-1][target.id] = built
        elif isinstance(target, ast.Tuple | ast.List | ast.Starred):
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    self.names[-1].pop(name.id, None)

    def may_hold_findings(self, node: ast.stmt | ast.expr) -> bool:
        end = node.end_lineno or node.lineno
        return _any_within(self.instance_lines, node.lineno, end) and _any_within(
            self.attribute_lines, node.lineno, end
        )

    def visit(self, node: ast.AST, mask: int, handled: frozenset[str]) -> None:
        scopes = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
        if isinstance(node, scopes) and not self.may_hold_findings(node):
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = parameters(node.args)
            where = ((a.arg, (a.lineno, a.col_offset + 1)) for a in arguments)
            self.names.append({n: self.annotated[at] for n, at in where if at in self.annotated})
            super().visit(node, mask, handled)
            self.names.pop()
            return
        if isinstance(node, ast.ClassDef):
            self.names.append({})
            super().visit(node, mask, handled)
            self.names.pop()
            return
        super().visit(node, mask, handled)

    def inspect(self, node: ast.AST, mask: int, handled: frozenset[str]) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self.assign(target, node.value)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr):
            self.assign(node.target, node.value)
        elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
            self.assign(node.target, None)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, item.context_expr)
        elif isinstance(node, ast.Attribute) and mask and node.attr not in handled:
            built = self.instance_of(node.value)
            if built is not None and node.attr in class_attributes(built):
                text = ast.unparse(node.value)
                shown = text if len(text) <= 40 and "\n" not in text else "x"
                self.found.append((built, node.attr, shown, node.lineno, node.col_offset + 1, mask))


def _any_within(lines: list[int], first: int, last: int) -> bool:
    """Whether the sorted `lines` hold one in [first, last]."""
    at = bisect.bisect_left(lines, first)
    return at < len(lines) and lines[at] <= last


def _lines_reading(source: str, names: set[str]) -> list[int]:
    """The lines of `source` where ``x.name`` or ``f(...).name`` is written for one of
    `names`, in order (the objects the finder follows: a name or a call; never a literal's,
    ``", ".join``)."""
    alternatives = "|".join(sorted(map(re.escape, names)))
    pattern = re.compile(r"[\w)]\s*\.\s*(?:" + alternatives + r")\b")
    lines, line, counted = [], 1, 0
    for match in pattern.finditer(source):
        line += source.count("\n", counted, match.start())
        counted = match.start()
        lines.append(line)
    return lines


def class_findings(
    tree: ast.Module,
    source: str,
    uses: list[Use],
    gates: list[Gate],
    scope: int,
    annotated: dict[tuple[int, int], str],
) -> Iterator[tuple[int, int, str, str, int]]:
    """(line, col, code, message, rows) for each attribute of a JAX class's instance that some
    row of `scope` lacks or warns on; `annotated`: the resolver's annotated parameters."""
    built = {}
    for use in uses:
        if use.call is not None:
            path = _class_built(use.path)
            if path is not None:
                built[use.line, use.col] = path
    classes = {at: c for at, path in annotated.items() if (c := _recorded_class(path))}
    read = {
        name for path in {*built.values(), *classes.values()} for name in class_attributes(path)
    }
    attribute_lines = _lines_reading(source, read) if read else []
    if not attribute_lines:
        return  # most files read no attribute those classes changed: no walk at all
    finder = _Finder(gates, built, classes, attribute_lines)
    for statement in tree.body:
        finder.visit(statement, scope, frozenset())
    for path, name, owner, line, col, mask in finder.found:
        fails, warns = (rows & mask for rows in attribute_rows(class_attributes(path)[name]))
        if not fails | warns:
            continue
        bad = fails | warns
        floor = first_good_row(bad, mask) if bad & mask & -mask else None  # bad from the start
        fix = f"raise the floor to jax>={floor}" if floor else "move off it"
        message = f"`{owner}.{name}` (a {path}) {fails_and_warns(fails, warns)}; {fix}"
        yield line, col, CLASS_ATTRIBUTE.code, message, bad
