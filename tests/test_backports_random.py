"""The newest ``jax.random`` names on every release: backports, and what cannot be had.

Contract tests: the same inputs and assertions on every matrix row. The expected samples are
the newest JAX's, recorded bit for bit in ``random_bits_newest.json`` by
``tools/random_bits_newest.py``; every row must draw exactly those for the same key.
"""

import inspect
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jaxcompat.random as random
from tests._backport_helpers import few


@pytest.fixture(autouse=True, scope="module")
def partitionable_threefry():
    # Key bits follow jax_threefry_partitionable, True by default from JAX 0.5.0 on and False
    # before: with False every sampler of an older release, native or backported, draws other
    # bits than the newest JAX for the same key. The newest JAX's default, here on every row.
    saved = jax.config.jax_threefry_partitionable
    jax.config.update("jax_threefry_partitionable", True)
    yield
    jax.config.update("jax_threefry_partitionable", saved)


RECORDED = json.loads((Path(__file__).parent / "random_bits_newest.json").read_text())["cases"]

# The position of shape among the arguments after the key (multinomial takes it by keyword).
SHAPE_AT = {"lognormal": 1, "triangular": 3, "binomial": 2, "choice": 1}


def case_id(case):
    return f"{case['function']}-{case['seed']}"


def arguments(case, float_type=np.float32):
    """The recorded positional arguments: the shape a tuple, other lists arrays of floats."""
    at = SHAPE_AT.get(case["function"])
    return [
        tuple(a) if i == at else np.asarray(a, float_type) if isinstance(a, list) else a
        for i, a in enumerate(case["args"])
    ]


def call(case, key, float_type=np.float32):
    """The case's function called with ``key`` and the recorded arguments."""
    kwargs = {k: tuple(v) if k == "shape" else v for k, v in case["kwargs"].items()}
    if "dtype" in kwargs:
        kwargs["dtype"] = jnp.dtype(kwargs["dtype"])
    return getattr(random, case["function"])(key, *arguments(case, float_type), **kwargs)


def key_of(case):
    return random.PRNGKey(case["seed"]) if case["raw_key"] else random.key(case["seed"])


def relative_tolerance(case, dtype):
    """How far a case's samples may be from the newest's: not at all (bit for bit), but for
    the floats of method="approximate". Those are exponentiated sums of logs of normal and
    exponential draws: XLA releases round erf_inv and log differently in the last place,
    and exp turns the log's last place into a relative error of about |log x| of x's
    (measured: vmap of the newest's own chisquare is 22 units in the last place from its
    unbatched draw, at log x = -12). Within 1e-5 (or one unit of a 16-bit float)."""
    if case["kwargs"].get("method") != "approximate" or not case["dtype"].startswith(
        ("float", "bfloat")
    ):
        return 0.0
    return max(1e-5, float(jnp.finfo(dtype).eps))


def assert_same_samples(drawn, expected_bits, case):
    drawn = np.asarray(drawn)
    unsigned = np.dtype(f"uint{8 * drawn.dtype.itemsize}")
    tolerance = relative_tolerance(case, drawn.dtype)
    if tolerance == 0:
        assert drawn.view(unsigned).ravel().tolist() == list(expected_bits), case_id(case)
        return
    expected = np.asarray(expected_bits, unsigned).view(drawn.dtype).reshape(drawn.shape)
    np.testing.assert_allclose(
        drawn.astype(np.float64),
        expected.astype(np.float64),
        rtol=tolerance,
        atol=0,
        err_msg=case_id(case),
    )


def assert_bits(samples, case):
    samples = np.asarray(samples)
    assert str(samples.dtype) == case["dtype"], case_id(case)
    assert list(samples.shape) == case["shape"], case_id(case)
    assert_same_samples(samples, case["bits"], case)


# A sampler compiles once per key kind, parameter shapes and dtypes, shape and dtype, which
# takes long for binomial's and multinomial's loops: the recorded cases vary those together,
# and the other tests draw with the argument shapes of a recorded case (lognormal-1's Python
# float and (3,), triangular-1's (64,), binomial-1's (9,) arrays, multinomial-1's n (2,) and
# p (2, 3)), so that its compiled program is reused.


@pytest.mark.parametrize("case", RECORDED, ids=case_id)
def test_samples_are_the_newest_jaxs_bit_for_bit(case):
    key = key_of(case)
    assert_bits(call(case, key), case)
    if any(isinstance(a, np.ndarray) for a in arguments(case)):
        # NumPy float64 parameters are float32 ones without x64: same program, same samples.
        assert_bits(call(case, key, np.float64), case)


# binomial's and multinomial's loops compile slowly: drawn eagerly and under vmap only.
JITTED = [c for c in RECORDED if c["function"] in ("lognormal", "triangular")]


def test_jitted_samples_are_the_newest_jaxs_bit_for_bit():
    # Every case in one jitted function: one compilation rather than one a case.
    keys = [key_of(case) for case in JITTED]
    samples = jax.jit(lambda keys: [call(c, k) for c, k in zip(JITTED, keys, strict=True)])(keys)
    for case, sample in zip(JITTED, samples, strict=True):
        assert_bits(sample, case)


@pytest.mark.parametrize("case", [c for c in RECORDED if c["seed"] == 1], ids=case_id)
def test_batched_keys_draw_what_each_key_draws(case):
    keys = random.split(random.key(case["seed"]), 3)
    batched = np.asarray(jax.vmap(lambda k: call(case, k))(keys))
    for i in range(3):
        unbatched = np.asarray(call(case, keys[i]))
        assert_same_samples(batched[i], unbatched.view(f"u{unbatched.itemsize}").ravel(), case)


@jax.jit
def lognormal_gradients(key, sigma):
    """d/dsigma of each sample of lognormal(key, sigma, (3,)), jitted: one compilation for
    every example rather than one for each of the many small operations of vmap and grad."""

    def sample(s, i):
        return random.lognormal(key, s, (3,))[i]

    return jax.vmap(lambda i: jax.grad(sample)(sigma, i))(jnp.arange(3))


@few
@given(sigma=st.floats(0.125, 3.0, width=32), seed=st.integers(0, 2**31 - 1))
def test_lognormal_differentiates_in_sigma(sigma, seed):
    # x = exp(sigma * z), so dx/dsigma = z * x = x * log(x) / sigma.
    key = random.key(seed)
    x = np.asarray(random.lognormal(key, sigma, (3,)))  # lognormal-1's program
    gradient = lognormal_gradients(key, sigma)
    np.testing.assert_allclose(gradient, x * np.log(x) / sigma, rtol=1e-5, atol=1e-6)


@few
@given(
    left=st.floats(-5, 0, width=32),
    width=st.floats(0.5, 5, width=32),
    at=st.floats(0, 1, width=32),
    seed=st.integers(0, 2**31 - 1),
)
def test_triangular_stays_within_its_limits(left, width, at, seed):
    right, mode = left + width, left + at * width
    samples = random.triangular(random.key(seed), left, mode, right, (64,))
    assert samples.dtype == jnp.float32 and samples.shape == (64,)
    samples = np.asarray(samples)
    assert ((samples >= np.float32(left)) & (samples <= np.float32(right))).all()


@few
@given(n=st.integers(0, 300), p=st.floats(0, 1, width=32), seed=st.integers(0, 2**31 - 1))
def test_binomial_and_multinomial_count_the_trials(n, p, seed):
    key = random.key(seed)
    # Arrays as binomial-1's and multinomial-1's: their compiled programs. (Integer n as a
    # Python scalar is binomial-4's and multinomial-3's.)
    counts = random.binomial(key, np.full(9, n, np.float32), np.full(9, p, np.float32))
    assert counts.dtype == jnp.float32 and counts.shape == (9,)
    counts = np.asarray(counts)
    assert ((counts >= 0) & (counts <= n) & (counts == np.floor(counts))).all()
    # An impossible outcome in each row.
    rows = np.array([[p, 1 - p, 0.0], [1 - p, 0.0, p]], np.float32)
    outcomes = np.asarray(random.multinomial(key, np.full(2, n, np.float32), rows))
    assert outcomes.dtype == np.float32 and outcomes.shape == (2, 3)
    assert (outcomes.sum(-1) == n).all() and outcomes[0, 2] == 0 and outcomes[1, 1] == 0


def test_shapes_and_dtypes():
    # The other shapes and dtypes are recorded cases': triangular's parameters of two shapes
    # and a scalar broadcast together (triangular-2, also as NumPy float64 arrays), and
    # multinomial's integer counts (multinomial-3). Complex samples are not recorded: their
    # last bits differ between XLA releases.
    key = random.key(0)
    assert random.lognormal(key).shape == ()  # lognormal-0's program
    assert random.lognormal(key, np.ones((2, 1), np.float32), (3, 2, 4)).shape == (3, 2, 4)
    assert random.lognormal(key, dtype=jnp.complex64).dtype == jnp.complex64


def test_errors_name_the_problem():
    key = random.key(0)
    with pytest.raises(
        ValueError,
        match=r"^dtype argument to `lognormal` must be a float or complex dtype, got int32$",
    ):
        random.lognormal(key, dtype=jnp.int32)
    with pytest.raises(
        ValueError, match=r"^dtype argument to `triangular` must be a float dtype, got int32$"
    ):
        random.triangular(key, 0.0, 0.5, 1.0, dtype=jnp.int32)
    with pytest.raises(
        ValueError, match=r"^dtype argument to `binomial` must be a float dtype, got int32$"
    ):
        random.binomial(key, 3, 0.5, dtype=jnp.int32)
    with pytest.raises(
        ValueError,
        match=r"^lognormal parameter shapes must be broadcast-compatible with shape argument, "
        r"and the result of broadcasting the shapes must equal the shape argument, but got "
        r"result \(2, 3\) for shape argument \(3,\)\.$",
    ):
        random.lognormal(key, np.ones((2, 1), np.float32), (3,))
    with pytest.raises(
        ValueError,
        match=r"^triangular accepts a single key, but was given a key array of shape \(3,\) "
        r"!= \(\)\. Use jax\.vmap for batching\.$",
    ):
        random.triangular(random.split(key, 3), 0.0, 0.5, 1.0)
    with pytest.raises(ValueError, match=r"cannot safely cast argument of type float32 to float16"):
        random.lognormal(key, np.float32(1), dtype=jnp.float16)


# The arguments of the recorded lognormal-1 and triangular-1: their programs are reused.
SAMPLER_ARGS = {"lognormal": (0.5, (3,)), "triangular": (0.0, 0.5, 1.0, (64,))}


@pytest.mark.parametrize("name", ["lognormal", "triangular"])
def test_out_sharding(name):
    key = random.key(0)
    function = getattr(random, name)
    *args, shape = SAMPLER_ARGS[name]
    assert function(key, *args, shape, out_sharding=None).shape == shape
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("data",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(None))
    native = getattr(jax.random, name, None)
    if native is not None and "out_sharding" in inspect.signature(native).parameters:
        assert function(key, *args, shape, out_sharding=sharding).shape == shape
    else:
        # Releases before sharding in types cannot honour it, and say so.
        needs = rf"jax\.random\.{name}\(out_sharding=\.\.\.\) needs JAX"
        with pytest.raises(TypeError, match=needs):
            function(key, *args, shape, out_sharding=sharding)


def test_key_is_an_annotation_of_key_arrays():
    key = random.key(0)
    assert random.Key(key) is key
    assert random.Key.__supertype__ is jax.Array
    assert random.Key.__name__ == "Key"


# Typed keys with a choice of implementation (jax.random.key(impl=)) came in JAX 0.4.16.
TYPED_KEYS = "impl" in inspect.signature(jax.random.key).parameters


@pytest.mark.parametrize("name", ["key_impl", "wrap_key_data", "key_dtype"])
def test_key_functions_need_typed_keys(name):
    if TYPED_KEYS:
        assert callable(getattr(random, name))
    else:
        with pytest.raises(AttributeError, match=r"it needs JAX 0\.4\.16 or newer"):
            getattr(random, name)


@pytest.mark.skipif(not TYPED_KEYS, reason="needs typed keys with a choice of implementation")
def test_key_impl_key_dtype_and_wrap_key_data():
    for impl in ("threefry2x32", "rbg", "unsafe_rbg"):
        key = random.key(3, impl=impl)
        assert random.key_impl(key) == impl
        assert random.key_dtype(impl) == key.dtype
        assert random.key_dtype(key.dtype) == key.dtype
        data = random.key_data(key)
        rewrapped = random.wrap_key_data(data, impl=impl)
        assert rewrapped.dtype == key.dtype
        np.testing.assert_array_equal(random.key_data(rewrapped), data)
    assert random.key_impl(random.PRNGKey(0)) == "threefry2x32"
    assert random.key_dtype() == random.key(0).dtype
    assert random.key_impl(random.split(random.key(0), 3)) == "threefry2x32"


@pytest.mark.parametrize("make_key", [random.key, random.PRNGKey], ids=["typed", "raw"])
def test_split_into_a_shape_is_the_split_of_its_size_reshaped(make_key):
    key = make_key(3)
    flat = random.split(key, 6)
    shaped = random.split(key, (2, 3))
    assert shaped.shape[:2] == (2, 3) and shaped.shape[2:] == flat.shape[1:]
    assert shaped.dtype == flat.dtype
    np.testing.assert_array_equal(
        random.key_data(shaped).reshape(6, -1), random.key_data(flat).reshape(6, -1)
    )
    assert random.split(key, ()).shape == flat.shape[1:]
    assert random.split(key, np.int32(4)).shape == (4, *flat.shape[1:])  # a count, as before
    assert jax.jit(lambda k: random.split(k, [2, 2]))(key).shape == (2, 2, *flat.shape[1:])
