"""Point a library's JAX imports at jaxcompat: an AST-based rewrite of import statements.

The rewrite touches only the text of import statements, and of ``jax.__version_info__``
where ``jax`` is then jaxcompat (read as ``jax.JAX_VERSION``, as a port does), so every line
keeps its number and tracebacks through the rewritten copy point at the library's own lines.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass
from pathlib import Path


def mirrored_jax_modules() -> frozenset[str]:
    """The JAX modules that jaxcompat mirrors under the same path (``jax.numpy``, ...)."""
    from jaxcompat._namespace import MIRRORED

    return frozenset(jax_module for jax_module, _ in MIRRORED.values())


def _to_jaxcompat(module: str) -> str:
    return "jaxcompat" + module.removeprefix("jax")


@dataclass(frozen=True)
class Edit:
    """Replace the text from (line, column) to (end line, end column); lines count from 1."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


def _import_edit(node: ast.Import, lines: list[str], mirrored: frozenset[str]) -> Edit | None:
    """``import jax.numpy as jnp`` -> ``import jaxcompat.numpy as jnp``, and so on."""
    aliases: list[ast.alias] = []
    changed = False
    for alias in node.names:
        name, asname = alias.name, alias.asname
        if name != "jax" and not name.startswith("jax."):
            aliases.append(alias)
        elif asname is not None:
            # `import jax.numpy as jnp` binds jnp to that module: rewrite it where mirrored.
            if name in mirrored:
                aliases.append(ast.alias(_to_jaxcompat(name), asname))
                changed = True
            else:
                aliases.append(alias)
        elif name in mirrored:
            # `import jax` and `import jax.numpy` both bind `jax`; jaxcompat resolves its
            # mirrored submodules on first access, so the alias alone serves both.
            aliases.append(ast.alias("jaxcompat", "jax"))
            changed = True
        else:
            # `import jax.scipy.special` binds `jax` to JAX itself: import the module, then
            # bind `jax` back to jaxcompat, which forwards `jax.scipy` to JAX's own module.
            aliases.extend([alias, ast.alias("jaxcompat", "jax")])
            changed = True
    if not changed:
        return None
    text = ast.unparse(ast.Import(names=aliases))
    return _edit(node, lines, text)


def _column(lines: list[str], line: int, byte_offset: int) -> int:
    """ast counts columns in UTF-8 bytes; the edits count characters."""
    return len(lines[line - 1].encode()[:byte_offset].decode())


def _edit(node: ast.stmt, lines: list[str], text: str) -> Edit:
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    # A statement continued over several lines keeps its line count: continuation lines.
    text += " \\\n" * (node.end_lineno - node.lineno)
    return Edit(
        node.lineno,
        _column(lines, node.lineno, node.col_offset),
        node.end_lineno,
        _column(lines, node.end_lineno, node.end_col_offset),
        text,
    )


def _module_span(lines: list[str], node: ast.ImportFrom) -> tuple[int, int, int, int]:
    """Where the module name of ``from <module> import ...`` is written in the source."""
    assert node.end_lineno is not None
    first = _column(lines, node.lineno, node.col_offset)
    source = lines[node.lineno - 1][first:] + "".join(lines[node.lineno : node.end_lineno])
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string == "from" and start is None:
            continue
        if token.type == tokenize.NAME and token.string == "import":
            break
        if token.type in (tokenize.NAME, tokenize.OP):
            start = start or token.start
            end = token.end
    assert start is not None
    assert end is not None

    def position(row: int, column: int) -> tuple[int, int]:
        # Token rows count from the statement's start; only its first line was cut.
        return node.lineno + row - 1, column + first if row == 1 else column

    return (*position(*start), *position(*end))


def _import_from_edit(
    node: ast.ImportFrom, lines: list[str], mirrored: frozenset[str]
) -> Edit | None:
    """``from jax import lax`` -> ``from jaxcompat import lax``: the module name only."""
    if node.level or node.module not in mirrored:
        return None
    # jaxcompat forwards no private names and its star export is its own __all__.
    if any(alias.name == "*" or alias.name.startswith("_") for alias in node.names):
        return None
    line, column, end_line, end_column = _module_span(lines, node)
    return Edit(line, column, end_line, end_column, _to_jaxcompat(node.module))


def _bound_to_jaxcompat(tree: ast.AST) -> set[str]:
    """The names the rewritten imports bind to jaxcompat: ``jax`` in ``import jax.numpy``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "jax":
                    names.add(alias.asname or "jax")
                elif alias.name.startswith("jax.") and alias.asname is None:
                    names.add("jax")
    return names


def _version_edits(tree: ast.AST, lines: list[str]) -> list[Edit]:
    """``jax.__version_info__`` -> ``jax.JAX_VERSION``, where ``jax`` is now jaxcompat.

    The one change beyond the imports: jaxcompat's ``__version__`` is its own, so it
    forwards neither that nor ``__version_info__``, and a port reads the JAX release from
    ``jaxcompat.JAX_VERSION``, the same tuple. ``__version__`` strings are left as they are.
    """
    names = _bound_to_jaxcompat(tree)
    edits = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "__version_info__"
            and isinstance(node.value, ast.Name)
            and node.value.id in names
        ):
            assert node.end_lineno is not None
            assert node.end_col_offset is not None
            end = _column(lines, node.end_lineno, node.end_col_offset)
            start = end - len(node.attr)
            edits.append(Edit(node.end_lineno, start, node.end_lineno, end, "JAX_VERSION"))
    return edits


def rewrite_source(source: str, mirrored: frozenset[str] | None = None) -> str:
    """``source`` with its JAX imports pointed at jaxcompat, every line at its own number."""
    mirrored = mirrored_jax_modules() if mirrored is None else mirrored
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits: list[Edit] = []
    for node in ast.walk(tree):
        edit: Edit | None = None
        if isinstance(node, ast.Import):
            edit = _import_edit(node, lines, mirrored)
        elif isinstance(node, ast.ImportFrom):
            edit = _import_from_edit(node, lines, mirrored)
        if edit is not None:
            edits.append(edit)
    if edits:
        edits += _version_edits(tree, lines)
    # Apply from the end, so earlier positions stay valid.
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        head = lines[edit.line - 1][: edit.column]
        tail = lines[edit.end_line - 1][edit.end_column :]
        lines[edit.line - 1 : edit.end_line] = [head + edit.text + tail]
    result = "".join(lines)
    assert result.count("\n") == source.count("\n"), "the rewrite moved lines"
    return result


def rewrite_tree(directory: Path, mirrored: frozenset[str] | None = None) -> list[Path]:
    """Rewrite every Python file under ``directory`` in place; return the files changed."""
    mirrored = mirrored_jax_modules() if mirrored is None else mirrored
    changed = []
    for path in sorted(directory.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        rewritten = rewrite_source(source, mirrored)
        if rewritten != source:
            path.write_text(rewritten, encoding="utf-8")
            changed.append(path)
    return changed
