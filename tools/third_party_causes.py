"""Why tests of the third-party runs fail through jaxcompat, and the notes kept beside each
library: measured by hand from the runs' failures, read by third_party_report.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cause:
    """Why some tests fail through jaxcompat: matched on their failure message."""

    library: str
    pattern: str  # a substring of the failure message
    kind: str
    explanation: str
    test: str = ""  # a substring of the failing test's id, where the message is generic


MISSING = "missing stable name"
BEHAVIOUR = "behaviour difference"
DETAIL = "needs a newer JAX (cannot pass)"
OWN = "the library's own (every row, both modes)"
NEWEST_DETAIL = "checks a detail the newest JAX changed (fails raw too)"
FAILS_RAW = "the library's own check, which fails with raw JAX on the same row too"
JIT_DETAIL = "checks how JAX implements jit (cannot pass: faking JAX's type would be a stand-in)"
TIMING = "depends on timing on a shared machine (raw and ported alike; never counted as fixed)"
VERSION_READ = (
    "runs only where the library reads the release right, and fails with raw JAX too once it does"
)

# The causes of the failures measured through jaxcompat; unmatched ones show as unclassified.
CAUSES: tuple[Cause, ...] = (
    Cause(
        "chex",
        "False is not true",
        JIT_DETAIL,
        "chex's `is_traceable` recognises a jitted function by `PjitFunction` in its type name "
        "or `_cpp_pjit` in its repr; before JAX 0.6.0 `jaxcompat.jit` returns its own "
        "wrapper (which keeps `lower` off functools.wraps copies), whose type says neither",
        test="test_is_traceable__with_jit",
    ),
    Cause(
        "chex",
        "ValueError not raised",
        JIT_DETAIL,
        "`assert_max_traces` applied outside `jax.jit` must raise ValueError; chex detects "
        "the jit with `is_traceable`, which does not recognise `jaxcompat.jit`'s wrapper "
        "(before JAX 0.6.0)",
        test="test_incorrect_ordering",
    ),
    Cause(
        "optax",
        "object has no attribute 'sharding'",
        DETAIL,
        "`jax.typeof(x).sharding` (optax's `tree_random_like`, used by `add_noise` and "
        "`noisy_sgd`): avals carry their sharding from JAX 0.5.1 (measured: absent on "
        "0.5.0, a NamedSharding over an empty AbstractMesh on 0.5.1); before 0.5.3 "
        "`jaxcompat.typeof` is `jax.core.get_aval`, whose avals have none. optax only reads it "
        "to drop it where the sampler has no `out_sharding`, but an aval with a made-up "
        "sharding would be a stand-in",
    ),
    Cause(
        "optax",
        "Dict key mismatch",
        NEWEST_DETAIL,
        "the test expects the text of JAX's old pytree-structure error ('Dict key "
        "mismatch'); the newest JAX says 'pytree structure error: different numbers of "
        "pytree children'",
    ),
    Cause(
        "optax",
        "within 7 places",
        NEWEST_DETAIL,
        "`clip_by_block_rms` gives 0.9999999, not 1.0 to 7 places, on the newest JAX",
    ),
    Cause(
        "optax",
        "AssertionError",
        VERSION_READ,
        "optax's `_vdot` for JAX 0.7.2 and newer (a tensordot) differs from `jnp.vdot` beyond "
        "the test's tolerance. Raw, optax compares `jax.__version__` strings ('0.12.0.1' < "
        "'0.7.2') and takes its old path; the port reads `jax.JAX_VERSION`. With raw JAX and "
        "its version read right, the test fails too (measured)",
        test="test_tree_vdot",
    ),
    Cause(
        "optax",
        "Incompatible types for broadcasting",
        VERSION_READ,
        "optax's sharding tests for L-BFGS, skipped raw by the same string comparison, fail "
        "with raw JAX too once it reads its version right (measured)",
        test="lbfgs",
    ),
    Cause(
        "optax",
        "Specifying a key will be required",
        OWN,
        "sharding_test.py calls an optimizer without a key at import, and optax's own "
        "UserWarning is an error",
    ),
    Cause(
        "dm-haiku",
        "has no attribute 'take_current_trace'",
        DETAIL,
        "haiku imports its `dot` module (`hk.to_dot`) when it is imported, and that module "
        "needs JAX's stackless tracing (`jax.core.take_current_trace`, `set_current_trace`, "
        "`TraceTag`, JAX 0.4.36): before it JAX traced through a trace stack of levels, a "
        "different model that cannot be bridged, so no haiku test file imports",
    ),
    Cause(
        "dm-haiku",
        "must have the same pytree structure",
        DETAIL,
        "the test matches the text of the newer JAX's error for `cond`/`switch` branches of "
        "different structures; the error is raised, with the older release's text",
    ),
    Cause(
        "dm-haiku",
        "testdata/",
        OWN,
        "the sdist does not ship `haiku/_src/testdata`, the pickles these tests load",
    ),
    Cause(
        "dm-haiku",
        "It is deprecated to return a value that is not None from a test case",
        OWN,
        "the test returns a value, which Python deprecates (a warning, so an error here)",
    ),
    Cause(
        "blackjax",
        "cannot check cond on JAX",
        DETAIL,
        "`test_laps` runs `jax.shard_map` (checked, `check_vma=True`) over a function with "
        "`lax.cond`; the replication check of JAX before 0.4.36 has no rule for `cond` "
        "(measured: NotImplementedError on 0.4.30-0.4.35, checked on 0.4.36). Passing the "
        "check off instead would also let a wrong `out_specs` through unseen, so jaxcompat "
        "says so in the newest API's words (`check_vma=False`, or a newer JAX)",
    ),
    Cause(
        "blackjax",
        "The branches of cond produced mismatched replication types",
        DETAIL,
        "`test_laps` again: from 0.4.36 the replication check has a rule for `cond`, but it "
        "finds the two branches of blackjax's `cond` replicated differently, where the newest "
        "JAX's varying-axes check (`check_vma`) accepts them; JAX's message asks to turn the "
        "check off",
    ),
    Cause(
        "blackjax",
        "assert ",
        FAILS_RAW,
        "the ELBO after a few optimisation steps must fall below its first value; with the "
        "day's keys it does not (8.53 against 6.02), raw JAX included. It passes on 0.4.30 "
        "and 0.4.36, whose rows resolve to optax 0.2.5 (0.2.8 on the floor row and newest)",
        test="test_elbo_decreases_over_steps",
    ),
    Cause(
        "blackjax",
        "AssertionError",
        FAILS_RAW,
        "`test_laps` on the newest JAX: the sampler runs and an assertion on its result "
        "fails, with raw JAX too (not investigated further)",
        test="test_laps",
    ),
    Cause(
        "dm-haiku",
        "jax.nn.one_hot input should be integer-typed",
        NEWEST_DETAIL,
        "the test passes floats to `one_hot`, which newer JAX releases warn about",
    ),
    Cause(
        "penzai",
        "jaxcompat.dtypes.prng_key is not available",
        DETAIL,
        "penzai's layers describe a key argument as an array of dtype "
        "`jax.dtypes.prng_key`: typed PRNG key arrays exist from JAX 0.4.18, and jaxcompat "
        "says so where the name is read",
    ),
    Cause(
        "penzai",
        "jit option 'donate_argnames' needs JAX 0.4.18",
        DETAIL,
        "penzai jits with `donate_argnames`, which `jax.jit` takes from 0.4.18; JAX 0.4.13 "
        "never donates an argument passed by keyword, so names turned into positions would "
        "skip some donations unseen: jaxcompat says so instead (raw: a TypeError too)",
    ),
    Cause(
        "penzai",
        "AssertionError",
        DETAIL,
        "the test compares a rendering that shows a layer's input structure, which holds "
        "a `jax.dtypes.prng_key` array spec (typed PRNG keys: JAX 0.4.18); on 0.4.13 the "
        "rendering says that the structure could not be inferred, raw JAX included",
        test="test_object_rendering_deprecated_v1_layer_annotations",
    ),
    Cause(
        "jax_dataclasses",
        "cannot import name 'default_registry'",
        DETAIL,
        "`jax.tree_util.default_registry`, JAX's pytree registry as an object (public in "
        "0.4.25, inside JAX from 0.4.18, which jaxcompat gives): JAX 0.4.13 has none, so "
        "each test file fails to import, raw too",
    ),
    Cause(
        "jax_dataclasses",
        "has no attribute 'flatten_one_level'",
        DETAIL,
        "`default_registry.flatten_one_level`, a method of jaxlib's registry object from "
        "jaxlib 0.4.26; jaxcompat does not replace JAX's objects with stand-ins. Raw, it "
        "fails on the declared floor 0.4.25 too; `jaxcompat migrate` reports it (JC001) "
        "and writes the floor jax>=0.4.26",
    ),
    Cause(
        "equinox",
        "IO callbacks do not support JVP",
        DETAIL,
        "`jax.grad` of a function whose `lax.scan` threads the result of an `io_callback` "
        "(equinox's progress meter): JAX before its stackless tracing (0.4.36) asks the "
        "callback for a JVP though no input depends on the argument, and raises (measured: "
        "fails on 0.4.30, passes on 0.4.36, through jaxcompat; raw, the suite cannot start "
        "on either)",
    ),
    Cause(
        "equinox",
        "jaxcompat.sharding.AxisType is not available",
        DETAIL,
        "explicit mesh axis types (`jax.sharding.AxisType`, sharding in types: JAX 0.5.3), "
        "which a release before it cannot compute: jaxcompat names the release needed",
    ),
    Cause(
        "equinox",
        "Explicitly requested dtype int64 requested in ShapeDtypeStruct",
        NEWEST_DETAIL,
        "on the newest JAX, `eqx.filter_pmap`'s tests end in JAX's UserWarning that an int64 "
        "`ShapeDtypeStruct` is truncated to int32 (x64 off), and warnings are errors",
    ),
    Cause(
        "chex",
        "'ShapedArray' object has no attribute 'sharding'",
        DETAIL,
        "chex's device assertions read `jax.typeof(x).sharding`: jaxcompat gives `typeof` "
        "(JAX 0.5.3; raw, these 3 tests fail on it), but an aval carries its "
        "sharding from JAX 0.5.1 (sharding in types), and JAX's own `ShapedArray` before it "
        "has none",
    ),
    Cause(
        "numpyro",
        "Encountered an unexpected tracer",
        DETAIL,
        "numpyro's ELBO guesses its plate nesting with `jax.eval_shape` of a function that "
        "closes over the parameters `value_and_grad` is tracing; JAX 0.5.3 to 0.6.0 raise "
        "UnexpectedTracerError there, raw numpyro too once given `jit_p` (measured: the same "
        "2 tests fail with raw numpyro on 0.5.3 and `jax.extend.core.primitives.jit_p` set "
        "to JAX's `pjit_p`; through jaxcompat they fail on 0.6.0 and pass from 0.6.1)",
    ),
    Cause(
        "numpyro",
        "FutureWarning: unhashable type",
        DETAIL,
        "funsor (numpyro's enumeration tests use it) hashes a tracer to cons-hash its terms "
        "and falls back on the TypeError that JAX raises from 0.4.36; JAX 0.4.30 to 0.4.35 "
        "warn instead (a FutureWarning), and warnings are errors. jaxcompat leaves JAX's "
        "tracer hashing as it is outside `tracer_safe_hash` (measured: the same 7 tests pass "
        "on 0.4.30 with that one warning ignored)",
    ),
    Cause(
        "rlax",
        "module 'jax.core' has no attribute 'take_current_trace'",
        FAILS_RAW,
        "dm-haiku, which two test files import (rlax's `test` extra; 0.0.17 resolves with "
        "the row's JAX pinned), reads `jax.core.take_current_trace` (JAX 0.4.36) when it is "
        "imported: haiku's own declared floor is false there, raw and ported alike",
    ),
    Cause(
        "distrax",
        "module 'jax.core' has no attribute 'take_current_trace'",
        FAILS_RAW,
        "dm-haiku, which monte_carlo_test.py imports (distrax's `test` extra; 0.0.17 "
        "resolves with the row's JAX pinned), reads `jax.core.take_current_trace` (JAX "
        "0.4.36) when it is imported: haiku's own declared floor is false there, raw and "
        "ported alike",
    ),
    Cause(
        "flax",
        "'Data' is deprecated, please replace",
        OWN,
        "the test uses flax's own deprecated `nnx.Data` annotation, and warnings are "
        "errors (flax's own pytest configuration ignores this one)",
    ),
    Cause(
        "flax",
        "to the `inputs_v` arg, when you may have intended",
        OWN,
        "the test passes a mask where flax now warns that it may be meant for `mask`, and "
        "warnings are errors",
    ),
    Cause(
        "flax",
        "module 'jax.experimental.hijax' has no attribute 'HiPrimitive'",
        NEWEST_DETAIL,
        "flax 0.12.8 subclasses `jax.experimental.hijax.HiPrimitive`, which the newest JAX "
        "no longer has: no `nnx` test file imports there, raw or ported",
    ),
    Cause(
        "flax",
        "Implicit conversion of an array to a dtype is deprecated",
        DETAIL,
        "`jnp.zeros_like` of a flax `Variable`: before 0.10.0 JAX finds its dtype with "
        "`np.result_type`, and NumPy 2.4 asks the `Variable` for `__numpy_dtype__`, which it "
        "forwards to its array, whose JAX deprecates that (a DeprecationWarning, an error "
        "here); JAX 0.10.0 reads `.dtype` first, for NumPy 2.4 (its source says so). "
        "Raw, these test files do not import on these rows at all",
    ),
    Cause(
        "flax",
        "module 'jax.experimental.hijax' has no attribute 'instantiate_zeros'",
        MISSING,
        "`jax.experimental.hijax.instantiate_zeros` (JAX 0.9.0), which flax's hijax "
        "variables call: `jax.experimental.hijax` is JAX's own module through jaxcompat "
        "(not mirrored), and whether 0.8.x can compute it is not investigated; "
        "`jaxcompat migrate` reports it (JC001) and writes floor 0.9.0 for flax",
    ),
    Cause(
        "flax",
        "is not divisible by axis_size=8",
        NEWEST_DETAIL,
        "on the newest JAX, sharding a dimension of 4 over a mesh axis of 8 devices is "
        "an IndivisibleError (the test runs on this machine's 8 CPU devices)",
    ),
    Cause(
        "flax",
        "jaxcompat.sharding.AbstractMesh is not available on JAX",
        DETAIL,
        "flax reads `jax.sharding.AbstractMesh` (JAX 0.5.3) when it is imported; before "
        "0.5.3 there is no abstract mesh, and jaxcompat says so in its AttributeError",
    ),
    Cause(
        "optimistix",
        "object has no attribute '__wrapped__'",
        OWN,
        "the test reads `optx.compat.minimize.__wrapped__`, the beartype wrapper that its "
        "own pytest options (jaxtyping's import hook, not used here) put around the function",
    ),
    Cause(
        "diffrax",
        "Complex dtype support in Diffrax is a work in progress",
        OWN,
        "diffrax warns that its complex support is a work in progress when it solves in "
        "complex128, and warnings are errors",
    ),
    Cause(
        "diffrax",
        "AssertionError: assert",
        TIMING,
        "the test counts the lines tqdm's progress meter writes, which depend on timing on "
        "a machine shared with other work (raw, 103 lines against 102 on 0.4.38; the other "
        "rows passed)",
        test="test_tqdm_progress_meter",
    ),
    Cause(
        "gpjax",
        "Please use numpyro.util.is_prng_key",
        OWN,
        "gpjax calls numpyro's deprecated `is_prng_key` helper (numpyro's warning about its "
        "own function, which gpjax's own pytest configuration ignores with every other "
        "DeprecationWarning), and warnings are errors",
    ),
    Cause(
        "gpjax",
        "assert 2 == 3",
        FAILS_RAW,
        "`(k1 + k2) + k3` of one kernel type gives a sum of 2 kernels, not the 3 the test "
        "expects flattened, with the releases its dependencies resolve to with that row's "
        "JAX pinned (not investigated further)",
    ),
    Cause(
        "distrax",
        "Explicitly requested dtype",
        OWN,
        "`as_float_array`'s tests build 64-bit arrays with 64-bit types off, so JAX warns "
        "that it truncates them to 32 bits, and warnings are errors",
    ),
)

# Measured by hand, not visible in the counts: what the numbers above hide.
NOTES: dict[str, tuple[str, ...]] = {
    "chex": (
        "Fixed in jaxcompat after the first measurement (chex through jaxcompat on 0.5.3 / "
        "0.6.2 / 0.7.0 / newest: 482 / 484 / 484 / 484 passed, 158 errors each, 78.0% of "
        "the floor row's raw passes): `jax._src` is forwarded (`jaxcompat._src is "
        "jax._src`; chex's `fake.set_n_cpu_devices` reads `jax._src.xla_bridge`, 159 tests); "
        "forwarded names are read from JAX's module on every access, so chex's `fake_pmap`, "
        "which patches `jax.pmap` and `jax.lax.psum` on JAX's module, is seen (4 tests); "
        "and `inspect.signature(jaxcompat.jit(f), follow_wrapped=False)` works below JAX "
        "0.6.0 (4 tests of `fake_pmap` with keyword arguments).",
        "Fixed after the second measurement (617 of 618 passed through jaxcompat from 0.6.2): "
        "`jaxcompat.jit` of a plain function calls what `jax.jit` is on JAX's module when a "
        "test double has replaced it there, as code calling `jax.jit` does, so chex's "
        "`OnCallOfTransformedFunction('jax.jit', ...)` sees the calls "
        "(`test_on_call_of_transformed_function`, every row).",
    ),
    "optax": (
        "optax compares `jax.__version__` strings (`tree_utils/_tree_math.py`, "
        "`microbatching/_microbatching.py`, `_src/sharding_test.py`). Raw JAX 0.12.0.1 "
        "reads as older than 0.7.2 there, since '0.12.0.1' < '0.7.2' as strings, so raw "
        "optax takes its pre-0.7 code paths and skips its 54 sharding-in-types tests on the "
        "newest row. `jaxcompat migrate` rewrites the comparisons to `jax.JAX_VERSION` "
        "against tuples, so through jaxcompat the newest row runs them (644 tests, not 593); "
        "3 of them fail with raw JAX too once it reads its version right (measured).",
        "Fixed in jaxcompat this stop: optax's `tree_random_like` reads the newest "
        "signature of `random.normal` and passes `out_sharding=jax.typeof(leaf).sharding`, "
        "a sharding over a mesh with no axes; jaxcompat refused it before the release that "
        "takes `out_sharding` (19 tests on the floor row, JAX 0.5.3, measured 577 / 19 / 0 "
        "before the fix). It is now the call without it, as in the newest JAX.",
        "Fixed in jaxcompat after the first measurement (573 passed through jaxcompat on "
        "0.4.30): `jaxcompat.jit` of a function written in a class body took a number given "
        "as its first argument for the instance of a method, so compiled it in as a constant; "
        "it is traced, as `jax.jit` does. optax's `test_abs_sqr_hlo_equivalence` keeps its "
        "lambdas in a class-body decorator and compares their HLO (4 tests, on every row).",
    ),
    "dm-haiku": (
        "haiku reads `jax.__version_info__` (`_src/base.py` to read JAX's trace state, "
        "`_src/dot.py`, `_src/jaxpr_info_test.py`), which jaxcompat does not forward: without "
        "the rewrite reading it as `jax.JAX_VERSION`, 1080 of 1478 tests failed through "
        "jaxcompat on the floor row with an AttributeError (measured on a larger set of test "
        "files, the nets, recurrent and conv tests included).",
        "Fixed in jaxcompat after the first measurement (0.4.36 through jaxcompat: 1147 "
        "passed, 24 failed): `jaxcompat.lax.scan` takes `length`, `reverse` and `unroll` by "
        "position, as `jax.lax.scan` does; `hk.scan` passes them so (19 tests).",
    ),
    "blackjax": (
        "Fixed in jaxcompat after the first measurement (0.4.30 through jaxcompat: 801 "
        "passed, 52 failed, 1 error, on the whole suite): `jaxcompat.lax.cond` wrapped "
        "whatever came as the third argument in a function, so the per-branch form "
        "`cond(pred, true_operand, true_fun, false_operand, false_fun)`, which JAX accepts "
        "on every release and blackjax's NUTS termination uses, handed JAX a function as an "
        "operand (41 tests of NUTS, its trajectories and the adaptations built on it). It "
        "now leaves what is not callable to JAX.",
        "blackjax seeds its tests' keys from the date (`tests/fixtures.py`), so the "
        "sampling tests draw other numbers each day; the rows of one run share the day.",
        "blackjax 1.5 imports `jax.shard_map` (`blackjax/util.py`), which JAX has from "
        "0.6.1: raw, no test file imports below that.",
    ),
    "penzai": (
        "Fixed in jaxcompat after the first measurement (0.4.13 through jaxcompat: 165 "
        "passed, 23 failed): `jaxcompat.numpy.issubdtype` said, as JAX 0.4.13's own does, "
        "that bfloat16 is not a sub-dtype of `np.generic` (JAX fixed it in 0.4.17); "
        "penzai's shape checks ask exactly that, so its bfloat16 Gemma tests failed (8 "
        "tests). It now answers as the newest JAX.",
    ),
    "jax_dataclasses": (
        "Its declared floor is not its floor: on 0.4.25 three tests fail raw "
        "(`default_registry.flatten_one_level`, jaxlib 0.4.26), which `jaxcompat migrate` "
        "reports, raising the floor it writes to jax>=0.4.26.",
    ),
    "equinox": (
        "Raw, the suite does not start below JAX 0.5.0, its declared floor 0.4.38 included: "
        'its conftest.py calls `jax.config.update("jax_num_cpu_devices", 2)`, an option '
        'of JAX 0.5.0 ("Unrecognized config option" on 0.4.30, 0.4.36 and 0.4.38: one '
        "error, no test run, so the floor row's share is n/a). `jaxcompat.config` honours "
        "the option on every release (before 0.5.0 as the XLA flag it replaces, read when "
        "JAX's CPU backend starts), so through jaxcompat the whole suite runs there.",
        "The tests come from the repository's tag v0.13.8 (its sdist and wheel hold the "
        "package only) and run without equinox's own pytest options (its jaxtyping and "
        "beartype run-time type checks of the package).",
    ),
    "flax": (
        "Found on flax and fixed in jaxcompat: `jaxcompat migrate` replaced flax's "
        "`if jax.__version_info__ <= (0, 4, 33):` gate (`flax/core/tracers.py`) by its "
        "first branch, since jaxcompat gives that branch's `find_top_trace` on every "
        "release; that branch reads the trace level of JAX's tracing before 0.4.34, so on "
        "the newest JAX 56 tests passed through jaxcompat against 861 raw (measured). A "
        "version gate is now replaced only by the branch that runs on the newest release. "
        "And `jaxcompat.jit(model.init, in_shardings=(key, x))` counted `self` among the "
        "arguments the shardings are for, raising JAX's 'in_shardings is the wrong length' "
        "(`test_pjit_scan_over_layers`, every row); it counts from the argument after "
        "`self`, as `jax.jit` does.",
        "Raw, on 0.8.2 and 0.9.0 the 28 `nnx` test files do not import: flax reads "
        "`jax.extend.core.Effect`, public from JAX 0.10.0 and jaxcompat's stable name "
        "before it (JAX's own class, from `jax._src.core`), so through jaxcompat they run. "
        "On 0.4.30 flax cannot import, raw or ported: it reads `jax.sharding.AbstractMesh` "
        "(JAX 0.5.3) when it is imported, and imports `jax.experimental.hijax` (JAX 0.8.1); "
        "`jaxcompat migrate` reports both (JC040, JC001).",
    ),
    "optimistix": (
        "Found on optimistix and fixed in jaxcompat: it gates on "
        "`hasattr(jax.custom_derivatives, 'zero_from_primal')` (JAX 0.4.34) and falls back "
        "to integer zeros; jaxcompat gave the name before 0.4.34, so the port took the "
        "first branch there, whose float0 tangents JAX's `custom_jvp` refuses before 0.4.34 "
        "(measured on 0.4.30: `test_residual_nonarray_no_jit` failed through jaxcompat, "
        "passed raw). jaxcompat gives `zero_from_primal` from 0.4.34 only.",
        "Equinox 0.13.8 and Lineax 0.0.8, its requirements, declare jax>=0.4.38 like it, "
        "and Diffrax 0.7.2, which its tests import, too: on 0.4.30 and 0.4.36 they come "
        "along, raw as published and ported with it. The tests come from the repository's "
        "tag v0.1.0 (its sdist holds the package only) and run without its own pytest "
        "options (jaxtyping's and beartype's run-time type checks).",
    ),
    "diffrax": (
        "Equinox 0.13.8, Lineax 0.0.8 and Optimistix 0.1.0, its requirements, declare "
        "jax>=0.4.38 like it: on 0.4.30 and 0.4.36 they come along, raw as published and "
        "ported with it. `test_implicit_closure_convert` failed through jaxcompat on 0.4.30 "
        "before the `zero_from_primal` fix told under optimistix (it runs optimistix's "
        "root find), and passed raw. The tests come from the repository's tag v0.7.2 (its "
        "sdist holds the package only) and run without its own pytest options.",
        "`test_tqdm_progress_meter` counts the lines tqdm writes, which depend on timing: "
        "it failed raw in one run (0.4.38: 103 lines against 102) and passed in every other "
        "run, raw and ported; that pass through jaxcompat is not counted as fixed.",
    ),
    "gpjax": (
        "gpjax declares jax>=0.5.0,<0.11; the newest row (0.12.0.1) is above its cap and "
        "runs because the library is installed with `--no-deps`. Its declared floor is "
        "not its floor: raw, 0.4.30 and 0.4.36 pass all but the 2 tests of the cause "
        "above. `jaxcompat migrate` writes jax>=0.4.26 for it (its other requirements, "
        "lineax>=0.0.6 and numpy>=2.0.0, hold JAX there; nothing in its code needs more).",
    ),
    "mctx": (
        "mctx's tree_test.py opens its test data by a path relative to the directory it "
        "runs from (`../mctx/_src/tests/test_data/`): its tests run from `mctx/`, as its "
        "own CI does; from the sdist's root, 4 tests failed on every row, raw included "
        "(measured).",
    ),
    "gymnax": (
        "gymnax declares jax>=0.6,<0.12 (on Python 3.14, >=0.8.1,<0.12); the newest row "
        "(0.12.0.1) is above its cap and runs because the library is installed with "
        "`--no-deps`. Through jaxcompat, its whole suite passes on 0.4.13, where raw it "
        "loses 60 tests to `jax.tree` (JAX 0.4.25) and `jnp.bool` (JAX 0.4.24), both "
        "jaxcompat stable names there.",
    ),
    "numpyro": (
        "numpyro imports `jit_p` from `jax.extend.core.primitives` "
        "(`numpyro/ops/provenance.py`, which `import numpyro` loads), JAX's name for the jit "
        "primitive from 0.7.0 (`pjit_p` before): raw, no test file that imports numpyro "
        "runs below 0.7.0. `jaxcompat migrate` splits that import: `call_p` and "
        "`closed_call_p` stay JAX's (jaxcompat refuses them before 0.11.1, where they are "
        "another primitive), and `jit_p` comes from jaxcompat, which is JAX's `pjit_p` "
        "there. It imports `jax.api_util.debug_info` (JAX 0.5.1) and passes it to "
        "`jax.extend.linear_util.wrap_init(..., debug_info=)` (JAX 0.5.0) too: jaxcompat "
        "gives both on every release, the record built by the release's own private helper "
        "(before this, 5 test files failed to import through jaxcompat on 0.4.30 and "
        "`migrate` wrote 0.5.1). The floor `migrate` writes is now 0.4.27, where JAX's "
        "`jax.extend.core.primitives.call_p` begins. With these test files, `jaxcompat "
        "floor` proves 0.6.1 (8.7 minutes, measured before this change: 0.6.0 loses the two "
        "tests of the UnexpectedTracerError below, 0.6.1 and 0.6.2 pass as 0.7.0 does); "
        "0.4.30 passes them, and loses 7 others only to JAX 0.4.30's warning below.",
        "Fixed in jaxcompat, found on numpyro: `migrate` kept the whole import JAX's "
        "because jaxcompat refuses `call_p` on part of the range, so the port read `jit_p` "
        "from JAX's module, as raw, and its floor stayed 0.7.0; it now keeps only the "
        "refused names JAX's.",
    ),
}
