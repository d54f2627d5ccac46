"""Old names of JAX that the port gives under their newest name: ``jax.tree_map`` is
``jax.tree.map`` (the very object, JAX's data says), which jaxcompat gives on every release.

``check`` reports such a name as "the same function under its newest name" (JC001/JC003):
JAX deprecated it, then removed it. Where the port reads it through ``jaxcompat`` itself
(``import jaxcompat as jax``, then ``jax.tree_map``), the attribute chain becomes the newest
one (``jax.tree.map``); a name imported by ``from`` is left for a person.
"""

from __future__ import annotations

import ast

from .._surface import rows
from ._api import facts, same_object_stable, stable_first_mask
from ._edits import Edit
from ._files import char_column
from ._uses import Use
from ._walk import walk

__all__ = ["rename_edits"]


def newest_name(path: str, scope: int) -> str | None:
    """The stable name (``tree.map``) that gives the object JAX path `path` names on every
    row of `scope`, where the newest JAX no longer has `path`; None elsewhere."""
    found = facts(path)
    newest = 1 << (len(rows()) - 1)
    if found is None or not found.known or found.ok & newest:
        return None
    for same in same_object_stable(path):
        if stable_first_mask(same) & scope == scope:
            return same
    return None


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def rename_edits(tree: ast.Module, lines: list[str], uses: list[Use], scope: int) -> list[Edit]:
    """The edits that give each old name read through ``jaxcompat`` its newest name."""
    wanted: dict[tuple[int, int], str] = {}
    for use in uses:
        if use.bound != "jaxcompat" or not use.path.startswith("jaxcompat."):
            continue
        relative = use.path.removeprefix("jaxcompat.")
        same = newest_name(f"jax.{relative}", scope)
        if same is not None:
            wanted[(use.line, use.col)] = same
    if not wanted:
        return []
    edits = []
    # Only the nodes on the lines of the uses: the rest of the tree holds none of them.
    for node in walk(tree, sorted({line for line, _ in wanted})):
        if not isinstance(node, ast.Attribute) or node.end_col_offset is None:
            continue
        same = wanted.get((node.lineno, node.col_offset + 1))  # a use's column: bytes, from 1
        text = _dotted(node)
        if same is None or text is None:
            continue
        base, _, relative = text.partition(".")
        if not relative or newest_name(f"jax.{relative}", scope) != same:
            continue  # a longer or shorter chain at the same place
        assert node.end_lineno is not None
        start = char_column(lines[node.lineno - 1], node.col_offset)
        end = char_column(lines[node.end_lineno - 1], node.end_col_offset)
        edits.append(Edit(node.lineno, start, node.end_lineno, end, f"{base}.{same}"))
    return edits
