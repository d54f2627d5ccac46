"""``jaxcompat migrate``'s reading of a name bound to JAX's package that the file reads
private attributes through (``jax._src.dispatch``): jaxcompat forwards no private name, so
such reads must reach JAX's package, while every public name of a ported file must be
jaxcompat's. A name read both ways is split: it becomes jaxcompat, and the private reads
move to JAX's package under a name of their own.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection

from ._walk import walk

__all__ = ["package_names", "private_reads", "split_names"]


def private_reads(
    attributes: list[ast.Attribute], version_reads: Collection[str]
) -> list[ast.Name]:
    """The names through which the file reads a private attribute (``jax._src.core``):
    jaxcompat forwards no private name, so these reads must reach JAX's module."""
    return [
        node.value
        for node in attributes
        if isinstance(node.value, ast.Name)
        and node.attr.startswith("_")
        and node.attr not in version_reads
    ]


def package_names(imports: list[ast.Import | ast.ImportFrom]) -> set[str]:
    """The names an import binds to JAX's package: ``jax`` in ``import jax`` and ``import
    jax._src.dispatch``, ``j`` in ``import jax as j``."""
    return {
        alias.asname or "jax"
        for node in imports
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "jax" or (alias.name.startswith("jax.") and alias.asname is None)
    }


def split_names(
    tree: ast.AST, source: str, lines: list[str], private_readers: set[str]
) -> dict[str, str]:
    """The private readers the file also reads public attributes through (``jax.errors``
    beside ``jax._src.dispatch``), each with the unused name its private reads move to.

    Such a name becomes jaxcompat in the port: were it left JAX's, every public name read
    through it would be JAX's, and a gate on it judged as jaxcompat's would be wrong
    (``jax.errors.JaxRuntimeError`` is jaxcompat's on every release, JAX's from 0.4.34).
    """
    names = "|".join(re.escape(name) for name in sorted(private_readers))
    public = re.compile(rf"(?<![\w.])(?:{names})\s*\.\s*[A-Za-z]")
    found = [number for number, line in enumerate(lines, 1) if public.search(line)]
    readers = {
        node.value.id
        for node in walk(tree, found)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in private_readers
        and not node.attr.startswith("_")
    }
    split = {}
    for name in sorted(readers):
        private = f"_{name}_private"
        while re.search(rf"\b{private}\b", source):
            private += "_"
        split[name] = private
    return split
