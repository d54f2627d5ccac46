"""Backend tests: what each JAX range does natively, and which objects jaxcompat hands back.

Each is marked with the JAX releases it is about (``@pytest.mark.jax`` from jaxcompat's pytest
plugin), as are the few backend tests beside the contract tests they belong to (the classes'
keywords per release in ``test_keywords_classes.py``, the cycle screen where jaxlib 0.4.13
segfaults in ``test_no_crash.py``). They document the upstream behaviour each backend exists
for. The contract tests branch only on the data that says from which release a newest name or
keyword can be had, or on what the installed JAX has (docs/developer/adding-a-release.md).
"""

import functools
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
import jaxcompat.numpy as cnp
from jaxcompat import lax as clax
from jaxcompat._dispatch import backend
from tests._helpers import aligned_host_array


def _f(x):
    return x + 1


# --- jit objects ------------------------------------------------------------------------------


@pytest.mark.jax("<0.6.0")
def test_jitted_wrapper_where_jax_jit_leaks_its_aot_methods():
    # JAX < 0.6.0 keeps lower/trace/eval_shape in the instance __dict__, so wraps copies them.
    @functools.wraps(jax.jit(_f))
    def wrapper(x):
        return _f(x) * 10

    assert hasattr(wrapper, "lower")


@pytest.mark.jax(">=0.6.0")
def test_jax_wrapper_has_no_lower_from_060():
    @functools.wraps(jax.jit(_f))
    def wrapper(x):
        return _f(x)

    assert not hasattr(wrapper, "lower")


@pytest.mark.jax(">=0.6.0")
def test_jit_of_a_function_is_jax_own_object_from_060():
    # JAX's jitted function already keeps lower/trace/eval_shape on its type: handed back,
    # whatever the options (a value jaxcompat translates too).
    jitted = jaxcompat.jit(_f)
    assert type(jitted) is type(jax.jit(_f))
    assert jitted.__wrapped__ is _f
    for options in ({"static_argnums": 1}, {"inline": True}, {"donate_argnums": 0}):
        other = jaxcompat.jit(lambda x, n=1: x * n, **options)
        assert type(other) is type(jax.jit(_f)), options


@pytest.mark.jax(">=0.4.18,<0.6.0")
def test_jit_of_a_function_is_the_wrapper_that_keeps_lower_on_its_type_before_060():
    from jaxcompat._primitives.jit_object import Jitted, ScreenedJitted

    jitted = jaxcompat.jit(_f)
    assert isinstance(jitted, Jitted)
    assert type(jitted.func) is type(jax.jit(_f))
    assert jitted.func.__wrapped__ is _f
    assert "lower" not in vars(jitted)
    assert not isinstance(jitted, ScreenedJitted)  # no screen where jaxlib's flatten raises


@pytest.mark.jax("<0.4.18")
def test_jit_screens_arguments_where_jaxlib_flatten_segfaults():
    from jaxcompat._primitives.jit_object import ScreenedJitted

    assert isinstance(jaxcompat.jit(_f), ScreenedJitted)


# --- options ----------------------------------------------------------------------------------


@pytest.mark.jax(">=0.4.18")
def test_donate_argnames_donates():
    x, y = jnp.ones(3) + 0, jnp.ones(3) + 0
    f = jaxcompat.jit(lambda a, b: a + b, donate_argnames="b")
    f(x, b=y)
    assert y.is_deleted()
    assert not x.is_deleted()


@pytest.mark.jax("<0.4.18")
def test_donate_argnames_names_its_first_release():
    with pytest.raises(TypeError, match=r"'donate_argnames' needs JAX 0\.4\.18 or newer.*0\.4\.13"):
        jaxcompat.jit(lambda a, b: a + b, donate_argnames="b")
    jaxcompat.jit(lambda a: a, donate_argnames=None)  # the default asks for nothing


@pytest.mark.jax(">=0.4.36")
def test_compiler_options_pass_through():
    f = jaxcompat.jit(lambda x: x * 2, compiler_options={"xla_cpu_enable_fast_math": False})
    assert float(f(2.0)) == 4.0
    with pytest.raises(Exception, match="no_such_option"):
        jaxcompat.jit(lambda x: x, compiler_options={"no_such_option": True})(1.0)


@pytest.mark.jax("<0.4.36")
def test_compiler_options_name_their_first_release_and_the_workaround():
    with pytest.raises(TypeError, match=r"'compiler_options' needs JAX 0\.4\.36") as info:
        jaxcompat.jit(lambda x: x, compiler_options={"xla_cpu_enable_fast_math": False})
    assert "lower(f, *args).compile(compiler_options)" in str(info.value)


def _nested_calls(fun):
    jaxpr = jax.make_jaxpr(lambda x: fun(x))(1.0)
    return [e for e in jaxpr.jaxpr.eqns if e.primitive.name in ("pjit", "jit")]


@pytest.mark.jax(">=0.11.2")
def test_inline_follows_the_newest_jax_which_inlines_late():
    # inline=True is jax.Inline.JAX_LATE here: the nested call stays in the jaxpr, inlined
    # when lowering. jaxcompat passes it through (README: equinox#988).
    def body(x):
        return x + 1

    jitted = jaxcompat.jit(body, inline=True)
    assert type(jitted) is type(jax.jit(body))
    assert len(_nested_calls(jitted)) == 1
    assert len(_nested_calls(jax.jit(body, inline=True))) == 1
    assert _nested_calls(jaxcompat.jit(body, inline=jax.Inline.JAX_EARLY)) == []
    assert float(jaxcompat.jit(lambda x: jitted(x))(1.0)) == 2.0


@pytest.mark.jax("<0.11.2")
def test_inline_inlines_while_tracing_where_jax_does():
    def body(x):
        return x + 1

    assert _nested_calls(jaxcompat.jit(body, inline=True)) == []
    assert _nested_calls(jax.jit(body, inline=True)) == []


# --- AOT --------------------------------------------------------------------------------------


@pytest.mark.jax("<0.5.0")
def test_jax_cost_analysis_was_a_list():
    assert isinstance(jax.jit(_f).lower(1.0).compile().cost_analysis(), list)
    assert isinstance(jaxcompat.lower(jax.jit(_f), 1.0).compile().cost_analysis(), dict)


@pytest.mark.jax("<0.4.29")
def test_trace_is_backported_where_jit_has_none():
    assert not hasattr(jax.jit(_f), "trace")
    traced = jaxcompat.trace(jax.jit(_f), 1.0)
    assert traced.out_info.shape == ()


# --- tracer hashing and control flow ------------------------------------------------------------


def _hash_tracer_with_plain_hash():
    caught = []

    def body(x):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                hash(x)
            except TypeError as error:
                caught.append(error)
            caught.extend(w.category for w in seen)
        return x

    jax.jit(body)(1.0)
    return caught


@pytest.mark.jax("<0.4.30")
def test_plain_hash_of_a_tracer_is_silent_and_lax_is_jax_own():
    assert _hash_tracer_with_plain_hash() == []
    assert clax.while_loop is jax.lax.while_loop
    assert clax.cond is jax.lax.cond


@pytest.mark.jax(">=0.4.30,<0.4.36")
@pytest.mark.tracer_hash
def test_plain_hash_of_a_tracer_still_behaves_as_jax_makes_it():
    # jaxcompat's switch in Tracer.__hash__ only acts inside tracer_safe_hash.
    from jax._src import deprecations

    outcome = _hash_tracer_with_plain_hash()
    if deprecations.is_accelerated("tracer-hash"):
        assert len(outcome) == 1 and isinstance(outcome[0], TypeError)
    else:
        assert outcome == [FutureWarning]
    assert clax.while_loop is not jax.lax.while_loop


@pytest.mark.jax(">=0.4.36")
def test_plain_hash_of_a_tracer_raises():
    outcome = _hash_tracer_with_plain_hash()
    assert len(outcome) == 1 and isinstance(outcome[0], TypeError)
    assert jax.core.Tracer.__hash__ is None  # jaxcompat leaves JAX's class alone here


@pytest.mark.jax(">=0.4.36")
def test_jax_lax_raises_for_a_cond_object_hashing_a_tracer():
    class Below:
        def __init__(self, bound):
            self.bound = bound

        def __call__(self, v):
            return v < self.bound

        def __hash__(self):
            return hash(self.bound)

    with pytest.raises(TypeError, match="unhashable"):
        jax.jit(lambda y: jax.lax.while_loop(Below(y), lambda v: v + 1.0, 0.0))(3.0)
    assert float(jax.jit(lambda y: clax.while_loop(Below(y), lambda v: v + 1.0, 0.0))(3.0)) == 3


# --- pytree structures ---------------------------------------------------------------------


@pytest.mark.jax("<0.4.34")
def test_flatten_up_to_takes_anything_where_a_none_was():
    # So tracer_safe_hash must not match a new pytree against a kept structure holding a None.
    # (Some of these releases deprecate it with a DeprecationWarning, but still accept it.)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert jax.tree_util.tree_structure([None, 1]).flatten_up_to([2, 1]) == [1]
    assert not backend.FLATTEN_UP_TO_CHECKS_NONE


@pytest.mark.jax(">=0.4.34")
def test_flatten_up_to_raises_where_a_none_faces_a_leaf():
    with pytest.raises(ValueError, match="Expected None"):
        jax.tree_util.tree_structure([None, 1]).flatten_up_to([2, 1])


def test_flatten_up_to_returns_whatever_sits_at_a_leaf_position():
    # Every release: the reason tracer_safe_hash checks the types of what it gets back.
    assert jax.tree_util.tree_structure([1, 2]).flatten_up_to([[3], 2]) == [[3], 2]


def test_selected_backend_matches_the_release(jax_version):
    floor = tuple(int(p) for p in jaxcompat.BACKEND.split("_")[1:])
    assert floor <= jax_version


# --- shard_map's replication check --------------------------------------------------------


def _shard_map_of_a_cond(check_vma):
    mesh = jax.sharding.Mesh(jax.devices()[:2], ("x",))
    spec = jax.sharding.PartitionSpec("x")

    def step(block):
        return jax.lax.cond(block.sum() > 0, lambda v: v + 1, lambda v: v - 1, block)

    mapped = jaxcompat.shard_map(
        step, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma
    )
    return jax.jit(mapped)(jnp.arange(4.0) - 1.5)


@pytest.mark.jax("<0.4.36")
def test_shard_map_names_check_vma_where_the_replication_check_has_no_rule():
    # JAX's own error tells to pass check_rep=False, which the newest shard_map does not take.
    with pytest.raises(NotImplementedError) as raised:
        _shard_map_of_a_cond(check_vma=True)
    assert str(raised.value) == (
        f"jaxcompat.shard_map(check_vma=True) cannot check cond on JAX "
        f"{jaxcompat.JAX_VERSION_STRING}: this release's replication check has no rule for it. "
        "Pass check_vma=False, or upgrade JAX."
    )


@pytest.mark.jax(">=0.4.36")
def test_shard_map_checks_a_cond_from_0436():
    assert _shard_map_of_a_cond(check_vma=True).tolist() == [-2.5, -1.5, 1.5, 2.5]


@pytest.mark.jax("<0.6.1")
def test_shard_map_with_no_mesh_set_says_how_to_set_one():
    # Before JAX 0.6.1 jaxcompat provides shard_map: with no mesh given and none set, its
    # error says how to set one (the newest JAX raises its own error there).
    P = jax.sharding.PartitionSpec
    mapped = jaxcompat.shard_map(lambda block: block, in_specs=P("x"), out_specs=P("x"))
    with pytest.raises(TypeError) as raised:
        mapped(jnp.arange(8.0))
    assert str(raised.value) == (
        "jaxcompat.shard_map was given no mesh and none is set: call it inside "
        "`with jaxcompat.set_mesh(mesh):`, or pass mesh=... (JAX "
        f"{jaxcompat.JAX_VERSION_STRING} has no mesh context of its own that shard_map reads)."
    )


@pytest.mark.jax("<0.4.18")
def test_static_arguments_skip_the_cycle_check_where_jax_hashes_them():
    # JAX 0.4.13 hashes a static argument and never flattens it: one nested past the
    # recursion limit runs under jax.jit, so jaxcompat's per-call depth check skips it too,
    # for a function and a method, by position and by name. (JAX 0.6.x flattens static
    # arguments and raises on this one itself.)
    deep: tuple = ()
    for _ in range(1_500):
        deep = (deep,)

    def add(x, config):
        return x + 1

    class Model:
        @functools.partial(jaxcompat.jit, static_argnames="config")
        def apply(self, x, config):
            return x + 1

    assert float(jax.jit(add, static_argnums=1)(1.0, deep)) == 2.0
    assert float(jaxcompat.jit(add, static_argnums=1)(1.0, deep)) == 2.0
    assert float(jaxcompat.jit(add, static_argnames="config")(1.0, config=deep)) == 2.0
    assert float(Model().apply(1.0, config=deep)) == 2.0
    assert float(Model().apply(1.0, deep)) == 2.0
    # A position counted from the end, as JAX accepts it.
    assert float(jax.jit(add, static_argnums=-1)(1.0, deep)) == 2.0
    assert float(jaxcompat.jit(add, static_argnums=-1)(1.0, deep)) == 2.0


@pytest.mark.jax("<0.4.18")
def test_a_static_self_is_skipped_and_the_other_arguments_still_screened():
    # The screen starts after the leading static arguments; what follows is still refused.
    class Model:
        @functools.partial(jaxcompat.jit, static_argnames=("self",))
        def apply(self, x):
            return x[0] + 1

    cyclic: list = [1.0]
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="refers back") as raised:
        Model().apply(cyclic)
    assert str(raised.value) == (
        "jaxcompat.jit: args[1][1] refers back to an enclosing list: a pytree that contains "
        f"itself cannot be staged on any JAX release (JAX {jaxcompat.JAX_VERSION_STRING} would "
        "crash or raise an internal error). Break the cycle before passing it."
    )
    assert float(Model().apply([1.0])) == 2.0


# --- config -----------------------------------------------------------------------------------


@pytest.mark.jax("<0.5.1")
def test_config_reads_and_sets_the_newest_num_cpu_devices_option():
    # 0.5.0 has the option as a flag that cannot be read; older releases have only the XLA
    # flag it replaced. Once the backend runs (it does in this process), a new value is
    # refused as the newest JAX refuses it; before 0.5.0 with that message.
    assert len(jax.devices()) == 8  # the backend runs, with the suite's forced devices
    assert jaxcompat.config.jax_num_cpu_devices == -1
    assert jaxcompat.config.jax_enable_x64 is jax.config.jax_enable_x64
    if jaxcompat.JAX_VERSION < (0, 5, 0):
        with pytest.raises(RuntimeError) as raised:
            jaxcompat.config.update("jax_num_cpu_devices", 3)
        assert str(raised.value) == (
            "jax_num_cpu_devices config should be updated before backends are initialized i.e. "
            "before any JAX operation is executed. You should initialize this config "
            f"immediately after `import jax` (JAX {jaxcompat.JAX_VERSION_STRING} reads it as "
            "the XLA flag --xla_force_host_platform_device_count when its CPU backend starts)."
        )
        with pytest.raises(TypeError, match=r"^Value '3' is not an int for option"):
            jaxcompat.config.update("jax_num_cpu_devices", "3")


@pytest.mark.jax(">=0.5.1")
def test_config_reads_jax_num_cpu_devices_from_jax():
    # JAX 0.5.1 made jax_num_cpu_devices a readable option: jaxcompat's config reads JAX's own
    # (whether jaxcompat.config is jax.config itself: test_config.py, on every row).
    assert jaxcompat.config.jax_num_cpu_devices == jax.config.jax_num_cpu_devices
    assert type(jax.config.jax_num_cpu_devices) is int


@pytest.mark.jax(">=0.4.27,<0.7.0")
def test_layout_format_is_the_release_s_own_class_with_its_own_names():
    # Before JAX 0.7.0 its Format (Layout before 0.6.2) takes and shows device_local_layout:
    # jaxcompat's Format is that class, so layout= (0.7.0) is JAX's own TypeError.
    from jax.experimental import layout

    release_format = getattr(layout, "Format", None) or layout.Layout
    Format = jaxcompat.experimental.layout.Format
    assert Format is release_format
    assert jaxcompat.experimental.layout.Layout is layout.DeviceLocalLayout
    sharding = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    auto = layout.DeviceLocalLayout.AUTO
    assert Format(device_local_layout=auto, sharding=sharding).device_local_layout is auto
    with pytest.raises(TypeError) as raised:
        Format(layout=auto, sharding=sharding)
    assert "layout" in str(raised.value)


@pytest.mark.jax(">=0.7.0")
def test_layout_format_is_jax_own_where_it_has_the_newest_names():
    from jax.experimental import layout

    assert jaxcompat.experimental.layout.Format is layout.Format
    assert jaxcompat.experimental.layout.Layout is layout.Layout


@pytest.mark.jax("<0.5.1")
def test_unmapped_aval_keeps_the_release_s_own_call():
    # Never stricter than the release: a library's gated code may still call the form with
    # axis_name, which JAX 0.5.1 dropped; and explicit_mesh_axis cannot be had here.
    unmapped_aval = jaxcompat.extend.core.unmapped_aval
    aval = jax.core.ShapedArray((3, 4), jnp.float32)
    assert unmapped_aval(5, 1, aval).shape == (3, 5, 4)  # the newest call
    assert unmapped_aval(5, "i", 1, aval).shape == (3, 5, 4)  # the release's own call
    assert unmapped_aval(5, None, 0, aval).shape == (5, 3, 4)
    assert unmapped_aval(5, 1, aval, axis_name="i").shape == (3, 5, 4)
    with pytest.raises(TypeError) as raised:
        unmapped_aval(5, 1, aval, "x")
    assert str(raised.value) == (
        "jaxcompat.extend.core.unmapped_aval(explicit_mesh_axis=...) needs a JAX release with "
        f"explicit sharding (0.7.0 or newer); JAX {jaxcompat.JAX_VERSION_STRING} has none. "
        "Leave it out, or upgrade JAX."
    )


@pytest.mark.jax("<0.4.35")
@pytest.mark.parametrize("method", ["expand_dims", "broadcast_all"])
def test_pure_callback_batches_new_axes_through_a_custom_vmap(method):
    # The release's pure_callback is not told which arguments are batched; a custom_vmap
    # around it is (its batching: tests/test_keywords_callbacks.py).
    result = jax.ShapeDtypeStruct((), jnp.float32)
    jaxpr = jax.make_jaxpr(
        lambda x: jaxcompat.pure_callback(jnp.sin, result, x, vmap_method=method)
    )(1.0)
    assert [equation.primitive.name for equation in jaxpr.jaxpr.eqns] == ["custom_vmap_call"]


@pytest.mark.jax("<0.4.35")
def test_shard_map_names_the_callback_it_cannot_check():
    # The replication check behind check_vma has no rule for custom_vmap; check_vma=False
    # runs the callback on each shard.
    from jaxcompat.sharding import NamedSharding, PartitionSpec

    mesh = jaxcompat.make_mesh((2,), ("x",))
    x = jax.device_put(jnp.arange(4.0), NamedSharding(mesh, PartitionSpec("x")))

    def sines(check_vma):
        def sine(a):
            result = jax.ShapeDtypeStruct(a.shape, a.dtype)
            return jaxcompat.pure_callback(np.sin, result, a, vmap_method="expand_dims")

        spec = PartitionSpec("x")
        mapped = jaxcompat.shard_map(
            sine, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=check_vma
        )
        return jax.jit(mapped)

    with pytest.raises(NotImplementedError, match="custom_vmap_call") as raised:
        sines(True)(x)
    assert str(raised.value) == (
        "jaxcompat.shard_map(check_vma=True) cannot check custom_vmap_call (jaxcompat."
        "pure_callback with vmap_method='expand_dims' or 'broadcast_all' binds it before JAX "
        f"0.4.35) on JAX {jaxcompat.JAX_VERSION_STRING}: this release's replication check has "
        "no rule for it. Pass check_vma=False, or upgrade JAX."
    )
    if jaxcompat.JAXLIB_VERSION == (0, 4, 13):
        # jaxlib 0.4.13 aborts (std::bad_alloc in its host-callback thread) in about two of
        # five processes that run any pure_callback under shard_map on two CPU devices, raw
        # jax.pure_callback with raw shard_map included (10 of 25; none on 0.4.18-0.4.34):
        # the program is compiled, not run.
        sines(False).lower(x).compile()
        return
    np.testing.assert_allclose(sines(False)(x), np.sin(np.arange(4.0, dtype=np.float32)))


@pytest.mark.jax(">=0.5.1")
def test_pure_callback_is_jax_own_where_it_takes_vmap_method():
    assert jaxcompat.pure_callback is jax.pure_callback


@pytest.mark.jax(">=0.4.35")
def test_pure_callback_expands_unbatched_arguments_where_the_release_can():
    shapes = []

    def callback(x, y):
        shapes.append((x.shape, y.shape))
        return x * y

    def times(x, y):
        result = jax.ShapeDtypeStruct((), jnp.float32)
        return jaxcompat.pure_callback(callback, result, x, y, vmap_method="expand_dims")

    out = jax.vmap(times, in_axes=(0, None))(jnp.arange(3.0), jnp.float32(2.0))
    assert out.tolist() == [0.0, 2.0, 4.0]
    assert shapes == [((3,), (1,))]


@pytest.mark.jax("<0.4.24")
def test_unique_says_the_release_counts_every_nan_as_one():
    with pytest.raises(TypeError) as raised:
        jaxcompat.numpy.unique(jnp.asarray([1.0, jnp.nan, jnp.nan]), equal_nan=False)
    assert str(raised.value) == (
        "jaxcompat.numpy.unique(equal_nan=...) needs JAX 0.4.24 or newer: JAX "
        f"{jaxcompat.JAX_VERSION_STRING} counts all NaNs as one value (its jax.numpy.unique "
        "has no equal_nan parameter). Pass equal_nan=True, the default, or leave it out; or "
        "upgrade JAX."
    )


@pytest.mark.jax("<0.5.3")
def test_allow_negative_indices_names_a_length_that_does_not_fit():
    # The newest JAX raises a ValueError too, from its internal zip.
    with pytest.raises(ValueError, match=r"^allow_negative_indices has 1 entries") as raised:
        jaxcompat.lax.dynamic_slice(
            jnp.zeros((4, 6)), (1, 2), (2, 3), allow_negative_indices=(True,)
        )
    assert str(raised.value) == (
        "allow_negative_indices has 1 entries, but the operand has 2 dimensions: give one "
        "bool per dimension, or one for all"
    )


# --- from_dlpack(copy=True) -------------------------------------------------------------------


@pytest.mark.jax(">=0.8.1")
def test_jax_from_dlpack_copy_true_shares_an_aligned_host_buffer_from_081():
    # JAX's own copy=True is not a copy here (measured on 0.8.1-0.12.0.1; 0.4.27-0.8.0 copy),
    # as on the newest JAX, and its copy=False refuses an unaligned buffer as the newest's
    # does: jaxcompat's from_dlpack is JAX's own (the copy rule's fixed_again_in).
    source = aligned_host_array(16)
    unpacked = jnp.from_dlpack(source, copy=True)
    source[0] = 7.0
    assert float(unpacked[0]) == 7.0
    assert cnp.from_dlpack is jnp.from_dlpack


@pytest.mark.jax("<0.8.1")
def test_from_dlpack_copy_true_copies_before_081():
    # JAX's own from 0.4.27 to 0.4.34, jaxcompat's helper otherwise: a copy either way.
    source = aligned_host_array(16)
    copied = cnp.from_dlpack(source, copy=True)
    source[0] = 7.0
    assert float(copied[0]) == 0.0


@pytest.mark.jax(">=0.4.27,<0.8.1")
def test_jax_from_dlpack_copy_true_copies_before_081():
    source = aligned_host_array(16)
    unpacked = jnp.from_dlpack(source, copy=True)
    source[0] = 7.0
    assert float(unpacked[0]) == 0.0


@pytest.mark.jax(">=0.4.35,<0.8.1")
def test_jax_from_dlpack_copy_false_copies_an_unaligned_buffer_from_0435():
    # The newest refuses copy=False here (a copy is needed); 0.4.27-0.4.34 share the buffer.
    unaligned = aligned_host_array(17)[1:]
    unpacked = jnp.from_dlpack(unaligned, copy=False)
    unaligned[0] = 7.0
    assert float(unpacked[0]) == 1.0  # a silent copy
    assert cnp.from_dlpack is not jnp.from_dlpack


@pytest.mark.jax(">=0.4.27,<0.4.35")
def test_from_dlpack_is_jax_own_where_its_copy_is_right():
    assert cnp.from_dlpack is jnp.from_dlpack


@pytest.mark.jax("<0.4.18")
def test_jax_array_copy_shares_an_aligned_numpy_buffer_before_0418():
    source = aligned_host_array(16)
    made = jnp.array(source, copy=True)
    source[0] = 7.0
    assert float(made[0]) == 7.0  # JAX's own: not a copy
    assert cnp.array is not jnp.array


@pytest.mark.jax(">=0.4.18")
def test_array_is_jax_own_where_it_copies():
    source = aligned_host_array(16)
    made = jnp.array(source, copy=True)
    source[0] = 7.0
    assert float(made[0]) == 0.0
    # JAX's own, or JAX's own under the wrapper that gives it device= (before 0.4.24).
    assert getattr(cnp.array, "__wrapped__", cnp.array) is jnp.array


@pytest.mark.jax("<0.6.2")
def test_is_leaf_takes_path_of_a_tree_that_contains_itself_is_a_clear_error():
    # jaxcompat walks the tree itself before 0.6.2 (the release's is_leaf takes no path), and
    # refuses a cycle first; from 0.6.2 the name is JAX's own function, whose flatten of a
    # cycle exhausts the interpreter's recursion (not guarded: see README's traps).
    cyclic = [1]
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match=r"refers back to an enclosing list"):
        jaxcompat.tree_util.tree_leaves_with_path(
            cyclic, lambda path, node: False, is_leaf_takes_path=True
        )


# --- jax.lax.linalg.tridiagonal_solve ---------------------------------------------------------


def _tridiagonal_system(rows):
    below = np.r_[0.0, np.ones(rows - 1)].astype(np.float32)
    above = np.r_[np.ones(rows - 1), 0.0].astype(np.float32)
    on = (np.arange(rows) + 4.0).astype(np.float32)
    return below, on, above, np.ones((rows, 2), np.float32)


@pytest.mark.jax("<0.5.0")
def test_tridiagonal_solve_of_jax_takes_real_systems_of_three_rows_or_more_only():
    from jax.lax.linalg import tridiagonal_solve

    with pytest.raises(ValueError, match="must be >= 3"):
        tridiagonal_solve(*_tridiagonal_system(2))
    assert clax.linalg.tridiagonal_solve is not tridiagonal_solve  # the backport


@pytest.mark.jax(">=0.5.0,<0.10.0")
def test_tridiagonal_solve_of_050_takes_perturb_singular_at_its_default():
    from jax.lax.linalg import tridiagonal_solve

    assert clax.linalg.tridiagonal_solve.__wrapped__ is tridiagonal_solve
    system = _tridiagonal_system(4)
    np.testing.assert_array_equal(
        np.asarray(clax.linalg.tridiagonal_solve(*system, perturb_singular=False)),
        np.asarray(tridiagonal_solve(*system)),
    )


@pytest.mark.jax(">=0.10.0")
def test_tridiagonal_solve_is_jax_own_from_0100():
    from jax.lax.linalg import tridiagonal_solve

    assert clax.linalg.tridiagonal_solve is tridiagonal_solve


@pytest.mark.jax("<0.4.18")
def test_tridiagonal_solve_of_five_rows_under_vmap_raises_jax_0413s_own_error():
    # JAX 0.4.13's own has no batching rule; the backport still computes with it there.
    below, on, above, sides = _tridiagonal_system(5)
    with pytest.raises(NotImplementedError, match="Batching rule for 'tridiagonal_solve'"):
        jax.vmap(lambda b: clax.linalg.tridiagonal_solve(below, on, above, b))(sides[None])


@pytest.mark.jax(">=0.4.18")
def test_tridiagonal_solve_of_five_rows_batches_under_vmap():
    below, on, above, sides = _tridiagonal_system(5)
    batched = jax.vmap(lambda b: clax.linalg.tridiagonal_solve(below, on, above, b))(sides[None])
    single = clax.linalg.tridiagonal_solve(below, on, above, sides)
    np.testing.assert_allclose(np.asarray(batched[0]), np.asarray(single), rtol=1e-6)
