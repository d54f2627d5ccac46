"""tracer_safe_hash and is_tracer: identical assertions on every matrix row."""

import collections
import dataclasses
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcompat
from jaxcompat import is_tracer, tracer_safe_hash
from jaxcompat._dispatch import backend
from jaxcompat._primitives.hashing import make_tracer_safe_hash

from ._helpers import run_in_threads

FLATTEN_UP_TO_CHECKS_NONE = backend.FLATTEN_UP_TO_CHECKS_NONE

pytestmark = pytest.mark.tracer_hash


@dataclasses.dataclass(frozen=True)
class Frozen:
    a: object
    b: object = 0


@jax.tree_util.register_pytree_node_class
class Pair:
    def __init__(self, left, right):
        self.left, self.right = left, right

    def tree_flatten(self):
        return (self.left, self.right), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@dataclasses.dataclass(frozen=True)
class Tagged:
    """Equality ignores ``note``, so the hash must too."""

    value: object
    note: str = dataclasses.field(default="", compare=False)


@dataclasses.dataclass
class MutableTagged:  # eq=True and not frozen: unhashable
    value: object
    note: str = dataclasses.field(default="", compare=False)


Point = collections.namedtuple("Point", "x y")


class HashesItsBound:
    """The upstream shape: an object whose own __hash__ hashes what it holds."""

    def __init__(self, bound):
        self.bound = bound

    def __hash__(self):
        return hash(self.bound)

    def __eq__(self, other):
        return isinstance(other, HashesItsBound) and other.bound is self.bound


def holders(t):
    return [
        t,
        (t, 1),
        [t, "x"],
        {"k": t, "n": [1, t]},
        Frozen(t, (t,)),
        Pair(t, 2.0),
        HashesItsBound(t),
        ((t,),),
        {t.__class__.__name__: {"deep": (t, [t])}},
    ]


TRANSFORMS = {
    "jit": lambda f, x: jax.jit(f)(x),
    "grad": lambda f, x: jax.grad(lambda y: (f(y), y)[1])(x),
    "vmap": lambda f, x: jax.vmap(f)(jnp.stack([x, x])),
    "make_jaxpr": lambda f, x: jax.make_jaxpr(f)(x),
    "jit-of-vmap-of-grad": lambda f, x: jax.jit(jax.vmap(jax.grad(lambda y: (f(y), y)[1])))(
        jnp.stack([x, x])
    ),
}


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_never_raises_never_warns_and_is_stable_under_transforms(transform):
    seen = []

    def body(t):
        assert is_tracer(t)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # also fail on warnings filtered elsewhere
            for obj in holders(t):
                first, second = tracer_safe_hash(obj), tracer_safe_hash(obj)
                assert isinstance(first, int)
                assert first == second, obj
                seen.append(first)
        return t

    TRANSFORMS[transform](body, jnp.float32(1.5))
    assert len(seen) == len(holders(0))


def test_tracers_hash_by_identity():
    def body(x):
        y = x + 1
        assert tracer_safe_hash(x) == tracer_safe_hash(x)
        assert tracer_safe_hash((x, y)) == tracer_safe_hash((x, y))
        assert tracer_safe_hash(x) != tracer_safe_hash(y)
        assert tracer_safe_hash([x]) != tracer_safe_hash([y])
        return y

    jax.jit(body)(1.0)


def test_concrete_arrays_hash_by_identity():
    a, b = jnp.arange(3), jnp.arange(3)
    assert tracer_safe_hash(a) == tracer_safe_hash(a)
    assert tracer_safe_hash((a, 1)) == tracer_safe_hash((a, 1))
    assert tracer_safe_hash(a) != tracer_safe_hash(b)


@pytest.mark.parametrize(
    "obj",
    [
        0,
        -1,
        2**80,
        1.5,
        "text",
        b"bytes",
        None,
        True,
        (1, "a", (2.0, None)),
        frozenset({1, 2}),
        Frozen(1, "b"),
        range(3),
        jax.numpy.float32,
        ("nested", (("deep",),)),
    ],
)
def test_tracer_free_hashables_hash_exactly_as_hash(obj):
    assert tracer_safe_hash(obj) == hash(obj)


def test_unhashable_containers_hash_by_structure():
    assert tracer_safe_hash([1, 2, [3]]) == tracer_safe_hash([1, 2, [3]])
    assert tracer_safe_hash([1, 2]) != tracer_safe_hash([2, 1])
    assert tracer_safe_hash({"a": 1, "b": [2]}) == tracer_safe_hash({"b": [2], "a": 1})
    assert tracer_safe_hash({"a": 1}) != tracer_safe_hash({"a": 2})
    assert tracer_safe_hash([1]) != tracer_safe_hash((1,))  # the type is part of structure
    assert tracer_safe_hash({1, 2}) == tracer_safe_hash({2, 1})
    assert tracer_safe_hash(np.arange(4)) == tracer_safe_hash(np.arange(4))
    assert tracer_safe_hash(np.arange(4)) != tracer_safe_hash(np.arange(5))


def test_self_referential_containers_terminate():
    loop = [1, 2]
    loop.append(loop)
    cyclic = {"a": 1}
    cyclic["self"] = cyclic
    assert tracer_safe_hash(loop) == tracer_safe_hash(loop)
    assert tracer_safe_hash(cyclic) == tracer_safe_hash(cyclic)

    def body(t):
        held = [t]
        held.append(held)
        assert tracer_safe_hash(held) == tracer_safe_hash(held)
        return t

    jax.jit(body)(1.0)


def test_equal_values_hash_equal():
    def equal_pairs(t):
        shared, pair = [t, 1], Pair(t, [t])  # Pair compares by identity
        return [
            ((shared, shared), ([t, 1], [t, 1])),  # shared sub-lists or copies
            ({"a": [t], "b": 2}, {"b": 2, "a": [t]}),  # dict order
            ([Tagged(t, "x")], [Tagged(t, "y")]),  # fields equality ignores
            ([MutableTagged(t, "x")], [MutableTagged(t, "y")]),
            ([Tagged(1, "x")], [Tagged(1, "y")]),
            ([Point(t, [2])], [Point(t, [2])]),
            ({"p": pair, "q": [t]}, {"q": [t], "p": pair}),
            ([t, 2, "s", None], [t, 2.0, "s", None]),
            (collections.OrderedDict(a=[t]), collections.OrderedDict(a=[t])),
        ]

    def body(t):
        # (Equality itself is checked below on concrete values: from Python 3.13 dataclasses
        # compare field by field, which calls a tracer's __eq__.)
        for left, right in equal_pairs(t):
            assert tracer_safe_hash(left) == tracer_safe_hash(right), left
        return t

    jax.jit(body)(1.0)
    for left, right in equal_pairs(jnp.float32(1.0)):
        assert left == right
        assert tracer_safe_hash(left) == tracer_safe_hash(right), left


def test_different_leaves_or_structure_hash_differently():
    # Not promised in general (hashes may collide), but these must not, or it is a poor hash.
    def body(t):
        u = t + 1
        big = [(t, [t, t]) for _ in range(300)]
        other = [(t, [t, t]) for _ in range(299)] + [(t, [t, u])]
        assert tracer_safe_hash(big) != tracer_safe_hash(other)
        assert tracer_safe_hash([t, [t]]) != tracer_safe_hash([[t], t])
        assert tracer_safe_hash({"a": t}) != tracer_safe_hash({"b": t})
        assert tracer_safe_hash([t, 1]) != tracer_safe_hash([t, 2])
        return t

    jax.jit(body)(1.0)


def _same_shell_variants(t, u):
    # Pytrees with the same container type and length at the top, differing further down:
    # a leaf facing None, a list, a tuple, a namedtuple, a dict, other dict keys, more items.
    return [
        [t, u],
        [None, u],
        [u, None],
        [[t], u],
        [(t,), u],
        [Point(t, u), u],
        [(t, u), u],
        [{"a": t}, u],
        [{"b": t}, u],
        [{"a": t, "b": u}, u],
        [[t, u], u],
        [[t, [u]], u],
        [1, u],
        [t, t],
    ]


def _fresh_tracer_safe_hash():
    # The selected backend's tracer_safe_hash, built again: nothing hashed, no structure kept.
    return make_tracer_safe_hash(hash, flatten_up_to_checks_none=FLATTEN_UP_TO_CHECKS_NONE)


def test_a_hash_does_not_depend_on_what_was_hashed_before():
    # tracer_safe_hash keeps the structure of the first pytree of each container type and
    # length; another pytree under the same key must hash as if it came first.
    def body(t):
        u = t * 2
        variants = _same_shell_variants(t, u)
        first = [_fresh_tracer_safe_hash()(variant) for variant in variants]
        assert len(set(first)) == len(variants)  # and they all differ
        for before in variants:
            for index, after in enumerate(variants):
                hasher = _fresh_tracer_safe_hash()
                hasher(before)
                assert hasher(after) == first[index], (before, after)
                assert hasher(after) == first[index], (before, after)
        return t

    jax.jit(body)(1.0)
    body(jnp.float32(1.0))  # concrete arrays, hashed by identity too


def test_objects_that_cannot_be_inspected_still_hash():
    class Opaque:
        __slots__ = ()

        def __hash__(self):
            raise RuntimeError("no")

    class NoLength(list):
        def __len__(self):
            raise RuntimeError("no")

    obj = Opaque()
    assert tracer_safe_hash(obj) == tracer_safe_hash(obj)

    def body(t):
        for tree in (NoLength([t, 1]), [NoLength([t])], {"a": NoLength([t])}):
            assert tracer_safe_hash(tree) == tracer_safe_hash(tree)
        return t

    jax.jit(body)(1.0)


def test_thread_safe_under_jit():
    def worker(seed):
        for _ in range(6):  # each iteration traces a new function on this thread

            def body(x):
                held = HashesItsBound(x)
                assert tracer_safe_hash(held) == tracer_safe_hash(held)
                return x + seed

            # Staging it under jit runs body, and the hashes with it; compiling 24 additions
            # afterwards would test XLA, not tracer_safe_hash.
            jax.jit(body).lower(jnp.float32(seed))

    assert run_in_threads(worker, 4) == []


# --- is_tracer --------------------------------------------------------------------------------


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_is_tracer_inside_transforms(transform):
    flags = []

    def body(t):
        flags.append(is_tracer(t))
        return t

    TRANSFORMS[transform](body, jnp.float32(2.0))
    assert flags and all(flags)


def test_is_tracer_inside_eval_shape():
    flags = []
    jax.eval_shape(lambda t: flags.append(is_tracer(t)) or t, jnp.ones(2))
    assert flags == [True]


@pytest.mark.parametrize(
    "value",
    [
        jnp.ones(3),
        np.ones(3),
        1,
        1.0,
        None,
        "s",
        jax.ShapeDtypeStruct((2,), jnp.float32),
        jax.random.PRNGKey(0),
        [jnp.ones(1)],
    ],
)
def test_is_tracer_false_for_non_tracers(value):
    assert is_tracer(value) is False


def test_is_tracer_is_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jax.jit(lambda x: (is_tracer(x), x)[1])(1.0)
        assert jaxcompat.is_tracer(1) is False
