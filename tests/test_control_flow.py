"""jaxcompat.lax: same results as jax.lax, and callables that hash tracers are accepted."""

import functools

import jax
import jax.numpy as jnp
import pytest

from jaxcompat import lax as clax

pytestmark = pytest.mark.tracer_hash


class BoundedBelow:
    """Upstream-style cond_fun: it stores a traced bound and hashes it."""

    def __init__(self, bound):
        self.bound = bound

    def __call__(self, value):
        return value < self.bound

    def __hash__(self):
        return hash(self.bound)

    def __eq__(self, other):
        return isinstance(other, BoundedBelow) and self.bound is other.bound


class AddBound:
    def __init__(self, bound):
        self.bound = bound

    def __call__(self, *args):
        return args[-1] + self.bound if len(args) > 1 else args[0] + self.bound

    def __hash__(self):
        return hash(self.bound)

    def __eq__(self, other):
        return self is other


def test_while_loop_with_a_cond_object_that_hashes_a_tracer():
    @jax.jit
    def outer(y):
        return clax.while_loop(BoundedBelow(y), lambda v: v + 1.0, 0.0)

    assert float(outer(5.0)) == 5.0
    assert float(outer(7.0)) == 7.0


def test_every_primitive_accepts_tracer_hashing_callables_under_jit():
    @jax.jit
    def outer(y):
        w = clax.while_loop(BoundedBelow(y), AddBound(1.0), 0.0)
        f = clax.fori_loop(0, 3, lambda i, c: AddBound(y)(c), 0.0)
        s, _ = clax.scan(lambda c, x: (AddBound(y)(c), x), 0.0, jnp.arange(3.0))
        c = clax.cond(y > 0, AddBound(y), AddBound(-y), 1.0)
        k = clax.switch(1, [AddBound(y), AddBound(2 * y)], 1.0)
        f2 = clax.fori_loop(0, 2, _BodyObject(y), 0.0)
        return w, f, s, c, k, f2

    assert [float(v) for v in outer(2.0)] == [2.0, 6.0, 6.0, 3.0, 5.0, 4.0]


class _BodyObject:
    def __init__(self, step):
        self.step = step

    def __call__(self, i, carry):
        return carry + self.step

    def __hash__(self):
        return hash(self.step)

    def __eq__(self, other):
        return self is other


@pytest.mark.parametrize("jit", [False, True])
def test_same_results_as_jax_lax(jit):
    def run(lax):
        w = lax.while_loop(lambda v: v < 10, lambda v: v * 2, 1)
        f = lax.fori_loop(0, 5, lambda i, c: c + i, 0)
        s = lax.scan(lambda c, x: (c + x, c * x), 0.0, jnp.arange(4.0))
        c = lax.cond(True, lambda x: x + 1, lambda x: x - 1, 3)
        k = lax.switch(2, [lambda x: x, lambda x: -x, lambda x: x * 10], 4)
        p = lax.while_loop(functools.partial(lambda lim, v: v < lim, 3), lambda v: v + 1, 0)
        return w, f, s, c, k, p

    expected = jax.jit(lambda: run(jax.lax))() if jit else run(jax.lax)
    actual = jax.jit(lambda: run(clax))() if jit else run(clax)
    assert jax.tree_util.tree_all(
        jax.tree_util.tree_map(lambda a, b: bool(jnp.array_equal(a, b)), expected, actual)
    )
    assert jax.tree_util.tree_structure(expected) == jax.tree_util.tree_structure(actual)


def test_keyword_arguments_pass_through():
    assert float(clax.scan(lambda c, x: (c + x, None), 0.0, jnp.ones(3), length=3)[0]) == 3.0
    assert float(clax.scan(lambda c, x: (c + 1, None), 0.0, None, length=4)[0]) == 4.0
    assert float(clax.scan(lambda c, x: (c + x, None), 0.0, jnp.ones(4), unroll=2)[0]) == 4.0
    assert float(clax.scan(lambda c, x: (c + x, None), 0.0, jnp.ones(3), reverse=True)[0]) == 3.0


def test_scan_takes_length_reverse_and_unroll_by_position_as_jax_does():
    # haiku's hk.scan calls jax.lax.scan(f, init, xs, length, reverse, unroll=unroll).
    def step(c, x):
        return c * 2 + x, c

    xs = jnp.arange(3.0)
    for args in [(None, True), (3, False, 2), (3, True, 1)]:
        expected = jax.lax.scan(step, 1.0, xs, *args)
        actual = clax.scan(step, 1.0, xs, *args)
        assert jax.tree_util.tree_all(
            jax.tree_util.tree_map(lambda a, b: bool(jnp.array_equal(a, b)), expected, actual)
        )


def test_cond_takes_the_per_branch_operand_form_as_jax_does():
    # cond(pred, true_operand, true_fun, false_operand, false_fun): JAX still accepts it.
    args = ((jnp.arange(3.0), 2.0), lambda x: x[0] * x[1], jnp.ones(3), lambda x: x - 1.0)
    for pred in (True, False):
        expected = jax.lax.cond(pred, *args)
        result = clax.cond(pred, *args)
        assert result.tolist() == expected.tolist()
        assert result.tolist() == ([0.0, 2.0, 4.0] if pred else [0.0, 0.0, 0.0])
    under_jit = jax.jit(lambda p: clax.cond(p, *args))(False)
    assert under_jit.tolist() == [0.0, 0.0, 0.0]


def test_a_branch_that_is_not_callable_gets_jaxs_own_error():
    with pytest.raises(TypeError) as from_jax:
        jax.lax.cond(True, 1.0, lambda x: x, 2.0)
    with pytest.raises(TypeError) as from_jaxcompat:
        clax.cond(True, 1.0, lambda x: x, 2.0)
    assert str(from_jaxcompat.value) == str(from_jax.value)
    with pytest.raises(TypeError) as from_jax:
        jax.lax.while_loop(True, lambda x: x, 0.0)
    with pytest.raises(TypeError) as from_jaxcompat:
        clax.while_loop(True, lambda x: x, 0.0)
    assert str(from_jaxcompat.value) == str(from_jax.value)


# --- the newest signatures on every release ---------------------------------------------


def _body(i, carry):
    return carry * 2.0 + i


@pytest.mark.parametrize("unroll", [None, 1, 2, 3, True, False])
def test_fori_loop_takes_the_newest_unroll(unroll):
    expected = 0.5
    for i in range(5):
        expected = expected * 2.0 + i
    result = clax.fori_loop(0, 5, _body, jnp.float32(0.5), unroll=unroll)
    assert float(result) == expected
    assert result.dtype == jnp.float32
    jitted = jax.jit(lambda c: clax.fori_loop(1, 4, _body, c, unroll=unroll))(1.0)
    assert float(jitted) == float(clax.fori_loop(1, 4, _body, 1.0))
    grad = jax.grad(lambda c: clax.fori_loop(0, 5, _body, c, unroll=unroll))(0.5)
    assert float(grad) == 32.0
    assert float(clax.fori_loop(3, 3, _body, 1.0, unroll=unroll)) == 1.0


def test_fori_loop_unroll_needs_bounds_known_at_trace_time():
    def loop(upper, unroll):
        return clax.fori_loop(0, upper, _body, 0.0, unroll=unroll)

    assert float(jax.jit(loop, static_argnums=1)(3, 1)) == 4.0
    # (Up to JAX 0.4.3x, JAX's traceback filtering appends a note to the message.)
    with pytest.raises(ValueError, match=r"^Can only use `unroll` in `fori_loop`") as error:
        jax.jit(loop, static_argnums=1)(3, 2)
    assert str(error.value).split("\n")[0] == (
        "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."
    )


@pytest.mark.parametrize("unroll", [1, 2, True, False])
def test_scan_takes_the_newest_signature(unroll):
    def step(carry, x):
        return carry + 1.0, carry * 2.0

    carry, ys = clax.scan(step, 0.0, length=4, unroll=unroll)  # xs left out
    assert float(carry) == 4.0
    assert ys.tolist() == [0.0, 2.0, 4.0, 6.0]
    carry, ys = clax.scan(step, 0.0, jnp.zeros(3), unroll=unroll, _split_transpose=False)
    assert ys.tolist() == [0.0, 2.0, 4.0]


def test_the_newest_signatures_of_jit_and_control_flow():
    import inspect

    import jaxcompat
    from jaxcompat import _surface

    for name, own in [
        ("jax.jit", jaxcompat.jit),
        ("jax.lax.cond", clax.cond),
        ("jax.lax.switch", clax.switch),
        ("jax.lax.fori_loop", clax.fori_loop),
        ("jax.lax.scan", clax.scan),
        ("jax.lax.while_loop", clax.while_loop),
    ]:
        newest = _surface.signature_runs(name)[-1][1]
        parameters = inspect.signature(own).parameters
        missing = set(_surface.keyword_names(newest)) - set(parameters)
        assert not missing, (name, missing)


def test_cond_and_switch_take_the_legacy_operand_keyword():
    assert float(clax.cond(True, lambda x: x + 1.0, lambda x: x, operand=1.0)) == 2.0
    assert float(clax.switch(1, [lambda x: x, lambda x: x * 3.0], operand=2.0)) == 6.0
