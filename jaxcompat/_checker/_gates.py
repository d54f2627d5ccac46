"""Version gates: on which rows a condition on JAX's version or features is true.

A gate is an ``if`` (or ``x if c else y``) whose test compares ``jax.__version_info__`` /
``jax.__version__`` (directly, through ``Version(...)``/``tuple(map(int, ...))``, through a
name assigned from them, or through a call of a function of no arguments that returns them)
with a constant, or asks ``hasattr(jax..., "name")``. Evaluated on every row, it tells the
checker which rows each branch runs on, so that code behind a correct
gate is not reported.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from packaging.version import InvalidVersion, Version

from .._surface import rows
from ._api import JAXCOMPAT_MODULES, JAXCOMPAT_OWN, facts, stable_first_mask, stable_names
from ._module_data import module_mask, module_name, module_unknown
from ._ranges import every_row_mask, release_tuples
from ._walk import walk

__all__ = [
    "VERSION_PATHS",
    "Evaluator",
    "available_rows",
    "catches_lookup_errors",
    "ends",
    "hasattr_test",
    "is_type_checking",
    "reads_installed_jax_version",
]

#: Paths whose value is the installed JAX's version: as a string, or as an int tuple.
VERSION_PATHS = {
    "jax.__version__": "str",
    "jax.version.__version__": "str",
    "jax.version._version": "str",
    "jaxcompat.JAX_VERSION_STRING": "str",
    "jax.__version_info__": "tuple",
    "jax.version.__version_info__": "tuple",
    "jaxcompat.JAX_VERSION": "tuple",
}

_OPERATORS: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}

Resolve = Callable[[ast.expr], "str | None"]


def _constant(node: ast.expr) -> tuple[str, Any] | None:
    """A literal to compare a version with: an int tuple, a string, or ``Version("x")``."""
    if isinstance(node, ast.Tuple) and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts
    ):
        return "tuple", tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "str", node.value
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        try:
            return "version", Version(node.args[0].value)
        except InvalidVersion:
            return None
    return None


class Evaluator:
    """Evaluates gate conditions for one file."""

    def __init__(self, resolve: Resolve) -> None:
        self._resolve = resolve
        #: Names assigned a version ("str"/"tuple"/"derived") or a gate's truth mask (int).
        self.names: dict[str, str | int] = {}
        #: (line, column, source, rows) of string comparisons of ``jax.__version__`` that
        #: order releases wrongly on those rows ("0.10.0" < "0.7.2").
        self.misordered: list[tuple[int, int, str, int]] = []
        self._full = every_row_mask()

    def version_kind(self, node: ast.expr) -> str | None:
        """``"str"``, ``"tuple"``: the version itself; ``"derived"``: computed from it."""
        tracked = self.names.get(_tracked_name(node))
        if isinstance(tracked, str):
            return tracked
        if reads_installed_jax_version(node):
            return "str"
        path = self._resolve(node)
        if path in VERSION_PATHS:
            return VERSION_PATHS[path]
        if isinstance(node, ast.Compare):
            return None
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.comprehension):  # int(p) for p in jax.__version__...
                child = child.iter
            if isinstance(child, ast.expr) and self.version_kind(child) is not None:
                return "derived"
        return None

    def truth(self, node: ast.expr) -> int | None:
        """The rows on which `node` is true, or None when it is no gate the checker reads."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.truth(node.operand)
            return None if inner is None else self._full & ~inner
        if isinstance(node, ast.BoolOp):
            parts = [self.truth(value) for value in node.values]
            if any(part is None for part in parts):
                return None
            result = self._full if isinstance(node.op, ast.And) else 0
            for part in parts:
                assert part is not None
                result = result & part if isinstance(node.op, ast.And) else result | part
            return result
        tracked = self.names.get(_tracked_name(node))
        if isinstance(tracked, int):
            return tracked
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.Call):
            return self._hasattr(node)
        return None

    def is_version_gate(self, node: ast.expr) -> bool:
        """Whether `node` compares the JAX version (or is a name holding such a test)."""
        for sub in walk(node):
            if isinstance(sub, ast.Compare) and any(
                self.version_kind(side) is not None for side in (sub.left, *sub.comparators)
            ):
                return True
            if isinstance(self.names.get(_tracked_name(sub)), int):
                return True
        return False

    def tests_hasattr(self, node: ast.expr) -> bool:
        """Whether `node` is ``hasattr(jax..., "name")`` tests joined by and/or/not."""
        if isinstance(node, ast.BoolOp):
            return all(self.tests_hasattr(value) for value in node.values)
        return self.hasattr_path(node) is not None

    def hasattr_path(self, node: ast.expr) -> str | None:
        """``jax.typeof`` for ``hasattr(jax, "typeof")`` (also under ``not``)."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.hasattr_path(node.operand)
        tested = hasattr_test(node)
        if tested is not None:
            base = self._resolve(tested[0])
            if base is not None and base.split(".")[0] in ("jax", "jaxcompat"):
                return f"{base}.{tested[1]}"
        return None

    def _hasattr(self, node: ast.Call) -> int | None:
        path = self.hasattr_path(node)
        if path is None:
            return None
        if path.startswith("jaxcompat."):
            return _jaxcompat_has(path.removeprefix("jaxcompat."))
        name = facts(path)
        if name is None or not name.known:
            return None
        return name.ok | name.warns

    def _compare(self, node: ast.Compare) -> int | None:
        result = self._full
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            function = _OPERATORS.get(type(op))
            if function is None:
                return None
            kind, constant, flipped = self.version_kind(left), _constant(right), False
            if kind is None or constant is None:
                kind, constant, flipped = self.version_kind(right), _constant(left), True
            if kind is None or constant is None:
                return None
            mask = _evaluate(function, kind, constant, flipped)
            if mask is None:
                return None
            if kind == "str" and constant[0] == "str":
                meant = _evaluate(function, "derived", constant, flipped)
                if meant is not None and meant != mask:
                    where = (node.lineno, node.col_offset + 1, ast.unparse(node))
                    self.misordered.append((*where, meant ^ mask))
            result &= mask
            left = right
        return result


def _tracked_name(node: ast.AST) -> str:
    """The key of ``Evaluator.names`` that `node` reads: a name, or a call of a helper with
    no arguments (``"jax_is_new()"``); "" for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and not node.args
        and not node.keywords
    ):
        return f"{node.func.id}()"
    return ""


def available_rows(path: str) -> int | None:
    """The rows on which the JAX or jaxcompat name `path` can be read without an error
    (None: the data does not know it)."""
    if path.startswith("jaxcompat."):
        return _jaxcompat_has(path.removeprefix("jaxcompat."))
    name = facts(path)
    if name is not None and name.known:
        return every_row_mask() & ~(name.absent | name.raises)
    return _public_module_rows(path)


def _public_module_rows(path: str) -> int | None:
    """The rows on which `path`, a module of JAX's that jaxcompat does not mirror or a name
    in one (``jax.extend.linear_util``, ``jax.extend.backend.get_backend``), can be read;
    None where the module data does not know it, or does not know its names on every row."""
    imports = module_mask(path)
    if imports is not None:
        return imports[0]
    module, _, attribute = path.rpartition(".")
    module_rows = module_mask(module)
    if module_rows is None or module_unknown(module):
        return None
    readable = module_name(module, attribute)
    return None if readable is None else readable[0] & module_rows[0]


#: Where ``version("jax")`` reads the installed distribution's version from.
_METADATA_MODULES = {"importlib.metadata", "metadata", "importlib_metadata"}


def reads_installed_jax_version(node: ast.AST) -> bool:
    """``importlib.metadata.version("jax")`` (also ``metadata.version``, the backport
    ``importlib_metadata.version`` and ``version`` imported from them). jaxlib's version is
    not JAX's on every row (JAX 0.4.37 pairs with jaxlib 0.4.36), so only "jax" counts."""
    if not (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == "jax"
    ):
        return False
    function = node.func
    if isinstance(function, ast.Name):
        return function.id == "version"
    return (
        isinstance(function, ast.Attribute)
        and function.attr == "version"
        and ast.unparse(function.value) in _METADATA_MODULES
    )


def _jaxcompat_has(relative: str) -> int | None:
    """The rows on which ``hasattr(jaxcompat..., name)`` is true (None: unknown)."""
    if relative in JAXCOMPAT_OWN or relative in JAXCOMPAT_MODULES:
        return every_row_mask()
    if relative in stable_names():
        return stable_first_mask(relative)
    name = facts(f"jax.{relative}")
    return name.ok | name.warns if name is not None and name.known else None


def _evaluate(
    function: Callable[[Any, Any], bool], kind: str, constant: tuple[str, Any], flipped: bool
) -> int | None:
    """The rows on which ``version <op> constant`` (or flipped) is true."""
    pair = _comparable(kind, constant)
    if pair is None:
        return None
    convert, target = pair
    mask = 0
    for index in range(len(rows())):
        value = convert(index)
        if function(*((target, value) if flipped else (value, target))):
            mask |= 1 << index
    return mask


def _comparable(kind: str, constant: tuple[str, Any]) -> tuple[Callable[[int], Any], Any] | None:
    """How to turn a row into the value compared with `constant`, and the constant to use."""
    constant_kind, value = constant
    if constant_kind == "tuple" and kind in ("tuple", "derived"):
        return (lambda index: release_tuples()[index]), value
    if constant_kind == "str" and kind == "str":
        return (lambda index: rows()[index]), value  # a string comparison, as Python makes it
    if kind == "tuple":
        return None
    try:
        target = value if constant_kind == "version" else Version(value)
    except (InvalidVersion, TypeError):
        return None
    return (lambda index: Version(rows()[index])), target


# --- gates made of blocks ---------------------------------------------------------------

_GUARD_ERRORS = {
    "ImportError",
    "ModuleNotFoundError",
    "AttributeError",
    "Exception",
    "BaseException",
}


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def hasattr_test(node: ast.AST) -> tuple[ast.expr, str] | None:
    """(the object, the name) of ``hasattr(object, "name")``; None for anything else."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "hasattr"
        and len(node.args) == 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[0], node.args[1].value
    return None


def catches_lookup_errors(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        (isinstance(t, ast.Name) and t.id in _GUARD_ERRORS)
        or (isinstance(t, ast.Attribute) and t.attr in _GUARD_ERRORS)
        for t in types
    )


#: Calls that end a block by raising: ``self.skipTest(...)``, ``pytest.skip(...)``, ...
_ENDING_CALLS = {"skipTest", "skip", "xfail", "fail", "exit", "_exit"}


def ends(body: list[ast.stmt]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Raise | ast.Return | ast.Continue | ast.Break):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        function = last.value.func
        name = function.attr if isinstance(function, ast.Attribute) else None
        name = function.id if isinstance(function, ast.Name) else name
        return name in _ENDING_CALLS
    return False
