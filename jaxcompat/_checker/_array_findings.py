"""JC060: a JAX array method or attribute that some release of the range lacks, found by name.

``x.device_buffer`` fails from JAX 0.4.27; ``x.device()`` from 0.4.27 too (0.4.31 made
``device`` a property). What ``x`` is, a static checker cannot know: only names that no
other common array library uses are reported (``BY_NAME``), and each finding says it is a
guess by name. Names other libraries share are left alone, so a PyTorch or NumPy file is
never reported: ``x.device`` (a property of torch and TensorFlow tensors; JAX's from 0.4.31,
none on 0.4.27-0.4.30), ``x.to_device`` (NumPy 2's, the array API's), ``x.format``
(``str.format``). ``x.layout`` (JAX's on 0.4.26-0.6.2, renamed ``format`` in 0.7.0) is
torch's too: it is reported only in a file that imports JAX and no other tensor library
(``SHARED_BY_NAME``). ``x.device()`` called with no argument is reported: on torch and
TensorFlow, ``device`` is a property, not a method.

The rows each use runs on follow the file's version gates (the resolver's); a use inside
``try`` with ``except AttributeError``, or under ``if hasattr(..., "name")``, is not
reported (the code handles it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ._api import first_good_row
from ._codes import ARRAY_ATTRIBUTE_BY_NAME
from ._gated_walk import GatedWalk
from ._module_data import array_attribute, attribute_rows
from ._ranges import fails_and_warns
from ._uses import Gate

__all__ = ["BY_NAME", "SHARED_BY_NAME", "array_findings"]

#: The array attributes reported by name: those whose presence changed across JAX's releases
#: (the module surface data's ``array``), less those another common array library or a common
#: object has (left alone: ``device``, ``layout``, ``format``, ``to_device``, ``byteswap``
#: (NumPy's), ``split`` (torch's), ``broadcast`` and ``committed`` (common words)). The value
#: is what JAX's changelog names in its place (``{x}``: the object's expression).
BY_NAME = {
    # 0.4.22 deprecated them; 0.4.27 removed them.
    "device_buffer": "use `{x}.addressable_data(0)`",
    "device_buffers": "use `[shard.data for shard in {x}.addressable_shards]`",
    # 0.4.21 deprecated the method, 0.4.27 removed it; 0.4.31 added the `device` property
    # (the array API's).
    "device()": "`next(iter({x}.devices()))` gives the device on every release",
    "unsafe_raw_buffer": "",
}

#: Array attributes another tensor library's tensors have too: reported only in a file that
#: imports JAX (or jaxcompat) and none of OTHER_TENSOR_LIBRARIES.
SHARED_BY_NAME = {
    # 0.4.26 added Array.layout; 0.7.0 renamed it format (0.6.2 has both). torch's tensors
    # have a layout too.
    "layout": "`{x}.format` is its name from JAX 0.6.2",
}

OTHER_TENSOR_LIBRARIES = frozenset({"torch", "tensorflow", "cupy", "mxnet", "paddle"})

#: What a file's text holds where it may use one of BY_NAME (``.device()``: the call written
#: without spaces, as every formatter writes it): most files hold none, and are not walked.
_TEXTS = tuple(f".{name}" for name in (*BY_NAME, *SHARED_BY_NAME))


def _mentioned(source: str) -> bool:
    return any(text in source for text in _TEXTS)


def _imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The top-level packages a file imports, anywhere in it, and the names its imports
    bind (``jax`` of ``import jax.numpy``, ``np`` of ``import numpy as np``)."""
    packages: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            packages.update(alias.name.split(".")[0] for alias in node.names)
            bound.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                packages.add(node.module.split(".")[0])
            bound.update(alias.asname or alias.name for alias in node.names)
    return packages, bound


def _names_read(packages: set[str]) -> dict[str, str]:
    """The names reported in a file that imports `packages`, with the fix of each: BY_NAME's,
    and SHARED_BY_NAME's where it imports JAX and no other tensor library."""
    if packages & {"jax", "jaxcompat"} and not packages & OTHER_TENSOR_LIBRARIES:
        return {**BY_NAME, **SHARED_BY_NAME}
    return BY_NAME


def _root_name(owner: ast.expr) -> str | None:
    while isinstance(owner, ast.Attribute):
        owner = owner.value
    return owner.id if isinstance(owner, ast.Name) else None


class _Finder(GatedWalk):
    def __init__(self, gates: list[Gate], names: dict[str, str], modules: set[str]) -> None:
        super().__init__(gates)
        self.names = names
        self.guarded_names = frozenset(names)
        self.modules = modules  # names bound by imports: `jax.experimental.layout` is a module
        self.found: list[tuple[str, str, int, int, int]] = []  # name, owner, line, col, rows

    def inspect(self, node: ast.AST, mask: int, handled: frozenset[str]) -> None:
        if isinstance(node, ast.Call) and _is_device_call(node):
            assert isinstance(node.func, ast.Attribute)
            self.note("device()", node, node.func.value, mask, handled)
        elif isinstance(node, ast.Attribute) and node.attr in self.names:
            self.note(node.attr, node, node.value, mask, handled)

    def checked_names(self, test: ast.expr, handled: frozenset[str]) -> frozenset[str]:
        checked = super().checked_names(test, handled)
        return checked | {"device()"} if "device" in checked else checked

    def note(
        self, name: str, node: ast.expr, owner: ast.expr, mask: int, handled: frozenset[str]
    ) -> None:
        if name not in handled and mask and _root_name(owner) not in self.modules:
            text = ast.unparse(owner)
            shown = text if len(text) <= 40 and "\n" not in text else "x"
            self.found.append((name, shown, node.lineno, node.col_offset + 1, mask))


def _is_device_call(node: ast.Call) -> bool:
    function = node.func
    return (
        isinstance(function, ast.Attribute)
        and function.attr == "device"
        and not node.args
        and not node.keywords
    )


def array_findings(
    tree: ast.Module, source: str, gates: list[Gate], scope: int
) -> Iterator[tuple[int, int, str, str, int]]:
    """(line, col, code, message, rows) for each array attribute some row of `scope` lacks."""
    if not _mentioned(source):
        return  # most files: no walk at all
    packages, bound = _imports(tree)
    names = _names_read(packages)
    finder = _Finder(gates, names, bound)
    for statement in tree.body:
        finder.visit(statement, scope, frozenset())
    for name, owner, line, col, mask in finder.found:
        chars = array_attribute(name)
        if chars is None:
            continue
        fails, warns = (rows & mask for rows in attribute_rows(chars))
        if not fails | warns:
            continue
        shown = f"{owner}.{name}"
        floor = first_good_row(fails | warns, mask) if (fails | warns) & mask & -mask else None
        fix = names[name].format(x=owner)
        fix = fix or (f"raise the floor to jax>={floor}" if floor else "move off it")
        if floor and names[name]:
            fix += f", or raise the floor to jax>={floor}"
        message = (
            f"`{shown}` (by name: a guess that `{owner}` is a JAX array) "
            f"{fails_and_warns(fails, warns)}; {fix}"
        )
        yield line, col, ARRAY_ATTRIBUTE_BY_NAME.code, message, fails | warns
