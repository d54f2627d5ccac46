"""jaxcompat check from the command line: ranges, formats, codes, exit codes, files, no JAX.

Most tests use the fixture surface (tests/_check_data.py); those marked `real_data` read the
data file that ships with jaxcompat, which is the same on every row.
"""

import json
import os
import re
import subprocess
import sys
import textwrap
import threading

import pytest

from jaxcompat import _surface
from jaxcompat._checker import main
from jaxcompat._checker._codes import CODES

from ._check_data import fixture_data  # noqa: F401  (a fixture)
from ._helpers import PACKAGE, ROOT, run_python

uses_fixture = pytest.mark.usefixtures("fixture_data")


def write(directory, name, text):
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- exit codes and usage errors ----------------------------------------------------------


@uses_fixture
def test_exit_codes(in_tmp, capsys):
    write(in_tmp, "clean.py", "import jax\njax.tree_util.tree_map(f, x)\n")
    write(in_tmp, "broken.py", "import jax\njax.tree.map(f, x)\n")
    assert run(capsys, "clean.py")[0] == 0
    code, out, _ = run(capsys, "broken.py")
    assert code == 1
    assert out.splitlines() == [
        "broken.py:2:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
        "Checked for JAX 0.4.13-0.12.0 (from every supported release).",
        "Found 1 finding (JC001: 1) in 1 file (2 lines).",
    ]
    assert run(capsys, "clean.py", "--jax", ">=0.4.25")[0] == 0
    assert run(capsys, "broken.py", "--jax", ">=0.4.25")[0] == 0


def test_a_gate_still_needed_does_not_fail_the_check(in_tmp, capsys):
    # Both branches of the gate run on the range: the code works, and a CI job that runs
    # `check` right after a correct port stays green.
    gate = "import jax\nif jax.__version_info__ >= (0, 5, 3):\n    x = 1\nelse:\n    x = 2\n"
    write(in_tmp, "gate.py", gate)
    code, out, _ = run(capsys, "gate.py")
    assert code == 0
    assert out.splitlines()[0].startswith("gate.py:2:1: JC034 this version gate is still needed")
    assert out.splitlines()[-1] == (
        "Found 1 finding (JC034: 1) in 1 file (5 lines); JC034 (gate-still-needed) findings "
        "describe working code and do not fail the check."
    )
    code, out, _ = run(capsys, "gate.py", "--format", "github")
    assert (code, out.split(" ")[0]) == (0, "::notice")
    write(in_tmp, "gate.py", gate + "jax.tree.map(f, x)\n")
    code, out, _ = run(capsys, "gate.py", "--format", "github")
    assert code == 1
    assert [line.split(" ")[0] for line in out.splitlines()[:2]] == ["::notice", "::warning"]


@uses_fixture
def test_usage_errors_exit_2(in_tmp, capsys):
    write(in_tmp, "a.py", "x = 1\n")
    code, _, err = run(capsys, "a.py", "--jax", ">=0.4.x")
    assert (code, err) == (
        2,
        "jaxcompat check: --jax: '>=0.4.x' is not a PEP 440 version specifier\n",
    )
    code, _, err = run(capsys, "a.py", "--jax", ">=1.0")
    assert code == 2
    assert err == (
        f"jaxcompat check: --jax: '>=1.0' admits none of the {len(_surface.rows())} tested JAX "
        f"releases: the newest is {_surface.rows()[-1]}; `jaxcompat matrix --select all` "
        "lists them\n"
    )
    code, _, err = run(capsys, "missing.py")
    assert (code, err) == (2, "jaxcompat check: no such file or directory: missing.py\n")
    assert run(capsys, "a.py", "--select", "JC999")[0] == 2
    assert run(capsys, "a.py", "--format", "xml")[0] == 2


@uses_fixture
def test_a_file_that_does_not_parse_is_reported_and_the_rest_checked(in_tmp, capsys):
    write(in_tmp, "pkg/bad.py", "import jax\ndef f(:\n    pass\n")
    write(in_tmp, "pkg/good.py", "import jax\njax.tree.map(f, x)\n")
    code, out, _ = run(capsys, "pkg")
    assert code == 2
    lines = out.splitlines()
    # Named with the grammar that read it: a file for a newer Python parses under that one.
    expected = r"pkg/bad\.py:2:7: error: cannot parse with Python 3\.\d+: invalid syntax"
    assert re.fullmatch(expected, lines[0]), lines[0]
    assert lines[1].startswith("pkg/good.py:2:1: JC001 ")
    assert (
        lines[-1] == "Found 1 finding (JC001: 1) in 1 file (2 lines); 1 file could not be checked."
    )


@uses_fixture
def test_pathological_files_are_errors_not_crashes(in_tmp, capsys):
    write(in_tmp, "deep.py", "x = " + "(" * 200_000 + ")" * 200_000 + "\n")
    write(in_tmp, "long.py", "import jax\nx = jax.numpy.sum(1)" + " + 1" * 100_000 + "\n")
    (in_tmp / "latin1.py").write_bytes(b"name = '\xe9'\n")
    write(in_tmp, "ok.py", "import jax\njax.tree.map(f, x)\n")
    code, out, _ = run(capsys, ".")
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith("deep.py:1:") and "cannot parse" in lines[0]
    assert lines[1].startswith("latin1.py:1:") and "cannot parse" in lines[1]
    assert lines[2].startswith("long.py:") and "cannot parse" in lines[2]
    assert lines[3].startswith("ok.py:2:1: JC001 ")


@uses_fixture
def test_files_python_decodes_are_checked(in_tmp, capsys):
    # A PEP 263 coding line and a UTF-8 byte order mark: Python runs both files.
    (in_tmp / "latin1.py").write_bytes(
        b"# -*- coding: latin-1 -*-\nimport jax\nname = '\xe9'\njax.tree.map(f, x)\n"
    )
    (in_tmp / "bom.py").write_bytes(b"\xef\xbb\xbfimport jax\njax.tree.map(f, x)\n")
    (in_tmp / "unknown.py").write_bytes(b"# coding: no-such-codec\nimport jax\n")
    code, out, _ = run(capsys, ".")
    assert code == 2
    assert out.splitlines()[:3] == [
        "unknown.py:1:1: error: cannot parse: unknown encoding: no-such-codec",
        "bom.py:2:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
        "latin1.py:4:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
    ]


@uses_fixture
def test_a_long_expression_that_python_compiles_is_checked(in_tmp, capsys):
    # 2,000 terms: a syntax tree 2,000 levels deep, which every supported Python compiles.
    source = "import jax\nx = jax.tree.map(f, y)" + " + 1" * 2_000 + "\n"
    compile(source, "long.py", "exec")
    write(in_tmp, "long.py", source)
    limit = sys.getrecursionlimit()
    code, out, _ = run(capsys, "long.py")
    assert code == 1
    assert out.splitlines()[0] == (
        "long.py:2:5: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`"
    )
    # The deep walk ran in a thread of its own: the process's settings are as they were.
    assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, 0)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")
@uses_fixture
def test_symlink_loops_and_fifos_are_errors_not_tracebacks_or_hangs(in_tmp, capsys):
    (in_tmp / "a.py").symlink_to("b.py")
    (in_tmp / "b.py").symlink_to("a.py")
    os.mkfifo(in_tmp / "fifo.py")  # reading it would block until a writer comes
    (in_tmp / "loop").symlink_to(in_tmp)  # a directory symlink is not followed
    write(in_tmp, "ok.py", "import jax\njax.tree.map(f, x)\n")
    code, out, _ = run(capsys, ".")
    assert code == 2
    assert out.splitlines()[:4] == [
        "a.py:1:1: error: cannot read: Too many levels of symbolic links",
        "b.py:1:1: error: cannot read: Too many levels of symbolic links",
        "fifo.py:1:1: error: cannot read: not a regular file (a FIFO); it was not read",
        "ok.py:2:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
    ]
    code, out, err = run(capsys, "a.py", "fifo.py")
    assert (code, err) == (2, "")
    assert out.splitlines()[0] == "a.py:1:1: error: cannot read: Too many levels of symbolic links"


@uses_fixture
def test_a_path_with_no_python_file_is_an_error_not_a_green_run(in_tmp, capsys):
    (in_tmp / "docs").mkdir()
    write(in_tmp, "docs/index.md", "import jax\n")
    write(in_tmp, "ok.py", "import jax\njax.tree_util.tree_map(f, x)\n")
    code, out, _ = run(capsys, "docs", "ok.py")
    assert code == 2
    assert out.splitlines()[0] == "docs:1:1: error: no Python file under this directory"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
@uses_fixture
def test_a_symlinked_directory_is_followed(in_tmp, capsys, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    write(elsewhere, "mod.py", "import jax\njax.tree.map(f, x)\n")
    (elsewhere / "back").symlink_to(elsewhere)  # a loop: walked once
    (in_tmp / "pkg").mkdir()
    (in_tmp / "pkg" / "linked").symlink_to(elsewhere)
    code, out, _ = run(capsys, "pkg")
    assert code == 1
    assert out.splitlines()[0] == (
        f"{os.path.join('pkg', 'linked', 'mod.py')}:2:1: JC001 `jax.tree.map` does not exist "
        "on 0.4.13; use `jaxcompat.tree.map`"
    )
    code, out, _ = run(capsys, "pkg/linked")  # the argument itself a symlink
    assert code == 1


@uses_fixture
def test_an_invalid_jax_requirement_is_an_error(in_tmp, capsys):
    write(
        in_tmp,
        "pyproject.toml",
        '[project]\nname = "lib"\ndependencies = ["not a requirement!", "jax>=0.4.x"]\n',
    )
    write(in_tmp, "mod.py", "import jax\n")
    code, out, _ = run(capsys, "mod.py")
    assert code == 2
    assert out.splitlines()[0] == (
        f"mod.py:1:1: error: {in_tmp / 'pyproject.toml'}: the jax requirement 'jax>=0.4.x' is "
        "not a valid PEP 508 requirement (Expected comma (within version specifier), semicolon "
        "(after version specifier) or end); fix it, or pass --jax SPEC"
    )
    assert run(capsys, "mod.py", "--jax", ">=0.4.30")[0] == 0  # --jax still decides


@uses_fixture
def test_compile_warnings_do_not_make_a_file_unparseable(in_tmp, capsys):
    # pytest runs with warnings as errors: a SyntaxWarning must not become a parse error.
    write(in_tmp, "a.py", 'import jax\npattern = "\\d"\njax.tree.map(f, x)\n')
    code, out, _ = run(capsys, "a.py")
    assert code == 1
    assert out.splitlines()[0].startswith("a.py:3:1: JC001 ")


# --- the range under test ---------------------------------------------------------------


@uses_fixture
def test_range_from_the_nearest_pyproject(in_tmp, capsys):
    write(
        in_tmp,
        "lib/pyproject.toml",
        '[project]\nname = "lib"\ndependencies = ["numpy", "jax[cpu]>=0.4.25,!=0.10.0"]\n',
    )
    write(in_tmp, "lib/src/lib/mod.py", "import jax\njax.tree.map(f, x)\njax.core.get_aval(x)\n")
    write(in_tmp, "other/pyproject.toml", '[project]\nname = "other"\ndependencies = []\n')
    write(in_tmp, "other/mod.py", "import jax\njax.tree.map(f, x)\n")
    code, out, _ = run(capsys, "lib", "other")
    assert code == 1
    assert out.splitlines() == [
        "lib/src/lib/mod.py:3:1: JC001 `jax.core.get_aval` emits a DeprecationWarning on "
        "0.7.0, does not exist on 0.12.0; use `jaxcompat.typeof`",
        "other/mod.py:2:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
        "Checked for JAX 0.4.25-0.7.0, 0.12.0 (from lib/pyproject.toml: jax!=0.10.0,>=0.4.25).",
        "Checked for JAX 0.4.13-0.12.0 (from every supported release).",
        "Found 2 findings (JC001: 2) in 2 files (5 lines).",
    ]
    # --jax wins over pyproject.toml.
    assert run(capsys, "lib", "--jax", ">=0.4.25,<0.7")[0] == 0


@uses_fixture
def test_skipped_directories(in_tmp, capsys):
    broken = "import jax\njax.tree.map(f, x)\n"
    for directory in (".venv", "build", ".git", "venv", ".nox"):
        write(in_tmp, f"{directory}/lib.py", broken)
    write(in_tmp, "src/ok.py", "x = 1\n")
    code, out, _ = run(capsys, ".")
    assert code == 0
    assert out.splitlines()[-1] == "Found 0 findings in 1 file (1 lines)."
    # A file named on the command line is checked wherever it is.
    assert run(capsys, "build/lib.py")[0] == 1


# --- output formats, codes, suppression ------------------------------------------------------


@uses_fixture
def test_json_format(in_tmp, capsys):
    write(in_tmp, "a.py", "import jax.numpy as jnp\njnp.clip(x, a_min=0)\n")
    code, out, _ = run(capsys, "a.py", "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert report["findings"] == [
        {
            "path": "a.py",
            "line": 2,
            "column": 13,
            "code": "JC010",
            "message": "`jax.numpy.clip` does not accept the keyword `a_min` on 0.10.0-0.12.0 "
            "(and passing it warns on 0.4.30-0.7.0); use `jaxcompat.numpy.clip`, which takes the "
            "newest signature (arr, /, min, max)",
            "releases": ["0.4.30", "0.5.3", "0.7.0", "0.10.0", "0.12.0"],
        }
    ]
    assert report["errors"] == []
    assert report["ranges"] == {
        "every supported release": [
            "0.4.13",
            "0.4.25",
            "0.4.30",
            "0.5.3",
            "0.7.0",
            "0.10.0",
            "0.12.0",
        ]
    }
    assert report["summary"] == "Found 1 finding (JC010: 1) in 1 file (2 lines)."


@uses_fixture
def test_github_format(in_tmp, capsys):
    write(in_tmp, "a.py", "import jax\njax.tree.map(f, x)\n")
    write(in_tmp, "b.py", "def (\n")
    code, out, _ = run(capsys, "a.py", "b.py", "--format", "github")
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith("::error file=b.py,line=1,col=")
    assert "title=syntax error::cannot parse with Python 3." in lines[0]
    assert lines[1] == (
        "::warning file=a.py,line=2,col=1,title=JC001::`jax.tree.map` does not exist on "
        "0.4.13; use `jaxcompat.tree.map`"
    )


@uses_fixture
def test_select_and_ignore(in_tmp, capsys):
    write(
        in_tmp,
        "a.py",
        "import jax\nimport jax.numpy as jnp\njax.tree.map(f, x)\njnp.clip(x, a_min=0)\n",
    )

    def codes(*options):
        out = run(capsys, "a.py", *options)[1]
        return [line.split(" ")[1] for line in out.splitlines() if line.startswith("a.py:")]

    assert codes() == ["JC001", "JC010"]
    assert codes("--select", "JC001") == ["JC001"]
    assert codes("--select", "JC01") == ["JC010"]
    assert codes("--ignore", "JC001,JC010") == []
    assert run(capsys, "a.py", "--ignore", "JC0")[0] == 0


def test_explain(capsys):
    code, out, _ = run(capsys, "--explain", "jc030")
    assert code == 0
    assert out.startswith("JC030 (replaceable-gate)\n\nA version gate")
    assert run(capsys, "--explain", "JC999")[0] == 2
    assert sorted(CODES) == [
        "JC001",
        "JC002",
        "JC003",
        "JC010",
        "JC011",
        "JC020",
        "JC021",
        "JC030",
        "JC031",
        "JC032",
        "JC033",
        "JC034",
        "JC040",
        "JC041",
        "JC050",
        "JC060",
        "JC061",
    ]
    code, out, _ = run(capsys, "--explain", "JC061")
    assert (code, out.splitlines()[0]) == (0, "JC061 (class-attribute)")
    code, out, _ = run(capsys, "--explain", "JC060")
    assert (code, out.splitlines()[0]) == (0, "JC060 (array-attribute-by-name)")
    assert "a guess by name" in out
    code, out, _ = run(capsys, "--explain", "JC050")
    assert (code, out.splitlines()[0]) == (0, "JC050 (config-option-missing)")
    code, out, _ = run(capsys, "--explain", "JC033")
    assert (code, out.splitlines()[0]) == (0, "JC033 (dead-gate)")
    code, out, _ = run(capsys, "--explain", "JC034")
    assert (code, out.splitlines()[0]) == (0, "JC034 (gate-still-needed)")


# --- the real data, no JAX, the examples ----------------------------------------------------


def test_real_data_findings(in_tmp, capsys):
    write(
        in_tmp,
        "a.py",
        """\
        import jax
        from jax.experimental.shard_map import shard_map
        jax.tree.map(f, x)
        jax.tree_util.tree_map(f, x)
        jax.jit(f, (0,))
        """,
    )
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.4.13")
    assert code == 1
    assert out.splitlines()[:3] == [
        "a.py:2:1: JC002 `jax.experimental.shard_map.shard_map` emits a DeprecationWarning on "
        "0.8.0-0.12.0.1; use `jaxcompat.shard_map`, which takes the newest signature "
        "(f, /, *, out_specs, in_specs, mesh, axis_names, check_vma)",
        "a.py:3:1: JC001 `jax.tree.map` does not exist on 0.4.13-0.4.24; use `jaxcompat.tree.map`",
        "a.py:5:1: JC020 `jax.jit` called with 2 positional arguments: takes at most 1 "
        "positional argument on 0.6.0-0.12.0.1; pass them by keyword",
    ]


def test_a_class_keyword_names_the_first_release_that_takes_it(in_tmp, capsys):
    # PartitionSpec's class is built in C++ on 0.6.2-0.10.0, where the signature data cannot
    # read it: the class keyword data names the first release that takes reduced= (0.6.2).
    # Before 0.7.0 JAX's experimental.layout.Layout is another class than jaxcompat's: the
    # reason, about jaxcompat's, is left out.
    write(
        in_tmp,
        "a.py",
        """\
        import jax
        jax.sharding.PartitionSpec('x', reduced=r)
        jax.sharding.AbstractDevice('cpu', None, platform='cpu')
        jax.experimental.layout.Layout((1, 0), tiling=t)
        """,
    )
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.7.2")
    assert (code, out.splitlines()[:-2]) == (
        1,
        [
            "a.py:3:42: JC010 `jax.sharding.AbstractDevice` does not accept the keyword "
            "`platform` on 0.7.2-0.10.0; raise the floor to jax>=0.10.1 (JAX before it has no "
            "platform in an abstract device)"
        ],
    )
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.5.0")
    lines = out.splitlines()
    assert lines[0] == (
        "a.py:2:33: JC010 `jax.sharding.PartitionSpec` does not accept the keyword `reduced` on "
        "0.5.0-0.6.1; raise the floor to jax>=0.6.2 (JAX before it cannot mark mesh axes "
        "reduced in a PartitionSpec)"
    )
    assert lines[3] == (
        "a.py:4:40: JC010 `jax.experimental.layout.Layout` does not accept the keyword `tiling` "
        "on 0.5.0-0.7.0; raise the floor to jax>=0.7.1"
    )


def test_a_class_keyword_through_jaxcompat_is_jax_own_type_error(in_tmp, capsys):
    # jaxcompat gives JAX's own classes: a newest constructor keyword fails through it as
    # through JAX, before the first release whose class takes it (even at its default), for
    # a stable name (P, Format, Layout, Ref) and a forwarded one (custom_vjp, Mesh) alike.
    write(
        in_tmp,
        "a.py",
        """\
        import jaxcompat as jax
        jax.P('x', unreduced=frozenset())
        jax.custom_vjp(f, nondiff_argnames=('n',))
        jax.sharding.Mesh(devices, ('x',), axis_types=None)
        jax.experimental.layout.Format(layout=None)
        jax.experimental.layout.Layout(major_to_minor=(1, 0))
        jax.Ref(aval, refs=r)
        jax.numpy.ufunc(f, 2, 1, reduce=r)
        """,
    )
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.6.1")
    assert (code, out.splitlines()[:-2]) == (
        1,
        [
            "a.py:2:12: JC010 `jaxcompat.P` does not accept the keyword `unreduced` on 0.6.1; "
            "raise the floor to jax>=0.6.2 (JAX before it cannot mark mesh axes unreduced in a "
            "PartitionSpec, and 0.6.1 reads a set given as unreduced= as one axis name)",
            "a.py:3:19: JC010 `jaxcompat.custom_vjp` (JAX's `jax.custom_vjp`) does not accept "
            "the keyword `nondiff_argnames` on 0.6.1; raise the floor to jax>=0.6.2 (JAX before "
            "it takes the non-differentiable arguments by position only (nondiff_argnums))",
            "a.py:5:32: JC010 `jaxcompat.experimental.layout.Format` does not accept the keyword "
            "`layout` on 0.6.1-0.6.2; raise the floor to jax>=0.7.0 (JAX before it names it "
            "device_local_layout)",
            "a.py:7:15: JC010 `jaxcompat.Ref` does not accept the keyword `refs` on 0.6.1-0.7.1; "
            "raise the floor to jax>=0.7.2 (JAX before it names the array a Ref holds buf)",
        ],
    )
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.4.18")
    lines = out.splitlines()
    assert (
        "a.py:4:36: JC010 `jaxcompat.sharding.Mesh` (JAX's `jax.sharding.Mesh`) does not accept "
        "the keyword `axis_types` on 0.4.18-0.4.35; raise the floor to jax>=0.4.36 (JAX before "
        "it cannot give a mesh's axes types)"
    ) in lines
    assert (
        "a.py:6:32: JC010 `jaxcompat.experimental.layout.Layout` does not accept the keyword "
        "`major_to_minor` on 0.4.26-0.4.30; raise the floor to jax>=0.4.31 (JAX before it "
        "cannot make a layout from its parts, only read a compiled function's)"
    ) in lines
    assert (
        "a.py:8:26: JC010 `jaxcompat.numpy.ufunc` does not accept the keyword `reduce` on "
        "0.4.18-0.4.31; raise the floor to jax>=0.4.33 (JAX before it has no ufunc that "
        "carries its own method implementations)"
    ) in lines
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.11.0")
    assert (code, out.splitlines()[-1]) == (0, "Found 0 findings in 1 file (8 lines).")


def test_a_legacy_call_that_jax_still_reads_by_position_is_no_finding(in_tmp, capsys):
    # JAX 0.11.0 made ClosedJaxpr an alias of Jaxpr, whose parameters are others, but whose
    # constructor still reads ClosedJaxpr(jaxpr, consts); by keyword, jaxpr= is refused.
    write(
        in_tmp,
        "a.py",
        """\
        import jax
        def f(j):
            a = jax.extend.core.ClosedJaxpr(j, [])
            b = jax.extend.core.ClosedJaxpr(jaxpr=j, consts=[])
            c = jax.extend.core.ClosedJaxpr(j, [], nothing=1)
            return a, b, c
        """,
    )
    code, out, _ = run(capsys, "a.py", "--jax", ">=0.4.27")
    assert code == 1
    assert out.splitlines()[0] == (
        "a.py:4:37: JC010 `jax.extend.core.ClosedJaxpr` does not accept the keyword `jaxpr` "
        "on 0.11.0-0.12.0.1; pass it by position, which every release reads the same"
    )
    # A keyword no release names is no position to move to.
    assert "pass it by position" not in out.splitlines()[1]
    assert out.splitlines()[1].startswith(
        "a.py:5:44: JC010 `jax.extend.core.ClosedJaxpr` does not accept the keyword `nothing` "
        "on 0.4.27-0.12.0.1;"
    )
    assert "JC020" not in out


def test_the_downstream_example_is_clean(capsys, monkeypatch):
    # It declares `jax` unpinned: every row counts.
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, "examples/downstream")
    assert out.splitlines()[0] == (
        "Checked for JAX 0.4.13-0.12.0.1 (from examples/downstream/pyproject.toml: jax, unpinned)."
    )
    assert re.fullmatch(r"Found 0 findings in \d+ files \(\d+ lines\)\.", out.splitlines()[-1])
    assert code == 0


def _readme_block():
    text = (ROOT / "README.md").read_text()
    match = re.search(r"\$ jaxcompat check examples/pinned\n(.*?)```", text, re.DOTALL)
    assert match, "README.md shows a run of `jaxcompat check examples/pinned`"
    return match.group(1)


def test_readme_shows_the_real_output(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, "examples/pinned")
    assert code == 1
    assert _readme_block() == out


@pytest.mark.subprocess
def test_runs_without_jax(tmp_path):
    write(tmp_path, "a.py", "import jax\njax.tree.map(f, x)\n")
    code = (
        "import runpy, sys\n"
        "sys.modules['jax'] = None\n"  # `import jax` raises ImportError
        f"sys.argv = ['jaxcompat', 'check', {str(tmp_path / 'a.py')!r}, '--jax', '<0.4.25']\n"
        "try:\n"
        "    runpy.run_module('jaxcompat', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exit:\n"
        "    print('exit', exit.code)\n"
        "from jaxcompat._cli.commands import console\n"
        "sys.argv = ['jaxcompat', 'check', '--explain', 'JC001']\n"
        "print('console', console())\n"
        f"sys.argv = ['jaxcompat', 'migrate', '--check', {str(tmp_path / 'a.py')!r}]\n"
        "print('migrate', console())\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('jax', 'jaxlib')))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'a.py'}:2:1: JC001 `jax.tree.map` does not exist")
    assert "exit 1" in lines
    assert "console 0" in lines
    assert lines[-3:] == [
        "Would migrate 1 of 1 file; removed 0 version gates; 0 findings left for a person; the "
        "ported code runs on JAX 0.4.13 and newer.",
        "migrate 1",
        "['jax']",  # only the blocked entry: nothing of JAX was imported
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="pre-commit hook file is POSIX-only here")
def test_pre_commit_hook_runs_the_checker():
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "entry: jaxcompat check\n" in hooks
    assert "language: python\n" in hooks
    assert os.path.exists(ROOT / "pyproject.toml")
    assert 'jaxcompat = "jaxcompat._cli.commands:console"' in (ROOT / "pyproject.toml").read_text()


def test_jaxcompat_own_names_and_modules_match_the_package():
    # The checker lists them without importing jaxcompat's JAX-dependent modules.
    import jaxcompat
    import jaxcompat.lax
    from jaxcompat._checker._api import JAXCOMPAT_MODULES, JAXCOMPAT_OWN

    own = {n for n in jaxcompat.__all__ if n not in ("lax", "__version__")}
    own |= {f"lax.{n}" for n in jaxcompat.lax.__all__} | {"testing", "nox"}
    assert own == JAXCOMPAT_OWN
    package = PACKAGE
    modules = set()
    for path in package.rglob("*.py"):
        relative = path.relative_to(package)
        private = any(part.startswith("_") for part in relative.parts[:-1]) or (
            relative.name.startswith("_") and relative.name != "__init__.py"
        )
        if not private and relative.parts != ("__init__.py",):
            modules.add(".".join(relative.with_suffix("").parts).removesuffix(".__init__"))
    assert modules == JAXCOMPAT_MODULES


# --- the command line itself: help, unknown commands, a reader that stops early ------------


def test_help_lists_the_commands_and_an_unknown_command_is_an_error(capsys):
    from jaxcompat.__main__ import main as command

    assert command(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m jaxcompat [--json] | python -m jaxcompat COMMAND ...")
    assert out.endswith(
        "\ncommands:\n"
        "  check    report what in a library breaks on which JAX releases\n"
        "  migrate  port a library: point its JAX imports at jaxcompat\n"
        "  matrix   the JAX releases to test a library on, and how to install each\n"
        "  floor    the lowest JAX release on which a library's own tests pass\n"
        "\n"
        "Each command's own help: python -m jaxcompat COMMAND --help\n"
    )
    assert "`" not in out  # no reStructuredText markup in what a terminal shows
    assert command(["frobnicate", "--help"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "python -m jaxcompat: unknown command 'frobnicate'; the commands are: check, migrate, "
        "matrix, floor (and, with no command, the report: python -m jaxcompat --help)\n"
    )
    assert command(["--frobnicate"]) == 2
    assert "unrecognized arguments: --frobnicate" in capsys.readouterr().err


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("entry", "name"),
    [("console script", "jaxcompat"), ("python -m jaxcompat", "python -m jaxcompat")],
)
def test_the_command_names_itself_as_it_was_started(entry, name):
    if entry == "console script":
        start = "from jaxcompat._cli.commands import console\nsys.exit(console())\n"
    else:
        start = "runpy.run_module('jaxcompat', run_name='__main__', alter_sys=True)\n"
    outputs = []
    for verb in ([], ["check"], ["migrate"], ["matrix"]):
        argv = ["jaxcompat", *verb, "--help"]
        code = f"import runpy, sys\nsys.modules['jax'] = None\nsys.argv = {argv!r}\n{start}"
        result = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    report, check, migrate, matrix = outputs
    assert report.startswith(f"usage: {name} [--json] | {name} COMMAND ...\n")
    assert report.endswith(f"Each command's own help: {name} COMMAND --help\n")
    assert check.startswith(f"usage: {name} check [-h]")
    assert migrate.startswith(f"usage: {name} migrate [-h]")
    assert matrix.startswith(f"usage: {name} matrix [-h]")


@pytest.mark.subprocess
@pytest.mark.parametrize(
    "argv",
    [
        ["jaxcompat", "check", "--explain", "JC001"],
        ["jaxcompat", "--json"],  # the report, here of a jaxcompat that finds no JAX
    ],
    ids=["check", "report"],
)
@pytest.mark.parametrize("entry", ["python -m jaxcompat", "console script"])
def test_a_reader_that_closes_the_pipe_ends_the_command_quietly(argv, entry):
    # `... | head -c1`: the reader has gone before the command writes. JAX is blocked, so the
    # fresh interpreter starts fast; what is under test is the command line, not JAX.
    if entry == "console script":
        start = "from jaxcompat._cli.commands import console\nsys.exit(console())\n"
    else:
        start = "runpy.run_module('jaxcompat', run_name='__main__', alter_sys=True)\n"
    code = f"import runpy, sys\nsys.modules['jax'] = None\nsys.argv = {argv!r}\n{start}"
    read_end, write_end = os.pipe()
    os.close(read_end)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            timeout=300,
            check=False,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 141, result.stderr


def _run_with_import_times(directory, *arguments):
    """``python -X importtime -m jaxcompat ARGUMENTS`` in ``directory``: (its result, the
    modules it imported)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "jaxcompat", *arguments],
        capture_output=True,
        text=True,
        cwd=directory,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
        check=False,
    )
    return result, [line.rpartition("|")[2].strip() for line in result.stderr.splitlines()]


@pytest.mark.subprocess
@pytest.mark.parametrize("verb", ["check", "migrate"])
def test_python_m_jaxcompat_check_and_migrate_import_no_jax(tmp_path, verb):
    # Either command reads source text only: started as `python -m jaxcompat`, whose package
    # is imported before its __main__, it must still not pay for importing JAX.
    write(tmp_path, "a.py", "import jax\njax.tree.map(f, x)\n")
    result, imported = _run_with_import_times(tmp_path, verb, "--jax", "<0.4.25", "a.py")
    assert "jaxcompat._checker._cli" in imported
    assert [name for name in imported if name.split(".")[0] in ("jax", "jaxlib")] == []
    assert "jaxcompat._dispatch" not in imported
    if verb == "check":
        assert result.returncode == 1
        assert result.stdout.startswith("a.py:2:1: JC001 `jax.tree.map` does not exist on")
    else:
        assert result.returncode == 0
        assert result.stdout.startswith("migrated a.py\n")
        assert (tmp_path / "a.py").read_text() == "import jaxcompat as jax\njax.tree.map(f, x)\n"


@pytest.mark.subprocess
def test_python_m_jaxcompat_matrix_imports_no_jax(tmp_path):
    # matrix reads matrix.yml and the library's pyproject.toml: no JAX either.
    write(tmp_path, "pyproject.toml", '[project]\nname = "lib"\ndependencies = ["jax>=0.12"]\n')
    result, imported = _run_with_import_times(tmp_path, "matrix", ".", "--format", "json")
    # importlib.import_module's own import is not timed; the command's imports are.
    assert "jaxcompat._matrix.select" in imported
    assert [name for name in imported if name.split(".")[0] in ("jax", "jaxlib")] == []
    assert result.returncode == 0, result.stderr[-2000:]
    assert [row["jax"] for row in json.loads(result.stdout)] == ["0.12.0", "0.12.0.1"]


def test_every_command_of_the_report_is_in_the_one_table():
    from jaxcompat import __main__ as report
    from jaxcompat._cli.commands import COMMANDS

    assert report.SUBCOMMANDS is COMMANDS
    assert list(report.COMMAND_HELP) == list(COMMANDS)


@pytest.mark.parametrize(
    ("argv", "found"),
    [
        (["python", "-m", "jaxcompat", "check", "a.py"], ("jaxcompat", ["check", "a.py"])),
        (
            ["python", "-X", "importtime", "-B", "-mjaxcompat", "migrate"],
            ("jaxcompat", ["migrate"]),
        ),
        (["python", "-m", "pytest", "-m", "jaxcompat"], ("pytest", ["-m", "jaxcompat"])),
        (["python", "script.py", "-m", "jaxcompat", "check"], None),
        (["python", "-c", "import jaxcompat", "-m", "jaxcompat"], None),
        (["python"], None),
    ],
)
def test_the_module_python_was_started_with(argv, found):
    from jaxcompat._cli.commands import _module_run_by_python

    assert _module_run_by_python(argv) == found
