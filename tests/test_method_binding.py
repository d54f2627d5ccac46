"""Every way a jitted method is bound or called gives what the plain method gives."""

import collections
import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat


class Base:
    def __init__(self):
        self.w = jnp.arange(3.0)
        self.scale = 2.0

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x * self.scale

    @jaxcompat.jit
    def twice(self, x):  # a jitted method calling another
        return self.apply(x) + self.apply(x)

    @jaxcompat.jit(static_argnums=2)
    def power(self, x, n):  # recursion through a jitted method
        return x if n == 1 else x * self.scale * self.power(x, n - 1)

    @property
    def fast(self):
        return jaxcompat.jit(self.slow)

    def slow(self, x):
        return self.w + x * self.scale


class Child(Base):
    def __init__(self):
        super().__init__()
        self.extra = 1.0

    @jaxcompat.jit
    def apply(self, x):
        return super().apply(x) + self.extra


def check(got, expected):
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-6)


def test_decorated_method_bound_method_and_call_through_the_class():
    b = Base()
    check(b.apply(2.0), b.w * 4.0)
    check(jaxcompat.jit(b.apply)(2.0), b.w * 4.0)
    check(Base.apply(b, 2.0), b.w * 4.0)
    b.scale = 3.0
    for call in (b.apply, jaxcompat.jit(b.apply), functools.partial(Base.apply, b)):
        check(call(2.0), b.w * 6.0)


def test_super_chains():
    c = Child()
    check(c.apply(2.0), c.w * 4.0 + 1.0)
    c.extra = 5.0
    c.scale = 1.0
    check(c.apply(2.0), c.w * 2.0 + 5.0)
    check(Child.apply(c, 2.0), c.w * 2.0 + 5.0)


def test_jitted_methods_calling_jitted_methods_and_recursion():
    b = Base()
    check(b.twice(1.0), b.w * 4.0)
    check(b.power(jnp.float32(2.0), 3), 2.0 * 2.0 * 2.0 * 2.0 * 2.0)
    b.scale = 1.0
    check(b.twice(1.0), b.w * 2.0)
    check(b.power(jnp.float32(2.0), 3), 8.0)


def test_property_returning_a_jitted_function():
    b = Base()
    check(b.fast(1.0), b.w + 2.0)
    b.scale = 10.0
    check(b.fast(1.0), b.w + 10.0)


class WithClassState:
    factor = 2.0
    table = jnp.arange(2.0)

    @classmethod
    def make(cls, x):
        return cls.table * x * cls.factor

    @classmethod
    @jaxcompat.jit
    def make_inner(cls, x):
        return cls.table * x * cls.factor

    @jaxcompat.jit
    @classmethod
    def make_outer(cls, x):
        return cls.table * x * cls.factor

    @staticmethod
    @jaxcompat.jit
    def static_inner(x):
        return x + 1

    @jaxcompat.jit
    @staticmethod
    def static_outer(x):
        return x + 2


@pytest.mark.parametrize("form", ["jit(C.make)", "classmethod over jit", "jit over classmethod"])
def test_classmethods_read_the_class_on_every_call(form):
    class C(WithClassState):
        pass

    def call(x):
        if form == "jit(C.make)":
            return jaxcompat.jit(C.make)(x)
        return (C.make_inner if form == "classmethod over jit" else C.make_outer)(x)

    check(call(3.0), C.make(3.0))
    C.factor = 5.0
    check(call(3.0), jnp.arange(2.0) * 15.0)
    C.table = jnp.ones(2)
    check(call(3.0), jnp.full(2, 15.0))
    check(C().make_outer(1.0), C.make(1.0))  # through an instance, as Python binds it


def test_staticmethods():
    c = WithClassState()
    for owner in (WithClassState, c):
        assert float(owner.static_inner(1.0)) == 2.0
        assert float(owner.static_outer(1.0)) == 3.0


class Table:
    squares = (lambda x: x**2,)  # functions kept in a class attribute, not methods

    @staticmethod
    @jaxcompat.jit
    def count(x):
        Table.traces += 1
        return x + 1

    traces = 0


@pytest.mark.parametrize("first", [3, 3.0, np.float32(3.0), np.arange(2), jnp.arange(2.0)])
def test_a_function_of_a_class_body_traces_a_first_argument_that_is_an_array_or_a_number(first):
    # As jax.jit does: not compared by value as an instance would be (no constant, no retrace).
    square = Table.squares[0]
    text = jaxcompat.jit(square).lower(first).as_text()
    assert text == jax.jit(square).lower(first).as_text()
    check(jaxcompat.jit(square)(first), jax.jit(square)(first))
    assert jaxcompat.jit(square).trace(first).lower().as_text() == text
    shape = jaxcompat.jit(square).eval_shape(first)
    expected = jax.eval_shape(square, first)
    assert (shape.shape, shape.dtype) == (expected.shape, expected.dtype)


def test_a_staticmethod_called_with_numbers_traces_once():
    Table.traces = 0
    assert [float(Table.count(x)) for x in (1.0, 2.0, 3.0)] == [2.0, 3.0, 4.0]
    assert Table.traces == 1


class Slotted:
    __slots__ = ("scale", "w")

    def __init__(self):
        self.w = jnp.ones(2)
        self.scale = 2.0

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x * self.scale


@dataclasses.dataclass(frozen=True)
class Frozen:
    w: jax.Array
    cfg: dict

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x * self.cfg["scale"]


class Delegating:
    def __init__(self):
        self.inner = Base()

    def __getattr__(self, name):  # never consulted for the state the method reads
        return getattr(self.inner, name)

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x


def test_slots_frozen_dataclasses_and_getattr():
    s = Slotted()
    check(s.apply(1.0), jnp.full(2, 2.0))
    s.scale = 3.0
    check(s.apply(1.0), jnp.full(2, 3.0))
    f = Frozen(jnp.ones(2), {"scale": 2.0})
    check(f.apply(1.0), jnp.full(2, 2.0))
    f.cfg["scale"] = 4.0  # a frozen dataclass's dict still changes in place
    check(f.apply(1.0), jnp.full(2, 4.0))
    d = Delegating()
    check(d.apply(2.0), d.inner.w * 2.0)
    d.inner.w = jnp.ones(3)
    check(d.apply(2.0), jnp.full(3, 2.0))


@jax.tree_util.register_pytree_node_class
class Registered:
    def __init__(self, w, scale):
        self.w = w
        self.scale = scale

    def tree_flatten(self):
        return (self.w,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(children[0], scale)

    @jaxcompat.jit
    def apply(self, x):
        return self.w * x * self.scale


def test_registered_pytrees():
    r = Registered(jnp.ones(2), 2.0)
    check(r.apply(1.0), jnp.full(2, 2.0))
    r.scale = 3.0  # auxiliary data
    check(r.apply(1.0), jnp.full(2, 3.0))
    r.w = jnp.zeros(2)
    check(jaxcompat.jit(r.apply)(1.0), jnp.zeros(2))


def test_aot_through_every_form():
    b = Base()
    for compiled in (
        b.apply.lower(2.0).compile(),
        Base.apply.lower(b, 2.0).compile(),
        jaxcompat.lower(b.apply, 2.0).compile(),
        jaxcompat.lower(Base.apply, b, 2.0).compile(),
    ):
        check(compiled(2.0), b.w * 4.0)
    assert Base.apply.trace(b, 2.0).out_info.shape == (3,)
    b.scale = 9.0
    with pytest.raises(ValueError, match="changed after this method was lowered"):
        compiled(2.0)


def _named_like_a_method(fun):
    """A decorator that keeps names readable, as libraries do: a plain function's wrapper."""

    def wrapper(params, x, n):
        return fun(params, x, n)

    wrapper.__qualname__ = "Model.apply"
    return wrapper


@_named_like_a_method
def _scaled_sum(params, x, n):
    return params["w"] * x * n + 1.0


def test_a_function_called_directly_is_a_plain_jit_whatever_its_name():
    # Only binding makes a method: a wrapper named like one, called directly, is what
    # jax.jit gives, with its donation and static arguments.
    options = {"donate_argnums": 0, "static_argnums": 2}
    ours, theirs = jaxcompat.jit(_scaled_sum, **options), jax.jit(_scaled_sum, **options)
    for jitted in (ours, theirs):
        params = {"w": jnp.arange(3.0) + 1}
        check(jitted(params, 2.0, 3), jnp.array([7.0, 13.0, 19.0]))
        assert params["w"].is_deleted()
    params = {"w": jnp.ones(3)}
    text = ours.lower(params, 2.0, 3).as_text()
    assert text == theirs.lower(params, 2.0, 3).as_text()
    assert ours.trace(params, 2.0, 3).lower().as_text() == text
    assert ours.eval_shape(params, 2.0, 3).shape == (3,)


class Undecided:
    scale = 2.0

    @jaxcompat.jit
    def apply(self, x):  # a method when bound; a plain function when called as one
        return self.scale * x


def test_a_class_body_function_is_a_method_only_where_python_binds_it():
    obj = Undecided()
    check(obj.apply(3.0), 6.0)
    check(Undecided.apply(obj, 3.0), 6.0)
    obj.scale = 4.0  # never stale through either binding
    check(obj.apply(3.0), 12.0)
    check(Undecided.apply(obj, 3.0), 12.0)
    assert Undecided.apply == Undecided.apply
    # Called without binding, the first argument is an argument, traced as jax.jit does.
    unbound, plain = vars(Undecided)["apply"], jax.jit(Undecided.apply.__wrapped__)
    params = Params(scale=jnp.float32(5.0))
    check(unbound(params, 3.0), 15.0)
    assert unbound.lower(params, 2.0).as_text() == plain.lower(params, 2.0).as_text()


Params = collections.namedtuple("Params", "scale")  # a pytree with the attribute apply reads


def test_an_exception_from_a_jitted_method_keeps_no_reference_to_its_instance():
    import gc
    import weakref

    class Failing:
        def __init__(self):
            self.w = jnp.ones(2)

        @jaxcompat.jit
        def apply(self, x):
            raise ValueError("from the method")

    instance = Failing()
    said = []
    try:  # not pytest.raises, whose exception info would keep the frames, and the instance
        instance.apply(1.0)
    except ValueError as error:
        said.append(str(error))
    assert said == ["from the method"]
    alive = weakref.ref(instance)
    del instance
    gc.collect()
    assert alive() is None


# --- never stricter than JAX: every way of jitting a method that JAX accepts ------------------


def _classes(jit):
    """A class whose method is jitted with `self` static, and a pytree class whose method is
    jitted plainly, each decorated with `jit` (JAX's own or jaxcompat's)."""

    class Agent:  # hashed by identity, as the libraries that make self static do
        def __init__(self):
            self.w = jnp.ones(3)

        @functools.partial(jit, static_argnames=("self",))
        def act(self, x):
            return x * 2 + self.w

        def plain(self, x, y):  # jitted bound, with options for its arguments after self
            return x * 2 + self.w.sum() * y

        def __hash__(self):
            return id(self)

        def __eq__(self, other):
            return self is other

    @jax.tree_util.register_pytree_node_class
    class Tree:
        def __init__(self, w):
            self.w = w

        def tree_flatten(self):
            return (self.w,), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

        @jit
        def m(self, x):
            return self.w * x

        def plain(self, x, y):
            return self.w * x + y

    return Agent, Tree


def _on_one_device():
    return jax.sharding.SingleDeviceSharding(jax.devices()[0])


def _split_over_every_device():
    mesh = jax.sharding.Mesh(np.array(jax.devices()), ("x",))
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))


#: Each takes (jit, vmap, grad, Agent, Tree, x) and returns an array.
WAYS_OF_JITTING_A_METHOD = {
    "called": lambda jit, vmap, grad, A, T, x: A().act(x),
    "jit(bound)": lambda jit, vmap, grad, A, T, x: jit(A().act)(x),
    "jit(jit(bound))": lambda jit, vmap, grad, A, T, x: jit(jit(A().act))(x),
    "jit(partial(bound))": lambda jit, vmap, grad, A, T, x: jit(functools.partial(A().act))(x),
    "jit(partial(bound, x))": lambda jit, vmap, grad, A, T, x: jit(functools.partial(A().act, x))(),
    "jit(wraps(bound))": lambda jit, vmap, grad, A, T, x: (
        lambda a: jit(functools.wraps(a.act)(lambda y: a.act(y)))(x)
    )(A()),
    "vmap(bound)": lambda jit, vmap, grad, A, T, x: vmap(A().act)(x[:, None]),
    "grad(bound)": lambda jit, vmap, grad, A, T, x: (lambda a: grad(lambda y: a.act(y).sum())(x))(
        A()
    ),
    "jit(class attribute, static 0)": lambda jit, vmap, grad, A, T, x: jit(A.act, static_argnums=0)(
        A(), x
    ),
    "jit(class attribute, static self)": lambda jit, vmap, grad, A, T, x: jit(
        A.act, static_argnames="self"
    )(A(), x),
    "jit(bound) twice": lambda jit, vmap, grad, A, T, x: (
        lambda a: (jit(a.act)(x), jit(a.act)(x))[1]
    )(A()),
    "jit(bound).lower.compile": lambda jit, vmap, grad, A, T, x: (
        lambda f: f.lower(x).compile()(x)
    )(jit(A().act)),
    # flax's `jax.jit(model.init, in_shardings=(key, x))`: one sharding per argument after self.
    "jit(bound, in_shardings)": lambda jit, vmap, grad, A, T, x: jit(
        A().plain, in_shardings=(_on_one_device(), _on_one_device()), out_shardings=None
    )(x, x),
    "jit(bound, in_shardings list)": lambda jit, vmap, grad, A, T, x: jit(
        A().plain, in_shardings=[_on_one_device(), _on_one_device()]
    )(x, x),
    "jit(bound, one in_sharding)": lambda jit, vmap, grad, A, T, x: jit(
        A().plain, in_shardings=_on_one_device()
    )(x, x),
    # One sharding for every argument: JAX never applies it to what self holds (3 elements,
    # which 8 devices do not divide), as a bound method closes over it.
    "jit(bound, one in_sharding split over the devices)": lambda jit, vmap, grad, A, T, x: jit(
        A().plain, in_shardings=_split_over_every_device()
    )(jnp.arange(8.0), jnp.arange(8.0)),
    "jit(bound, one in_sharding split, static_argnums)": lambda jit, vmap, grad, A, T, x: jit(
        A().plain, in_shardings=_split_over_every_device(), static_argnums=1
    )(jnp.arange(8.0), 2.0),
    "jit(bound, static_argnums)": lambda jit, vmap, grad, A, T, x: jit(A().plain, static_argnums=1)(
        x, 2.0
    ),
    "pytree: jit(bound, in_shardings)": lambda jit, vmap, grad, A, T, x: jit(
        T(jnp.ones(3)).plain, in_shardings=(_on_one_device(), None)
    )(x, x),
    "pytree: called": lambda jit, vmap, grad, A, T, x: T(jnp.ones(3)).m(x),
    "pytree: jit(bound)": lambda jit, vmap, grad, A, T, x: jit(T(jnp.ones(3)).m)(x),
    "pytree: jit(jit(bound))": lambda jit, vmap, grad, A, T, x: jit(jit(T(jnp.ones(3)).m))(x),
    "pytree: vmap(bound)": lambda jit, vmap, grad, A, T, x: vmap(T(jnp.ones(3)).m)(x),
    "pytree: jit(class attribute)": lambda jit, vmap, grad, A, T, x: jit(T.m)(T(jnp.ones(3)), x),
}


@pytest.mark.parametrize("way", sorted(WAYS_OF_JITTING_A_METHOD))
def test_every_way_jax_jits_a_method_jaxcompat_does_with_the_same_result(way):
    run = WAYS_OF_JITTING_A_METHOD[way]
    x = jnp.arange(3.0)
    expected = run(jax.jit, jax.vmap, jax.grad, *_classes(jax.jit), x)  # JAX accepts it
    got = run(jaxcompat.jit, jaxcompat.vmap, jaxcompat.grad, *_classes(jaxcompat.jit), x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
