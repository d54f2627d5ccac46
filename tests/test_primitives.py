"""``jaxcompat.extend.core.primitives`` and the ``*_p`` names of ``jaxcompat.lax``.

Contract tests: the same assertions on every matrix row. A primitive that a release has is
the release's own object, the one its jaxprs contain; one it lacks raises the namespace's
AttributeError (checked for every name by tests/test_namespace.py).
"""

import importlib

import jax
import jax.numpy as jnp
import pytest

import jaxcompat
from jaxcompat._stable_names import primitives as table

P = jaxcompat.extend.core.primitives

# Primitives whose name is not their attribute name without ``_p``, on the newest JAX.
NAMED_OTHERWISE = {
    "linear_solve_p": "custom_linear_solve",
    "scatter_add_p": "scatter-add",
    "scatter_max_p": "scatter-max",
    "scatter_min_p": "scatter-min",
    "scatter_mul_p": "scatter-mul",
    "scatter_sub_p": "scatter-sub",
    "add_jaxvals_p": "add_any",
    "call_p": "eval_jaxpr",
    "closed_call_p": "eval_jaxpr",
    "remat_p": "remat2",
}


@pytest.mark.parametrize("entry", table.NAMES, ids=lambda entry: entry.path)
def test_a_primitive_had_is_a_primitive_of_the_newest_name(entry):
    module, _, name = f"jaxcompat.{entry.path}".rpartition(".")
    primitive = getattr(importlib.import_module(module), name, None)
    if primitive is None:
        assert entry.first is not None
        return
    assert isinstance(primitive, jaxcompat.extend.core.Primitive)
    assert primitive.name == NAMED_OTHERWISE.get(name, name.removesuffix("_p"))


def _primitives_of(function, *args):
    jaxpr = jax.make_jaxpr(function)(*args).jaxpr
    return [equation.primitive for equation in jaxpr.eqns]


X = jnp.arange(4.0)


@pytest.mark.parametrize(
    ("name", "function", "args"),
    [
        ("sin_p", jnp.sin, (X,)),
        ("add_p", lambda x: x + x, (X,)),
        ("cumsum_p", lambda x: jax.lax.cumsum(x), (X,)),
        ("while_p", lambda x: jax.lax.while_loop(lambda c: c < 3, lambda c: c + 1, x), (0,)),
        ("scan_p", lambda x: jax.lax.scan(lambda c, y: (c + y, y), 0.0, x), (X,)),
        ("cond_p", lambda x: jax.lax.cond(x > 0, lambda: x, lambda: -x), (1.0,)),
        ("cholesky_p", jax.lax.linalg.cholesky, (jnp.eye(2),)),
        ("remat_p", jax.checkpoint(jnp.sin), (X,)),
        ("custom_jvp_call_p", jax.nn.relu, (X,)),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_the_primitive_is_the_one_jaxprs_contain(name, function, args):
    assert getattr(P, name) in _primitives_of(function, *args)


def test_custom_vjp_call_is_the_primitive_of_custom_vjp_functions_or_absent():
    @jax.custom_vjp
    def double(x):
        return 2 * x

    double.defvjp(lambda x: (double(x), None), lambda _, g: (2 * g,))
    (primitive,) = _primitives_of(double, 1.0)
    if hasattr(P, "custom_vjp_call_p"):
        assert primitive is P.custom_vjp_call_p
    else:
        # Before 0.6.1 the primitive in the jaxpr is another one, with other parameters.
        assert primitive.name == "custom_vjp_call_jaxpr"
