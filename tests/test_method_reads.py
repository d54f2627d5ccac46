"""A jitted method compares what it reads of self, at any depth: its read chains and names.

``self.config.optimizer.rate`` (and ``self.params["dense"][0]``, through dicts and lists)
counts along that chain alone: the rest of ``self.config`` (a large vocabulary, an open file)
is neither walked nor compared, while rebinding anything on the chain, or the value at its
end, is seen on the next call. ``getattr(self, f"layer{i}")``
reads every attribute whose name starts with ``layer``. All assertions are identical on
every matrix row.
"""

import dataclasses
import io

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat


class Optimizer:
    def __init__(self, rate):
        self.rate = rate
        self.history = [0.0] * 1_000  # never read


class Config:
    def __init__(self):
        self.optimizer = Optimizer(2.0)
        self.vocabulary = {f"token{i}": i for i in range(10_000)}  # never read
        self.log = io.StringIO()  # no value to compare; never read
        self.unused = jnp.zeros(3)  # an array never read: not traced
        self.base = 1.0

    @property
    def doubled_base(self):  # code runs when read: all of the config then counts
        return self.base * 2


class Model:
    def __init__(self):
        self.w = jnp.ones(2)
        self.config = Config()
        self.traces = 0

    def plain(self, x):
        return self.w * x * self.config.optimizer.rate

    @jaxcompat.jit
    def apply(self, x):
        self.traces += 1
        return self.plain(x)


def check(model, expected):
    np.testing.assert_allclose(model.apply(1.0), np.full(2, expected), rtol=1e-6)


def test_what_the_method_does_not_read_along_its_chain_is_not_compared():
    model = Model()
    check(model, 2.0)
    traces = model.traces
    model.config.vocabulary["token0"] = -1  # in place, below what the chain reads
    model.config.optimizer.history.append(1.0)
    model.config.base = 5.0
    model.config.unused = jnp.zeros(4)
    model.config.log = io.StringIO()
    model.config.added = [1, 2]
    check(model, 2.0)
    assert model.traces == traces


CHAIN_CHANGES = {
    "the value at its end": lambda m: setattr(m.config.optimizer, "rate", 3.0),
    "an object along it": lambda m: setattr(m.config, "optimizer", Optimizer(3.0)),
    "the attribute it starts from": lambda m: setattr(m, "config", _config_with_rate(3.0)),
    "a __dict__ along it": lambda m: setattr(m.config.optimizer, "__dict__", {"rate": 3.0}),
    "the value's type": lambda m: setattr(m.config.optimizer, "rate", 3),
}


def _config_with_rate(rate):
    config = Config()
    config.optimizer.rate = rate
    return config


@pytest.mark.parametrize("change", sorted(CHAIN_CHANGES))
def test_every_change_along_the_chain_is_seen_call_after_call(change):
    model = Model()
    for _ in range(2):  # the second call reuses the first one's split of the state
        check(model, 2.0)
    CHAIN_CHANGES[change](model)
    for _ in range(2):
        check(model, 3.0)
    if change == "the value's type":
        assert model.apply(1.0).dtype == model.plain(1.0).dtype


def test_a_step_that_disappears_or_stops_being_an_attribute_gives_the_method_own_error():
    model = Model()
    check(model, 2.0)
    del model.config.optimizer.rate
    with pytest.raises(AttributeError, match="rate"):
        model.apply(1.0)
    model.config.optimizer = {"rate": 2.0}  # a dict: no attribute rate
    with pytest.raises(AttributeError, match="rate"):
        model.apply(1.0)


class Lookup:
    """An object whose attributes come from __getattr__: code runs when they are read."""

    def __init__(self, table):
        self.table = table

    def __getattr__(self, name):
        try:
            return self.__dict__["table"][name]
        except KeyError:
            raise AttributeError(name) from None


class Scaled:
    """Its own __getattribute__ runs on every read: its rate is the stored one scaled."""

    def __init__(self, rate):
        self.rate = rate
        self.factor = 1.0

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        return value * object.__getattribute__(self, "factor") if name == "rate" else value


class Slotted:
    __slots__ = ("rate",)

    def __init__(self, rate):
        self.rate = rate


class RateProperty:
    """The stored rate is shadowed by a property of the class."""

    def __init__(self, rate):
        self.__dict__["rate"] = rate
        self.factor = 1.0

    @property
    def rate(self):
        return self.__dict__["rate"] * self.factor


THROUGH_CODE = {
    "__getattr__": (lambda: Lookup({"rate": 2.0}), lambda o: o.table.__setitem__("rate", 4.0)),
    "__getattribute__": (lambda: Scaled(2.0), lambda o: object.__setattr__(o, "factor", 2.0)),
    "__slots__": (lambda: Slotted(2.0), lambda o: setattr(o, "rate", 4.0)),
    "a property": (lambda: RateProperty(2.0), lambda o: setattr(o, "factor", 2.0)),
}


@pytest.mark.parametrize("where", sorted(THROUGH_CODE))
def test_a_chain_through_code_counts_the_object_where_the_code_runs_whole(where):
    make, change = THROUGH_CODE[where]
    model = Model()
    model.config.optimizer = make()
    check(model, 2.0)
    change(model.config.optimizer)  # below what the chain names: what the code reads
    check(model, 4.0)


@dataclasses.dataclass
class DataConfig:
    """A dataclass with defaults: the class holds each default, the instance its value."""

    rate: float = 2.0
    vocabulary: dict = dataclasses.field(default_factory=lambda: {i: i for i in range(10_000)})


def test_a_chain_through_a_dataclass_with_defaults_reads_the_instance_values():
    model = Model()
    model.config.optimizer = DataConfig()
    check(model, 2.0)
    traces = model.traces
    model.config.optimizer.vocabulary[0] = -1  # unread
    check(model, 2.0)
    assert model.traces == traces
    model.config.optimizer.rate = 3.0
    check(model, 3.0)
    del model.config.optimizer.rate  # the class's default, 2.0, as the method reads it
    check(model, 2.0)


class ReadsAProperty(Model):
    def plain(self, x):
        return self.w * x * self.config.doubled_base


def test_a_chain_that_reaches_a_property_counts_its_object_whole():
    model = ReadsAProperty()
    check(model, 2.0)
    model.config.base = 3.0
    check(model, 6.0)
    traces = model.traces
    model.config.log = object()  # all of the config counts now, an unread part too
    check(model, 6.0)
    assert model.traces == traces + 1


class Params:
    def __init__(self):
        self.w = jnp.ones(2)
        self.seen = 0


class Holder:
    def __init__(self):
        self.params = Params()


class ArraysAtTheEnd:
    def __init__(self):
        self.model = Holder()
        self.alias = self.model.params  # the same object, read whole through another name
        self.traces = 0

    def plain(self, x):
        params = self.alias  # read whole
        assert params is self.model.params or params.seen == "kept"
        return self.model.params.w * x + params.w

    @jaxcompat.jit
    def apply(self, x):
        self.traces += 1
        return self.plain(x)


def test_arrays_at_the_end_of_a_chain_are_traced_and_shared_objects_stay_shared():
    model = ArraysAtTheEnd()
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    traces = model.traces
    for value in (2.0, 3.0):
        model.model.params.w = jnp.ones(2) * value  # a new array, same aval: no retrace
        np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    assert model.traces == traces
    model.alias.seen = "kept"
    model.model.params = Params()  # the alias still holds the old one
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))


class WritesAlongAChain:
    def __init__(self):
        self.model = Holder()

    @jaxcompat.jit
    def apply(self, x):
        self.model.params.seen += 1  # written: the params object counts whole
        return self.model.params.w * x


def test_what_the_method_writes_at_the_end_of_a_chain_lands_on_the_real_object():
    model = WritesAlongAChain()
    params = model.model.params
    np.testing.assert_allclose(model.apply(2.0), np.full(2, 2.0))
    assert model.model.params is params and params.seen == 1
    assert not jaxcompat.is_tracer(params.w)


class Layered:
    """Reads its layers by a computed name with a fixed start, next to unread state."""

    def __init__(self):
        self.count = 2
        self.layer0 = jnp.ones(2)
        self.layer1 = jnp.full(2, 2.0)
        self.stream = io.StringIO()  # no value to compare; its name does not start with layer
        self.traces = 0

    def plain(self, x):
        return sum(getattr(self, f"layer{i}") for i in range(self.count)) * x

    @jaxcompat.jit
    def apply(self, x):
        self.traces += 1
        return self.plain(x)


def test_a_computed_name_with_a_fixed_start_reads_the_attributes_it_can_name():
    model = Layered()
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    traces = model.traces
    model.stream = io.StringIO()  # not a layer: not compared
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    assert model.traces == traces
    model.layer2 = jnp.full(2, 4.0)
    model.count = 3
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    traces = model.traces
    model.layer2 = jnp.full(2, 5.0)  # a new array: no retrace, the new value
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    assert model.traces == traces
    model.layer1 = io.StringIO()  # a layer the method reads that has no value to compare
    with pytest.raises(TypeError, match=r"cannot tell whether self\.layer1 \(StringIO\)"):
        model.apply(1.0)


def test_lower_and_compile_see_the_chain_as_calls_do():
    model = Model()
    compiled = jaxcompat.lower(model.apply, 1.0).compile()
    np.testing.assert_allclose(compiled(1.0), np.full(2, 2.0))
    model.config.vocabulary["token0"] = -1  # unread: the compiled method still matches
    np.testing.assert_allclose(compiled(1.0), np.full(2, 2.0))
    model.config.optimizer.rate = 3.0
    with pytest.raises(ValueError, match="changed after this method was lowered"):
        compiled(1.0)
    assert jax.numpy.allclose(model.apply(1.0), 3.0)


class NestedParams:
    """Weights in nested dicts and lists, next to a large table the method never reads."""

    def __init__(self):
        self.params = {
            "dense": [{"w": jnp.ones(2), "b": 1.0}],
            "table": {i: float(i) for i in range(10_000)},
            "stream": io.StringIO(),
        }
        self.traces = 0

    def plain(self, x):
        return self.params["dense"][0]["w"] * x + self.params["dense"][0]["b"]

    @jaxcompat.jit
    def apply(self, x):
        self.traces += 1
        return self.plain(x)


ITEM_CHANGES = {
    "a dict item at the end": lambda p: p["dense"][0].__setitem__("b", 2.0),
    "a list item along it": lambda p: p["dense"].__setitem__(0, {"w": jnp.ones(2), "b": 2.0}),
    "a dict item along it": lambda p: p.__setitem__("dense", [{"w": jnp.ones(2), "b": 2.0}]),
    "an item's type": lambda p: p["dense"][0].__setitem__("b", 2),
}


@pytest.mark.parametrize("change", sorted(ITEM_CHANGES))
def test_chains_through_dict_keys_and_list_indices_see_every_change_along_them(change):
    model = NestedParams()
    for _ in range(2):
        np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    traces = model.traces
    model.params["table"][0] = -1.0  # unread parts: not compared
    model.params["stream"] = io.StringIO()
    model.params["dense"].append({"w": jnp.zeros(3)})
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    assert model.traces == traces
    ITEM_CHANGES[change](model.params)
    for _ in range(2):
        np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
        assert model.apply(1.0).dtype == model.plain(1.0).dtype


def test_arrays_at_the_end_of_item_chains_are_traced_and_missing_items_are_the_method_errors():
    model = NestedParams()
    model.apply(1.0)
    traces = model.traces
    model.params["dense"][0]["w"] = jnp.full(2, 3.0, dtype=jnp.float32)  # same aval
    np.testing.assert_allclose(model.apply(1.0), np.full(2, 4.0))
    assert model.traces == traces
    del model.params["dense"][0]["b"]
    with pytest.raises(KeyError, match="'b'"):
        model.apply(1.0)
    model.params["dense"].clear()
    with pytest.raises(IndexError):
        model.apply(1.0)


class Table(dict):
    """A dict subclass: its own __getitem__ may run code, so it counts whole."""

    def __getitem__(self, key):
        return super().__getitem__(key) * self.get("factor", 1.0)


def test_a_chain_through_a_dict_subclass_counts_it_whole():
    model = NestedParams()
    model.params["dense"][0] = Table(w=jnp.ones(2), b=1.0)
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    model.params["dense"][0]["factor"] = 2.0  # read by __getitem__, named by no chain
    np.testing.assert_allclose(model.apply(1.0), model.plain(1.0))
    np.testing.assert_allclose(model.apply(1.0), np.full(2, 4.0))


class WritesAnItem:
    def __init__(self):
        self.cache = {"calls": 0, "w": jnp.ones(2)}

    @jaxcompat.jit
    def apply(self, x):
        self.cache["calls"] += 1  # written: the cache dict counts whole
        return self.cache["w"] * x


def test_what_the_method_writes_to_an_item_lands_on_the_real_dict():
    model = WritesAnItem()
    cache = model.cache
    np.testing.assert_allclose(model.apply(2.0), np.full(2, 2.0))
    assert model.cache is cache and cache["calls"] == 1
    assert not jaxcompat.is_tracer(cache["w"])


class NamedInAString:
    """getattr with a string names the attribute as written: Python mangles only code."""

    def __init__(self):
        setattr(self, "__scale", 2.0)
        self.w = jnp.ones(2)

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x * getattr(self, "__scale")


def test_a_name_in_a_string_is_read_as_written():
    model = NamedInAString()
    np.testing.assert_allclose(model.apply(1.0), np.full(2, 2.0))
    setattr(model, "__scale", 3.0)
    np.testing.assert_allclose(model.apply(1.0), np.full(2, 3.0))
