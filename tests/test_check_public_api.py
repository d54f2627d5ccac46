"""`check` knows every public module of JAX and its names on every row, from the recorded
module surface (not the fixture of test_check_modules.py): a name that came later than the
floor, or went away, is JC001 with the releases it fails on."""

import textwrap

from jaxcompat._checker._checked import check_source
from jaxcompat._checker._ranges import spec_mask
from jaxcompat._surface import rows


def check(source, spec=">=0.4.13"):
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [f"{f.line}:{f.col}: {f.code} {f.message}" for f in found]


def between(first, last):
    """The releases from `first` to the one before `last`, as a finding names them."""
    names = rows()
    return f"{first}-{names[names.index(last) - 1]}"


def test_a_name_of_jax_lax_linalg_that_jaxcompat_cannot_give_holds_the_floor():
    # jax.lax.linalg.ormqr is first in JAX 0.10.0; jaxcompat mirrors jax.lax.linalg (for its
    # tridiagonal_solve) but gives no ormqr before it.
    source = """\
        import jax
        from jax.lax.linalg import ormqr
        def f(a, taus, c):
            return jax.lax.linalg.ormqr(a, taus, c)
    """
    expected = (
        f"JC001 `jax.lax.linalg.ormqr` does not exist on {between('0.4.13', '0.10.0')}; raise "
        "the floor to jax>=0.10.0"
    )
    assert check(source) == [f"2:1: {expected}", f"4:12: {expected}"]
    assert check(source, ">=0.10.0") == []


def test_a_submodule_later_than_its_package_names_the_floor():
    # jax.experimental.pallas is first in 0.4.18, its triton submodule in 0.4.35.
    assert check("from jax.experimental.pallas import triton\n") == [
        f"1:1: JC001 module `jax.experimental.pallas.triton` cannot be imported on "
        f"{between('0.4.13', '0.4.35')}; raise the floor to jax>=0.4.35"
    ]


def test_a_name_later_than_its_module():
    # jax.extend.backend is first in 0.4.26, its get_backend in 0.4.33 (0.4.32 is no row).
    source = """\
        import jax.extend.backend
        backend = jax.extend.backend.get_backend()
    """
    assert check(source) == [
        f"1:1: JC001 module `jax.extend.backend` cannot be imported on "
        f"{between('0.4.13', '0.4.26')}; raise the floor to jax>=0.4.26",
        f"2:11: JC001 `jax.extend.backend.get_backend` fails on {between('0.4.13', '0.4.33')}; "
        "raise the floor to jax>=0.4.33",
    ]


def test_an_attribute_of_a_name_reads_the_name():
    # xla_bridge.get_backend warns from 0.4.33 to 0.7.2 and is gone with the module in 0.8.0.
    source = """\
        from jax.lib import xla_bridge
        xla_bridge.get_backend.cache_clear()
    """
    found = check(source, ">=0.4.30")
    assert found[1] == (
        f"2:1: JC001 `jax.lib.xla_bridge.get_backend` fails on 0.8.0-{rows()[-1]}, emits a "
        "DeprecationWarning on 0.4.33-0.7.2; use `jax.extend.backend.get_backend`"
    )


def test_a_method_of_a_public_object_names_its_own_first_release():
    # jax.tree_util.default_registry is public from 0.4.25, its flatten_one_level from 0.4.26
    # (jax_dataclasses 1.6.3 declares jax>=0.4.25 and calls it), its flatten_with_path from
    # 0.4.36. One finding a read: the method's, which speaks for the object where it is absent.
    source = """\
        import jax
        from jax.tree_util import default_registry
        def f(x):
            return default_registry.flatten_one_level(x), default_registry.flatten(x)
        def g(x):
            return jax.tree_util.default_registry.flatten_with_path(x)
    """
    assert check(source, ">=0.4.25") == [
        "4:12: JC001 `jax.tree_util.default_registry.flatten_one_level` fails on 0.4.25; "
        "raise the floor to jax>=0.4.26",
        f"6:12: JC001 `jax.tree_util.default_registry.flatten_with_path` fails on "
        f"{between('0.4.25', '0.4.36')}; raise the floor to jax>=0.4.36",
    ]
    assert check(source, ">=0.4.36") == []


def test_a_method_read_through_jaxcompats_name_for_the_object():
    # jaxcompat.tree_util.default_registry is JAX's registry: public from 0.4.25, its private
    # one from 0.4.18, whose names are not recorded. Where it is public, its methods are
    # judged as JAX's; flatten is there on every row that has the object.
    source = """\
        from jaxcompat.tree_util import default_registry
        def f(x):
            return default_registry.flatten_one_level(x), default_registry.flatten(x)
    """
    assert check(source, ">=0.4.18") == [
        "3:12: JC001 `jax.tree_util.default_registry.flatten_one_level` fails on 0.4.25; "
        "raise the floor to jax>=0.4.26",
    ]
    assert check(source, ">=0.4.26") == []


def test_a_name_read_through_jaxcompats_name_for_a_jax_module():
    # jaxcompat.extend.backend is JAX's module where JAX has it (0.4.26 on), and get_backend
    # is first in 0.4.33 there: read through jaxcompat's name, it fails on 0.4.26-0.4.31 (the
    # module's own finding names the rows before). jaxcompat.config, an adapter of JAX's
    # Config, is not judged by JAX's names.
    source = """\
        import jaxcompat
        from jaxcompat.extend import backend
        b = backend.get_backend()
        jaxcompat.config.update("jax_enable_x64", True)
    """
    assert check(source, ">=0.4.26") == [
        f"3:5: JC001 `jax.extend.backend.get_backend` fails on {between('0.4.26', '0.4.33')}; "
        "raise the floor to jax>=0.4.33",
    ]
    assert check(source, ">=0.4.33") == []
