"""What a jitted method reads from self: compared on every call, at any depth.

Every rule of the "Methods" part of ``help(jaxcompat.jit)`` has a test here or in
test_method_binding.py; all assertions are identical on every matrix row.
"""

import dataclasses
import functools
import io
import logging
import threading
import unittest

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat

from ._helpers import run_in_threads


class Leaf:
    def __init__(self):
        self.scale = 2.0
        self.terms = [1.0, 2.0]
        self.table = {"offset": 1.0}
        self.w = jnp.ones(2)


class Middle:
    def __init__(self):
        self.leaf = Leaf()
        self.scale = 1.0


class Model:
    """State at depth 1 (self.scale), 2 (self.cfg.x) and 3 (self.cfg.leaf.x)."""

    def __init__(self):
        self.scale = 1.0
        self.terms = [0.0]
        self.cfg = Middle()
        self.traces = 0

    def plain(self, x):
        leaf = self.cfg.leaf
        total = self.scale * self.cfg.scale * leaf.scale * sum(leaf.terms) * sum(self.terms)
        return leaf.w * x * total + leaf.table["offset"] + self.cfg.scale

    @jaxcompat.jit
    def apply(self, x):
        self.traces += 1
        return self.plain(x)


def same_as_plain(model, x=1.0):
    jitted = model.apply(x)
    np.testing.assert_allclose(jitted, model.plain(x), rtol=1e-6)
    return jitted


CHANGES = {
    # depth 1
    "rebind at depth 1": lambda m: setattr(m, "scale", 3.0),
    "in place at depth 1": lambda m: m.terms.append(5.0),
    # depth 2
    "rebind at depth 2": lambda m: setattr(m.cfg, "scale", 4.0),
    "rebind an object at depth 2": lambda m: (
        setattr(m.cfg, "leaf", Leaf()) or setattr(m.cfg.leaf, "scale", 7.0)
    ),
    # depth 3
    "rebind at depth 3": lambda m: setattr(m.cfg.leaf, "scale", 5.0),
    "in place in a list at depth 3": lambda m: m.cfg.leaf.terms.__setitem__(0, 10.0),
    "append to a list at depth 3": lambda m: m.cfg.leaf.terms.append(3.0),
    "in place in a dict at depth 3": lambda m: m.cfg.leaf.table.__setitem__("offset", 9.0),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_never_stale(change):
    model = Model()
    model.terms = [1.0]
    before = same_as_plain(model)
    CHANGES[change](model)
    after = same_as_plain(model)
    assert not np.allclose(before, after), "the change must change the result"
    same_as_plain(model)


def test_equal_state_reuses_the_compiled_code():
    model = Model()
    model.terms = [1.0]
    same_as_plain(model)
    traces = model.traces
    model.cfg.leaf.terms = [1.0, 2.0]  # a new list, equal to the old one
    model.cfg = Middle()  # a new object, equal in every attribute
    same_as_plain(model)
    assert model.traces == traces


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_arrays_at_any_depth_are_traced(depth):
    model = Model()
    model.terms = [1.0]
    holder = [model, model.cfg, model.cfg.leaf][depth - 1]
    holder.extra = jnp.zeros(2)
    same_as_plain(model)
    traces = model.traces
    for value in (1.0, 2.0, 3.0):
        model.cfg.leaf.w = jnp.ones(2) * value  # new values, same shape: no retrace
        holder.extra = jnp.ones(2) * value
        same_as_plain(model)
    assert model.traces == traces


def test_arrays_in_containers_and_dataclasses_are_traced():
    @dataclasses.dataclass
    class Params:
        w: jax.Array
        b: list

    class Net:
        def __init__(self):
            self.params = {"layers": [Params(jnp.ones(2), [jnp.zeros(2), 1.0])]}
            self.traces = 0

        @jaxcompat.jit
        def apply(self, x):
            self.traces += 1
            p = self.params["layers"][0]
            return p.w * x + p.b[0] * p.b[1]

    net = Net()
    assert jnp.array_equal(net.apply(2.0), jnp.full(2, 2.0))
    net.params["layers"][0].b[0] = jnp.ones(2) * 3  # in place, an array at depth 4
    assert jnp.array_equal(net.apply(2.0), jnp.full(2, 5.0))
    assert net.traces == 1
    net.params["layers"][0].b[1] = 2.0  # a non-array value at the same depth: retraces
    assert jnp.array_equal(net.apply(2.0), jnp.full(2, 8.0))
    assert net.traces == 2


def test_numpy_arrays_in_state_are_traced():
    model = Model()
    model.terms = [1.0]
    model.cfg.leaf.w = np.ones(2, np.float32)
    same_as_plain(model)
    model.cfg.leaf.w[:] = 4.0  # numpy arrays are mutable: changed in place, still seen
    assert float(same_as_plain(model)[0]) == float(model.plain(1.0)[0])


def test_types_count_not_just_equality():
    model = Model()
    model.terms = [1.0]
    same_as_plain(model)
    model.scale = 1  # equal to 1.0, but another type
    traces = model.traces
    same_as_plain(model)
    assert model.traces == traces + 1


class Raises:
    __slots__ = ()

    def __eq__(self, other):
        raise RuntimeError("no comparing me")

    def __hash__(self):
        return 1


def _generator():
    yield 1


UNCOMPARABLE = {
    "generator": _generator,
    "open file": lambda: io.StringIO("text"),
    "raising __eq__": Raises,
}


@pytest.mark.parametrize("what", sorted(UNCOMPARABLE))
def test_uncomparable_state_the_method_never_reads_is_no_error(what):
    # As under jax.jit: state the method does not touch does not matter.
    model = Model()
    model.cfg.loader = loader = UNCOMPARABLE[what]()
    same_as_plain(model)
    traces = model.traces
    same_as_plain(model)
    assert model.traces == traces  # the same object: the compiled code is reused
    model.cfg.leaf.terms.append(4.0)  # and never stale around it
    same_as_plain(model)
    assert model.cfg.loader is loader  # the real object, never its stand-in
    model.cfg.loader = UNCOMPARABLE[what]()  # another one: traced again, correctly
    same_as_plain(model)


class Reading(Model):
    def __init__(self, read):
        super().__init__()
        self.read = read

    @jaxcompat.jit
    def apply(self, x):
        self.read(self.cfg.loader)
        return self.plain(x)


READS = {
    "an attribute": lambda loader: loader.close,
    "next": next,
    "iteration": list,
    "truth": bool,
    "==": lambda loader: loader == 1,
    "repr": repr,
    "a call": lambda loader: loader(),
}


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize("what", sorted(UNCOMPARABLE))
def test_uncomparable_state_the_method_reads_gets_an_error_naming_its_path(what, read):
    model = Reading(READS[read])
    model.cfg.loader = UNCOMPARABLE[what]()
    why = {
        "generator": "an iterator or open file has no value to compare",
        "open file": "an iterator or open file has no value to compare",
        "raising __eq__": "its __hash__ or __eq__ raised RuntimeError('no comparing me')",
    }[what]
    expected = (
        f"jaxcompat.jit cannot tell whether self.cfg.loader ({type(model.cfg.loader).__name__}) "
        f"changed between calls: {why}. The method read it while it was traced, and a compiled "
        "call would not see it change. Pass the object as an argument instead, keep it on "
        "another object, or make self static with static_argnums=0 (self is then hashed and "
        "compared with its own __hash__ and __eq__)."
    )
    with pytest.raises(TypeError) as raised:
        model.apply(1.0)
    assert str(raised.value) == expected
    del model.cfg.loader
    with pytest.raises(AttributeError):  # the method's own error, as under jax.jit
        model.apply(1.0)


class Service:
    """An object holding what has no value: a logger with a handler, an open file, a thread."""

    def __init__(self, path):
        self.w = jnp.arange(3.0)
        self.scale = 2.0
        self.log = logging.getLogger(f"test_method_state.{id(self)}")
        self.log.addHandler(logging.StreamHandler(io.StringIO()))
        self.file = open(path, "w")  # noqa: SIM115
        self.stop = threading.Event()
        self.worker = threading.Thread(target=self.stop.wait, daemon=True)
        self.worker.start()
        self.batches = iter(range(10))

    def close(self):
        self.stop.set()
        self.worker.join()
        self.file.close()

    def plain(self, x):
        return self.w * x * self.scale

    @jaxcompat.jit
    def predict(self, x):
        return self.plain(x)

    @jaxcompat.jit
    def predict_and_log(self, x):  # a logger compares by identity: logging is a side effect
        self.log.warning("tracing predict")
        return self.plain(x)

    @jaxcompat.jit
    def predict_and_write(self, x):
        self.file.write("tracing predict")
        return self.plain(x)


def test_loggers_files_threads_and_iterators_the_method_never_reads(tmp_path):
    service = Service(tmp_path / "out.txt")
    try:
        for form in (service.predict, jaxcompat.jit(service.plain), service.predict_and_log):
            np.testing.assert_allclose(form(2.0), service.plain(2.0))
            service.scale = 3.0  # never stale
            np.testing.assert_allclose(form(2.0), service.plain(2.0))
            service.scale = 2.0
        # Logged once per trace (scale 2, then 3), as under jax.jit.
        assert service.log.handlers[0].stream.getvalue() == "tracing predict\n" * 2
        with pytest.raises(TypeError, match=r"^jaxcompat.jit cannot tell whether self\.file "):
            service.predict_and_write(2.0)
        assert service.worker.is_alive() and not service.file.closed
    finally:
        service.close()


class Aliased:
    def __init__(self):
        self.first = self.second = io.StringIO()
        self.w = jnp.ones(2)

    @jaxcompat.jit
    def apply(self, x):
        assert self.first is self.second  # one object stays one object
        self.kept = self.first  # what the method stores is the real object
        return self.w * x


def test_uncomparable_state_keeps_its_identity_while_tracing():
    aliased = Aliased()
    np.testing.assert_allclose(aliased.apply(2.0), jnp.full(2, 2.0))
    assert aliased.kept is aliased.first


class TestCaseMethod(unittest.TestCase):
    """JAX's own tests jit methods of a TestCase, whose state reaches the runner's streams."""

    __test__ = False  # run by the test below, under a runner of its own

    def double(self, x):
        self.assertTrue(jaxcompat.is_tracer(x))  # noqa: PT009  (reads the TestCase's state)
        return x * 2

    def runTest(self):
        self.assertEqual(float(jaxcompat.jit(self.double)(2.0)), 4.0)  # noqa: PT009


def test_a_method_of_a_running_test_case():
    result = unittest.TextTestRunner(stream=io.StringIO()).run(TestCaseMethod())
    assert result.wasSuccessful(), result.errors + result.failures


class ReadsIdentities(Model):
    """Reads a function, a class and a lock from self.cfg (unread, they would not count)."""

    def plain(self, x):
        cfg = self.cfg
        assert cfg.activation is jnp.tanh and cfg.kind is Leaf and cfg.lock is not None
        return super().plain(x)


def test_functions_classes_and_locks_compare_by_identity():
    model = ReadsIdentities()
    model.terms = [1.0]
    model.cfg.activation = jnp.tanh
    model.cfg.kind = Leaf
    model.cfg.lock = threading.Lock()
    same_as_plain(model)
    traces = model.traces
    same_as_plain(model)
    assert model.traces == traces
    model.cfg.lock = threading.Lock()
    same_as_plain(model)
    assert model.traces == traces + 1


def test_cycles_in_state_are_compared_and_traced():
    model = Model()
    model.terms = [1.0]
    model.cfg.parent = model  # a back-reference to self
    model.cfg.leaf.terms.append(model.cfg.leaf.terms)  # a list holding itself

    class Ring:
        def plain(self, x):
            return self.cfg.parent.cfg.leaf.w * x * self.cfg.leaf.terms[0]

        @jaxcompat.jit
        def apply(self, x):
            return self.plain(x)

    ring = Ring()
    ring.cfg = model.cfg
    assert jnp.array_equal(ring.apply(2.0), ring.plain(2.0))
    model.cfg.leaf.w = jnp.full(2, 3.0)  # reached through the back-reference: traced
    model.cfg.leaf.terms[0] = 5.0
    assert jnp.array_equal(ring.apply(2.0), jnp.full(2, 30.0))


def test_too_deep_state_gets_a_clear_error():
    model = Model()
    chain = []
    for _ in range(300):
        chain = [chain]
    model.cfg.leaf.chain = chain  # below self.cfg.leaf, which the method reads whole
    with pytest.raises(ValueError, match=r"self\.cfg\.leaf\.chain(\[0\])+ is nested more than"):
        model.apply(1.0)


class Recorder:
    def __init__(self):
        self.w = jnp.ones(2)
        self.cfg = Leaf()
        self.log = []

    @jaxcompat.jit
    def apply(self, x):
        self.saved = x  # a tracer: lands on the instance, as under jax.jit
        self.log.append("traced")
        self.cfg.count = getattr(self.cfg, "count", 0) + 1  # nested, on an object with arrays
        self.cfg.table["seen"] = True
        return self.w * x


def test_side_effects_while_tracing_land_on_the_instance_tracers_included():
    recorder = Recorder()
    cfg = recorder.cfg
    assert jnp.array_equal(recorder.apply(2.0), jnp.full(2, 2.0))
    assert recorder.cfg is cfg
    assert recorder.log == ["traced"]
    assert cfg.count == 1 and cfg.table == {"offset": 1.0, "seen": True}
    assert jaxcompat.is_tracer(recorder.saved)
    assert not jaxcompat.is_tracer(recorder.w)  # what the method only read is untouched
    with pytest.raises(jax.errors.UnexpectedTracerError):
        jax.jit(lambda y: recorder.saved + y)(1.0)
    with pytest.raises(jax.errors.UnexpectedTracerError):  # the leak is reported, as in JAX
        recorder.apply(2.0)
    del recorder.saved
    assert jnp.array_equal(recorder.apply(3.0), jnp.full(2, 3.0))


class SharedModel(Model):
    """Model without the trace counter, a change of state in itself that retraces every call.

    Without it, equal states share one compiled program, across instances and threads.
    """

    @jaxcompat.jit
    def apply(self, x):
        return self.plain(x)


def test_eight_threads_mutating_nested_state():
    def worker(i):
        model = SharedModel()
        model.terms = [1.0]
        for step in range(15):
            # Every step changes the state at depth 3, through six states per thread; shifted
            # by thread, so that at any moment the threads are in different states, all of
            # them among the same six: the threads race on the same six cache entries.
            model.cfg.leaf.scale = float(1 + (i + step) % 3)
            model.cfg.leaf.terms[0] = float(step % 2)
            model.cfg.leaf.w = jnp.full(2, float(i))
            x = float(step)
            expected = model.plain(x)
            np.testing.assert_allclose(model.apply(x), expected, rtol=1e-6)
            np.testing.assert_allclose(SharedModel.apply(model, x), expected, rtol=1e-6)

    assert run_in_threads(worker, 8) == []


def test_sets_tuples_namedtuples_and_enums_compare_by_value():
    import collections
    import enum

    class Mode(enum.Enum):
        ADD = 1
        MUL = 2

    Pair = collections.namedtuple("Pair", "w k")

    class Holder:
        def __init__(self):
            self.tags = {"a"}
            self.pair = Pair(jnp.ones(2), 2.0)
            self.spec = (1.0, (2.0, jnp.zeros(2)))
            self.mode = Mode.ADD

        def plain(self, x):
            base = self.pair.w * x * self.pair.k * len(self.tags) + self.spec[1][1]
            return base + self.spec[0] if self.mode is Mode.ADD else base * self.spec[0]

        @jaxcompat.jit
        def apply(self, x):
            return self.plain(x)

    h = Holder()
    check_steps = [
        lambda: h.tags.add("b"),
        lambda: setattr(h, "pair", Pair(jnp.ones(2), 3.0)),
        lambda: setattr(h, "spec", (5.0, (2.0, jnp.ones(2)))),
        lambda: setattr(h, "mode", Mode.MUL),
    ]
    previous = h.apply(1.0)
    np.testing.assert_allclose(previous, h.plain(1.0))
    for step in check_steps:
        step()
        result = h.apply(1.0)
        np.testing.assert_allclose(result, h.plain(1.0))
        assert not np.allclose(result, previous)
        previous = result


def test_a_static_self_may_hold_anything_its_own_eq_compares():
    class Streaming:
        def __init__(self, scale):
            self.scale = scale
            self.source = _generator()  # no value to compare: fine once self is static

        def __hash__(self):
            return hash(self.scale)

        def __eq__(self, other):
            return isinstance(other, Streaming) and other.scale == self.scale

        @jaxcompat.jit(static_argnums=0)
        def apply(self, x):
            return x * self.scale

    assert float(Streaming(2.0).apply(3.0)) == 6.0
    assert float(Streaming(4.0).apply(3.0)) == 12.0


def test_jitted_functions_held_in_state_follow_their_instance():
    class Encoder:
        def __init__(self):
            self.w = jnp.ones(2)
            self.shift = 1.0

        def apply(self, x):
            return self.w * x + self.shift

    class Outer:
        def __init__(self):
            self.encoder = Encoder()
            self.encode = jaxcompat.jit(self.encoder.apply)  # a bound jitted method
            self.double = jaxcompat.jit(lambda x: 2 * x)
            self.traces = 0

        @jaxcompat.jit
        def apply(self, x):
            self.traces += 1
            return self.double(self.encode(x))

    outer = Outer()
    assert jnp.array_equal(outer.apply(1.0), jnp.full(2, 4.0))
    outer.apply(1.0)
    assert outer.traces == 1  # holding jitted functions does not force retraces
    outer.encoder.w = jnp.ones(2) * 3  # an array behind the bound method: traced
    assert jnp.array_equal(outer.apply(1.0), jnp.full(2, 8.0))
    assert outer.traces == 1
    outer.encoder.shift = 0.0  # a value behind it: retraces
    assert jnp.array_equal(outer.apply(1.0), jnp.full(2, 6.0))


class Indexed:
    """State the method reads (a dict item, a list item, a property) next to a large index,
    an open file and a running thread that it never reads."""

    def __init__(self, path):
        self.tables = {"scale": 2.0}
        self.terms = [1.0, 3.0]
        self._offset = 1.0
        self.w = jnp.ones(2)
        self.index = {i: float(i) for i in range(10_000)}
        self.file = open(path, "w")  # noqa: SIM115
        self.traces = 0

    @property
    def offset(self):
        return self._offset

    def plain(self, x):
        return self.w * x * self.tables["scale"] * self.terms[1] + self.offset

    @jaxcompat.jit
    def apply(self, x):
        self.traces += 1
        return self.plain(x)


def test_state_the_method_never_reads_is_not_compared(tmp_path):
    model = Indexed(tmp_path / "out.txt")
    try:
        check = functools.partial(np.testing.assert_allclose, rtol=1e-6)
        check(model.apply(1.0), model.plain(1.0))
        model.index[10_000] = 1.0  # never read: no retrace, no walk
        model.file.write("x")
        check(model.apply(1.0), model.plain(1.0))
        assert model.traces == 1
        changes = (
            lambda: model.tables.__setitem__("scale", 5.0),  # through a dict key
            lambda: model.terms.__setitem__(1, 7.0),  # through a list index
            lambda: setattr(model, "_offset", 4.0),  # through a property
            lambda: setattr(model, "terms", (1.0, 2.0)),  # a read path that changes type
        )
        for number, change in enumerate(changes, 2):
            change()
            check(model.apply(1.0), model.plain(1.0))
            assert model.traces == number
        del model.tables  # a read path that disappears: the method's own error
        with pytest.raises(AttributeError, match="tables"):
            model.apply(1.0)
    finally:
        model.file.close()


def _scale_of(model):
    return model.scale


class HandsSelfOn:
    """A method that hands self to a function: everything it can reach counts."""

    def __init__(self):
        self.scale = 2.0
        self.w = jnp.ones(2)

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x * _scale_of(self)


def test_a_method_that_hands_self_on_compares_all_of_self():
    model = HandsSelfOn()
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 2.0))
    model.scale = 3.0
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 3.0))


class Child:
    def __init__(self, parent):
        self.parent = parent

    def total(self, x):
        return self.parent.w * x * self.parent.scale


class Parent:
    """The method names only self.child, which leads back to self's other attributes."""

    def __init__(self):
        self.w = jnp.ones(2)
        self.scale = 2.0
        self.child = Child(self)

    @jaxcompat.jit
    def apply(self, x):
        return self.child.total(x)


class ReadsBackThroughAChain(Parent):
    """The method's read chains (self.child.parent.w) lead back to self."""

    @jaxcompat.jit
    def apply(self, x):
        return self.child.parent.w * x * self.child.parent.scale


@pytest.mark.parametrize("cls", [Parent, ReadsBackThroughAChain], ids=["method", "chain"])
def test_state_reached_back_through_what_the_method_reads_counts(cls):
    model = cls()
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 2.0))
    model.scale = 3.0
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 3.0))
    model.w = jnp.full(2, 2.0)
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 6.0))


class Private:
    """Attributes named with two leading underscores: Python stores self.__w as _Private__w."""

    def __init__(self):
        self.__w = jnp.ones(2)
        self.__scale = 2.0

    def set(self, w, scale):
        self.__w, self.__scale = w, scale

    @jaxcompat.jit
    def apply(self, x):
        return self.__w * x * self.__scale


def test_private_attributes_are_read_under_their_stored_names():
    model = Private()
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 2.0))
    model.set(jnp.full(2, 3.0), 5.0)
    np.testing.assert_allclose(model.apply(1.0), jnp.full(2, 15.0))


class Knob:
    """Mutable, yet hashed and compared by its own value: it can change in place unseen."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Knob) and other.value == self.value

    def __hash__(self):
        return hash(self.value)


@jax.tree_util.register_pytree_node_class
class Box:
    """A registered pytree node whose static part changes in place."""

    def __init__(self, w, scale):
        self.w, self.scale = w, scale

    def tree_flatten(self):
        return (self.w,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(children[0], scale)


class Slotted:
    __slots__ = ("scale",)

    def __init__(self, scale):
        self.scale = scale


class Settings:
    """Each attribute a different kind of node, one level below self."""

    def __init__(self):
        self.table = {"a": 1.0, "b": 2.0}
        self.terms = [1.0, 2.0]
        self.knob = Knob(1.0)
        self.box = Box(jnp.ones(2), 1.0)
        self.slotted = Slotted(1.0)
        self.dtype = np.dtype(np.float32)
        self.tags = {"a"}


class Configured:
    def __init__(self):
        self.w = jnp.ones(2)
        self.settings = Settings()

    def plain(self, x):
        s = self.settings
        total = sum(s.table.values()) * len(s.table) + sum(s.terms) + s.knob.value
        total = total + s.box.scale + s.slotted.scale + len(s.tags)
        return (self.w * x * total + s.box.w).astype(s.dtype)

    @jaxcompat.jit
    def apply(self, x):
        return self.plain(x)


IN_PLACE = {
    "a dict key swapped for another, same size": lambda s: (
        s.table.pop("a"),
        s.table.__setitem__("c", 5.0),
    ),
    "a list item replaced by a different number": lambda s: s.terms.__setitem__(0, 4.0),
    "a value-compared object changed in place": lambda s: setattr(s.knob, "value", 6.0),
    "a pytree node's static part changed in place": lambda s: setattr(s.box, "scale", 3.0),
    "a pytree node's array replaced": lambda s: setattr(s.box, "w", jnp.full(2, 2.0)),
    "a slot rebound": lambda s: setattr(s.slotted, "scale", 4.0),
    "a dtype replaced": lambda s: setattr(s, "dtype", np.dtype(np.float16)),
    "a set changed in place": lambda s: s.tags.add("b"),
}


@pytest.mark.parametrize("change", sorted(IN_PLACE))
def test_changes_below_unchanged_attributes_are_seen_call_after_call(change):
    # The first calls reuse their split of the state; the change must still be seen.
    model = Configured()
    for _ in range(3):
        before = model.apply(1.0)
        np.testing.assert_array_equal(before, model.plain(1.0))
    IN_PLACE[change](model.settings)
    for _ in range(3):
        after = model.apply(1.0)
        np.testing.assert_array_equal(after, model.plain(1.0))
        assert after.dtype == model.plain(1.0).dtype


class Plain:
    def __init__(self, value, inner=None):
        self.value = value
        self.inner = inner


class Reusable:
    """State whose every node can be watched (no set, no value-compared object): a split of
    it is reused call after call while every node holds the very same children."""

    def __init__(self):
        self.w = jnp.ones(2)
        self.table = {"a": 1.0, "b": 2.0}
        self.terms = [1.0, 2.0]
        self.plain = Plain(1.0, Plain(2.0))
        self.slotted = Slotted(1.0)

    def plain_total(self, x):
        total = sum(self.table.values()) * len(self.table) + sum(self.terms) * len(self.terms)
        total = total + self.plain.value + self.plain.inner.value + self.slotted.scale
        return self.w * x * total

    @jaxcompat.jit
    def apply(self, x):
        return self.plain_total(x)


GUARDED_CHANGES = {
    "a dict key swapped for another, same size": lambda m: (
        m.table.pop("a"),
        m.table.__setitem__("c", 5.0),
    ),
    "a dict value replaced": lambda m: m.table.__setitem__("b", 7.0),
    "a list item replaced": lambda m: m.terms.__setitem__(1, 4.0),
    "a list grown": lambda m: m.terms.append(3.0),
    "an attribute of a nested object rebound": lambda m: setattr(m.plain, "value", 3.0),
    "an attribute two objects down rebound": lambda m: setattr(m.plain.inner, "value", 6.0),
    "a nested object's __dict__ replaced": lambda m: setattr(
        m.plain, "__dict__", {"value": 8.0, "inner": m.plain.inner}
    ),
    "a slot of a nested object rebound": lambda m: setattr(m.slotted, "scale", 4.0),
    "an attribute of self rebound": lambda m: setattr(m, "table", {"a": 1.0}),
}


@pytest.mark.parametrize("change", sorted(GUARDED_CHANGES))
def test_a_reused_split_sees_every_change_at_any_depth(change):
    model = Reusable()
    for _ in range(3):
        np.testing.assert_array_equal(model.apply(1.0), model.plain_total(1.0))
    GUARDED_CHANGES[change](model)
    for _ in range(3):
        np.testing.assert_array_equal(model.apply(1.0), model.plain_total(1.0))


def test_a_shared_part_that_leads_back_to_another_instance_is_walked_for_each():
    first, second = Parent(), Parent()
    second.child = first.child  # second's child leads back to first, not to second
    second.scale = 3.0
    for _ in range(2):
        np.testing.assert_allclose(first.apply(1.0), jnp.full(2, 2.0))
        np.testing.assert_allclose(second.apply(1.0), jnp.full(2, 2.0))
    first.scale = 5.0
    np.testing.assert_allclose(second.apply(1.0), jnp.full(2, 5.0))
    np.testing.assert_allclose(first.apply(1.0), jnp.full(2, 5.0))
