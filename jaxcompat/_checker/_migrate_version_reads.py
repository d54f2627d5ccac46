"""``jaxcompat migrate``'s rewrite of the reads of the JAX release, once the name before them
is jaxcompat: ``jax.__version_info__`` becomes ``jax.JAX_VERSION`` and ``jax.__version__``
``jax.JAX_VERSION_STRING`` (jaxcompat's own ``__version__`` is jaxcompat's release), and a
string ordered against a release written as a string compares the int tuples instead.
``_migrate`` applies these edits with the import edits."""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Collection

from .._releases import parse_release
from ._edits import Edit
from ._files import char_column_at
from ._walk import walk

__all__ = [
    "VERSION_ATTRIBUTES",
    "attributes_and_comparisons",
    "bound_to_jaxcompat",
    "version_edits",
]

#: What JAX's release is read as, once the name before it is jaxcompat.
VERSION_ATTRIBUTES = {"__version_info__": "JAX_VERSION", "__version__": "JAX_VERSION_STRING"}


#: A private attribute (``jax._src``, ``jax.__version__``) or ``.JAX_VERSION_STRING``: the
#: attributes the rewrites below look at, found in the text before the tree is walked.
#: Inside brackets, line ends and comments may come between the dot and the name. Each
#: comment is matched whole, to its line end: were it allowed to stop at a ``#`` inside it,
#: a line of many ``#`` would be matched in exponentially many ways (minutes on one file).
_WATCHED_ATTRIBUTE = re.compile(r"\.(?:\s|#[^\r\n]*[\r\n])*(?:_|JAX_VERSION_STRING)")


def _watched_lines(source: str, lines: list[str]) -> list[int]:
    """The numbers of the lines on which a watched attribute ends."""
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line)
    found = {bisect_right(starts, m.end() - 1) for m in _WATCHED_ATTRIBUTE.finditer(source)}
    return sorted(found)


def attributes_and_comparisons(
    tree: ast.AST, source: str, lines: list[str]
) -> tuple[list[ast.Attribute], list[ast.Compare]]:
    """Every attribute read and comparison on the lines of a watched attribute, each list in
    walk order (one walk serves both rewrites below)."""
    attributes, comparisons = [], []
    for node in walk(tree, _watched_lines(source, lines)):
        if isinstance(node, ast.Attribute):
            attributes.append(node)
        elif isinstance(node, ast.Compare):
            comparisons.append(node)
    return attributes, comparisons


def bound_to_jaxcompat(
    imports: list[ast.Import | ast.ImportFrom], private_readers: set[str]
) -> set[str]:
    """The names bound to jaxcompat once the imports are rewritten: ``jax`` in ``import
    jax.numpy``, ``j`` in ``import jax as j`` (unless the file reads private attributes
    through it, which keeps it JAX's), and any name already bound by ``import jaxcompat``."""
    names = set()
    for node in imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("jax", "jaxcompat"):
                    bound = alias.asname or alias.name
                elif alias.name.startswith(("jax.", "jaxcompat.")) and alias.asname is None:
                    bound = alias.name.partition(".")[0]
                else:
                    continue
                if alias.name.startswith("jaxcompat") or bound not in private_readers:
                    names.add(bound)
    return names


#: A release as a string literal: compared as a string, "0.10.0" < "0.7.2" (the checker's JC031).
_RELEASE = re.compile(r"[0-9]+(\.[0-9]+)*")
_ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_STRING_READS = ("__version__", "JAX_VERSION_STRING")


def _attribute_edit(node: ast.Attribute, lines: list[str], text: str) -> Edit:
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    end = char_column_at(lines, node.end_lineno, node.end_col_offset)
    return Edit(node.end_lineno, end - len(node.attr), node.end_lineno, end, text)


def version_edits(
    attributes: list[ast.Attribute],
    comparisons: list[ast.Compare],
    lines: list[str],
    names: set[str],
) -> list[Edit]:
    """``jax.__version_info__`` -> ``jax.JAX_VERSION`` and ``jax.__version__`` ->
    ``jax.JAX_VERSION_STRING`` where ``jax`` is jaxcompat after the rewrite; and where such a
    string is ordered against a release written as a string (``jax.__version__ < "0.7.2"``,
    wrong from 0.10.0 on), the int tuples instead, ``JAX_VERSION`` against ``(0, 7, 2)``."""

    def version_read(node: ast.expr, which: Collection[str]) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and node.attr in which
            and isinstance(node.value, ast.Name)
            and node.value.id in names
        )

    edits: list[Edit] = []
    ordered: set[int] = set()  # the reads rewritten as tuples
    for node in comparisons:
        if len(node.ops) == 1:
            pair = (node.left, node.comparators[0])
            for read, release in (pair, pair[::-1]):
                if (
                    isinstance(node.ops[0], _ORDERINGS)
                    and version_read(read, _STRING_READS)
                    and isinstance(release, ast.Constant)
                    and isinstance(release.value, str)
                    and _RELEASE.fullmatch(release.value)
                ):
                    assert isinstance(read, ast.Attribute)
                    edits.append(_attribute_edit(read, lines, "JAX_VERSION"))
                    edits.append(_constant_edit(release, lines))
                    ordered.add(id(read))
    for attribute in attributes:
        if version_read(attribute, VERSION_ATTRIBUTES) and id(attribute) not in ordered:
            edits.append(_attribute_edit(attribute, lines, VERSION_ATTRIBUTES[attribute.attr]))
    return edits


def _constant_edit(node: ast.Constant, lines: list[str]) -> Edit:
    """A release string literal as the int tuple it names."""
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    release = parse_release(str(node.value))
    return Edit(
        node.lineno,
        char_column_at(lines, node.lineno, node.col_offset),
        node.end_lineno,
        char_column_at(lines, node.end_lineno, node.end_col_offset),
        repr(release),
    )
