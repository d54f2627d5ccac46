"""Newest keywords of jax.random's samplers, on every row, beyond the newest JAX's recorded
samples (test_backports_random.py): orthogonal(m=), the errors of mode= and replace=, and
sampling without replacement under jit."""

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
import jaxcompat.random as random
from tests._stable_names_helpers import needs

KEY = random.PRNGKey(7)


@pytest.mark.parametrize(("n", "m"), [(3, 5), (5, 2), (4, 4)])
def test_orthogonal_n_by_m(n, m):
    sample = np.asarray(random.orthogonal(KEY, n, (2,), m=m), np.float64)
    assert sample.shape == (2, n, m)
    small = min(n, m)
    gram = sample @ np.swapaxes(sample, -1, -2) if n <= m else np.swapaxes(sample, -1, -2) @ sample
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(small), (2, small, small)), atol=1e-5)


def test_orthogonal_is_the_q_factor_of_a_normal_sample():
    # The newest draws a normal (larger, smaller) sample z and keeps the Q of z = QR whose R
    # has a positive diagonal: Q^T z is that R.
    tall = np.asarray(random.orthogonal(KEY, 5, m=2), np.float64)
    z = np.asarray(jax.random.normal(KEY, (5, 2)), np.float64)
    r = tall.T @ z
    np.testing.assert_allclose(tall @ r, z, atol=1e-5)
    assert abs(r[1, 0]) < 1e-5 and (np.diagonal(r) > 0).all()
    wide = np.asarray(random.orthogonal(KEY, 2, m=5), np.float64)
    np.testing.assert_allclose(wide, tall.T, atol=1e-6)
    np.testing.assert_array_equal(random.orthogonal(KEY, 3, m=3), random.orthogonal(KEY, 3))


@pytest.mark.parametrize(
    ("draw", "message"),
    [
        (lambda: random.gumbel(KEY, mode="wide"), "Must provide valid mode for gumbel got: wide"),
        (
            lambda: random.bernoulli(KEY, mode="highest"),
            "got mode='highest', expected 'high' or 'low'",
        ),
        (
            lambda: random.categorical(KEY, jnp.zeros(3), mode="wide"),
            "Must provide valid mode for gumbel got: wide",
        ),
        (
            lambda: random.categorical(KEY, jnp.zeros(3), shape=(4,), replace=False),
            "Number of samples without replacement (4) cannot exceed number of categories (3).",
        ),
    ],
)
def test_mode_and_replace_errors_are_the_newest(draw, message):
    with pytest.raises(ValueError, match=r"mode|replacement") as raised:
        draw()
    assert str(raised.value).split("\n")[0] == message


def test_sampling_without_replacement_jits_and_draws_each_category_once():
    logits = jnp.log(jnp.array([0.1, 0.2, 0.3, 0.4]))
    draw = jax.jit(lambda key: random.categorical(key, logits, shape=(4,), replace=False))
    assert sorted(np.asarray(draw(KEY)).tolist()) == [0, 1, 2, 3]
    chosen = random.choice(KEY, 6, (6,), replace=False, p=jnp.ones(6) / 6, mode="high")
    assert sorted(np.asarray(chosen).tolist()) == list(range(6))


@pytest.mark.parametrize("implementation", ["threefry2x32", "rbg", "unsafe_rbg"])
def test_key_dtype_names_the_implementation(implementation):
    needs("random.wrap_key_data")  # typed keys of a chosen implementation: JAX 0.4.16
    made_by_name = jax.eval_shape(lambda: random.key(0, dtype=implementation)).dtype
    dtype = jax.eval_shape(lambda: random.key(0, impl=implementation)).dtype
    assert made_by_name == dtype
    key = random.key(5, dtype=dtype)
    assert key.dtype == dtype
    wrapped = random.wrap_key_data(random.key_data(key), dtype=dtype)
    assert wrapped.dtype == dtype
    np.testing.assert_array_equal(random.key_data(wrapped), random.key_data(key))
    with pytest.raises(ValueError, match="both") as raised:
        random.key(0, impl=implementation, dtype=dtype)
    assert str(raised.value) == "Cannot specify both `impl` and `dtype` arguments to jax.random.key"


def test_key_dtype_of_the_default_implementation_on_every_row():
    key = random.key(5, dtype="threefry2x32")
    np.testing.assert_array_equal(random.key_data(key), random.key_data(random.key(5)))


def _low_draws():
    logits = jnp.log(jnp.array([0.1, 0.2, 0.3, 0.4]))
    return [
        np.asarray(random.gumbel(KEY, (4,), mode="low")),
        np.asarray(random.categorical(KEY, logits, shape=(6,), mode="low")),
        np.asarray(random.categorical(KEY, logits, shape=(3,), replace=False, mode="low")),
        np.asarray(random.choice(KEY, 4, (3,), replace=False, p=jnp.ones(4) / 4, mode="low")),
    ]


def test_mode_low_is_low_whatever_the_default_mode():
    # jax_high_dynamic_range_gumbel (JAX 0.5.3) makes "high" the default mode; a mode given
    # is the mode drawn, on releases whose own categorical and choice take no mode= too.
    if not hasattr(jax.config, "jax_high_dynamic_range_gumbel"):
        pytest.skip(f"JAX {jax.__version__} has no jax_high_dynamic_range_gumbel option")
    low = _low_draws()
    jax.config.update("jax_high_dynamic_range_gumbel", True)
    try:
        with_high_default = _low_draws()
    finally:
        jax.config.update("jax_high_dynamic_range_gumbel", False)
    for drawn, expected in zip(with_high_default, low, strict=True):
        np.testing.assert_array_equal(drawn, expected)


@pytest.mark.parametrize("mode", ["high", "highest"])
def test_gumbel_mode_keeps_the_out_sharding_asked(mode):
    import inspect

    if "out_sharding" not in inspect.signature(jax.random.gumbel).parameters:
        pytest.skip(f"JAX {jax.__version__}'s gumbel takes no out_sharding (sharding in types)")
    from jaxcompat.sharding import AxisType, NamedSharding, PartitionSpec

    mesh = jaxcompat.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
    key = random.key(1)
    plain = random.gumbel(key, (8,), mode=mode)
    with jaxcompat.set_mesh(mesh):
        placed = random.gumbel(
            key, (8,), mode=mode, out_sharding=NamedSharding(mesh, PartitionSpec("x"))
        )
    assert placed.sharding.spec == PartitionSpec("x")
    np.testing.assert_array_equal(placed, plain)


# method= of gamma, loggamma, beta, chisquare and poisson (JAX 0.11.1). Each case: the
# sampler, its parameters after the key, and the newest's error for an unknown method.
METHOD_SAMPLERS = {
    "gamma": (2.0,),
    "loggamma": (2.0,),
    "beta": (2.0, 3.0),
    "chisquare": (4.0,),
    "poisson": (3.0,),
}


@pytest.mark.parametrize("name", sorted(METHOD_SAMPLERS))
def test_unknown_method_is_the_newests_error(name):
    with pytest.raises(ValueError, match="method argument") as raised:
        getattr(random, name)(KEY, *METHOD_SAMPLERS[name], method="fast")
    assert str(raised.value) == (
        f"method argument to `{name}` must be one of {{'exact', 'approximate'}}, got 'fast'"
    )


@pytest.mark.parametrize("name", ["gamma", "poisson"])
def test_method_exact_is_the_default_sampler(name):
    sampler = getattr(random, name)
    np.testing.assert_array_equal(
        sampler(KEY, *METHOD_SAMPLERS[name], (3,), method="exact"),
        sampler(KEY, *METHOD_SAMPLERS[name], (3,)),
    )


def test_approximate_samples_have_the_distributions_moments():
    # 20,000 draws: each mean within four standard errors of the distribution's.
    key = random.PRNGKey(11)
    draws = 20_000
    for name, parameters, mean, variance in [
        ("gamma", (0.3,), 0.3, 0.3),
        ("gamma", (40.0,), 40.0, 40.0),
        ("beta", (2.0, 6.0), 0.25, 12 / (64 * 9)),
        ("chisquare", (5.0,), 5.0, 10.0),
        ("poisson", (2.5,), 2.5, 2.5),
        ("poisson", (300.0,), 300.0, 300.0),
    ]:
        samples = getattr(random, name)(key, *parameters, (draws,), method="approximate")
        samples = np.asarray(samples, np.float64)
        assert abs(samples.mean() - mean) < 4 * np.sqrt(variance / draws), (name, parameters)
        assert np.isclose(samples.var(), variance, rtol=0.1), (name, parameters)
    log_samples = np.asarray(random.loggamma(key, 0.3, (draws,), method="approximate"))
    np.testing.assert_allclose(
        np.exp(log_samples), random.gamma(key, 0.3, (draws,), method="approximate"), rtol=1e-5
    )


@pytest.mark.parametrize("name", ["gamma", "beta"])
def test_approximate_samples_differentiate_along_the_draw(name):
    # The draws are a smooth map of the parameter for a fixed key: the gradient is that
    # map's derivative, here against central differences (chisquare is gamma's, scaled).
    sampler = getattr(random, name)
    rest = METHOD_SAMPLERS[name][1:]

    def sample(first):
        return sampler(KEY, first, *rest, (4,), method="approximate")

    first = jnp.float32(METHOD_SAMPLERS[name][0])
    gradient = jax.jacrev(sample)(first)
    step = 1e-2
    central = (np.asarray(sample(first + step)) - np.asarray(sample(first - step))) / (2 * step)
    np.testing.assert_allclose(gradient, central, rtol=2e-2, atol=1e-4)


def test_approximate_samplers_jit_and_vmap():
    lam = jnp.array([0.5, 6.9, 7.0, 40.0])
    eager = random.poisson(KEY, lam, method="approximate")
    jitted = jax.jit(lambda key, lam: random.poisson(key, lam, method="approximate"))
    np.testing.assert_array_equal(jitted(KEY, lam), eager)
    keys = random.split(KEY, 3)
    batched = jax.vmap(lambda key: random.gamma(key, 2.0, (5,), method="approximate"))(keys)
    assert batched.shape == (3, 5) and batched.dtype == jnp.float32
    np.testing.assert_allclose(
        batched[1], random.gamma(keys[1], 2.0, (5,), method="approximate"), rtol=1e-5
    )


def test_approximate_poisson_checks_the_shape_and_takes_any_key():
    with pytest.raises(ValueError, match="broadcastable") as raised:
        random.poisson(KEY, jnp.ones((2, 1)), (2,), method="approximate")
    assert str(raised.value) == (
        "lam shape must be broadcastable to shape argument; got lam.shape (2, 1), shape (2,)"
    )
    with pytest.raises(ValueError, match="Incompatible shapes") as raised:
        random.poisson(KEY, jnp.ones(3), (2,), method="approximate")
    assert str(raised.value) == "Incompatible shapes for broadcasting: shapes=[(3,), (2,)]"
    # The exact sampler is threefry's only; the approximate one draws with any key.
    counts = random.poisson(random.key(1, impl="rbg"), 4.0, (6,), method="approximate")
    assert counts.shape == (6,) and counts.dtype == jnp.int32
    assert (np.asarray(counts) >= 0).all()


@pytest.mark.parametrize("name", ["gamma", "poisson"])
def test_approximate_samples_keep_the_out_sharding_asked(name):
    import inspect

    native = getattr(jax.random, name)
    if "out_sharding" not in inspect.signature(native).parameters:
        pytest.skip(f"JAX {jax.__version__}'s {name} takes no out_sharding (sharding in types)")
    from jaxcompat.sharding import AxisType, NamedSharding, PartitionSpec

    mesh = jaxcompat.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
    sampler = getattr(random, name)
    key = random.key(1)
    plain = sampler(key, *METHOD_SAMPLERS[name], (8,), method="approximate")
    with jaxcompat.set_mesh(mesh):
        placed = sampler(
            key,
            *METHOD_SAMPLERS[name],
            (8,),
            method="approximate",
            out_sharding=NamedSharding(mesh, PartitionSpec("x")),
        )
    assert placed.sharding.spec == PartitionSpec("x")
    np.testing.assert_allclose(placed, plain, rtol=1e-6)


# The newest JAX's keys of each implementation, recorded by tools/key_data_newest.py.
KEY_DATA = json.loads((Path(__file__).parent / "key_data_newest.json").read_text())["cases"]


@pytest.fixture
def partitionable_threefry():
    # Split keys and random bits follow jax_threefry_partitionable, True by default from JAX
    # 0.5.0 on: the newest's default, here on every row.
    saved = jax.config.jax_threefry_partitionable
    jax.config.update("jax_threefry_partitionable", True)
    yield
    jax.config.update("jax_threefry_partitionable", saved)


def _words(array):
    return np.asarray(array, np.uint32).ravel().tolist()


@pytest.mark.usefixtures("partitionable_threefry")
@pytest.mark.parametrize("case", KEY_DATA, ids=lambda case: f"{case['impl']}-{case['seed']}")
def test_key_and_prng_key_of_each_implementation_are_the_newest(case):
    key = random.key(case["seed"], impl=case["impl"])
    assert _words(random.key_data(key)) == case["key"]
    assert _words(random.PRNGKey(case["seed"], impl=case["impl"])) == case["PRNGKey"]
    assert _words(random.key_data(random.split(key))) == case["split"]
    assert _words(random.key_data(random.fold_in(key, 7))) == case["fold_in"]
    assert _words(random.bits(key, (4,))) == case["bits"]


def test_key_impl_is_a_name_or_an_implementation_object():
    # (A key dtype as impl= is the newest's dtype=, tested below: JAX 0.4.18-0.10.0's own
    # key refuses one as impl=.)
    dtype = random.key(0, impl="rbg").dtype
    assert dtype != random.key(0).dtype
    # The key dtype's implementation object: its _impl from JAX 0.4.21 on, impl before.
    implementation = getattr(dtype, "_impl", None) or dtype.impl
    for impl in ("rbg", implementation):
        key = random.key(3, impl=impl)
        assert key.dtype == dtype
        assert _words(random.key_data(key)) == _words(random.PRNGKey(3, impl=impl))
    jitted = jax.jit(lambda seed: random.key_data(random.key(seed, impl="unsafe_rbg")))
    assert _words(jitted(5)) == _words(random.key_data(random.key(5, impl="unsafe_rbg")))


def test_key_impl_errors_are_the_newest():
    with pytest.raises(ValueError, match="unrecognized PRNG implementation") as raised:
        random.key(0, impl="threefry")
    assert str(raised.value).startswith(
        'unrecognized PRNG implementation "threefry". Did you mean one of: "'
    )
    assert '"threefry2x32", "rbg", "unsafe_rbg"' in str(raised.value)
    with pytest.raises(TypeError, match="unrecognized type") as raised:
        random.PRNGKey(0, impl=3)
    assert str(raised.value) == (
        "unrecognized type <class 'int'> for specifying PRNG implementation."
    )
    for make_key, name in ((random.key, "key"), (random.PRNGKey, "PRNGKey")):
        with pytest.raises(TypeError, match="scalar seed") as raised:
            make_key(jnp.zeros(2, jnp.uint32), impl="rbg")
        assert str(raised.value) == (
            f"{name} accepts a scalar seed, but was given an array of shape (2,) != (). Use "
            "jax.vmap for batching"
        )
    with pytest.raises(ValueError, match="both") as raised:
        random.key(0, impl="rbg", dtype="rbg")
    assert str(raised.value) == "Cannot specify both `impl` and `dtype` arguments to jax.random.key"


def test_key_dtype_names_the_implementation_on_every_row():
    for impl in ("threefry2x32", "rbg", "unsafe_rbg"):
        by_name = random.key(4, dtype=impl)
        assert by_name.dtype == random.key(0, impl=impl).dtype
        by_dtype = random.key(4, dtype=by_name.dtype)
        assert _words(random.key_data(by_dtype)) == _words(random.key_data(by_name))
