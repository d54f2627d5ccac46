"""``migrate`` parses again only the statements its rewrite touches (``_checker._retree``):
the tree it gets must be the one ``ast.parse`` gives for the rewritten text, positions
included, and a statement that does not have its lines to itself is left to a whole parse."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from jaxcompat._checker._checked import read_checked
from jaxcompat._checker._edits import applied, edited_tree
from jaxcompat._checker._files import source_lines
from jaxcompat._checker._migrate import import_edits, keyword_edits
from jaxcompat._checker._migrate_gates import dead_branches_removed, remove_dead_branches
from jaxcompat._checker._retree import reparsed_statements
from jaxcompat._surface import rows

_ORIGIN = importlib.util.find_spec("jaxcompat").origin  # type: ignore[union-attr]
PACKAGE = Path(str(_ORIGIN)).parent
ROOT = Path(__file__).resolve().parent.parent


def _dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


def _rewritten(source: str) -> tuple[ast.Module, str, bool]:
    """(the tree made from the old one, the rewritten text, whether no whole parse was needed)."""
    tree = ast.parse(source)
    edits = import_edits(source, tree)
    assert edits, "the example must be rewritten"
    imported = applied(source, edits)
    spans = [(edit.line, edit.end_line) for edit in edits]
    return tree, imported, reparsed_statements(tree, source_lines(imported), spans)


CASES = {
    "top-level imports": "import jax\nimport jax.numpy as jnp\nfrom jax import lax\nx = 1\n",
    "inside a function, last line of blocks": (
        "def f():\n    if True:\n        import jax\n    else:\n        from jax import lax\n"
        "    return 1\n"
    ),
    "a version read in an if's test": (
        "import jax\nif jax.__version_info__ >= (0, 5):\n    y = 1\nelse:\n    y = 2\n"
    ),
    "a version read in a decorator": (
        "import jax\nclass A:\n    @staticmethod\n    def f(v=jax.__version__):  # c\n"
        "        return v\n"
    ),
    "try and handlers": (
        "try:\n    import jax\nexcept ImportError:\n    from jax import numpy as jnp\n"
        "finally:\n    pass\n"
    ),
    "a parenthesised import over lines": (
        "from jax import (\n    lax,\n    numpy as jnp,  # comment\n)\nz = lax\n"
    ),
    "tabs and CRLF": "if True:\r\n\timport jax.numpy as jnp\r\n\tz = jnp\r\n",
    "non-ASCII before the edit": "s = 'é'\nimport jax  # ü\nt = jax.__version__\n",
    "an elif chain": (
        "import jax\nif x:\n    pass\nelif jax.__version__ >= '0.4.30':\n"
        "    import jax.numpy as jnp\n"
    ),
}


@pytest.mark.parametrize("source", CASES.values(), ids=CASES.keys())
def test_statements_parsed_again_give_the_tree_of_the_new_text(source: str) -> None:
    tree, imported, done = _rewritten(source)
    assert done
    assert _dump(tree) == _dump(ast.parse(imported))


SHARED_LINES = {
    "two statements on a line": "import jax; x = 1\n",
    "a block on its header's line": "if x: import jax\n",
    "after another statement": "x = 1; import jax\n",
}


@pytest.mark.parametrize("source", SHARED_LINES.values(), ids=SHARED_LINES.keys())
def test_a_statement_without_lines_of_its_own_is_left_to_a_whole_parse(source: str) -> None:
    _, imported, done = _rewritten(source)
    assert not done
    tree = ast.parse(source)
    edits = import_edits(source, tree)
    assert _dump(edited_tree(tree, imported, edits)) == _dump(ast.parse(imported))


def test_keyword_insertions_give_the_tree_of_the_new_text() -> None:
    source = "import jax.numpy as jnp\n\ndef f(x, dt):\n    return jnp.array(x, dt, False)\n"
    tree = ast.parse(source)
    imported = applied(source, import_edits(source, tree))
    imported_tree = ast.parse(imported)
    scope = 1  # the oldest release, where jnp.array takes copy third
    insertions = keyword_edits(imported, imported_tree, scope)
    assert insertions
    new = applied(imported, insertions)
    assert "jnp.array(x, dt, copy=False)" in new
    made = edited_tree(imported_tree, new, insertions)
    assert _dump(made) == _dump(ast.parse(new))


def _python_files() -> list[Path]:
    found = sorted(PACKAGE.rglob("*.py"))
    for folder in ("tests", "tools", "examples"):
        found += sorted((ROOT / folder).rglob("*.py"))
    return found


def test_every_rewritten_file_of_this_project_gets_the_tree_of_its_new_text() -> None:
    """The project's own files import JAX in every way the rewrite knows."""
    rewritten = 0
    for file in _python_files():
        source = file.read_text(encoding="utf-8")
        tree = ast.parse(source)
        edits = import_edits(source, tree)
        if not edits:
            continue
        rewritten += 1
        imported = applied(source, edits)
        made = edited_tree(tree, imported, edits)
        assert _dump(made) == _dump(ast.parse(imported)), file
    assert rewritten >= 20


# --- the removal of dead gates ----------------------------------------------------------

#: Each ends with a call `check` reports (JC010, `newshape=`) on a line the removal moves.
_AFTER = "\n\ndef later(x):\n    return jax.numpy.reshape(x, newshape=(-1,))\n"

GATES = {
    "if body kept, in a function": (
        "import jax\n\ndef f():\n    if jax.__version_info__ >= (0, 4, 0):\n"
        "        # kept with its comment\n        a = jax.numpy.zeros(1)\n    else:\n"
        "        a = None\n    return a\n"
    ),
    "else kept, the last statement of a class": (
        "import jax\n\nclass A:\n    def m(self):\n"
        "        if jax.__version_info__ < (0, 4, 0):\n            x = 1\n        else:\n"
        "            x = jax.numpy.ones(2)\n            y = x\n"
    ),
    "an elif that always holds": (
        "import jax\nflag = True\nif flag:\n    b = 0\nelif jax.__version_info__ >= (0, 4, 0):\n"
        "    b = 1\nelse:\n    b = 2\n"
    ),
    "a gate that never runs, alone in its block": (
        "import jax\n\ndef g():\n    if jax.__version_info__ < (0, 4, 0):\n        import os\n"
    ),
    "try and except ImportError": (
        "try:\n    from jax.extend.core import Primitive\nexcept ImportError:\n"
        "    from jax.core import Primitive\n"
    ),
    "a conditional expression": (
        "import jax\ny = (1 if jax.__version_info__ >= (0, 4, 0)\n     else 2)\n"
        "z = 1 if jax.__version_info__ >= (0, 4, 0) else 2\n"
    ),
}


@pytest.mark.parametrize("source", GATES.values(), ids=GATES.keys())
def test_removed_gates_give_the_tree_and_findings_of_the_new_text(source: str) -> None:
    source = source.replace("import jax\n", "import jax\nimport jax.numpy\n", 1) + _AFTER
    if "import jax\n" not in source:
        source = "import jax\n" + source
    every_row = (1 << len(rows())) - 1
    tree = ast.parse(source)
    imported = applied(source, import_edits(source, tree))
    checked = read_checked(imported)
    removal = dead_branches_removed(imported, checked.tree, every_row, checked.gates)
    assert removal.text != imported
    assert removal.text == remove_dead_branches(imported, ast.parse(imported), every_row)[0]
    assert removal.numbered is not None
    numbered = "".join(removal.numbered)
    assert len(source_lines(numbered)) == len(source_lines(imported))
    assert reparsed_statements(checked.tree, removal.numbered, removal.spans, same_kind=False)
    assert _dump(checked.tree) == _dump(ast.parse(numbered))
    reading = read_checked(numbered, checked.tree, removal.new_line)
    expected = read_checked(removal.text).findings(every_row)
    assert any(finding.code == "JC010" for finding in expected)
    assert reading.findings(every_row) == expected
