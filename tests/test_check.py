"""jaxcompat check: import resolution, gates and findings, against a fixed fixture surface.

Rows of the fixture (tests/_check_data.py): 0.4.13 0.4.25 0.4.30 0.5.3 0.7.0 0.10.0 0.12.0.
Every expected finding is asserted with its line, column, code and releases.
"""

import textwrap

import pytest

from jaxcompat._checker._checked import check_source
from jaxcompat._checker._ranges import row_list, spec_mask

from ._check_data import fixture_data  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("fixture_data")


def check(source, spec=">=0"):
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [f"{f.line}:{f.col}: {f.code} {f.message}" for f in found]


def releases(source, spec=">=0"):
    found = check_source(textwrap.dedent(source), spec_mask(spec, "test"))
    return [row_list(f.releases) for f in found]


# --- import forms and aliasing --------------------------------------------------------


def test_attribute_chain_on_import_jax():
    assert check("import jax\njax.tree.map(f, x)\n") == [
        "2:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`"
    ]
    assert releases("import jax\njax.tree.map(f, x)\n") == [["0.4.13"]]


def test_import_submodule_as_alias():
    source = """\
        import jax.numpy as jnp
        jnp.round_(x)
        jnp.sum(x)
    """
    assert check(source) == [
        "2:1: JC001 `jax.numpy.round_` emits a DeprecationWarning on 0.4.30, raises "
        "AttributeError (deprecated, then removed) on 0.5.3, does not exist on 0.7.0-0.12.0; "
        "no jaxcompat name replaces it; move off it or cap the range below 0.4.30"
    ]
    # From the range's oldest release on, no cap leaves a release: the advice is to move off it.
    assert check(source, ">=0.4.30") == [
        "2:1: JC001 `jax.numpy.round_` emits a DeprecationWarning on 0.4.30, raises "
        "AttributeError (deprecated, then removed) on 0.5.3, does not exist on 0.7.0-0.12.0; "
        "no jaxcompat name replaces it, and it is deprecated on the oldest release of the "
        "range; move off it"
    ]


def test_import_submodule_binds_the_package():
    assert check("import jax.tree\njax.tree.map(f, x)\n") == [
        "1:1: JC001 `jax.tree` does not exist on 0.4.13; raise the floor to jax>=0.4.25",
        "2:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
    ]


def test_from_import_names_and_modules():
    source = """\
        from jax import lax, tree_util as jtu, tree
        from jax.experimental.shard_map import shard_map
        from jax.extend import core
        tree.map(f, x)
        jtu.tree_map(f, x)
        core.Primitive("p")
    """
    assert check(source) == [
        "1:1: JC001 `jax.tree` does not exist on 0.4.13; raise the floor to jax>=0.4.25",
        "2:1: JC002 `jax.experimental.shard_map.shard_map` emits a DeprecationWarning on "
        "0.10.0-0.12.0; use `jaxcompat.shard_map`, which takes the newest signature "
        "(f, /, *, out_specs, in_specs, mesh)",
        "3:1: JC001 `jax.extend.core` does not exist on 0.4.13; raise the floor to jax>=0.4.25",
        "4:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
        "6:1: JC001 `jax.extend.core.Primitive` does not exist on 0.4.13-0.4.25; "
        "use `jaxcompat.extend.core.Primitive`",
    ]


def test_a_name_bound_by_from_import_is_reported_once_at_the_import():
    source = """\
        from jax.numpy import round_
        round_(x)
        y = round_
    """
    assert check(source) == [
        "1:1: JC001 `jax.numpy.round_` emits a DeprecationWarning on 0.4.30, raises "
        "AttributeError (deprecated, then removed) on 0.5.3, does not exist on "
        "0.7.0-0.12.0; no jaxcompat name replaces it; move off it or cap the range below "
        "0.4.30",
    ]


def test_imports_inside_functions_and_try_blocks():
    source = """\
        def f(x):
            import jax.numpy as jnp
            return jnp.round_(x)

        try:
            import jax
        except ImportError:
            jax = None

        def g(x):
            return jax.tree.map(f, x)
    """
    assert check(source) == [
        "3:12: JC001 `jax.numpy.round_` emits a DeprecationWarning on 0.4.30, raises "
        "AttributeError (deprecated, then removed) on 0.5.3, does not exist on "
        "0.7.0-0.12.0; no jaxcompat name replaces it; move off it or cap the range below "
        "0.4.30",
        "11:12: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
    ]


def test_functions_see_module_imports_made_after_them():
    source = """\
        def g(x):
            return jnp.round_(x)

        import jax.numpy as jnp
    """
    assert check(source) == [
        "2:12: JC001 `jax.numpy.round_` emits a DeprecationWarning on 0.4.30, raises "
        "AttributeError (deprecated, then removed) on 0.5.3, does not exist on "
        "0.7.0-0.12.0; no jaxcompat name replaces it; move off it or cap the range below "
        "0.4.30",
    ]


# --- shadowing and TYPE_CHECKING ---------------------------------------------------------


def test_a_parameter_named_jax_is_not_the_module():
    source = """\
        import jax

        def f(jax):
            return jax.tree.map(g, x)

        def h():
            jax = load_config()
            return jax.tree.map

        class C:
            jax = object()
            value = jax.tree
    """
    assert check(source) == []


def test_shadowing_is_per_scope():
    source = """\
        import jax

        def f(jax):
            return jax.tree

        def g():
            return jax.tree.map
    """
    assert check(source) == [
        "7:12: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
    ]


def test_other_modules_named_like_jax_names_are_not_jax():
    assert check("import numpy as jnp\njnp.round_(x)\nfrom mylib import jax\njax.tree\n") == []


def test_type_checking_blocks_and_postponed_annotations():
    source = """\
        from __future__ import annotations
        from typing import TYPE_CHECKING
        import jax

        if TYPE_CHECKING:
            from jax.extend.core import Primitive
            import jax.tree as jt

        def f(p: Primitive, t: jax.extend.core.Primitive) -> jt.map:
            x: jax.typeof = p
            return x
    """
    assert check(source) == []


def test_annotations_are_checked_when_evaluated():
    source = """\
        import jax

        def f(t: jax.extend.core.Primitive):
            return t
    """
    assert check(source) == [
        "3:10: JC001 `jax.extend.core.Primitive` does not exist on 0.4.13-0.4.25; use "
        "`jaxcompat.extend.core.Primitive`",
    ]


# --- findings ------------------------------------------------------------------------------


def test_clean_code_has_no_findings():
    source = """\
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x):
            return jnp.sum(jnp.clip(x, 0, 1)) + jax.tree_util.tree_map(g, x)
    """
    assert check(source) == []


def test_only_the_range_counts():
    assert check("import jax\njax.tree.map(f, x)\n", ">=0.4.25") == []
    assert check("import jax\njax.core.get_aval(x)\n", "<0.7") == []
    assert check("import jax\njax.core.get_aval(x)\n", ">=0.4.25,!=0.7.0,<0.12") == [
        "2:1: JC003 `jax.core.get_aval` raises AttributeError (deprecated, then removed) on "
        "0.10.0; use `jaxcompat.typeof`"
    ]


def test_removed_and_deprecated_keywords():
    source = "import jax.numpy as jnp\njnp.clip(x, a_min=0)\njnp.reshape(x, newshape=(3,))\n"
    assert check(source) == [
        "2:13: JC010 `jax.numpy.clip` does not accept the keyword `a_min` on 0.10.0-0.12.0 "
        "(and passing it warns on 0.4.30-0.7.0); use `jaxcompat.numpy.clip`, which takes the "
        "newest signature (arr, /, min, max)",
        "3:16: JC010 `jax.numpy.reshape` does not accept the keyword `newshape` on "
        "0.7.0-0.12.0 (and passing it warns on 0.4.30-0.5.3); no jaxcompat name replaces it; "
        "the newest signature is (a, shape, order, *, copy)",
    ]
    assert releases(source) == [
        ["0.4.30", "0.5.3", "0.7.0", "0.10.0", "0.12.0"],
        ["0.4.30", "0.5.3", "0.7.0", "0.10.0", "0.12.0"],
    ]


def test_deprecated_keyword_only():
    source = "import jax.numpy as jnp\njnp.reshape(x, newshape=(3,))\n"
    assert check(source, "<0.7") == [
        "2:16: JC011 passing `newshape` to `jax.numpy.reshape` emits a DeprecationWarning on "
        "0.4.30-0.5.3; the newest signature is (a, shape, order, *, copy)"
    ]


def test_keyword_added_later():
    source = "import jax.numpy as jnp\njnp.clip(x, min=0)\n"
    assert check(source) == [
        "2:13: JC010 `jax.numpy.clip` does not accept the keyword `min` on 0.4.13-0.4.25; "
        "use `jaxcompat.numpy.clip`, which takes the newest signature (arr, /, min, max)",
    ]


def test_a_keyword_jaxcompat_takes_on_every_release():
    # jaxcompat.numpy.zeros takes out_sharding on every release: None before 0.7.0.
    source = (
        "import jax.numpy as jnp\nimport jaxcompat.numpy as cnp\n"
        "jnp.zeros(3, out_sharding=None)\njnp.zeros(3, out_sharding=s)\n"
        "cnp.zeros(3, out_sharding=None)\ncnp.zeros(3, out_sharding=s)\n"
    )
    assert check(source) == [
        "3:14: JC010 `jax.numpy.zeros` does not accept the keyword `out_sharding` on "
        "0.4.13-0.5.3; use `jaxcompat.numpy.zeros`, which takes `out_sharding=None` on every "
        "release",
        "4:14: JC010 `jax.numpy.zeros` does not accept the keyword `out_sharding` on "
        "0.4.13-0.5.3; raise the floor to jax>=0.7.0 (`jaxcompat.numpy.zeros` takes it on "
        "every release, but only `out_sharding=None` before 0.7.0)",
        "6:14: JC010 `jaxcompat.numpy.zeros` (JAX's `jax.numpy.zeros`) takes `out_sharding` on "
        "every release, but only `out_sharding=None` on 0.4.13-0.5.3 (JAX there cannot place "
        "this function's result under explicit sharding (sharding in types)); raise the floor "
        "to jax>=0.7.0, or pass None there",
    ]
    assert check(source, ">=0.7") == []


def test_keywords_go_to_kwargs():
    assert check("import jax\njax.grad(f, anything=1)\n") == []


def test_positional_calls():
    source = """\
        import jax
        jax.jit(f, (0,))
        jax.make_mesh((2,), ("x",), None)
        jax.make_mesh((2,), ("x",))
    """
    assert check(source) == [
        "2:1: JC020 `jax.jit` called with 2 positional arguments: takes at most 1 positional "
        "argument on 0.5.3-0.12.0; pass them by keyword",
        "3:1: JC001 `jax.make_mesh` does not exist on 0.4.13-0.4.25; "
        "raise the floor to jax>=0.4.30",
        "3:1: JC020 `jax.make_mesh` called with 3 positional arguments: argument 3 is "
        "`devices` on 0.4.30-0.5.3, `axis_types` on 0.7.0-0.12.0; pass them by keyword",
        "4:1: JC001 `jax.make_mesh` does not exist on 0.4.13-0.4.25; "
        "raise the floor to jax>=0.4.30",
    ]


def test_a_call_without_an_argument_some_rows_require():
    source = """\
        import jax
        from jax.tree_util import register_dataclass
        jax.tree_util.register_dataclass(C)
        jax.tree_util.register_dataclass(C, data_fields=[], meta_fields=[])
        jax.tree_util.register_dataclass(C, [], [])
        jax.tree_util.register_dataclass(C, [])
        jax.tree_util.register_dataclass(*args)
        jax.tree_util.register_dataclass(C, **fields)
        jax.jit(static_argnums=0)

        @register_dataclass
        class D:
            pass
    """
    jc021 = [finding for finding in check(source, ">=0.4.30") if " JC021 " in finding]
    assert jc021 == [
        "3:1: JC021 `jax.tree_util.register_dataclass` called without `data_fields` and "
        "`meta_fields`, which JAX requires on 0.4.30-0.5.3; pass them",
        "6:1: JC021 `jax.tree_util.register_dataclass` called without `meta_fields`, which "
        "JAX requires on 0.4.30-0.5.3; pass it",
        # This data's newest jax.jit requires `fun` too: no jaxcompat name is offered.
        "9:1: JC021 `jax.jit` called without `fun`, which JAX requires on 0.4.30-0.12.0; pass it",
        "11:2: JC021 `jax.tree_util.register_dataclass` called without `data_fields` and "
        "`meta_fields`, which JAX requires on 0.4.30-0.5.3; pass them",
    ]


def test_a_call_failing_for_a_keyword_is_not_also_missing_the_old_name():
    # reshape(x, shape=...) on the rows whose reshape wants `newshape`: the keyword is the
    # cause (JC010), not a second finding for the parameter it renamed.
    found = check("import jax\njax.numpy.reshape(x, shape=(2,))\n")
    assert [finding.split(" ")[1] for finding in found] == ["JC010"]


def test_star_arguments_are_not_counted():
    assert check("import jax\njax.jit(*args)\njax.jit(f, **options)\n") == []


def test_ignore_comment():
    source = """\
        import jax
        jax.tree.map(f, x)  # jaxcompat: ignore[JC001]
        jax.tree.map(f, x)  # jaxcompat: ignore[JC002]
        jax.tree.map(f, x)  # jaxcompat: ignore
    """
    assert check(source) == [
        "3:1: JC001 `jax.tree.map` does not exist on 0.4.13; use `jaxcompat.tree.map`",
    ]


def test_ignore_comment_after_a_form_feed():
    # A form feed does not end a line for Python, so the comment is on the finding's line.
    source = "import jax\n\x0cx = 1\njax.tree.map(f, x)  # jaxcompat: ignore[JC001]\n"
    assert check(source) == []


# --- uses through jaxcompat ---------------------------------------------------------------


def test_jaxcompat_names():
    source = """\
        import jaxcompat as jax
        import jaxcompat.numpy as jnp
        from jaxcompat import tree

        jax.tree.map(f, x)
        tree.map(f, x)
        jax.typeof(x)
        jax.jit(f)
        jax.lower(f, 1)
        jax.lax.while_loop(c, b, x)
        jnp.clip(x, min=0)
        jnp.clip(x, a_min=0)
        jax.set_mesh(mesh)
        jax.ffi
        jnp.round_(x)
    """
    assert check(source) == [
        "12:13: JC010 `jaxcompat.numpy.clip` does not accept the keyword `a_min` on every "
        "release; it takes the newest JAX signature (arr, /, min, max)",
        "13:1: JC040 `jaxcompat.set_mesh` raises AttributeError on 0.4.13-0.4.30: JAX has it "
        "from 0.5.3 (no mesh context before it); raise the floor to jax>=0.5.3",
        "14:1: JC001 `jaxcompat.ffi` (JAX's `jax.ffi`) does not exist on 0.4.13-0.4.30; "
        "raise the floor to jax>=0.5.3",
        "15:1: JC001 `jaxcompat.numpy.round_` (JAX's `jax.numpy.round_`) emits a "
        "DeprecationWarning on 0.4.30, raises AttributeError (deprecated, then removed) on "
        "0.5.3, does not exist on 0.7.0-0.12.0; no jaxcompat name replaces it; move off it or "
        "cap the range below 0.4.30",
    ]
    assert check(source, ">=0.5.3") == [
        "12:13: JC010 `jaxcompat.numpy.clip` does not accept the keyword `a_min` on every "
        "release; it takes the newest JAX signature (arr, /, min, max)",
        "15:1: JC001 `jaxcompat.numpy.round_` (JAX's `jax.numpy.round_`) raises "
        "AttributeError (deprecated, then removed) on 0.5.3, does not exist on "
        "0.7.0-0.12.0; no jaxcompat name replaces it, and it fails on the oldest release of "
        "the range; move off it",
    ]


# --- version gates -------------------------------------------------------------------------


def test_version_gate_that_one_stable_name_replaces():
    source = """\
        import jax
        if jax.__version_info__ >= (0, 5, 3):
            typeof = jax.typeof
        else:
            typeof = jax.core.get_aval
    """
    assert check(source) == [
        "2:1: JC030 this version gate can become `jaxcompat.typeof`: every branch is a "
        "location of it"
    ]


def test_gates_narrow_the_rows_of_their_branches():
    source = """\
        import jax
        from packaging.version import Version
        NEW = Version(jax.__version__) >= Version("0.5.3")
        if NEW:
            jax.typeof(x)
        if jax.__version__ >= "0.5":
            jax.tree.map(f, x)
        if jax.__version_info__ < (0, 4, 25):
            raise ImportError("too old")
        jax.tree.map(f, x)
    """
    # String comparison is what Python does: "0.10.0" < "0.5", so the branch misses 0.10+,
    # which the checker reports; the rest is gated correctly, and each gate is still needed
    # or replaceable (the one with a misordered test is not classified: JC031 comes first).
    assert check(source) == [
        "4:1: JC030 this version gate can become `jaxcompat.typeof`: jaxcompat gives it on "
        "every release of the range (0.4.13-0.12.0), so the gate is not needed",
        "6:4: JC031 `jax.__version__ >= '0.5'` compares strings, not releases: it is wrong on "
        "0.10.0-0.12.0; compare `jax.__version_info__` (or `jaxcompat.JAX_VERSION`) with a "
        "tuple of ints",
        "8:1: JC034 this version gate is still needed: `jax.__version_info__ < (0, 4, 25)` is "
        "true on 0.4.13 and is false on 0.4.25-0.12.0; a floor of jax>=0.4.25 makes it dead",
    ]


def test_a_try_that_computes_is_error_handling_not_a_gate():
    # numpyro's shapes: the AttributeError comes from the user's object, whatever JAX has,
    # and the ImportError from another library.
    source = """\
        import jax
        import jax.numpy as jnp

        def is_prng_key(key):
            try:
                if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
                    return key.shape == ()
                return False
            except AttributeError:
                return False

        def variance(d):
            try:
                return jnp.diag(d.cov())
            except (AttributeError, ValueError):
                return d.var()

        def gammaincinv(a, y):
            try:
                from tensorflow_probability.substrates.jax import math as tfp_math
                return tfp_math.igammainv(jnp.array(a), jnp.array(y))
            except ImportError as error:
                raise ImportError("Please install tensorflow_probability") from error

        try:
            typeof = jax.typeof
        except AttributeError:
            typeof = None
    """
    assert check(source, ">=0.5.3") == [
        "25:1: JC033 this try/except import gate is dead on the declared range: reading "
        "`jax.typeof` works on every release of it (0.5.3-0.12.0), so its `except` branch "
        "never runs; keep only its first branch"
    ]


def test_joined_hasattr_tests_and_trys_that_import_then_compute_are_gates():
    # flax's and equinox's shapes.
    source = """\
        import jax
        if hasattr(jax, "typeof") and hasattr(jax, "tree"):
            typeof = jax.typeof
        try:
            from jax._src.literals import LiteralArray
            ARRAY_TYPES = (object, LiteralArray)
            CAN_USE = True
        except ImportError:
            CAN_USE = False
    """
    assert check(source, ">=0.5.3") == [
        "2:1: JC033 this hasattr gate is dead on the declared range: `hasattr(jax, 'typeof') "
        "and hasattr(jax, 'tree')` is true on every release of it (0.5.3-0.12.0), so its test "
        "always holds; keep only its first branch",
        "4:1: JC034 this try/except import gate is still needed: importing "
        "`jax._src.literals.LiteralArray` is not something jaxcompat's data can evaluate on "
        "each release (a private or unknown name, or a behaviour); keep it",
    ]


def test_a_gate_between_behaviours_of_names_jax_always_has_is_still_needed():
    # optax's shape: both branches work on every release; the gate picks a behaviour.
    source = """\
        import jax
        if jax.__version_info__ < (0, 5, 3):
            y = jax.grad(f)(x)
        else:
            y = jax.jit(jax.grad(f))(x)
    """
    assert check(source) == [
        "2:1: JC034 this version gate is still needed: `jax.__version_info__ < (0, 5, 3)` is "
        "true on 0.4.13-0.4.30 and is false on 0.5.3-0.12.0; a floor of jax>=0.5.3 makes it "
        "dead"
    ]


def test_the_installed_distributions_version_is_a_gate_too():
    source = """\
        import importlib.metadata
        from importlib.metadata import version
        from packaging.version import Version
        import jax
        JAX_NEW = Version(importlib.metadata.version("jax")) >= Version("0.5.3")
        if JAX_NEW:
            jax.typeof(x)
        if Version(version("jax")) < Version("0.4.25"):
            raise ImportError("needs JAX 0.4.25")
        if Version(version("jaxlib")) < Version("0.4.25"):  # jaxlib's: not JAX's on every row
            pass
    """
    assert check(source, ">=0.4.25") == [
        "6:1: JC030 this version gate can become `jaxcompat.typeof`: jaxcompat gives it on "
        "every release of the range (0.4.25-0.12.0), so the gate is not needed",
        "8:1: JC033 this version gate is dead on the declared range: `Version(version('jax')) < "
        "Version('0.4.25')` is false on every release of it (0.4.25-0.12.0), so its first "
        "branch never runs; remove it",
    ]


def test_a_helper_function_returning_a_version_or_a_gate_is_read_where_it_is_called():
    source = """\
        import jax
        def jax_version():
            return tuple(int(part) for part in jax.__version__.split(".")[:3])
        def has_typeof():
            "Whether JAX has typeof."
            return hasattr(jax, "typeof")
        if jax_version() < (0, 4, 14):
            raise ImportError("needs JAX 0.4.14")
        if has_typeof():
            jax.typeof(x)
        def needs_argument(v):
            return jax.__version_info__ >= v
        if needs_argument((0, 5, 0)):  # not read: the helper takes an argument
            pass
    """
    assert check(source, ">=0.4.25") == [
        "7:1: JC033 this version gate is dead on the declared range: `jax_version() < "
        "(0, 4, 14)` is false on every release of it (0.4.25-0.12.0), so its first branch "
        "never runs; remove it",
        "9:1: JC030 this version gate can become `jaxcompat.typeof`: jaxcompat gives it on "
        "every release of the range (0.4.25-0.12.0), so the gate is not needed",
    ]


def test_string_version_comparison_is_evaluated_as_python_does():
    source = """\
        import jax
        if jax.__version__ < "0.5":
            jax.core.get_aval(x)
    """
    assert releases(source) == [["0.10.0", "0.12.0"], ["0.10.0", "0.12.0"]]
    assert [line.split(" ")[1] for line in check(source)] == ["JC031", "JC001"]


def test_hasattr_gate():
    source = """\
        import jax
        if hasattr(jax, "typeof"):
            aval = jax.typeof(x)
        else:
            aval = jax.core.get_aval(x)
        mapped = jax.tree.map if hasattr(jax, "tree") else jax.tree_util.tree_map
    """
    assert check(source) == [
        "2:1: JC030 this hasattr gate can become `jaxcompat.typeof`: every branch is a "
        "location of it",
        "6:10: JC030 this hasattr gate can become `jaxcompat.tree.map`: every branch is a "
        "location of it",
    ]


def test_try_import_gate():
    source = """\
        try:
            from jax.extend.core import Primitive
        except ImportError:
            from jax.core import Primitive
    """
    assert check(source) == [
        "1:1: JC030 this try/except import gate can become `jaxcompat.extend.core.Primitive`: "
        "every branch is a location of it"
    ]


def test_a_gate_is_replaceable_when_jaxcompat_gives_one_branch_everywhere():
    source = """\
        import jax
        if jax.__version_info__ >= (0, 5, 3):
            f = jax.typeof
        else:
            f = jax.tree_util.tree_map
        try:
            from jax.extend.core import Primitive
        except ImportError:
            Primitive = None
    """
    # Each branch uses another name, and the fallbacks are no locations of the first; but
    # jaxcompat gives the first branch's name on every release, which makes the gate moot.
    assert check(source) == [
        "2:1: JC030 this version gate can become `jaxcompat.typeof`: jaxcompat gives it on "
        "every release of the range (0.4.13-0.12.0), so the gate is not needed",
        "6:1: JC030 this try/except import gate can become `jaxcompat.extend.core.Primitive`: "
        "jaxcompat gives it on every release of the range (0.4.13-0.12.0), so the gate is not "
        "needed",
    ]


def test_string_comparison_of_the_version_is_reported_where_it_is_wrong():
    source = """\
        import jax
        def f(x):
            if jax.__version__ < '0.7.0':
                return jax.core.get_aval(x)
            return jax.typeof(x)
    """
    # "0.10.0" < "0.7.0" and "0.12.0" < "0.7.0" as strings: the old branch runs there.
    assert check(source) == [
        "3:8: JC031 `jax.__version__ < '0.7.0'` compares strings, not releases: it is wrong "
        "on 0.10.0-0.12.0; compare `jax.__version_info__` (or `jaxcompat.JAX_VERSION`) with "
        "a tuple of ints",
        "4:16: JC001 `jax.core.get_aval` raises AttributeError (deprecated, then removed) on "
        "0.10.0, does not exist on 0.12.0; use `jaxcompat.typeof`",
    ]
    assert check(source, "<0.10") == []


def test_string_comparison_of_the_version_is_reported_wherever_it_stands():
    # Not only as a gate's test: an assert, a loop's test and a call's argument order
    # releases as wrongly ("0.10.0" >= "0.8.1" is false). Each is reported once.
    source = """\
        import jax
        assert jax.__version__ >= '0.8.1', 'needs jax 0.8.1'
        while jax.__version__ < '0.7.0':
            break
        print(jax.__version__ < '0.7.0')
        if jax.__version__ < '0.7.0' and print():
            pass
    """
    wrong = "0.10.0-0.12.0; compare `jax.__version_info__` (or `jaxcompat.JAX_VERSION`) with"
    assert check(source) == [
        f"2:8: JC031 `jax.__version__ >= '0.8.1'` compares strings, not releases: it is wrong "
        f"on {wrong} a tuple of ints",
        f"3:7: JC031 `jax.__version__ < '0.7.0'` compares strings, not releases: it is wrong "
        f"on {wrong} a tuple of ints",
        f"5:7: JC031 `jax.__version__ < '0.7.0'` compares strings, not releases: it is wrong "
        f"on {wrong} a tuple of ints",
        f"6:4: JC031 `jax.__version__ < '0.7.0'` compares strings, not releases: it is wrong "
        f"on {wrong} a tuple of ints",
    ]
    assert check(source, "<0.10") == []


def test_blocks_that_skip_end_like_raise():
    source = """\
        import jax
        import pytest

        def test_new_api(self):
            if jax.__version_info__ < (0, 5, 3):
                self.skipTest("needs jax.typeof")
            jax.typeof(1)

        def test_new_api_pytest():
            if not hasattr(jax, "typeof"):
                pytest.skip("needs jax.typeof")
            jax.typeof(1)
    """
    # No JC001 for jax.typeof after either skip; the gates themselves are still needed.
    assert check(source) == [
        "5:5: JC034 this version gate is still needed: `jax.__version_info__ < (0, 5, 3)` is "
        "true on 0.4.13-0.4.30 and is false on 0.5.3-0.12.0; a floor of jax>=0.5.3 makes it "
        "dead",
        "10:5: JC030 this hasattr gate can become `jaxcompat.typeof`: jaxcompat gives it on "
        "every release of the range (0.4.13-0.12.0), so the gate is not needed",
    ]
    assert check(source, ">=0.5.3") == [
        "5:5: JC033 this version gate is dead on the declared range: `jax.__version_info__ < "
        "(0, 5, 3)` is false on every release of it (0.5.3-0.12.0), so its first branch never "
        "runs; remove it",
        "10:5: JC033 this hasattr gate is dead on the declared range: `not hasattr(jax, "
        "'typeof')` is false on every release of it (0.5.3-0.12.0), so its first branch never "
        "runs; remove it",
    ]


def test_submodules_the_data_does_not_record_are_not_judged():
    source = """\
        import jax
        import jax.experimental.multihost_utils
        from jax.experimental.multihost_utils import sync_global_devices
        jax.experimental.multihost_utils.sync_global_devices("x")
    """
    assert check(source) == []


def test_every_gate_is_dead_or_still_needed_on_the_declared_range():
    source = """\
        import jax
        if jax.__version_info__ >= (0, 4, 25):
            f = jax.typeof
        else:
            f = jax.tree_util.tree_map
        if hasattr(jax, "tree"):
            g = jax.tree.map
        try:
            from jax.extend.core import Primitive
        except ImportError:
            Primitive = None
        try:
            from jax._src.core import get_aval
        except ImportError:
            get_aval = None
        if jax.__version_info__ >= (0, 7):
            h = 1
        elif jax.__version_info__ >= (0, 5):
            h = 2
        else:
            h = 3
        try:
            import jax.numpy as jnp
        except ImportError:
            jnp = None
    """
    assert check(source, ">=0.5.3") == [
        "2:1: JC033 this version gate is dead on the declared range: `jax.__version_info__ >= "
        "(0, 4, 25)` is true on every release of it (0.5.3-0.12.0), so its `else` branch never "
        "runs; keep only its first branch",
        "6:1: JC033 this hasattr gate is dead on the declared range: `hasattr(jax, 'tree')` is "
        "true on every release of it (0.5.3-0.12.0), so its test always holds; keep only its "
        "first branch",
        "8:1: JC033 this try/except import gate is dead on the declared range: importing "
        "`jax.extend.core.Primitive` works on every release of it (0.5.3-0.12.0), so its "
        "`except` branch never runs; keep only its first branch",
        "12:1: JC034 this try/except import gate is still needed: importing "
        "`jax._src.core.get_aval` is not something jaxcompat's data can evaluate on each "
        "release (a private or unknown name, or a behaviour); keep it",
        "16:1: JC034 this version gate is still needed: `jax.__version_info__ >= (0, 7)` is "
        "true on 0.7.0-0.12.0 and is false on 0.5.3; a floor of jax>=0.7.0 makes it dead",
        # An `elif` is judged on the releases where the tests before it fail.
        "18:1: JC033 this `elif` version gate is dead on the declared range: "
        "`jax.__version_info__ >= (0, 5)` is true on every release of the range that reaches "
        "it (0.5.3), so its `else` branch never runs; keep only its first branch",
    ]
    # The same gates on a range where the newest branch never runs (and where jax.typeof,
    # behind a gate that opens at 0.4.25, does not exist yet).
    older = check(source, "<0.5")
    assert [line.split(" ")[:2] for line in older] == [
        ["2:1:", "JC030"],
        ["3:9:", "JC001"],
        ["6:1:", "JC030"],
        ["8:1:", "JC030"],
        ["12:1:", "JC034"],
        ["16:1:", "JC033"],
        ["18:1:", "JC033"],
    ]
    assert older[-2].endswith(
        "is false on every release of it (0.4.13-0.4.30), so its first branch never runs; "
        "keep only its `else` branch"
    )


def test_hasattr_on_jaxcompat_gates_its_branches():
    source = """\
        import jaxcompat as jax
        if hasattr(jax, "set_mesh"):
            jax.set_mesh(mesh)
        if hasattr(jax, "ffi"):
            jax.ffi
        jax.set_mesh(mesh)
    """
    assert check(source) == [
        "2:1: JC034 this hasattr gate is still needed: `hasattr(jax, 'set_mesh')` is true on "
        "0.5.3-0.12.0 and is false on 0.4.13-0.4.30; a floor of jax>=0.5.3 makes it dead",
        "4:1: JC034 this hasattr gate is still needed: `hasattr(jax, 'ffi')` is true on "
        "0.5.3-0.12.0 and is false on 0.4.13-0.4.30; a floor of jax>=0.5.3 makes it dead",
        "6:1: JC040 `jaxcompat.set_mesh` raises AttributeError on 0.4.13-0.4.30: JAX has "
        "it from 0.5.3 (no mesh context before it); raise the floor to jax>=0.5.3",
    ]


def test_the_version_through_the_jaxcompat_alias_is_jaxcompats():
    source = """\
        import jaxcompat as jax
        if jax.__version__ >= "0.5":
            pass
        if jax.JAX_VERSION >= (0, 5, 3):
            jax.set_mesh(mesh)
    """
    assert check(source) == [
        "2:4: JC032 `jaxcompat.__version__` is jaxcompat's own version, not JAX's (the trap "
        "of `import jaxcompat as jax`); use `jaxcompat.JAX_VERSION` (an int tuple) or "
        "`jaxcompat.JAX_VERSION_STRING`",
        "4:1: JC034 this version gate is still needed: `jax.JAX_VERSION >= (0, 5, 3)` is true "
        "on 0.5.3-0.12.0 and is false on 0.4.13-0.4.30; a floor of jax>=0.5.3 makes it dead",
    ]
