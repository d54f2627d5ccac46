import jax.numpy as jnp
import pytest
import tinysolve


def test_minimize_converges():
    solver = tinysolve.Solver(weights=[1.0, 2.0], target=[3.0, -1.0])
    x, steps = solver.minimize(jnp.zeros(2))
    assert jnp.allclose(x, jnp.array([3.0, -1.0]), atol=1e-4)
    assert 0 < int(steps) < 500


def test_state_changes_are_seen_and_arrays_reuse_the_compiled_code():
    # Shapes no other test uses, so the first call traces (compiled code is shared by
    # every Solver with the same shapes and constants).
    solver = tinysolve.Solver(weights=[1.0] * 4, target=[1.0] * 4)
    solver.minimize(jnp.zeros(4))
    solver.target = jnp.full(4, 2.0, jnp.float32)  # an array: no retrace
    x, _ = solver.minimize(jnp.zeros(4))
    assert jnp.allclose(x, 2.0, atol=1e-4)
    assert solver.traces == 1
    solver.learning_rate = 0.05  # a constant: retraced, and the result is not stale
    _, slower = solver.minimize(jnp.zeros(4))
    assert solver.traces == 2
    solver.learning_rate = 0.1
    _, faster = solver.minimize(jnp.zeros(4))
    assert int(slower) > int(faster)


def test_lowered_wrapper_keeps_the_clipping():
    x, target = jnp.full(3, 5.0), jnp.zeros(3)
    assert float(tinysolve.squared_error(x, target)) == 10.0  # 75 clipped to 10
    assert float(tinysolve.lowered_loss(x, target)(x, target)) == 10.0


def test_timed_blocks_on_mixed_results():
    solver = tinysolve.Solver(weights=[1.0], target=[1.0])
    (x, _steps), seconds = tinysolve.timed(solver.minimize, jnp.zeros(1))
    assert seconds > 0
    assert jnp.allclose(x, 1.0, atol=1e-4)
    result, _ = tinysolve.timed(lambda: (3, "done", None))
    assert result == (3, "done", None)


def test_reports_the_jax_release(jax_version):
    assert len(jax_version) >= 3


@pytest.mark.jax(">=0.4.36")
def test_compiler_options_where_jax_has_them():
    import jaxcompat

    f = jaxcompat.jit(lambda x: x * 2, compiler_options={"xla_cpu_enable_fast_math": False})
    assert float(f(2.0)) == 4.0


def test_tree_map_and_typeof_through_the_namespace():
    params = {"w": jnp.ones(2), "b": [jnp.zeros(3)]}
    doubled = tinysolve.scaled(params, 2.0)
    assert jnp.allclose(doubled["w"], 2.0)
    assert doubled["b"][0].shape == (3,)
    assert tinysolve.report(jnp.ones((2, 3), jnp.float32)) == "float32[2, 3]"
