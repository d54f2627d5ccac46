"""``jaxcompat migrate``'s rewrite of one file's source: JAX imports pointed at jaxcompat.

The rewrite changes only the text of import statements, and reads of the JAX release through
a name that is then jaxcompat: ``jax.__version_info__`` becomes ``jax.JAX_VERSION`` and
``jax.__version__`` becomes ``jax.JAX_VERSION_STRING``, because jaxcompat's own
``__version__`` is jaxcompat's release, not JAX's (``_migrate_version_reads``). A name the
file reads private attributes through (``jax._src``) stays JAX's, unless public names are
read through it too: then it becomes jaxcompat and the private reads move to JAX's package
under a name of their own (``_jax_private._src``), so that every public name of a ported file
is jaxcompat's. A positional argument that the newest signature binds to another parameter
than every release of the range does is passed by that keyword (``_migrate_positional``).
Everything else (comments, formatting, line endings) is kept byte for byte, and every line
keeps its number, so tracebacks through the rewritten file point at the library's own lines.
A second run changes nothing.
"""

from __future__ import annotations

import ast
import io
import tokenize

from .._mirrored import MIRRORED
from ._edits import Edit, applied, edited_tree
from ._files import LINE_END, char_column_at, source_lines
from ._gates import available_rows
from ._migrate_gates import every_statement, remove_dead_branches
from ._migrate_positional import keyword_insertions
from ._migrate_private import package_names, private_reads, split_names
from ._migrate_version_reads import (
    VERSION_ATTRIBUTES,
    attributes_and_comparisons,
    bound_to_jaxcompat,
    version_edits,
)
from ._ranges import every_row_mask
from ._uses import Use

__all__ = [
    "MIRRORED_JAX_MODULES",
    "import_edits",
    "keyword_edits",
    "migrate_source",
    "remove_gates",
    "rewrite_imports",
]

#: The JAX modules jaxcompat mirrors under the same path (``jax.numpy`` as
#: ``jaxcompat.numpy``); ``testing`` and ``nox`` are jaxcompat's own, with no JAX module
#: behind them.
MIRRORED_JAX_MODULES = frozenset(jax_module for jax_module, _ in MIRRORED.values())


def _to_jaxcompat(module: str) -> str:
    return "jaxcompat" + module.removeprefix("jax")


def _inner_line_ends(node: ast.stmt, lines: list[str]) -> list[str]:
    """The line ends the file has inside ``node``, one for each line but its last."""
    assert node.end_lineno is not None
    ends = [LINE_END.search(lines[index]) for index in range(node.lineno - 1, node.end_lineno - 1)]
    assert all(ends)
    return [end.group() for end in ends if end]


def _statement_edit(node: ast.stmt, lines: list[str], text: str) -> Edit:
    # A statement continued over several lines keeps its line count: continuation lines,
    # each with the line end the file had there.
    text += "".join(" \\" + line_end for line_end in _inner_line_ends(node, lines))
    return _span_edit(node, lines, text)


def _import_edit(
    node: ast.Import, lines: list[str], private_readers: set[str], split: dict[str, str]
) -> Edit | None:
    """``import jax.numpy as jnp`` -> ``import jaxcompat.numpy as jnp``, and so on; a name
    the file reads only private attributes through (``jax._src``) stays JAX's module; a name
    it reads public and private attributes through (``split``: name -> the name its private
    reads move to) becomes jaxcompat, and JAX's package is bound to the other name too."""
    aliases: list[ast.alias] = []
    changed = False
    for index, alias in enumerate(node.names):
        name, asname = alias.name, alias.asname
        rebound_later = any(
            later.name == "jaxcompat" and later.asname == "jax" for later in node.names[index:]
        )
        bound = asname or name.partition(".")[0]
        if (name == "jax" or name.startswith("jax.")) and bound in split:
            # `import jax._src.dispatch` next to `jax.errors`: the private module is
            # imported, JAX's package bound to the private name, the public name to jaxcompat.
            if asname is None and name not in MIRRORED_JAX_MODULES:
                aliases.append(alias)
            aliases += [ast.alias("jax", split[bound]), ast.alias("jaxcompat", bound)]
            changed = True
        elif (name != "jax" and not name.startswith("jax.")) or bound in private_readers:
            aliases.append(alias)
        elif asname is not None:
            # `import jax.numpy as jnp` binds jnp to that module: rewritten where mirrored.
            if name in MIRRORED_JAX_MODULES:
                aliases.append(ast.alias(_to_jaxcompat(name), asname))
                changed = True
            else:
                aliases.append(alias)
        elif name in MIRRORED_JAX_MODULES:
            # `import jax` and `import jax.numpy` both bind `jax`; jaxcompat resolves its
            # mirrored submodules on first access, so the alias alone serves both.
            aliases.append(ast.alias("jaxcompat", "jax"))
            changed = True
        elif rebound_later:  # as a first run leaves it
            aliases.append(alias)
        else:
            # `import jax.scipy.special` binds `jax` to JAX itself: import the module, then
            # bind `jax` back to jaxcompat, which forwards `jax.scipy` to JAX's own module.
            aliases.extend([alias, ast.alias("jaxcompat", "jax")])
            changed = True
    if not changed:
        return None
    return _statement_edit(node, lines, ast.unparse(ast.Import(names=aliases)))


def _module_span(lines: list[str], node: ast.ImportFrom) -> tuple[int, int, int, int]:
    """Where the module name of ``from <module> import ...`` is written in the source."""
    assert node.end_lineno is not None
    first = char_column_at(lines, node.lineno, node.col_offset)
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


def _refused_by_jaxcompat(module: str, name: str, scope: int) -> bool:
    """Whether jaxcompat refuses ``module.name`` on a release of ``scope`` where JAX has it
    (``call_p`` before 0.11.1, another primitive there)."""
    relative = f"{module.removeprefix('jax').removeprefix('.')}.{name}".removeprefix(".")
    jaxcompat_has = available_rows(f"jaxcompat.{relative}")
    jax_has = available_rows(f"jax.{relative}")
    if jaxcompat_has is None or jax_has is None:
        return False
    return bool(scope & jax_has & ~jaxcompat_has)


def _stands_alone(node: ast.stmt, lines: list[str]) -> bool:
    """Whether ``node`` has its lines to itself: only indentation before it, and only a
    comment after it."""
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    before = lines[node.lineno - 1][: char_column_at(lines, node.lineno, node.col_offset)]
    after = lines[node.end_lineno - 1][
        char_column_at(lines, node.end_lineno, node.end_col_offset) :
    ]
    return not before.strip() and (not after.strip() or after.lstrip().startswith("#"))


def _split_import_edit(
    node: ast.ImportFrom, lines: list[str], kept: list[ast.alias], moved: list[ast.alias]
) -> Edit:
    """``from jax.m import a, b`` as two imports: ``kept`` from JAX's module, ``moved`` from
    jaxcompat's. Every line keeps its number: a statement written over several lines puts
    the second import on its last line, a one-line statement joins them with ``;``."""
    assert node.module is not None
    from_jax = ast.unparse(ast.ImportFrom(node.module, kept, 0))
    from_jaxcompat = ast.unparse(ast.ImportFrom(_to_jaxcompat(node.module), moved, 0))
    line_ends = _inner_line_ends(node, lines)
    if not line_ends or not _stands_alone(node, lines):
        return _statement_edit(node, lines, f"{from_jax}; {from_jaxcompat}")
    indent = lines[node.lineno - 1][: char_column_at(lines, node.lineno, node.col_offset)]
    return _span_edit(node, lines, from_jax + "".join(line_ends) + indent + from_jaxcompat)


def _import_from_edit(node: ast.ImportFrom, lines: list[str], scope: int) -> Edit | None:
    """``from jax import lax`` -> ``from jaxcompat import lax``: the module name only."""
    if node.level or node.module not in MIRRORED_JAX_MODULES:
        return None
    # jaxcompat forwards no private names (``from jax import __version__`` stays JAX's), and
    # its star export is its own __all__.
    if any(alias.name == "*" or alias.name.startswith("_") for alias in node.names):
        return None
    # Never stricter than JAX: a name jaxcompat refuses on a release of the range where JAX
    # has it stays JAX's import; the other names of the statement still become jaxcompat's
    # (numpyro imports ``call_p``, which jaxcompat refuses before 0.11.1, beside ``jit_p``,
    # which JAX names so only from 0.7.0 and jaxcompat gives on every release).
    kept = [alias for alias in node.names if _refused_by_jaxcompat(node.module, alias.name, scope)]
    if len(kept) == len(node.names):
        return None
    if kept:
        moved = [alias for alias in node.names if alias not in kept]
        return _split_import_edit(node, lines, kept, moved)
    line, column, end_line, end_column = _module_span(lines, node)
    return Edit(line, column, end_line, end_column, _to_jaxcompat(node.module))


def _span_edit(node: ast.stmt | ast.expr, lines: list[str], text: str) -> Edit:
    """Replace the whole of ``node``'s source text by ``text``."""
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    return Edit(
        node.lineno,
        char_column_at(lines, node.lineno, node.col_offset),
        node.end_lineno,
        char_column_at(lines, node.end_lineno, node.end_col_offset),
        text,
    )


def import_edits(source: str, tree: ast.Module, scope: int | None = None) -> list[Edit]:
    """The edits that point the JAX imports of ``source`` (parsed as ``tree``) at jaxcompat
    and correct its reads of the JAX release through jaxcompat, for the rows ``scope``
    (default: every row)."""
    scope = every_row_mask() if scope is None else scope
    lines = source_lines(source)
    imports = [s for s in every_statement(tree) if isinstance(s, ast.Import | ast.ImportFrom)]
    reads_versions = "__version" in source or "JAX_VERSION_STRING" in source
    if "._" in source or reads_versions:
        attributes, comparisons = attributes_and_comparisons(tree, source, lines)
    else:
        attributes, comparisons = [], []  # nothing below looks at them
    privately_read = private_reads(attributes, VERSION_ATTRIBUTES) if "._" in source else []
    private_readers = {name.id for name in privately_read}
    packages = private_readers & package_names(imports)
    split = split_names(tree, source, lines, packages) if packages else {}
    edits: list[Edit] = []
    for node in imports:
        if isinstance(node, ast.Import):
            edit = _import_edit(node, lines, private_readers, split)
        else:
            edit = _import_from_edit(node, lines, scope)
        if edit is not None:
            edits.append(edit)
    for name in privately_read:
        if name.id in split:
            edits.append(_span_edit(name, lines, split[name.id]))
    if reads_versions:
        names = bound_to_jaxcompat(imports, private_readers - split.keys())
        edits += version_edits(attributes, comparisons, lines, names)
    return edits


def keyword_edits(
    imported: str, tree: ast.Module, scope: int | None = None, uses: list[Use] | None = None
) -> list[Edit]:
    """The edits that pass by keyword the positional arguments of the calls of ``imported``
    (a source whose imports point at jaxcompat, parsed as ``tree``, resolved as ``uses``
    where given) that the newest signature binds otherwise (``_migrate_positional``)."""
    scope = every_row_mask() if scope is None else scope
    lines = source_lines(imported)
    return [
        Edit(line, column, line, column, text)
        for line, column, text in keyword_insertions(tree, imported, lines, scope, uses)
    ]


def rewrite_imports(source: str, tree: ast.Module, scope: int | None = None) -> str:
    """``source`` (parsed as ``tree``) with its JAX imports pointed at jaxcompat, its reads
    of the JAX release through jaxcompat corrected, and then the positional arguments whose
    parameter the newest signature changes passed by keyword, for the rows ``scope``
    (default: every row); every line keeps its number. ``tree`` is not to be used after."""
    edits = import_edits(source, tree, scope)
    imported = applied(source, edits)
    if edits:
        tree = edited_tree(tree, imported, edits)
    return applied(imported, keyword_edits(imported, tree, scope))


#: A gate inside a removed branch's span waits for the next pass; no real file nests deeper.
_MOST_PASSES = 50

#: Text that every gate the checker reads contains; a file without any has no gate to read.
_GATE_MARKERS = ("__version", "JAX_VERSION", "hasattr", "try", 'version("jax")', "version('jax')")


def migrate_source(source: str, scope: int | None = None) -> str:
    """``source`` ported to jaxcompat (raises SyntaxError): its imports rewritten and, given
    the declared range ``scope``, its dead gate branches removed, to a fixed point, so that a
    second run changes nothing.

    The gates are read on the port, as it will run: there ``hasattr(jax, "typeof")`` asks
    jaxcompat, which has ``typeof`` on every release, so its ``else`` is dead too. Removing a
    branch keeps the text it keeps, imports already rewritten; a gate inside a removed span
    is read again in the next pass.
    """
    migrated = rewrite_imports(source, ast.parse(source), scope)
    if scope is None:
        return migrated
    return remove_gates(migrated, scope)


def remove_gates(migrated: str, scope: int) -> str:
    """``migrated`` (a source whose imports are rewritten) with its dead gate branches
    removed on the rows ``scope``, to a fixed point: until no gate waits for a pass (a pass
    changes no line outside the spans it edits, so a gate no pass waits for stays as read)."""
    for _ in range(_MOST_PASSES):
        if not any(marker in migrated for marker in _GATE_MARKERS):
            break
        step, waiting = remove_dead_branches(migrated, ast.parse(migrated), scope)
        if step == migrated or not waiting:
            return step
        migrated = step
    return migrated
