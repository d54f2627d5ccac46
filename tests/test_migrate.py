"""``jaxcompat migrate``: the rewrite of a file's source, and the command line."""

import os
import sys
import textwrap

import pytest

import jaxcompat
import jaxcompat.numpy
from jaxcompat.__main__ import main as python_m_jaxcompat
from jaxcompat._checker import console
from jaxcompat._checker._migrate import MIRRORED_JAX_MODULES, migrate_source
from jaxcompat._checker._migrate_cli import main

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


# --- the command line -----------------------------------------------------------------------


@pytest.fixture
def library(tmp_path, monkeypatch):
    """A small library in a fresh directory, the working directory."""
    monkeypatch.chdir(tmp_path)
    files = {
        "lib/__init__.py": b"from lib import core\n",
        "lib/core.py": b"import jax.numpy as jnp\r\n\r\nones = jnp.ones  # CRLF\r\n",
        "lib/latin1.py": b"# -*- coding: latin-1 -*-\nimport jax\nname = '\xe9'\n",
        "lib/bom.py": b"\xef\xbb\xbfimport jax\nv = jax.__version__\n",
    }
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path


MIGRATED = {
    "lib/__init__.py": b"from lib import core\n",
    "lib/core.py": b"import jaxcompat.numpy as jnp\r\n\r\nones = jnp.ones  # CRLF\r\n",
    "lib/latin1.py": b"# -*- coding: latin-1 -*-\nimport jaxcompat as jax\nname = '\xe9'\n",
    "lib/bom.py": b"\xef\xbb\xbfimport jaxcompat as jax\nv = jax.JAX_VERSION_STRING\n",
}


def contents(root):
    return {name: (root / name).read_bytes() for name in MIGRATED}


def test_migrate_rewrites_in_place_keeping_encoding_and_line_ends(library, capsys):
    assert main(["lib"]) == 0
    assert contents(library) == MIGRATED
    assert capsys.readouterr().out.splitlines() == [
        f"migrated {os.path.join('lib', 'bom.py')}",
        f"migrated {os.path.join('lib', 'core.py')}",
        f"migrated {os.path.join('lib', 'latin1.py')}",
        "Migrated 3 of 4 files.",
    ]
    # A second run changes nothing.
    assert main([]) == 0
    assert contents(library) == MIGRATED
    assert capsys.readouterr().out == "Migrated 0 of 4 files.\n"
    assert main(["--check"]) == 0


def test_check_and_diff_write_nothing(library, capsys):
    before = contents(library)
    assert main(["--check", "lib"]) == 1
    out = capsys.readouterr().out
    assert f"would migrate {os.path.join('lib', 'core.py')}\n" in out
    assert out.endswith("Would migrate 3 of 4 files.\n")
    assert main(["--diff", "lib/core.py"]) == 0
    diff = capsys.readouterr().out
    assert diff.splitlines()[:5] == [
        f"--- {os.path.join('lib', 'core.py')} (before)",
        f"+++ {os.path.join('lib', 'core.py')} (migrated)",
        "@@ -1,3 +1,3 @@",
        "-import jax.numpy as jnp",
        "+import jaxcompat.numpy as jnp",
    ]
    assert diff.endswith("Would migrate 1 of 1 file.\n")
    assert main(["--diff", "--check", "lib/core.py"]) == 1
    assert contents(library) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")
def test_files_that_cannot_be_migrated_are_named_and_the_rest_migrated(library, capsys):
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
        os.path.join("lib", "broken.py"): "cannot parse: invalid syntax",
        os.path.join("lib", "fifo.py"): "cannot read: not a regular file (a FIFO); it was not read",
        os.path.join("lib", "loop.py"): "cannot read: Too many levels of symbolic links",
        os.path.join("lib", "undecodable.py"): (
            "cannot parse: 'utf-8' codec can't decode byte 0xe9 in position 19: "
            "invalid continuation byte"
        ),
        os.path.join("lib", "unknown.py"): "cannot parse: unknown encoding: no-such-codec",
    }
    assert f"{os.path.join('lib', 'broken.py')}:2:1: error: cannot parse: invalid syntax" in out
    assert out[-1] == "Migrated 3 of 4 files; 5 could not be migrated."
    assert contents(library) == MIGRATED
    assert (library / "lib" / "broken.py").read_text() == "import jax\ndef f(:\n"


def test_usage_errors(library, capsys):
    assert main(["no-such-dir"]) == 2
    assert capsys.readouterr().err == "jaxcompat migrate: no such file or directory: no-such-dir\n"
    assert main(["--frobnicate"]) == 2
    assert "unrecognized arguments: --frobnicate" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: jaxcompat migrate [-h] [--diff] [--check]")


def test_the_console_script_and_python_m_jaxcompat_run_it(library, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["jaxcompat", "migrate", "--check", "lib"])
    assert console() == 1
    assert capsys.readouterr().out.endswith("Would migrate 3 of 4 files.\n")
    assert python_m_jaxcompat(["migrate", "lib"]) == 0
    assert contents(library) == MIGRATED


def test_a_migrated_library_runs_on_jaxcompat(library, monkeypatch):
    assert main(["lib"]) == 0
    monkeypatch.syspath_prepend(str(library))
    namespace: dict[str, object] = {}
    for name in ("lib/core.py", "lib/bom.py"):
        source = (library / name).read_bytes().decode("utf-8-sig")
        exec(compile(source, name, "exec"), namespace)
    assert namespace["jnp"] is jaxcompat.numpy
    assert namespace["v"] == jaxcompat.JAX_VERSION_STRING
