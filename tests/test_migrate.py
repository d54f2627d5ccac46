"""``jaxcompat migrate``: the rewrite of a file's source, and the command line."""

import ast
import os
import sys
import textwrap
from pathlib import Path

import pytest

import jaxcompat
import jaxcompat.numpy
from jaxcompat.__main__ import main as python_m_jaxcompat
from jaxcompat._checker._migrate import MIRRORED_JAX_MODULES, migrate_source, rewrite_imports
from jaxcompat._checker._migrate_cli import main
from jaxcompat._checker._ranges import spec_mask
from jaxcompat._cli.commands import console

#: How a file that does not parse is named: with the grammar that read it.
PYTHON = f"Python {sys.version_info.major}.{sys.version_info.minor}"

# The resolver that migrate runs on a library's other dependencies reads a fake index.
pytestmark = pytest.mark.usefixtures("resolver_on_fake_index")

# --- the rewrite of one source -------------------------------------------------------------


def rewrite(source: str) -> str:
    return migrate_source(textwrap.dedent(source))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("import jax\n", "import jaxcompat as jax\n"),
        ("import jax as j\n", "import jaxcompat as j\n"),
        ("import jax.numpy as jnp\n", "import jaxcompat.numpy as jnp\n"),
        ("import jax.numpy\n", "import jaxcompat as jax\n"),
        ("import os, jax\n", "import os, jaxcompat as jax\n"),
        ("import jax.scipy.special as jss\n", "import jax.scipy.special as jss\n"),
        ("import jax.scipy.special\n", "import jax.scipy.special, jaxcompat as jax\n"),
        (
            "from jax import lax, tree_util as jtu\n",
            "from jaxcompat import lax, tree_util as jtu\n",
        ),
        (
            "from jax.experimental import io_callback\n",
            "from jaxcompat.experimental import io_callback\n",
        ),
        ("from jax.tree_util import tree_map\n", "from jaxcompat.tree_util import tree_map\n"),
        ("from jax.experimental.pjit import pjit\n", "from jax.experimental.pjit import pjit\n"),
        ("from jax._src import core\n", "from jax._src import core\n"),
        ("from jax import _src\n", "from jax import _src\n"),
        ("from jax import *\n", "from jax import *\n"),
        ("from . import jax\n", "from . import jax\n"),
        ("import jaxtyping\n", "import jaxtyping\n"),
        ("from jaxtyping import Array\n", "from jaxtyping import Array\n"),
        ("x = 'import jax'  # import jax\n", "x = 'import jax'  # import jax\n"),
        (
            "import jax as j\nif j.__version_info__ < (0, 5): v = j.__version__\n",
            "import jaxcompat as j\nif j.JAX_VERSION < (0, 5): v = j.JAX_VERSION_STRING\n",
        ),
        (
            "import jax.numpy as jnp\nimport numpy as jax\nv = jax.__version_info__\n",
            "import jaxcompat.numpy as jnp\nimport numpy as jax\nv = jax.__version_info__\n",
        ),
        (
            "import jax\nv = jax.version.__version_info__\n",
            "import jaxcompat as jax\nv = jax.version.__version_info__\n",
        ),
        # Ported by hand, and so reading jaxcompat's own release: the documented trap.
        (
            "import jaxcompat as jax\nv = jax.__version__\n",
            "import jaxcompat as jax\nv = jax.JAX_VERSION_STRING\n",
        ),
        (
            "import jaxcompat\nv = jaxcompat.__version__\n",
            "import jaxcompat\nv = jaxcompat.JAX_VERSION_STRING\n",
        ),
        # JAX's own names: the import stays JAX's, so the value is right already.
        ("from jax import __version__\n", "from jax import __version__\n"),
        (
            "import jax.version as v\nx = v.__version__\n",
            "import jax.version as v\nx = v.__version__\n",
        ),
    ],
)
def test_each_import_form(before, after):
    assert rewrite(before) == after
    assert rewrite(after) == after  # a second run changes nothing


def test_parenthesised_from_import_keeps_its_layout_and_comments():
    source = textwrap.dedent(
        """\
        from jax import (
            lax,  # the loops
            random as jrandom,
        )
        """
    )
    assert rewrite(source) == source.replace("from jax import", "from jaxcompat import")


def test_imports_inside_blocks_and_after_other_statements():
    source = """\
    def f():
        import jax.numpy as jnp
        if True: from jax import lax; y = 1
        return jnp
    s = "é"; import jax
    """
    assert rewrite(source) == textwrap.dedent(
        """\
        def f():
            import jaxcompat.numpy as jnp
            if True: from jaxcompat import lax; y = 1
            return jnp
        s = "é"; import jaxcompat as jax
        """
    )


def test_a_continued_import_keeps_every_line_number():
    source = "import jax, \\\n    jax.numpy as jnp  # note\nx = 1\n"
    rewritten = rewrite(source)
    assert rewritten.splitlines()[2] == "x = 1"
    namespace: dict[str, object] = {}
    exec(compile(rewritten, "<rewritten>", "exec"), namespace)
    assert namespace["jax"] is jaxcompat
    assert namespace["jnp"] is jaxcompat.numpy


@pytest.mark.every_row
def test_rewritten_code_binds_jaxcompat_and_reaches_unmirrored_modules():
    import jax.scipy.special

    source = """\
    import jax
    import jax.scipy.special
    import jax.numpy as jnp
    from jax import tree_util as jtu
    special = jax.scipy.special
    """
    namespace: dict[str, object] = {}
    exec(compile(rewrite(source), "<rewritten>", "exec"), namespace)
    assert namespace["jax"] is jaxcompat
    assert namespace["jnp"] is jaxcompat.numpy
    assert namespace["jtu"] is jaxcompat.tree_util
    assert namespace["special"] is jax.scipy.special


def test_a_file_without_jax_imports_is_returned_unchanged():
    source = "import numpy as np\n\n\ndef f(x):\n    return np.asarray(x)\n"
    assert rewrite(source) == source


def test_the_default_modules_are_the_ones_jaxcompat_mirrors():
    from jaxcompat._namespace import MIRRORED as mirrored

    modules = MIRRORED_JAX_MODULES
    assert modules == {jax_module for jax_module, _ in mirrored.values()}
    assert {"jax", "jax.numpy", "jax.lax", "jax.tree_util", "jax.experimental"} <= modules
    assert "jax.scipy" not in modules


def test_line_ends_as_written_and_only_the_ones_python_counts():
    # CRLF ends are kept, continuation lines included; a form feed in a comment is no line
    # end to Python, so the edits stay on the lines the syntax tree names.
    source = "import jax, \\\r\n    jax.numpy as jnp\r\n# \x0c page\r\nv = jax.__version__\r\n"
    assert migrate_source(source) == (
        "import jaxcompat as jax, jaxcompat.numpy as jnp \\\r\n\r\n"
        "# \x0c page\r\nv = jax.JAX_VERSION_STRING\r\n"
    )


# --- dead gate branches, on the declared range ----------------------------------------------

GATED = """\
import jax

if jax.__version_info__ >= (0, 4, 25):
    # the newest name
    tree_map = jax.tree.map
else:
    tree_map = jax.tree_util.tree_map


def aval(x):
    if jax.__version_info__ < (0, 4, 30):
        raise ImportError("needs JAX 0.4.30")
    try:
        from jax.extend.core import Primitive
    except ImportError:
        Primitive = None
    kind = "new" if jax.__version_info__ >= (0, 5, 3) else "old"
    if jax.__version_info__ >= (0, 7, 0):
        mode = 1
    elif jax.__version_info__ >= (0, 5, 3):
        mode = 2
    else:
        mode = 3
    text = \"\"\"
        a string that spans lines\"\"\"
    return Primitive, kind, mode, text
"""


def test_dead_branches_go_on_the_declared_range():
    # The chain's `if` is still needed on 0.5.3-0.12; its `elif` always holds where the
    # `if` fails (0.5.3-0.6.2), so it becomes the `else` and the old `else` goes.
    migrated = migrate_source(GATED, spec_mask(">=0.5.3", "test"))
    assert (
        migrated
        == """\
import jaxcompat as jax

# the newest name
tree_map = jax.tree.map


def aval(x):
    from jaxcompat.extend.core import Primitive
    kind = "new"
    if jax.JAX_VERSION >= (0, 7, 0):
        mode = 1
    else:
        mode = 2
    text = \"\"\"
        a string that spans lines\"\"\"
    return Primitive, kind, mode, text
"""
    )
    assert migrate_source(migrated, spec_mask(">=0.5.3", "test")) == migrated
    compile(migrated, "migrated.py", "exec")


def test_a_comment_that_described_a_removed_gate_goes_with_it():
    source = (
        "import jax\n"
        "\n"
        "# JAX v0.8.0 or later has jax.tree.\n"
        "# Older releases: tree_util.\n"
        "if jax.__version_info__ >= (0, 8, 0):\n"
        "    leaves = jax.tree.leaves\n"
        "else:\n"
        "    leaves = jax.tree_util.tree_leaves\n"
        "\n"
        "# The leaves of a model.\n"
        "# Since 0.4.30, a typed key is one leaf.\n"
        "if jax.__version_info__ >= (0, 4, 13):\n"
        "    count = 1\n"
        "# About what follows, 0.8.0.\n"
        "\n"
        "# Gone from JAX 0.9.0.\n"
        "try:\n"
        "    from jax.experimental import maps\n"
        "except ImportError:\n"
        "    maps = None\n"
    )
    # On >=0.8: the first gate's comments speak only of releases and go; the second's first
    # line does not (it says what the code does), so all of it stays; a comment below a gate
    # stays; the `try` still runs its `except` on 0.9.0 and newer, so it and its comment stay.
    assert migrate_source(source, spec_mask(">=0.8", "test")) == (
        "import jaxcompat as jax\n"
        "\n"
        "leaves = jax.tree.leaves\n"
        "\n"
        "# The leaves of a model.\n"
        "# Since 0.4.30, a typed key is one leaf.\n"
        "count = 1\n"
        "# About what follows, 0.8.0.\n"
        "\n"
        "# Gone from JAX 0.9.0.\n"
        "try:\n"
        "    from jaxcompat.experimental import maps\n"
        "except ImportError:\n"
        "    maps = None\n"
    )


def test_comments_atop_the_branch_kept_go_when_they_only_name_releases():
    # distrax 0.1.9's shapes: each branch opens with a comment naming the releases it is for.
    source = (
        "import jax\n"
        "\n"
        "if hasattr(jax, 'enable_x64'):\n"
        "  # JAX v0.8.0 or later\n"
        "  enable_x64 = jax.enable_x64\n"
        "else:\n"
        "  # JAX v0.7.2 or earlier\n"
        "  enable_x64 = jax.experimental.enable_x64\n"
        "\n"
        "if jax.__version_info__ < (0, 4, 16):\n"
        "  kind = 'old'\n"
        "else:\n"
        "  # jax >= 0.4.16\n"
        "  kind = 'new'\n"
        "\n"
        "try:\n"
        "  # JAX v0.10.0 or newer\n"
        "  from jax.extend.core import valid_jaxtype\n"
        "except ImportError:\n"
        "  # JAX v0.9.2 or older\n"
        "  from jax.core import valid_jaxtype\n"
        "\n"
        "if jax.__version_info__ >= (0, 4, 13):\n"
        "  # The one-leaf typed keys: see the README.\n"
        "  # From 0.4.16 on.\n"
        "  leaves = 1\n"
    )
    # A block whose comments do not all name releases keeps them (the last gate).
    assert migrate_source(source, spec_mask(">=0.10", "test")) == (
        "import jaxcompat as jax\n"
        "\n"
        "enable_x64 = jax.enable_x64\n"
        "\n"
        "kind = 'new'\n"
        "\n"
        "from jaxcompat.extend.core import valid_jaxtype\n"
        "\n"
        "# The one-leaf typed keys: see the README.\n"
        "# From 0.4.16 on.\n"
        "leaves = 1\n"
    )


def test_an_older_release_branch_never_replaces_its_version_gate(tmp_path, capsys):
    # flax 0.12.8's `current_trace`: jaxcompat gives the old branch's name on every release
    # (its newest name, which the port writes), but that branch reads a trace level the
    # newest JAX has no more; the gate stays, and the try/except after it, reached only from
    # 0.4.34 where `jax.extend.core.get_opaque_trace_state` exists, keeps its first branch.
    source = tmp_path / "tracers.py"
    source.write_text(
        "import jax\n"
        "import jax.core\n"
        "from jax.extend import core as jex_core\n"
        "def current_trace():\n"
        "    if jax.__version_info__ <= (0, 4, 33):\n"
        "        top = jax.core.find_top_trace(())\n"
        "        return top.level\n"
        "    try:\n"
        "        get_opaque_trace_state = jex_core.get_opaque_trace_state\n"
        "    except AttributeError:\n"
        "        get_opaque_trace_state = jax.core.get_opaque_trace_state\n"
        "    return get_opaque_trace_state(convention='flax')\n"
    )
    assert main(["--jax", ">=0.4.30", "--no-pyproject", str(source)]) == 0
    assert source.read_text() == (
        "import jaxcompat as jax\n"
        "import jax.core, jaxcompat as jax\n"
        "from jaxcompat.extend import core as jex_core\n"
        "def current_trace():\n"
        "    if jax.JAX_VERSION <= (0, 4, 33):\n"
        "        top = jax.extend.core.find_top_trace(())\n"
        "        return top.level\n"
        "    get_opaque_trace_state = jex_core.get_opaque_trace_state\n"
        "    return get_opaque_trace_state(convention='flax')\n"
    )
    assert "JC034 this version gate is still needed" in capsys.readouterr().out


def test_gates_still_needed_stay_and_the_newest_branch_can_be_the_dead_one():
    migrated = migrate_source(GATED, spec_mask("<0.5", "test"))
    # Below 0.5.3 the `elif` is dead and the chain's `else` is the branch that runs.
    assert "    if jax.JAX_VERSION >= (0, 7, 0):" not in migrated
    assert 'kind = "old"\n' in migrated
    assert "        mode = 3\n" not in migrated and "    mode = 3\n" in migrated
    # Live on 0.4.13-0.4.38, but replaceable (JC030): jaxcompat gives jax.tree.map there.
    assert "tree_map = jax.tree.map\n" in migrated and "tree_util" not in migrated
    assert "raise ImportError" in migrated  # still needed: 0.4.13-0.4.29 lack it
    compile(migrated, "migrated.py", "exec")
    assert migrate_source(migrated, spec_mask("<0.5", "test")) == migrated


def test_a_gate_that_jaxcompat_makes_dead_collapses_to_its_name():
    # On jaxcompat, hasattr(jax, "typeof") holds on every release: the port keeps one branch.
    source = (
        "import jax\n"
        "if hasattr(jax, 'typeof'):\n"
        "    aval = jax.typeof\n"
        "else:\n"
        "    aval = jax.core.get_aval\n"
        "f = jax.tree.map if hasattr(jax, 'tree') else jax.tree_util.tree_map\n"
        "if hasattr(jax, 'typeof'):\n"
        "    pass\n"
    )
    assert migrate_source(source, spec_mask(">=0", "test")) == (
        "import jaxcompat as jax\naval = jax.typeof\nf = jax.tree.map\npass\n"
    )


def test_gates_whose_lines_cannot_move_safely_stay():
    source = (
        "import jax\n"
        "if jax.__version_info__ >= (0, 4, 25): x = 1\n"
        "else:\n"
        "    x = 2\n"
        "if jax.__version_info__ >= (0, 4, 25):\n"
        "    y = (1 +\n"
        "  2)\n"
        "try:\n"
        "    from jax.extend.core import Primitive\n"
        "except ImportError:\n"
        "    Primitive = None\n"
        "finally:\n"
        "    z = 3\n"
    )
    migrated = migrate_source(source, spec_mask(">=0.5.3", "test"))
    assert migrated == rewrite_imports(source, ast.parse(source))


# --- the command line -----------------------------------------------------------------------


@pytest.fixture
def library(tmp_path, monkeypatch):
    """A small library in a fresh directory, the working directory."""
    monkeypatch.chdir(tmp_path)
    for name, data in ORIGINAL.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path


MIGRATED = {
    "lib/__init__.py": b"from lib import core\n",
    "lib/core.py": b"import jaxcompat.numpy as jnp\r\n\r\nones = jnp.ones  # CRLF\r\n",
    "lib/latin1.py": b"# -*- coding: latin-1 -*-\nimport jaxcompat as jax\nname = '\xe9'\n",
    "lib/bom.py": b"\xef\xbb\xbfimport jaxcompat as jax\nv = jax.JAX_VERSION_STRING\n",
}


ORIGINAL = {
    "lib/__init__.py": b"from lib import core\n",
    "lib/core.py": b"import jax.numpy as jnp\r\n\r\nones = jnp.ones  # CRLF\r\n",
    "lib/latin1.py": b"# -*- coding: latin-1 -*-\nimport jax\nname = '\xe9'\n",
    "lib/bom.py": b"\xef\xbb\xbfimport jax\nv = jax.__version__\n",
}


def contents(root):
    return {name: (root / name).read_bytes() for name in MIGRATED}


#: What follows the files in the summary of a port that needs no person and runs everywhere.
PORTED = (
    "; removed 0 version gates; 0 findings left for a person; the ported code runs on JAX "
    "0.4.13 and newer."
)


def no_pyproject(path):
    return f"no pyproject.toml above {path}: add jaxcompat and jax>=0.4.13 yourself"


def test_migrate_rewrites_in_place_keeping_encoding_and_line_ends(library, capsys):
    assert main(["lib"]) == 0
    assert contents(library) == MIGRATED
    assert capsys.readouterr().out.splitlines() == [
        f"migrated {os.path.join('lib', 'bom.py')}",
        f"migrated {os.path.join('lib', 'core.py')}",
        f"migrated {os.path.join('lib', 'latin1.py')}",
        no_pyproject("lib"),
        "Migrated 3 of 4 files" + PORTED,
    ]
    # A second run changes nothing.
    assert main([]) == 0
    assert contents(library) == MIGRATED
    assert capsys.readouterr().out == f"{no_pyproject('.')}\nMigrated 0 of 4 files{PORTED}\n"
    assert main(["--check"]) == 0


def test_check_and_diff_write_nothing(library, capsys):
    before = contents(library)
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out
    assert f"would migrate {os.path.join('lib', 'core.py')}\n" in out
    assert out.endswith("Would migrate 3 of 4 files" + PORTED + "\n")
    assert main(["--diff", "lib/core.py"]) == 0
    diff = capsys.readouterr().out
    assert diff.splitlines()[:5] == [
        f"--- {os.path.join('lib', 'core.py')} (before)",
        f"+++ {os.path.join('lib', 'core.py')} (migrated)",
        "@@ -1,3 +1,3 @@",
        "-import jax.numpy as jnp",
        "+import jaxcompat.numpy as jnp",
    ]
    assert diff.endswith("Would migrate 1 of 1 file" + PORTED + "\n")
    assert main(["--diff", "--check", "lib/core.py"]) == 1
    assert contents(library) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")
def test_files_that_cannot_be_migrated_are_named_and_nothing_is_written(library, capsys):
    (library / "lib" / "broken.py").write_text("import jax\ndef f(:\n")
    (library / "lib" / "unknown.py").write_bytes(b"# coding: no-such-codec\nimport jax\n")
    (library / "lib" / "undecodable.py").write_bytes(b"import jax\nname = '\xe9'\n")
    os.mkfifo(library / "lib" / "fifo.py")
    (library / "lib" / "loop.py").symlink_to("loop.py")
    assert main(["lib"]) == 2
    out = capsys.readouterr().out.splitlines()
    errors = {
        line.split(":", 1)[0]: line.split(": error: ", 1)[1] for line in out if "error" in line
    }
    assert errors == {
        os.path.join("lib", "broken.py"): f"cannot parse with {PYTHON}: invalid syntax",
        os.path.join("lib", "fifo.py"): "cannot read: not a regular file (a FIFO); it was not read",
        os.path.join("lib", "loop.py"): "cannot read: Too many levels of symbolic links",
        os.path.join("lib", "undecodable.py"): (
            "cannot parse: 'utf-8' codec can't decode byte 0xe9 in position 19: "
            "invalid continuation byte"
        ),
        os.path.join("lib", "unknown.py"): "cannot parse: unknown encoding: no-such-codec",
    }
    broken = os.path.join("lib", "broken.py")
    assert f"{broken}:2:1: error: cannot parse with {PYTHON}: invalid syntax" in out
    # The port's floor would be read without them: no file is written.
    assert out[-1] == (
        "5 problems found, so nothing was written (would migrate 3 of 4 files once they are fixed)."
    )
    assert not any(line.startswith("migrated ") for line in out)
    assert contents(library) == ORIGINAL
    assert (library / "lib" / "broken.py").read_text() == "import jax\ndef f(:\n"


def test_a_file_that_cannot_be_written_is_named_and_nothing_is_written(
    library, capsys, monkeypatch
):
    # Permissions do not stop every user (root writes a read-only file), so the write itself
    # fails here as it does on a read-only file or a full disk: after bom.py was written.
    write_bytes = Path.write_bytes

    def refuse_core(self: Path, data: bytes) -> int:
        if self.name == "core.py":
            raise PermissionError(13, "Permission denied", str(self))
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", refuse_core)
    assert main(["lib"]) == 2
    core = os.path.join("lib", "core.py")
    assert capsys.readouterr().out.splitlines() == [
        f"{core}:1:1: error: cannot write: Permission denied",
        "1 problem found, so nothing was written (would migrate 3 of 4 files once they are fixed).",
    ]
    assert contents(library) == ORIGINAL  # bom.py has its old bytes back


def test_a_read_only_file_is_found_before_anything_is_written(library, capsys, monkeypatch):
    # As opening a read-only file for writing fails (for a user other than root).
    open_path = Path.open

    def read_only_latin1(self: Path, mode: str = "r", *args, **kwargs):
        if self.name == "latin1.py" and mode not in ("r", "rb"):
            raise PermissionError(13, "Permission denied", str(self))
        return open_path(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", read_only_latin1)
    monkeypatch.setattr(Path, "write_bytes", lambda *_: pytest.fail("a file was written"))
    assert main(["lib"]) == 2
    out = capsys.readouterr().out.splitlines()
    latin1 = os.path.join("lib", "latin1.py")
    assert out[0] == f"{latin1}:1:1: error: cannot write: Permission denied"
    assert contents(library) == ORIGINAL


def test_a_directory_without_python_files_is_an_error(library, capsys):
    (library / "empty").mkdir()
    (library / "empty" / "notes.txt").write_text("import jax\n")
    assert main(["empty", "lib/core.py"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "empty:1:1: error: no Python file under this directory",
        "1 problem found, so nothing was written (would migrate 1 of 1 file once they are fixed).",
    ]
    assert contents(library) == ORIGINAL


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_symlinked_directory_is_walked_once_and_never_out_of_the_tree(
    library, capsys, tmp_path_factory
):
    # check follows a link out of the tree; migrate names it and leaves it: it rewrites only
    # what is under the paths it was given.
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "mod.py").write_text("import jax\n")
    (library / "lib" / "linked").symlink_to(elsewhere)
    (library / "lib" / "again").symlink_to(library / "lib")  # inside the tree: walked already
    assert main(["lib"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert (
        f"{os.path.join('lib', 'linked')}:1:1: error: a symlink to a directory outside the "
        "tree: not migrated (name its target to migrate it)"
    ) in out
    assert out[-1] == (
        "1 problem found, so nothing was written (would migrate 3 of 4 files once they are fixed)."
    )
    assert contents(library) == ORIGINAL
    assert (elsewhere / "mod.py").read_text() == "import jax\n"
    (elsewhere / "back").symlink_to(elsewhere)  # a loop, walked once
    assert main(["--no-pyproject", str(elsewhere)]) == 0
    assert (elsewhere / "mod.py").read_text() == "import jaxcompat as jax\n"


def test_gates_are_judged_on_the_range_the_port_declares(library, capsys):
    # The port lowers jax>=0.5.3 to jax>=0.4.13 (nothing in the file needs more): the `else`
    # that never ran above 0.5.3 runs below it, and stays.
    gate = (
        "import jax\n"
        "if jax.__version_info__ >= (0, 5, 3):\n"
        "    padding = 'SAME'\n"
        "else:\n"
        "    padding = 'VALID'\n"
    )
    (library / "lib" / "gate.py").write_text(gate)
    (library / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.5.3"]\n')
    assert main(["lib/gate.py"]) == 0
    assert (library / "lib" / "gate.py").read_text() == gate.replace(
        "import jax\n", "import jaxcompat as jax\n"
    ).replace("__version_info__", "JAX_VERSION")
    assert (library / "pyproject.toml").read_text() == (
        '[project]\ndependencies = ["jax>=0.4.13", "jaxcompat"]\n'
    )
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (
        "Migrated 1 of 1 file; removed 0 version gates; kept 1 still needed (JC034); 0 findings "
        "left for a person; the ported code runs on JAX 0.4.13 and newer."
    )


def test_the_gates_removed_are_counted_once_each(library, capsys):
    # One gate removed; a suppressed gate (no finding) stays, and counts as no removal.
    (library / "lib" / "gate.py").write_text(
        "import jax\n"
        "if jax.__version_info__ >= (0, 4, 13):\n"
        "    mode = 'new'\n"
        "if jax.__version_info__ >= (0, 4, 13):  # jaxcompat: ignore\n"
        "    flag = 1\n"
    )
    (library / "lib" / "plain.py").write_text("import jax  # ignore what jaxcompat says\n")
    assert main(["--no-pyproject", "lib/gate.py", "lib/plain.py"]) == 0
    assert (library / "lib" / "gate.py").read_text() == (
        "import jaxcompat as jax\nmode = 'new'\nflag = 1\n"
    )
    assert (
        capsys.readouterr()
        .out.splitlines()[-1]
        .startswith("Migrated 2 of 2 files; removed 2 version gates;")
    )


def test_usage_errors(library, capsys):
    assert main(["no-such-dir"]) == 2
    assert capsys.readouterr().err == "jaxcompat migrate: no such file or directory: no-such-dir\n"
    assert main(["--frobnicate"]) == 2
    assert "unrecognized arguments: --frobnicate" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert capsys.readouterr().out.startswith(
        "usage: python -m jaxcompat migrate [-h] [--jax SPEC] [--diff] [--check]\n"
        "                                   [--no-pyproject] [--no-resolve]\n"
        "                                   [paths ...]\n"
    )
    assert main(["--jax", ">=banana"]) == 2
    assert capsys.readouterr().err.startswith("jaxcompat migrate: --jax: ")


def test_the_console_script_and_python_m_jaxcompat_run_it(library, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["jaxcompat", "migrate", "--check", "lib"])
    assert console() == 1
    assert capsys.readouterr().out.endswith("Would migrate 3 of 4 files" + PORTED + "\n")
    assert python_m_jaxcompat(["migrate", "lib"]) == 0
    assert contents(library) == MIGRATED


@pytest.mark.every_row
def test_a_migrated_library_runs_on_jaxcompat(library, monkeypatch):
    assert main(["lib"]) == 0
    monkeypatch.syspath_prepend(str(library))
    namespace: dict[str, object] = {}
    for name in ("lib/core.py", "lib/bom.py"):
        source = (library / name).read_bytes().decode("utf-8-sig")
        exec(compile(source, name, "exec"), namespace)
    assert namespace["jnp"] is jaxcompat.numpy
    assert namespace["v"] == jaxcompat.JAX_VERSION_STRING


def test_the_range_comes_from_jax_or_the_nearest_pyproject(library, capsys):
    gate = "import jax\nif jax.__version_info__ < (0, 5, 3):\n    raise ImportError('old')\n"
    (library / "lib" / "gate.py").write_text(gate)
    assert main(["--check", "--jax", ">=0", "lib/gate.py"]) == 1  # the imports only
    capsys.readouterr()
    assert main(["--diff", "--jax", ">=0", "lib/gate.py"]) == 0
    assert capsys.readouterr().out.splitlines()[3:] == [
        "-import jax",
        "-if jax.__version_info__ < (0, 5, 3):",
        "+import jaxcompat as jax",
        "+if jax.JAX_VERSION < (0, 5, 3):",
        "     raise ImportError('old')",
        no_pyproject(os.path.join("lib", "gate.py")),
        "note: lib/gate.py:2:1: JC034 this version gate is still needed: "
        "`jax.JAX_VERSION < (0, 5, 3)` is true on 0.4.13-0.5.2 and is false on "
        f"0.5.3-{jaxcompat._surface.rows()[-1]}; a floor of jax>=0.5.3 makes it dead",
        "Would migrate 1 of 1 file; removed 0 version gates; kept 1 still needed (JC034); 0 "
        "findings left for a person; the ported code runs on JAX 0.4.13 and newer.",
    ]
    (library / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=0.5.3"]\n')
    # Left its declared range, the port keeps jax>=0.5.3, where the gate is dead.
    assert main(["--no-pyproject", "lib/gate.py"]) == 0
    assert (library / "lib" / "gate.py").read_text() == "import jaxcompat as jax\n"
    capsys.readouterr()
    capsys.readouterr()
    (library / "pyproject.toml").write_text('[project]\ndependencies = ["jax>=banana"]\n')
    assert main(["lib/bom.py"]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"error: {library / 'pyproject.toml'}: the jax requirement 'jax>=banana' is not a valid "
        "PEP 508 requirement: fix it, then migrate again",
        "1 problem found, so nothing was read or written.",
    ]
    assert main(["--no-pyproject", "lib/bom.py"]) == 2  # the range cannot be read either
    out = capsys.readouterr().out
    assert out.startswith(f"{os.path.join('lib', 'bom.py')}:1:1: error: ")
    assert "jax>=banana" in out
    assert "fix it, or pass --jax SPEC" in out


def test_a_release_compared_as_a_string_is_compared_as_a_tuple():
    # "0.10.0" < "0.7.2" as strings (the checker's JC031): the port compares the releases.
    source = (
        "import jax\n"
        "if jax.__version__ < '0.7.2':\n"
        "    old = True\n"
        "new = '0.8' <= jax.__version__\n"
        "same = jax.__version__ == '0.7.2'\n"
        "import jaxcompat\n"
        "ported = jaxcompat.JAX_VERSION_STRING >= '0.10'\n"
    )
    assert rewrite(source) == (
        "import jaxcompat as jax\n"
        "if jax.JAX_VERSION < (0, 7, 2):\n"
        "    old = True\n"
        "new = (0, 8) <= jax.JAX_VERSION\n"
        "same = jax.JAX_VERSION_STRING == '0.7.2'\n"
        "import jaxcompat\n"
        "ported = jaxcompat.JAX_VERSION >= (0, 10)\n"
    )


def test_a_name_jaxcompat_refuses_on_a_release_of_the_range_stays_jaxs():
    # jaxcompat.extend.core.primitives.call_p is JAX's from 0.11.1 only (another primitive
    # before): where the range starts earlier, the import stays JAX's, never stricter.
    source = "from jax.extend.core.primitives import call_p\nfrom jax import lax\n"
    assert migrate_source(source, spec_mask(">=0.7", "test")) == (
        "from jax.extend.core.primitives import call_p\nfrom jaxcompat import lax\n"
    )
    assert migrate_source(source, spec_mask(">=0.11.1", "test")) == (
        "from jaxcompat.extend.core.primitives import call_p\nfrom jaxcompat import lax\n"
    )


def test_an_import_of_names_jaxcompat_refuses_and_gives_is_split():
    # numpyro 0.22.0 imports call_p, which jaxcompat refuses before 0.11.1, beside jit_p,
    # which JAX names so from 0.7.0 and jaxcompat gives on every release: only the refused
    # names stay JAX's, and every line keeps its number.
    below = spec_mask(">=0.6", "test")
    source = "from jax.extend.core.primitives import call_p, closed_call_p, jit_p\n"
    ported = migrate_source(source, below)
    assert ported == (
        "from jax.extend.core.primitives import call_p, closed_call_p;"
        " from jaxcompat.extend.core.primitives import jit_p\n"
    )
    assert migrate_source(ported, below) == ported
    assert migrate_source(source, spec_mask(">=0.11.1", "test")) == (
        "from jaxcompat.extend.core.primitives import call_p, closed_call_p, jit_p\n"
    )
    written_over_lines = (
        "if True:\n"
        "    from jax.extend.core.primitives import (\n"
        "        call_p,\n"
        "        jit_p as jit_prim,\n"
        "    )  # the primitives\n"
        "    x = 1\n"
    )
    assert migrate_source(written_over_lines, below) == (
        "if True:\n"
        "    from jax.extend.core.primitives import call_p\n"
        "\n"
        "\n"
        "    from jaxcompat.extend.core.primitives import jit_p as jit_prim  # the primitives\n"
        "    x = 1\n"
    )
    # In a one-line suite the two imports share the statement's lines.
    one_line_suite = "if True: from jax.extend.core.primitives import (call_p,\n    jit_p)\n"
    assert migrate_source(one_line_suite, below) == (
        "if True: from jax.extend.core.primitives import call_p;"
        " from jaxcompat.extend.core.primitives import jit_p \\\n\n"
    )


def test_a_name_read_for_private_attributes_stays_jaxs_module():
    # jaxcompat forwards no private name: `jax._src...` through jaxcompat would fail.
    source = (
        "import jax\n"
        "import jax.numpy as jnp\n"
        "try:\n"
        "    wait = jax._src.dispatch.wait_for_tokens\n"
        "except AttributeError:\n"
        "    wait = None\n"
        "v = jax.__version__\n"
    )
    assert rewrite(source) == source.replace(
        "import jax.numpy as jnp", "import jaxcompat.numpy as jnp"
    )


def test_a_name_read_for_public_and_private_attributes_becomes_jaxcompat():
    # As equinox's _jit.py: `import jax._src.dispatch` binds `jax` to JAX's package, so a
    # `jax.errors` left JAX's would lack JaxRuntimeError before 0.4.34 once its gate is gone.
    source = (
        "import jax\n"
        "import jax._src.dispatch\n"
        "import jax.numpy\n"
        "try:\n"
        "    JaxRuntimeError = jax.errors.JaxRuntimeError\n"
        "except AttributeError:\n"
        "    JaxRuntimeError = jax.lib.xla_extension.XlaRuntimeError\n"
        "wait = jax._src.dispatch.wait_for_tokens\n"
        "v = jax.__version__\n"
    )
    ported = (
        "import jax as _jax_private, jaxcompat as jax\n"
        "import jax._src.dispatch, jax as _jax_private, jaxcompat as jax\n"
        "import jax as _jax_private, jaxcompat as jax\n"
        "JaxRuntimeError = jax.errors.JaxRuntimeError\n"
        "wait = _jax_private._src.dispatch.wait_for_tokens\n"
        "v = jax.JAX_VERSION_STRING\n"
    )
    assert migrate_source(source, spec_mask(">=0.4.13", "test")) == ported
    assert migrate_source(ported, spec_mask(">=0.4.13", "test")) == ported
    namespace: dict[str, object] = {}
    exec(compile(ported, "ported.py", "exec"), namespace)
    import jax._src.dispatch

    assert namespace["jax"] is jaxcompat
    assert namespace["JaxRuntimeError"] is jaxcompat.errors.JaxRuntimeError
    assert namespace["wait"] is jax._src.dispatch.wait_for_tokens


def test_a_gate_on_a_name_left_jaxs_does_not_collapse_to_jaxcompats():
    # `j` is read only for private attributes, so it stays JAX's: jaxcompat giving
    # `typeof` on every release says nothing of `getattr(j, "typeof")` there.
    source = (
        "import jax as j\n"
        "core = j._src.core\n"
        "if hasattr(j, 'typeof'):\n"
        "    typeof = getattr(j, 'typeof')\n"
        "else:\n"
        "    typeof = None\n"
    )
    assert migrate_source(source, spec_mask(">=0.4.13", "test")) == source


def test_a_private_attribute_written_across_lines_is_still_seen():
    # Inside brackets a line end and a comment may come between the dot and the name; the
    # rewrite finds the lines of private attributes in the text before walking the tree.
    source = (
        "import jax\n"
        "wait = (jax.  # the private module\n"
        "        _src.dispatch.wait_for_tokens)\n"
        "v = (jax\n"
        "     .__version_info__)\n"
    )
    assert rewrite(source) == source


def test_a_dot_before_a_line_of_hashes_is_read_in_linear_time():
    # As TensorFlow Probability's generated files: a sentence ends with a dot, and a rule of
    # 80 `#` follows. A comment that may stop at any `#` inside it had 2**80 ways to match.
    source = "import jax\n# See the docs.\n" + "#" * 80 + "\nwait = jax._src.dispatch\n"
    assert rewrite(source) == source


def test_a_block_that_loses_every_statement_keeps_a_pass():
    # Two dead floor checks, the whole body of a function; one, the whole body of an `if`.
    source = (
        "import jax\n"
        "def f():\n"
        "    if jax.__version_info__ < (0, 4, 25):\n"
        "        raise ImportError('a')\n"
        "    if jax.__version_info__ < (0, 4, 20):\n"
        "        raise ImportError('b')\n"
        "class C:\n"
        "    def g(self):\n"
        "        if True:\n"
        "            if jax.__version_info__ < (0, 4, 25):\n"
        "                raise ImportError('c')\n"
        "x = 1\n"
    )
    migrated = migrate_source(source, spec_mask(">=0.5", "test"))
    assert migrated == (
        "import jaxcompat as jax\n"
        "def f():\n"
        "    pass\n"
        "class C:\n"
        "    def g(self):\n"
        "        if True:\n"
        "            pass\n"
        "x = 1\n"
    )
    compile(migrated, "migrated.py", "exec")


def test_a_dead_gate_at_the_end_of_the_file_takes_its_leading_blank_lines_along():
    source = "import jax\n\nx = 1\n\n\nif jax.__version_info__ < (0, 4, 25):\n    OLD = True\n"
    migrated = migrate_source(source, spec_mask(">=0.5", "test"))
    assert migrated == "import jaxcompat as jax\n\nx = 1\n"
    # A file that ended in a blank line keeps it.
    kept = migrate_source(source + "\n", spec_mask(">=0.5", "test"))
    assert kept == "import jaxcompat as jax\n\nx = 1\n\n\n\n"


def test_a_gate_whose_branch_jaxcompat_gives_everywhere_collapses_to_that_branch():
    # Both branches run on >=0.4.25 (JC030, not dead): the branch with the jaxcompat name
    # replaces the gate, as check says.
    source = (
        "import jax\n"
        "from jax import core\n"
        "if jax.__version_info__ >= (0, 6, 0):\n"
        "    get_aval = jax.typeof  # the newest name\n"
        "else:\n"
        "    get_aval = core.get_aval\n"
        "if jax.__version_info__ < (0, 6, 0):\n"
        "    get_aval = core.get_aval\n"
        "else:\n"
        "    get_aval = jax.typeof\n"
    )
    migrated = migrate_source(source, spec_mask(">=0.4.25", "test"))
    assert migrated == (
        "import jaxcompat as jax\n"
        "from jaxcompat import core\n"
        "get_aval = jax.typeof  # the newest name\n"
        "get_aval = jax.typeof\n"
    )


def test_an_elif_that_never_runs_goes_and_the_chain_goes_on():
    source = (
        "import jax\n"
        "if jax.__version_info__ >= (0, 7, 0):\n"
        "    mode = 1\n"
        "elif jax.__version_info__ < (0, 4, 20):  # never where the `if` fails, on >=0.5.3\n"
        "    mode = 2\n"
        "elif jax.__version_info__ >= (0, 6, 0):\n"
        "    mode = 3\n"
        "else:\n"
        "    mode = 4\n"
    )
    migrated = migrate_source(source, spec_mask(">=0.5.3", "test"))
    assert migrated == (
        "import jaxcompat as jax\n"
        "if jax.JAX_VERSION >= (0, 7, 0):\n"
        "    mode = 1\n"
        "elif jax.JAX_VERSION >= (0, 6, 0):\n"
        "    mode = 3\n"
        "else:\n"
        "    mode = 4\n"
    )
    assert migrate_source(migrated, spec_mask(">=0.5.3", "test")) == migrated


def test_an_old_name_read_through_jaxcompat_gets_its_newest_name(library, capsys):
    # jax.tree_map is the object jax.tree.map is (JAX's data): removed in 0.6.0, given by
    # jaxcompat on every release under its newest name. One imported by `from` stays.
    (library / "lib" / "trees.py").write_text(
        "import jax\n"
        "y = jax.tree_map(abs, [1])\n"
        "w = jax.tree_map(\n"
        "    abs, [2])\n"
        "z = jax.tree_util.tree_map(abs, [3])\n"
        "from jax import tree_map\n"
    )
    assert main(["--no-pyproject", "lib/trees.py"]) == 0
    assert (library / "lib" / "trees.py").read_text() == (
        "import jaxcompat as jax\n"
        "y = jax.tree.map(abs, [1])\n"
        "w = jax.tree.map(\n"
        "    abs, [2])\n"
        "z = jax.tree_util.tree_map(abs, [3])\n"
        "from jaxcompat import tree_map\n"
    )
    out = capsys.readouterr().out
    assert "left for a person: lib/trees.py:6:1: JC001 `jaxcompat.tree_map`" in out
    assert main(["--check", "--no-pyproject", "lib/trees.py"]) == 0  # a second run: no change
