"""What a piece of syntax says on its own, before any name in it is resolved: a call's
arguments, a ``@pytest.mark.jax`` mark, a helper that only returns, a ``try`` body that only
looks names up. ``_resolve`` reads them as it walks a file."""

from __future__ import annotations

import ast
import contextlib

from ._gates import reads_installed_jax_version
from ._ranges import RangeError, every_row_mask, spec_mask
from ._uses import CallInfo

__all__ = [
    "DECORATOR_CALL",
    "JAX_ROOTS",
    "call_info",
    "looks_names_up",
    "marked_releases",
    "may_read_the_version",
    "only_return",
    "string_literal",
]

#: The packages whose names the checker resolves.
JAX_ROOTS = ("jax", "jaxcompat")
#: The attributes that hold the installed JAX release.
VERSION_ATTRIBUTES = {"__version__", "__version_info__", "JAX_VERSION", "JAX_VERSION_STRING"}


#: What a bare decorator (not a call) does with the function or class below it.
DECORATOR_CALL = CallInfo(1, (), False)


def call_info(node: ast.Call) -> CallInfo:
    starred = any(isinstance(arg, ast.Starred) for arg in node.args)
    return CallInfo(
        None if starred else len(node.args),
        tuple((k.arg, k.lineno, k.col_offset + 1) for k in node.keywords if k.arg),
        any(k.arg is None for k in node.keywords),
        frozenset(
            k.arg
            for k in node.keywords
            if k.arg and isinstance(k.value, ast.Constant) and k.value.value is None
        ),
        string_literal(node.args[0]) if node.args else None,
    )


def string_literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def may_read_the_version(node: ast.AST, tracked: dict[str, str | int]) -> bool:
    """Whether `node` reads the JAX version, a name holding it or a gate, or calls hasattr
    (run on every part of every assigned value: the cheap tests first)."""
    if isinstance(node, ast.Attribute):
        return node.attr in VERSION_ATTRIBUTES
    if isinstance(node, ast.Name):
        return node.id in tracked
    if isinstance(node, ast.Call):
        function = node.func
        if isinstance(function, ast.Name) and f"{function.id}()" in tracked:
            return True
        return (
            isinstance(function, ast.Name) and function.id == "hasattr"
        ) or reads_installed_jax_version(node)
    return False


def marked_releases(decorators: list[ast.expr]) -> int:
    """The rows a test runs on under jaxcompat's pytest plugin: ``@pytest.mark.jax(">=0.4.36")``
    skips it elsewhere, so its body is a version gate's branch. Every row without the mark."""
    mask = every_row_mask()
    for decorator in decorators:
        if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
            continue
        marked = decorator.func  # pytest.mark.jax, or mark.jax after `from pytest import mark`
        on_mark = (isinstance(marked.value, ast.Attribute) and marked.value.attr == "mark") or (
            isinstance(marked.value, ast.Name) and marked.value.id == "mark"
        )
        if marked.attr != "jax" or not on_mark or len(decorator.args) != 1:
            continue
        spec = decorator.args[0]
        if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
            # A bad specifier is the plugin's to report, when the test runs.
            with contextlib.suppress(RangeError):
                mask &= spec_mask(spec.value, "@pytest.mark.jax")
    return mask


def only_return(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """What a function of no parameters returns, when its body (past a docstring) is one
    ``return``."""
    arguments = node.args
    if arguments.posonlyargs or arguments.args or arguments.vararg or arguments.kwonlyargs:
        return None
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def looks_names_up(body: list[ast.stmt]) -> bool:
    """Whether a ``try`` body is a gate on what JAX has: it imports from JAX, or only reads
    names and sets constants (``X = jax.errors.X``, ``CAN_USE = True``). A body that imports
    another library (an optional dependency), or computes without importing
    (``jnp.diag(d.cov())``), catches the errors of what it runs, whatever JAX has: no gate."""
    imported: list[str] = []  # the top-level packages the body imports from
    for statement in body:
        if isinstance(statement, ast.Import):
            imported += [alias.name.split(".")[0] for alias in statement.names]
        elif isinstance(statement, ast.ImportFrom):
            imported.append("" if statement.level else (statement.module or "").split(".")[0])
    if imported:
        return any(root in JAX_ROOTS for root in imported)

    def a_name(value: ast.expr | None) -> bool:
        while isinstance(value, ast.Attribute):
            value = value.value
        return isinstance(value, ast.Name | ast.Constant)

    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Assign | ast.AnnAssign) and a_name(statement.value):
            continue
        if isinstance(statement, ast.Expr) and a_name(statement.value):
            continue
        return False
    return True
