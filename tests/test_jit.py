"""jaxcompat.jit: call forms, options and drop-in details, identical on every matrix row."""

import functools
import inspect
import pickle
import re

import cloudpickle
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat

from . import _pickled
from ._helpers import run_in_threads


def traced_count():
    calls = []

    def f(x, n=1):
        calls.append(1)
        return x * n

    return f, calls


def test_call_forms():
    def f(x, n):
        return x * n

    x = jnp.arange(3.0)
    assert jnp.array_equal(jaxcompat.jit(f, static_argnums=1)(x, 2), x * 2)
    decorated = jaxcompat.jit(lambda x: x + 1)
    assert float(decorated(1.0)) == 2.0

    @jaxcompat.jit
    def plain(x):
        return x - 1

    assert float(plain(1.0)) == 0.0

    @functools.partial(jaxcompat.jit, static_argnames="n")
    def partial_form(x, n):
        return x * n

    assert jnp.array_equal(partial_form(x, n=3), x * 3)

    @jaxcompat.jit(static_argnames="n")  # jax.jit only accepts this from 0.8.1
    def factory_form(x, n):
        return x * n

    assert jnp.array_equal(factory_form(x, n=4), x * 4)
    assert jnp.array_equal(factory_form(x, 4), x * 4)


def test_static_argnums_and_argnames_retrace_on_change_only():
    f, calls = traced_count()
    by_number = jaxcompat.jit(f, static_argnums=1)
    by_number(jnp.ones(2), 2)
    by_number(jnp.zeros(2), 2)
    assert len(calls) == 1
    by_number(jnp.ones(2), 3)
    assert len(calls) == 2

    def repeat(x, n):
        for _ in range(n):  # needs a concrete n: fails if n were traced
            x = x + 1
        return x

    by_name = jaxcompat.jit(repeat, static_argnames="n")
    assert float(by_name(jnp.float32(2), n=5)) == 7.0
    assert float(by_name(jnp.float32(3), 5)) == 8.0  # passed by position, still static
    by_position = jaxcompat.jit(repeat, static_argnums=1)
    assert float(by_position(jnp.float32(3), n=2)) == 5.0  # passed by name, still static


def test_argument_names_need_not_be_interned():
    # An equal but separate string, as pickle or a config file produces.
    name = "xn"[1:]
    assert name == "n"
    repeat = jaxcompat.jit(lambda x, n: x * n, static_argnames=name)
    assert float(repeat(jnp.float32(2), n=3)) == 6.0
    assert float(repeat(jnp.float32(2), 4)) == 8.0


def test_donate_argnums_donates():
    x = jnp.ones(4) + 0
    jaxcompat.jit(lambda a: a * 2, donate_argnums=0)(x)
    assert x.is_deleted()


def test_in_and_out_shardings():
    devices = np.array(jax.devices())
    assert devices.size >= 2
    mesh = jax.sharding.Mesh(devices, ("x",))
    split = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))
    whole = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
    f = jaxcompat.jit(lambda a: a * 2, in_shardings=split, out_shardings=whole)
    x = jnp.arange(float(devices.size * 2))
    out = f(x)
    assert jnp.array_equal(out, x * 2)
    assert out.sharding.is_equivalent_to(whole, out.ndim)


def _entry_parameters(hlo_text):
    signature = hlo_text[hlo_text.index("ENTRY") :].splitlines()[0].split("->")[0]
    return signature.count(":")


def test_keep_unused_keeps_the_unused_argument():
    def f(x, unused):
        return x + 1

    kept = jaxcompat.lower(jaxcompat.jit(f, keep_unused=True), 1.0, 2.0).compile().as_text()
    pruned = jaxcompat.lower(jaxcompat.jit(f), 1.0, 2.0).compile().as_text()
    assert _entry_parameters(kept) == 2
    assert _entry_parameters(pruned) == 1


def _nested_calls(jaxpr):
    return [e for e in jaxpr.jaxpr.eqns if e.primitive.name in ("pjit", "jit", "closed_call")]


def test_inline_means_what_jax_jit_makes_it_mean():
    # inline=True inlines into the enclosing jaxpr while tracing up to JAX 0.11.1, and only
    # when lowering from 0.11.2 (a nested call equation stays): as jax.jit does on each.
    def body(x):
        return jnp.sin(x) + 1

    def staged(jit, **options):
        return jax.make_jaxpr(lambda x: jit(body, **options)(x))(1.0)

    for options in ({"inline": True}, {}):
        ours, theirs = staged(jaxcompat.jit, **options), staged(jax.jit, **options)
        assert len(_nested_calls(ours)) == len(_nested_calls(theirs)), options
    assert len(_nested_calls(staged(jaxcompat.jit))) == 1
    assert float(jaxcompat.jit(lambda x: jaxcompat.jit(body, inline=True)(x))(0.0)) == 1.0


@pytest.mark.parametrize("option", ["abstracted_axes", "in_axis_resources", "fun", "static_args"])
def test_unknown_options_raise_naming_them(option):
    with pytest.raises(TypeError, match=repr(option)):
        jaxcompat.jit(lambda x: x, **{option: None})
    with pytest.raises(TypeError, match=repr(option)):
        jaxcompat.jit(**{option: None})


@pytest.mark.parametrize("option", ["device", "backend"])
def test_device_and_backend_are_accepted_with_jax_deprecation_warning(option):
    value = jax.devices("cpu")[0] if option == "device" else "cpu"
    with pytest.warns(DeprecationWarning, match="backend and device argument"):
        f = jaxcompat.jit(lambda x: x + 1, **{option: value})
    assert float(f(1.0)) == 2.0


def test_keeps_function_metadata():
    def documented(x, y=2):
        """Adds things."""
        return x + y

    jitted = jaxcompat.jit(documented)
    assert jitted.__wrapped__ is documented
    assert jitted.__name__ == "documented"
    assert jitted.__doc__ == "Adds things."
    assert inspect.signature(jitted) == inspect.signature(documented)
    # Without following __wrapped__, as chex's fake_pmap asks: jax.jit's own function answers.
    assert inspect.signature(jitted, follow_wrapped=False) == inspect.signature(documented)
    assert "documented" in repr(jitted)


def test_repr_never_raises_as_under_jax_jit():
    # JAX's own jit test (api_test JitTest.test_jit_repr_errors): the repr of a jitted
    # callable whose own repr raises, or whose __wrapped__ was deleted, still works.
    class Callable:
        def __call__(self, x):
            return x

        def __repr__(self):
            raise ValueError("invalid repr")

    class Model:
        def apply(self, x):
            return x

        def __repr__(self):
            raise ValueError("invalid repr")

    function = Callable()
    jitted = jaxcompat.jit(function)
    assert repr(jitted) == repr(jax.jit(function))  # JAX's own repr
    del jitted.__wrapped__
    assert isinstance(repr(jitted), str)
    assert repr(jaxcompat.jit(Model().apply)) == "<jaxcompat.jit>"
    assert float(jitted(2.0)) == 2.0
    assert repr(jaxcompat.jit(f_module_level)) == repr(jax.jit(f_module_level))


def test_jit_of_a_method_is_jaxcompat_method_jit():
    # JAX's jit of a method traces self as an argument; jaxcompat's reads its state on every
    # call (test_methods.py), in a class body, bound, as classmethod and staticmethod.
    class C:
        @jaxcompat.jit
        def f(self, x):
            return x

        @jaxcompat.jit
        @staticmethod
        def g(x):
            return x

    plain = type(jax.jit(f_module_level))
    assert type(C.__dict__["f"]) is not plain
    assert type(jaxcompat.jit(C().f.__wrapped__)) is not plain
    assert type(C.__dict__["g"]) is staticmethod
    assert float(C().f(2.0)) == float(C.g(2.0)) == 2.0


def f_module_level(x):
    return x * 2


def test_functions_in_comprehensions_and_lambdas_are_plain_jits():
    # `<genexpr>.<lambda>` (and `<setcomp>.<lambda>` before Python 3.12 inlined comprehensions)
    # names no class: the jit is a plain one, of the one type of every plain jit.
    plain = type(jaxcompat.jit(f_module_level))
    assert next(type(jaxcompat.jit(lambda x: x)) for _ in range(1)) is plain
    assert {type(jaxcompat.jit(lambda x: x)) for _ in range(1)} == {plain}
    static = next(jaxcompat.jit(lambda x, n: x * n, static_argnums=1) for _ in range(1))
    assert (type(static), float(static(2.0, 3))) == (plain, 6.0)
    donated = next(jaxcompat.jit(lambda x, y: x + y, donate_argnums=0) for _ in range(1))
    assert float(donated(jnp.float32(1.0), 2.0)) == 3.0


def test_replacing_jax_jit_with_jaxcompat_jit_works(monkeypatch):
    # A drop-in used the blunt way (a test suite run through jaxcompat, as JAX's own jit
    # tests are): jaxcompat's jit keeps JAX's own jit, read once, and never calls itself.
    monkeypatch.setattr(jax, "jit", jaxcompat.jit)
    add_one = jax.jit(lambda x: x + 1)
    assert float(add_one(1.0)) == 2.0
    assert float(jax.jit(add_one)(2.0)) == 3.0
    assert float(jaxcompat.lower(add_one, 1.0).compile()(1.0)) == 2.0
    assert add_one.trace(1.0).lower().compile()(4.0) == 5.0

    class Model:
        def __init__(self):
            self.w = jnp.ones(2)

        @jax.jit
        def apply(self, x):
            return self.w * x

    assert jnp.array_equal(Model().apply(3.0), jnp.full(2, 3.0))


def test_a_double_patched_onto_jax_jit_is_called_as_under_raw_jax(monkeypatch):
    # chex's OnCallOfTransformedFunction("jax.jit", ...) patches JAX's module; code ported to
    # jaxcompat.jit must reach the double as raw JAX code does.
    calls = []

    def counting_jit(fun, **options):
        calls.append((fun, options))
        return jax_jit(fun, **options)

    jax_jit = jax.jit
    monkeypatch.setattr(jax, "jit", counting_jit)
    assert float(jaxcompat.jit(jnp.sum)(jnp.ones(3))) == float(jax.jit(jnp.sum)(jnp.ones(3)))
    jaxcompat.jit(f_module_level, static_argnums=0)
    assert calls == [(jnp.sum, {}), (jnp.sum, {}), (f_module_level, {"static_argnums": 0})]


@pytest.mark.parametrize("placed", ["partial", "wraps"])
def test_a_wrapper_of_jaxcompat_jit_on_jax_jit_does_not_call_itself(monkeypatch, placed):
    if placed == "partial":
        monkeypatch.setattr(jax, "jit", functools.partial(jaxcompat.jit, inline=False))
    else:
        monkeypatch.setattr(jax, "jit", functools.wraps(jaxcompat.jit)(lambda f: jaxcompat.jit(f)))
    assert float(jax.jit(lambda x: x + 1)(1.0)) == 2.0


def test_state_is_jax_own_jitted_function_state():
    # What JAX's jitted function gives, as code that reads it from jax.jit expects (its
    # function_name); pickling goes by __reduce__ (test_pickles).
    ours, theirs = jaxcompat.jit(f_module_level), jax.jit(f_module_level)
    assert ours.__getstate__()["function_name"] == theirs.__getstate__()["function_name"]
    assert ours.__getstate__()["function_name"] == "f_module_level"


def test_a_static_class_of_a_classmethod_is_hashed_as_a_static_self_is():
    # jit over @classmethod with the class static (static_argnums=0, or its name): the class
    # is a static argument, as self is for a method with static_argnums=0.
    class C:
        k = 2.0

        @functools.partial(jaxcompat.jit, static_argnums=0)
        @classmethod
        def by_number(cls, x):
            return x * cls.k

        @functools.partial(jaxcompat.jit, static_argnames="cls")
        @classmethod
        def by_name(cls, x):
            return x * cls.k

    assert float(C.by_number(3.0)) == 6.0
    assert float(C().by_number(1.0)) == 2.0
    assert float(C.by_name(2.0)) == 4.0


def test_has_aot_methods_and_clear_cache():
    jitted = jaxcompat.jit(lambda x: x * 2)
    for name in ("lower", "trace", "eval_shape", "clear_cache"):
        assert callable(getattr(jitted, name)), name
    assert jitted.eval_shape(jnp.ones(3)).shape == (3,)
    jitted(1.0)
    jitted.clear_cache()
    assert float(jitted(2.0)) == 4.0


def test_offers_every_public_attribute_of_jax_jit():
    ours, theirs = jaxcompat.jit(_pickled.add_one), jax.jit(_pickled.add_one)
    public = [name for name in dir(theirs) if not name.startswith("_")]
    assert public
    for name in public:
        assert hasattr(ours, name), name


def test_non_callable_gives_jax_error():
    with pytest.raises(TypeError) as theirs:
        jax.jit(3)
    with pytest.raises(TypeError) as ours:
        jaxcompat.jit(3)
    assert str(ours.value) == str(theirs.value)


def test_pickles_with_cloudpickle():
    jitted = jaxcompat.jit(_pickled.scale, static_argnames="n")
    restored = cloudpickle.loads(cloudpickle.dumps(jitted))
    assert jnp.array_equal(restored(jnp.ones(2), n=3), jnp.full(2, 3.0))
    assert type(restored) is type(jitted)


def _scaler_class(jit):
    class Scaler:
        """A class whose method is jitted with `self` static (hashed by identity)."""

        def __init__(self, factor):
            self.factor = factor

        @functools.partial(jit, static_argnames=("self",))
        def apply(self, x):
            return x * self.factor

    return Scaler


# Module-level, so that pickle finds them by reference.
_OurScaler, _TheirScaler = _scaler_class(jaxcompat.jit), _scaler_class(jax.jit)
_OurScaler.__qualname__, _TheirScaler.__qualname__ = "_OurScaler", "_TheirScaler"


def test_a_method_bound_with_static_self_pickles_where_jax_s_does():
    def outcome(scaler):
        bound = scaler(3.0).apply
        try:
            restored = cloudpickle.loads(cloudpickle.dumps(bound))
        except Exception as error:
            return type(error).__name__
        return float(restored(2.0)), restored.__self__.factor, restored.__self__ is bound.__self__

    assert outcome(_OurScaler) == outcome(_TheirScaler)


def test_pickles_with_pickle_exactly_where_jax_jit_does():
    # JAX's jitted function's state holds a local function, which pickle cannot find by
    # name: jaxcompat's pickles exactly as JAX's does, with the same error where it fails.
    def outcome(jitted):
        try:
            return pickle.loads(pickle.dumps(jitted))(jnp.ones(2), n=3)
        except Exception as error:
            return f"{type(error).__name__}: {error}"

    ours = outcome(jaxcompat.jit(_pickled.scale, static_argnames="n"))
    theirs = outcome(jax.jit(_pickled.scale, static_argnames="n"))
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        assert jnp.array_equal(ours, theirs)


def test_concurrent_calls_from_threads():
    jitted = jaxcompat.jit(lambda x, n: x * n, static_argnums=1)

    def worker(i):
        # Two static values among six threads: three threads race on each program, and a
        # thread handed the other value's program would see the wrong product.
        n = 2 + i % 2
        for size in range(1, 5):
            # Input and product from NumPy: the threads compile only what they race on.
            x = np.arange(size, dtype=np.float32)
            assert np.array_equal(jitted(jnp.asarray(x), n), x * n)

    assert run_in_threads(worker, 6) == []


def _two(x, y):
    return x + y


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"static_argnums": 2},
            "Jitted function has static_argnums=(2,), but only accepts 2 positional arguments.",
        ),
        (
            {"static_argnums": -3},
            "Jitted function has static_argnums=(-3,), but only accepts 2 positional arguments.",
        ),
        (
            {"donate_argnums": (0, 5)},
            "Jitted function has donate_argnums=(0, 5), but only accepts 2 positional arguments.",
        ),
        (
            {"static_argnames": "z"},
            "Jitted function has invalid argnames {'z'} in static_argnames. Function does not "
            "take these args.",
        ),
        (
            {"static_argnums": 0, "donate_argnums": 0},
            "static_argnames and donate_argnames cannot intersect. Argument names {'x'} appear "
            "in both static_argnames and donate_argnames",
        ),
    ],
)
def test_bad_argument_options_raise_the_newest_error(options, message):
    with pytest.raises(ValueError, match=re.escape(message)) as raised:
        jaxcompat.jit(_two, **options)
    assert str(raised.value) == message
    with pytest.raises(ValueError, match=re.escape(message)) as raised:  # the factory form too
        jaxcompat.jit(**options)(_two)
    assert str(raised.value) == message


def test_bad_argument_options_on_methods_count_as_the_method_is_given():
    class Holder:
        def method(self, x):
            return x

        @jaxcompat.jit(static_argnums=1)
        def decorated(self, x):
            return x

    with pytest.raises(ValueError, match=r"static_argnums=\(1,\), but only accepts 1 positional"):
        jaxcompat.jit(Holder().method, static_argnums=1)
    with pytest.raises(ValueError, match=r"invalid argnames \{'y'\} in static_argnames"):
        jaxcompat.jit(Holder().method, static_argnames="y")
    with pytest.raises(ValueError, match=r"static_argnums=\(2,\), but only accepts 2 positional"):
        jaxcompat.jit(Holder.method, static_argnums=2)
    assert float(Holder().decorated(3.0)) == 3.0


def test_variadic_functions_take_any_argument_option():
    def variadic(*args, **kwargs):
        return args[0]

    assert float(jaxcompat.jit(variadic, static_argnums=3, static_argnames="k")(1.0)) == 1.0
