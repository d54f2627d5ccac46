"""Methods under jaxcompat.jit: never stale, identical on every matrix row."""

import threading

import jax
import jax.numpy as jnp
import pytest

import jaxcompat

from ._helpers import run_in_threads

TRACES = []


def calc_class():
    """A fresh class per test, so that no test reuses code another one compiled."""

    class Calc:
        def __init__(self):
            self.weights = jnp.arange(3.0)
            self.mul = True
            self.names = ["a", "b"]

        def calc(self, x):
            TRACES.append(len(self.names))  # reads names while tracing
            out = self.weights * x
            return out * 2 if self.mul else out

    return Calc


class Calc:
    def __init__(self):
        self.weights = jnp.arange(3.0)
        self.mul = True
        self.names = ["a", "b"]

    def calc(self, x):
        TRACES.append(1)
        out = self.weights * x
        return out * 2 if self.mul else out


class Decorated:
    def __init__(self):
        self.weights = jnp.ones(3)
        self.offset = 1.0
        self.traced = 0
        self.cache = {}

    @jaxcompat.jit
    def apply(self, x):
        self.traced += 1  # a Python-level counter, set while tracing
        self.cache["last_shape"] = x.shape
        return self.weights * x + self.offset

    @jaxcompat.jit(static_argnums=2)
    def repeat(self, x, times):
        for _ in range(times):
            x = x + self.offset
        return x


@pytest.fixture(autouse=True)
def _reset_traces():
    TRACES.clear()


def test_bound_method_reads_current_state():
    c = Calc()
    jitted = jaxcompat.jit(c.calc)
    assert jnp.array_equal(jitted(1.0), jnp.arange(3.0) * 2)
    c.mul = False  # plain jax.jit would keep returning the old result
    assert jnp.array_equal(jitted(1.0), jnp.arange(3.0))
    assert jnp.array_equal(jaxcompat.jit(c.calc)(1.0), jnp.arange(3.0))


def test_array_attributes_are_traced_and_reuse_compiled_code():
    c = calc_class()()
    jitted = jaxcompat.jit(c.calc)
    jitted(1.0)
    assert len(TRACES) == 1
    c.weights = jnp.ones(3) * 7
    assert jnp.array_equal(jitted(1.0), jnp.full(3, 14.0))
    assert len(TRACES) == 1  # same shapes: the compiled code is reused
    other = type(c)()
    other.weights = jnp.ones(3)
    assert jnp.array_equal(jaxcompat.jit(other.calc)(1.0), jnp.full(3, 2.0))
    assert len(TRACES) == 1  # another instance with equal state shares it too


def test_other_attributes_are_constants_compared_by_value():
    c = calc_class()()
    jitted = jaxcompat.jit(c.calc)
    jitted(1.0)
    c.mul = False
    assert jnp.array_equal(jitted(1.0), jnp.arange(3.0))
    assert len(TRACES) == 2
    jitted(1.0)
    assert len(TRACES) == 2
    c.names = ["a", "b"]  # a new list, equal to the old one: nothing changed
    jitted(1.0)
    assert len(TRACES) == 2
    c.names = ["rebound"]
    jitted(1.0)
    assert len(TRACES) == 3
    c.names.append("in place")  # mutated in place: seen too
    jitted(1.0)
    assert len(TRACES) == 4


class SlotsAndDict:
    __slots__ = ("__dict__", "weights")

    def __init__(self):
        self.offset = 1.0  # in the instance __dict__; weights is a slot, unset for now

    @jaxcompat.jit
    def apply(self, x):
        return x + self.offset + (self.weights if hasattr(self, "weights") else 0.0)


def test_slot_attributes_set_after_a_call_are_seen():
    s = SlotsAndDict()
    assert float(s.apply(jnp.float32(1))) == 2.0
    s.weights = jnp.float32(10)  # the __dict__ is unchanged; the slot is not
    assert float(s.apply(jnp.float32(1))) == 12.0
    s.weights = jnp.float32(20)
    assert float(s.apply(jnp.float32(1))) == 22.0


def test_decorated_method_in_class_body():
    d = Decorated()
    assert jnp.array_equal(d.apply(2.0), jnp.full(3, 3.0))
    d.offset = 5.0
    assert jnp.array_equal(d.apply(2.0), jnp.full(3, 7.0))
    d.weights = jnp.zeros(3)
    assert jnp.array_equal(d.apply(2.0), jnp.full(3, 5.0))
    assert float(d.repeat(jnp.float32(0), 3)) == 15.0
    assert d.apply.__name__ == "apply"
    assert "apply" in repr(d.apply)


def test_side_effects_while_tracing_land_on_the_instance():
    d = Decorated()
    d.apply(jnp.ones(3))
    d.apply(jnp.ones(3) * 2)
    assert d.traced == 1  # traced once, like jax.jit; the counter does not force retraces
    assert d.cache == {"last_shape": (3,)}
    d.apply(jnp.ones((2, 3)))  # a new shape retraces, and the counter says so
    assert d.traced == 2
    assert not any(jaxcompat.is_tracer(v) for v in vars(d).values())


@jax.tree_util.register_pytree_node_class
class PytreeModel:
    def __init__(self, weights, label):
        self.weights = weights
        self.label = label

    def tree_flatten(self):
        return (self.weights,), self.label

    @classmethod
    def tree_unflatten(cls, label, children):
        return cls(children[0], label)

    @jaxcompat.jit
    def predict(self, x):
        TRACES.append(1)
        return self.weights * x


def test_registered_pytree_instance_is_passed_as_a_pytree():
    model = PytreeModel(jnp.ones(2), "a")
    PytreeModel.predict.clear_cache()
    assert jnp.array_equal(model.predict(3.0), jnp.full(2, 3.0))
    model.weights = jnp.ones(2) * 2  # jnp.full(2, 2.0) would be weakly typed: a new type
    assert jnp.array_equal(model.predict(3.0), jnp.full(2, 6.0))
    assert len(TRACES) == 1
    model.label = "b"  # auxiliary data is part of the structure
    model.predict(3.0)
    assert len(TRACES) == 2


class Awkward:
    def __init__(self):
        self.by_type = {int: "int", float: "float"}  # does not flatten: keys unsortable
        self.lock = threading.Lock()  # no value but its identity
        self.params = {"w": jnp.ones(2), "b": jnp.zeros(2)}  # a pytree of arrays
        self.mixed = [jnp.ones(2), "tag", 3]
        self.weights = jnp.ones(2)

    def run(self, x):
        assert self.by_type[int] == "int"
        return (self.params["w"] * x + self.params["b"] + self.mixed[0]) * self.mixed[2]


def test_attributes_that_jax_cannot_flatten_are_compared_too():
    a = Awkward()
    jitted = jaxcompat.jit(a.run)
    assert jnp.array_equal(jitted(1.0), jnp.full(2, 6.0))
    a.params = {"w": jnp.full(2, 2.0), "b": jnp.ones(2)}
    a.mixed = [jnp.zeros(2), "tag", 3]
    assert jnp.array_equal(jitted(1.0), jnp.full(2, 9.0))
    a.mixed[2] = 4  # in place, inside a list that also holds an array
    assert jnp.array_equal(jitted(1.0), jnp.full(2, 12.0))
    a.by_type[int] = "changed"
    with pytest.raises(AssertionError):  # the method's own assert: it ran on the new state
        jitted(1.0)


def test_lower_a_method():
    c = Calc()
    compiled = jaxcompat.lower(c.calc, 2.0).compile()
    assert jnp.array_equal(compiled(2.0), c.calc(2.0))
    d = Decorated()
    assert jnp.array_equal(jaxcompat.lower(d.apply, 2.0).compile()(2.0), d.apply(2.0))
    repeated = jaxcompat.lower(d.repeat, jnp.float32(0), 2).compile()
    assert float(repeated(jnp.float32(0))) == float(d.repeat(jnp.float32(0), 2)) == 2.0
    d.weights = jnp.full(3, 4.0)  # compiled code reads the instance's current arrays
    assert jnp.array_equal(jaxcompat.lower(d.apply, 1.0).compile()(1.0), d.apply(1.0))
    traced = jaxcompat.trace(d.apply, 1.0)
    assert traced.out_info.shape == (3,)
    assert jnp.array_equal(traced.lower().compile()(1.0), d.apply(1.0))


def test_static_self_behaves_like_jax():
    class Hashable:
        def __init__(self, k):
            self.k = k

        def __hash__(self):
            return hash(self.k)

        def __eq__(self, other):
            return isinstance(other, Hashable) and other.k == self.k

        @jaxcompat.jit(static_argnums=0)
        def times(self, x):
            return x * self.k

    assert float(Hashable(3).times(2.0)) == 6.0
    assert float(jaxcompat.lower(Hashable(4).times, 2.0).compile()(2.0)) == 8.0


def test_methods_are_thread_safe():
    d = Decorated()

    def worker(i):
        for _ in range(20):
            assert jnp.array_equal(d.apply(jnp.full(3, float(i))), jnp.full(3, i + 1.0))

    assert run_in_threads(worker, 4) == []


def test_bound_methods_keep_metadata():
    import inspect

    c = Calc()
    jitted = jaxcompat.jit(c.calc)
    assert inspect.signature(jitted) == inspect.signature(c.calc)
    assert jitted.__name__ == "calc"
    assert jitted.__self__ is c
    d = Decorated()
    assert inspect.signature(d.apply) == inspect.signature(lambda x: x)
    assert d.apply.__wrapped__.__self__ is d


# --- Side effects on self while tracing: as under jax.jit, each instance is traced --------


def saver_class():
    """A fresh class per test: equal instances, so compiled code could be shared."""

    class Saver:
        def __init__(self):
            self.weights = jnp.ones(2)
            self.scale = 2.0

        def helper_save_tracer(self, x):  # as in JAX's own api_test.py
            self._saved_tracer = x
            return x

    return Saver


@pytest.mark.parametrize("jit", [jax.jit, jaxcompat.jit], ids=["jax.jit", "jaxcompat.jit"])
def test_a_tracer_saved_on_self_lands_on_each_instance(jit):
    saver = saver_class()
    first, second = saver(), saver()
    jit(first.helper_save_tracer)(0.0)
    jit(second.helper_save_tracer)(0.0)  # equal state: under jax.jit traced all the same
    for instance in (first, second):
        assert jaxcompat.is_tracer(instance._saved_tracer)
        with pytest.raises(jax.errors.UnexpectedTracerError, match="Encountered an unexpected"):
            jit(lambda x, instance=instance: instance._saved_tracer)(0.0)
        with pytest.raises(jax.errors.UnexpectedTracerError) as leaked:
            instance._saved_tracer + 1
        # JAX names the method that leaked it, in this file, as it does under jax.jit.
        assert f"helper_save_tracer at {__file__}:" in str(leaked.value)
        with pytest.raises(jax.errors.UnexpectedTracerError, match="Encountered an unexpected"):
            jit(lambda x: x)(instance._saved_tracer)
    assert first._saved_tracer is not second._saved_tracer


def counter_class():
    class Counter:
        def __init__(self):
            self.weights = jnp.ones(2)
            self.traces = 0

        @jaxcompat.jit
        def apply(self, x):
            self.traces += 1  # while tracing
            return self.weights * x * self.traces

        @jaxcompat.jit
        def pure(self, x):
            TRACES.append(1)  # not on self: no side effect on the instance
            return self.weights * x

    return Counter


def test_a_counter_on_self_while_tracing_lands_on_each_instance():
    counter = counter_class()
    first, second = counter(), counter()
    assert jnp.array_equal(first.apply(3.0), jnp.full(2, 3.0))
    assert jnp.array_equal(second.apply(3.0), jnp.full(2, 3.0))
    assert (first.traces, second.traces) == (1, 1)
    third = counter()
    third.traces = 1  # equal to what the others reached by tracing, but its own: traced
    assert jnp.array_equal(third.apply(3.0), jnp.full(2, 6.0))
    assert third.traces == 2
    assert (first.traces, second.traces) == (1, 1)


def test_a_write_below_self_while_tracing_lands_on_each_instance():
    class Cached:
        def __init__(self):
            self.weights = jnp.ones(2)
            self.cache = {}
            self.log = []

        @jaxcompat.jit
        def apply(self, x):
            self.cache["shape"] = x.shape
            self.log.append("traced")
            return self.weights * x

    first, second = Cached(), Cached()
    first.apply(jnp.ones(2))
    second.apply(jnp.ones(2))
    for instance in (first, second):
        assert instance.cache == {"shape": (2,)}
        assert instance.log == ["traced"]


@pytest.mark.parametrize("jit", [jax.jit, jaxcompat.jit], ids=["jax.jit", "jaxcompat.jit"])
def test_a_method_that_writes_to_self_is_traced_once_per_instance(jit):
    class Counter:
        def __init__(self):
            self.weights = jnp.ones(2)
            self.traces = 0

        def apply(self, x):
            self.traces += 1
            return self.weights * x

    first, second = Counter(), Counter()
    jitted_first, jitted_second = jit(first.apply), jit(second.apply)
    jitted_first(1.0)
    jitted_first(2.0)
    # A new jit of the same bound method, while one lives: JAX's cache holds it too.
    jit(first.apply)(3.0)
    jitted_second(1.0)
    jit(second.apply)(2.0)
    jitted_first(4.0)
    assert (first.traces, second.traces) == (1, 1)
    jitted_first(jnp.ones(2))  # a new argument shape: traced again on that instance alone
    assert (first.traces, second.traces) == (2, 1)


def test_a_method_that_writes_to_self_keeps_its_trace_across_jit_objects():
    counter = counter_class()
    instance = counter()
    for value in (1.0, 2.0, 3.0):
        jaxcompat.jit(instance.apply)(value)  # each jit object dropped at once
        instance.apply(value)
    # jax.jit traces a bound method again once no jitted function of it is alive; compiled
    # code shared per method keeps the trace as long as the instance lives.
    assert instance.traces == 1


def test_a_method_that_writes_nothing_shares_compiled_code():
    counter = counter_class()
    instances = [counter() for _ in range(3)]
    instances[0].apply(1.0)  # another method of the class writes: this one still shares
    for instance in instances:
        assert jnp.array_equal(instance.pure(2.0), jnp.full(2, 2.0))
        assert jnp.array_equal(jaxcompat.jit(instance.pure)(2.0), jnp.full(2, 2.0))
    assert len(TRACES) == 1


def test_an_attribute_deleted_while_tracing_is_deleted_on_each_instance():
    class Scratch:
        def __init__(self):
            self.weights = jnp.ones(2)
            self.scratch = "unused"

        @jaxcompat.jit
        def apply(self, x):
            if hasattr(self, "scratch"):
                del self.scratch
            return self.weights * x

    first, second = Scratch(), Scratch()
    first.apply(1.0)
    second.apply(1.0)
    assert not hasattr(first, "scratch") and not hasattr(second, "scratch")


def test_side_effects_land_on_instances_without_weak_references():
    class Slotted:
        __slots__ = ("traces", "weights")

        def __init__(self):
            self.weights = jnp.ones(2)
            self.traces = 0

        @jaxcompat.jit
        def apply(self, x):
            self.traces += 1
            return self.weights * x

    first, second = Slotted(), Slotted()
    first.apply(1.0)
    second.apply(1.0)
    first.apply(1.0)
    assert (first.traces, second.traces) == (1, 1)


def test_lowering_a_method_that_writes_to_self_lands_on_each_instance():
    counter = counter_class()
    first, second = counter(), counter()
    compiled = first.apply.lower(2.0).compile()
    assert first.traces == 1
    assert jnp.array_equal(compiled(2.0), jnp.full(2, 2.0))  # its state after the trace
    assert jnp.array_equal(second.apply.lower(2.0).compile()(2.0), jnp.full(2, 2.0))
    assert second.traces == 1


def test_side_effects_land_on_each_new_instance_after_others_are_gone():
    import weakref

    counter = counter_class()
    for _ in range(3):  # a new instance may reuse a freed one's id: it is traced all the same
        instance = counter()
        instance.apply(1.0)
        assert instance.traces == 1
        alive = weakref.ref(instance)
        del instance
        assert alive() is None  # freed at once, as without jit: no cycle holds it
