"""jaxcompat.lower / jaxcompat.trace and the AOT surface, identical on every matrix row."""

import functools

import jax
import jax.numpy as jnp
import pytest

import jaxcompat


def swap_args_wrapper(fun):
    @functools.wraps(fun)
    def wrapped(x, y):
        return fun(y, x)

    return wrapped


JITS = {"jaxcompat.jit": jaxcompat.jit, "jax.jit": jax.jit}


@pytest.mark.parametrize("inner_jit", JITS)
def test_lower_honours_the_wrapper(inner_jit):
    @swap_args_wrapper
    @JITS[inner_jit]
    def my_fun(x, y):
        return x

    assert int(my_fun(0, 1)) == 1
    assert int(jaxcompat.lower(my_fun, 0, 1).compile()(0, 1)) == 1
    traced = jaxcompat.trace(my_fun, 0, 1)
    assert int(traced.lower().compile()(0, 1)) == 1


@pytest.mark.parametrize("inner_jit", JITS)
def test_lower_honours_stacked_wrappers(inner_jit):
    def add_ten(fun):
        @functools.wraps(fun)
        def wrapped(x, y):
            return fun(x, y) + 10

        return wrapped

    my_fun = add_ten(swap_args_wrapper(JITS[inner_jit](lambda x, y: x - y)))
    assert int(my_fun(5, 2)) == 7
    assert int(jaxcompat.lower(my_fun, 5, 2).compile()(5, 2)) == 7


def test_jaxcompat_jit_never_leaks_aot_methods_onto_wrappers():
    wrapped = swap_args_wrapper(jaxcompat.jit(lambda x, y: x))
    for name in ("lower", "trace", "eval_shape"):
        assert not hasattr(wrapped, name), name


def test_plain_function_is_lowered_with_default_options():
    def f(x, y):
        return x * y

    compiled = jaxcompat.lower(f, jnp.ones(3), 2.0).compile()
    assert jnp.array_equal(compiled(jnp.ones(3), 2.0), jnp.full(3, 2.0))


@pytest.mark.parametrize("make", [jaxcompat.jit, jax.jit])
def test_a_jit_object_is_lowered_with_its_own_options(make):
    def power(x, n):
        return x**n

    jitted = make(power, static_argnums=1)
    compiled = jaxcompat.lower(jitted, jnp.float32(3), 2).compile()
    assert float(compiled(jnp.float32(3))) == 9.0  # the static argument is left out
    assert float(jitted.lower(jnp.float32(2), 3).compile()(jnp.float32(2))) == 8.0


def test_trace_returns_jaxpr_out_info_and_lower():
    def f(x, y):
        return {"sum": x + y, "pair": (x * 2, y.astype(jnp.int32))}

    x, y = jnp.ones((2, 3)), jnp.zeros((2, 3))
    for traced in (jaxcompat.trace(f, x, y), jaxcompat.trace(jaxcompat.jit(f), x, y)):
        assert len(traced.jaxpr.jaxpr.invars) == 2
        assert hasattr(traced.jaxpr, "consts")
        leaves = jax.tree_util.tree_leaves(traced.out_info)
        assert [leaf.shape for leaf in leaves] == [(2, 3)] * 3
        assert [str(leaf.dtype) for leaf in leaves] == ["float32", "int32", "float32"]
        assert jax.tree_util.tree_structure(traced.out_info) == jax.tree_util.tree_structure(
            f(x, y)
        )
        out = traced.lower().compile()(x, y)
        assert jnp.array_equal(out["sum"], x + y)


def test_trace_of_static_and_inline_functions():
    def power(x, n):
        return x**n

    traced = jaxcompat.trace(jaxcompat.jit(power, static_argnames="n"), jnp.float32(2), n=3)
    assert len(traced.jaxpr.jaxpr.invars) == 1
    assert float(traced.lower().compile()(jnp.float32(2))) == 8.0
    inline = jaxcompat.trace(jaxcompat.jit(power, static_argnums=1, inline=True), 2.0, 2)
    assert inline.out_info.shape == ()


def test_lowered_and_compiled_surface():
    lowered = jaxcompat.lower(jaxcompat.jit(lambda x: jnp.sin(x) * 2), jnp.ones(4))
    assert isinstance(lowered.as_text(), str) and lowered.as_text()
    compiled = lowered.compile()
    assert isinstance(compiled.as_text(), str) and compiled.as_text()
    cost = compiled.cost_analysis()
    assert isinstance(cost, dict)
    assert all(isinstance(key, str) for key in cost)
    assert jnp.allclose(compiled(jnp.ones(4)), jnp.sin(jnp.ones(4)) * 2)


@pytest.mark.parametrize("make", [jaxcompat.jit, jax.jit])
def test_cost_analysis_is_a_dict_for_either_jit(make):
    compiled = jaxcompat.lower(make(lambda x: x @ x), jnp.ones((4, 4))).compile()
    cost = compiled.cost_analysis()
    assert isinstance(cost, dict)
    assert cost.get("flops", 0) > 0
    traced_cost = jaxcompat.trace(make(lambda x: x @ x), jnp.ones((4, 4))).lower()
    assert isinstance(traced_cost.compile().cost_analysis(), dict)


def test_compile_accepts_compiler_options():
    lowered = jaxcompat.lower(jaxcompat.jit(lambda x: x + 1), 1.0)
    compiled = lowered.compile({"xla_cpu_enable_fast_math": False})
    assert float(compiled(1.0)) == 2.0


def test_eval_shape_method():
    jitted = jaxcompat.jit(lambda x, n: jnp.tile(x, n), static_argnums=1)
    shape = jitted.eval_shape(jnp.ones(3), 2)
    assert shape.shape == (6,)
    assert str(shape.dtype) == "float32"


def test_non_callable_is_rejected():
    with pytest.raises(TypeError):
        jaxcompat.lower(3, 1)
    with pytest.raises(TypeError):
        jaxcompat.trace("not a function", 1)


@pytest.mark.parametrize(
    ("fun", "args"),
    [
        (lambda x: x * 2.0, (1.0,)),
        (lambda x: (x * 2, {"total": 1.0 * x.sum()}), (jnp.ones(3),)),
        (lambda x: [x.astype(jnp.int32), x > 0], (jnp.ones((2, 2)),)),
    ],
)
def test_trace_out_info_is_what_eval_shape_gives(fun, args):
    # The newest Traced.out_info (JAX 0.7.0) is a pytree of jax.ShapeDtypeStruct, with the
    # weak type where JAX's ShapeDtypeStruct has one: what jax.eval_shape says of the call.
    traced = jaxcompat.trace(fun, *args)
    expected = jax.eval_shape(fun, *args)
    leaves = jax.tree_util.tree_leaves(traced.out_info)
    assert [type(leaf) for leaf in leaves] == [jax.ShapeDtypeStruct] * len(leaves)
    assert jax.tree_util.tree_structure(traced.out_info) == jax.tree_util.tree_structure(expected)
    assert [(leaf.shape, leaf.dtype, getattr(leaf, "weak_type", None)) for leaf in leaves] == [
        (leaf.shape, leaf.dtype, getattr(leaf, "weak_type", None))
        for leaf in jax.tree_util.tree_leaves(expected)
    ]
