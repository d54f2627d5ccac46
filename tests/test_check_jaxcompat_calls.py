"""JC041 (an argument a jaxcompat name refuses on some releases) and ``migrate``'s
positional arguments passed by keyword, on the real API data."""

import shutil
import textwrap

from jaxcompat._checker import main as check_main
from jaxcompat._checker._checked import check_source
from jaxcompat._checker._migrate import migrate_source
from jaxcompat._checker._migrate_cli import main as migrate_main
from jaxcompat._checker._ranges import spec_mask

from ._helpers import ROOT


def check(source, spec):
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [f"{f.line}:{f.col}: {f.code} {f.message}" for f in found]


def migrate(source, spec):
    return migrate_source(textwrap.dedent(source), spec_mask(spec, "test"))


MESH_BEFORE_AXIS_TYPES = (
    "which jaxcompat takes only on 0.5.3 and newer (only at its default on 0.4.30-0.5.2: "
    "JAX before it has no mesh axis types (jax.sharding.AxisType))"
)


def test_a_positional_argument_is_read_against_the_newest_signature():
    source = """\
        import jaxcompat as jax
        jax.make_mesh((8,), ("data",), devices)
        jax.make_mesh((8,), ("data",), devices=devices)
        jax.make_mesh((8,), ("data",), None)
    """
    assert check(source, ">=0.4.30") == [
        "2:1: JC041 the 3rd positional argument of `jaxcompat.make_mesh` is `axis_types` in "
        f"the newest signature, {MESH_BEFORE_AXIS_TYPES}; if it is the devices, pass "
        "`devices=`; else raise the floor to jax>=0.5.3",
        # A literal None by position is not told from a value: the same finding.
        "4:1: JC041 the 3rd positional argument of `jaxcompat.make_mesh` is `axis_types` in "
        f"the newest signature, {MESH_BEFORE_AXIS_TYPES}; if it is the devices, pass "
        "`devices=`; else raise the floor to jax>=0.5.3",
    ]
    assert check(source, ">=0.5.3") == []


def test_a_jit_option_jaxcompat_takes_from_a_later_release():
    # jaxcompat.jit is jaxcompat's own primitive: it raises a TypeError for these options on
    # the releases whose JAX lacks them, so check says so (it said nothing after migrate).
    source = """\
        import jaxcompat as jax
        f = jax.jit(g, donate_argnames=("a",))
        f = jax.jit(g, donate_argnames=None)
        f = jax.jit(g, compiler_options=options)
        f = jax.jit(g, donate_argnums=0)
    """
    assert check(source, ">=0.4.13") == [
        "2:16: JC041 `jaxcompat.jit` is passed `donate_argnames`, which jaxcompat takes only "
        "on 0.4.18 and newer (only at its default on 0.4.13: JAX before it has no jit option "
        "donate_argnames (use donate_argnums)); raise the floor to jax>=0.4.18",
        "4:16: JC041 `jaxcompat.jit` is passed `compiler_options`, which jaxcompat takes only "
        "on 0.4.36 and newer (only at its default on 0.4.13-0.4.35: JAX before it has no jit "
        "option compiler_options (pass them to .compile())); raise the floor to jax>=0.4.36",
    ]
    assert check(source, ">=0.4.36") == []


def test_a_test_marked_for_the_releases_that_take_it_is_clean():
    # jaxcompat's pytest plugin runs a test marked @pytest.mark.jax(SPEC) only where JAX
    # matches SPEC: its body is checked on those releases alone.
    source = """\
        import pytest
        import jaxcompat as jax

        @pytest.mark.jax(">=0.4.36")
        def test_options():
            jax.jit(g, compiler_options=options)

        @pytest.mark.jax(">=0.4.30")
        def test_older():
            jax.jit(g, compiler_options=options)

        from pytest import mark

        @mark.jax(">=0.4.36")
        def test_options_again():
            jax.jit(g, compiler_options=options)
    """
    assert check(source, ">=0.4.13") == [
        "10:16: JC041 `jaxcompat.jit` is passed `compiler_options`, which jaxcompat takes "
        "only on 0.4.36 and newer (only at its default on 0.4.30-0.4.35: JAX before it has no "
        "jit option compiler_options (pass them to .compile())); raise the floor to "
        "jax>=0.4.36",
    ]


def test_a_keyword_jaxcompat_takes_from_a_later_release():
    source = """\
        import jaxcompat as jax
        jax.make_mesh((8,), ("data",), axis_types=types)
        jax.make_mesh((8,), ("data",), axis_types=None)
    """
    assert check(source, ">=0.4.30") == [
        f"2:32: JC041 `jaxcompat.make_mesh` is passed `axis_types`, {MESH_BEFORE_AXIS_TYPES}; "
        "raise the floor to jax>=0.5.3",
    ]
    # A keyword rule (_keywords/rules/functions.py): empty_ref's pin is not provided before
    # the release that names it.
    assert check("import jaxcompat as jax\njax.empty_ref(aval, pin=True)\n", ">=0.9.1") == [
        "2:21: JC041 `jaxcompat.empty_ref` is passed `pin`, which jaxcompat takes only on "
        "0.11.1 and newer (not at all on 0.9.1-0.11.0: JAX before it does not take it); raise "
        "the floor to jax>=0.11.1"
    ]
    assert check("import jaxcompat as jax\njax.empty_ref(aval, pin=True)\n", ">=0.11.1") == []


def test_explain(capsys):
    assert check_main(["--explain", "JC041"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "JC041 (jaxcompat-keyword-unavailable)"
    assert "make_mesh's third positional is axis_types" in out


def test_check_after_migrate_reports_the_pinned_mesh_call(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "examples" / "pinned", tmp_path / "pinned")
    monkeypatch.chdir(tmp_path / "pinned")
    assert migrate_main(["."]) == 0
    ops = (tmp_path / "pinned" / "pinnedlib" / "ops.py").read_text()
    # No release of the range takes a third positional argument: migrate leaves it.
    assert '    return jax.make_mesh((len(devices),), ("data",), devices)\n' in ops
    capsys.readouterr()
    assert check_main(["pinnedlib/ops.py"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if ": JC041 " in line] == [
        "pinnedlib/ops.py:32:12: JC041 the 3rd positional argument of `jaxcompat.make_mesh` is "
        "`axis_types` in the newest signature, which jaxcompat takes only on 0.5.3 and newer "
        "(only at its default on 0.4.13-0.4.38, 0.5.1-0.5.2: JAX before it has no mesh axis "
        "types (jax.sharding.AxisType)); if it is the devices, pass `devices=`; else raise the "
        "floor to jax>=0.5.3"
    ]
    # The fix the finding names leaves nothing about the call.
    fixed = ops.replace('("data",), devices)', '("data",), devices=devices)')
    (tmp_path / "pinned" / "pinnedlib" / "ops.py").write_text(fixed)
    check_main(["pinnedlib/ops.py"])
    assert "make_mesh" not in capsys.readouterr().out


# --- migrate: positional arguments passed by keyword ----------------------------------------

ARRAY = """\
    import jax.numpy as jnp
    x = jnp.array(values, jnp.float32, False)
"""


def test_migrate_passes_a_moved_positional_argument_by_keyword():
    # jnp.array's third parameter is copy on 0.4.13-0.7.2, keyword-only from 0.8.0.
    assert migrate(ARRAY, ">=0.4.20,<0.7") == (
        "import jaxcompat.numpy as jnp\nx = jnp.array(values, jnp.float32, copy=False)\n"
    )
    assert check(migrate(ARRAY, ">=0.4.20,<0.7"), ">=0.4.20,<0.7") == []
    # A second run changes nothing.
    twice = migrate_source(migrate(ARRAY, ">=0.4.20,<0.7"), spec_mask(">=0.4.20,<0.7", "test"))
    assert twice == migrate(ARRAY, ">=0.4.20,<0.7")


def test_migrate_leaves_a_call_it_cannot_read_one_way():
    # On >=0.4.20 the newest releases cannot take a third positional argument: the code was
    # not written for one meaning, and check reports the call.
    assert migrate(ARRAY, ">=0.4.20") == (
        "import jaxcompat.numpy as jnp\nx = jnp.array(values, jnp.float32, False)\n"
    )
    assert [f.split(" ")[1] for f in check(migrate(ARRAY, ">=0.4.20"), ">=0.4.20")] == ["JC020"]
    # A parenthesized argument is left as written (a keyword cannot go inside it).
    source = "import jax.numpy as jnp\nx = jnp.array(values, jnp.float32, (False))\n"
    assert migrate(source, "<0.7") == source.replace("import jax.", "import jaxcompat.")
    # A name that is JAX's own object through jaxcompat keeps its meaning: not rewritten.
    source = "import jax.numpy as jnp\nx = jnp.take(a, i, 0)\n"
    assert migrate(source, "<0.7") == source.replace("import jax.", "import jaxcompat.")


def test_migrate_keeps_a_later_positional_argument_after_a_keyword_valid():
    # Every positional argument from the first moved one on is passed by keyword.
    source = "import jax.numpy as jnp\nx = jnp.array(v, jnp.float32, False, 'K')\n"
    assert migrate(source, "<0.7") == (
        "import jaxcompat.numpy as jnp\nx = jnp.array(v, jnp.float32, copy=False, order='K')\n"
    )


def test_migrate_rewrites_a_name_imported_from_jax_and_nothing_else():
    source = "from jax.numpy import array\nx = array(v, float, False)\ny = np.array(v, float, 0)\n"
    assert migrate(source, "<0.7") == (
        "from jaxcompat.numpy import array\nx = array(v, float, copy=False)\n"
        "y = np.array(v, float, 0)\n"
    )


def test_migrate_passes_accuracy_by_keyword_where_every_release_reads_it_second():
    # lax.exp(x, accuracy): second positional on 0.6.0-0.9.1, keyword-only from 0.9.2;
    # releases before 0.6.0 take no second argument, so a range that holds them is left.
    source = "from jax import lax\ny = lax.exp(x, acc)\n"
    assert (
        migrate(source, ">=0.6.0,<0.9.2")
        == "from jaxcompat import lax\ny = lax.exp(x, accuracy=acc)\n"
    )
    assert migrate(source, ">=0.5.3,<0.9.2") == "from jaxcompat import lax\ny = lax.exp(x, acc)\n"
