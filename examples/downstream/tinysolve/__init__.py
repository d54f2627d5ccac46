"""tinysolve: minimise a weighted quadratic by gradient descent, on any JAX release.

It is written once, for the newest JAX, with ``import jaxcompat as jax`` in place of
``import jax``, and declares no upper pin. Each of these breaks on some release with plain JAX:

* ``Solver.minimize`` is a jitted method whose instance state changes between calls;
* its ``while_loop`` condition is an object that carries traced values and hashes them;
* ``clipped`` is a ``functools.wraps`` decorator whose result is lowered ahead of time, and
  calls ``jnp.clip`` with its newest keywords (``min``/``max``, JAX 0.4.30);
* ``timed`` blocks on results that may hold Python ints;
* ``scaled`` uses ``jax.tree.map`` (JAX 0.4.25) and ``report`` uses ``jax.typeof`` (0.5.3).
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable
from typing import Any

import jaxcompat as jax
import jaxcompat.numpy as jnp

__all__ = ["NotConverged", "Solver", "clipped", "lowered_loss", "report", "scaled", "timed"]


@dataclasses.dataclass(frozen=True)
class NotConverged:
    """The loop condition. A frozen dataclass hashes its fields, traced ones included."""

    tolerance: Any
    max_steps: Any

    def __call__(self, state: tuple[Any, Any, Any]) -> Any:
        _, step, change = state
        return (change > self.tolerance) & (step < self.max_steps)


class Solver:
    """Gradient descent on ``sum(weights * (x - target) ** 2)``."""

    def __init__(self, weights: Any, target: Any, learning_rate: float = 0.1) -> None:
        self.weights = jnp.asarray(weights, dtype=jnp.float32)  # traced: new values reuse code
        self.target = jnp.asarray(target, dtype=jnp.float32)
        self.learning_rate = learning_rate  # a compile-time constant: changing it retraces
        self.traces = 0  # set while tracing; lands on the instance

    def loss(self, x: Any) -> Any:
        return jnp.sum(self.weights * (x - self.target) ** 2)

    @jax.jit
    def minimize(self, x0: Any, tolerance: Any = 1e-6, max_steps: int = 500) -> Any:
        self.traces += 1
        grad = jax.grad(self.loss)

        def body(state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
            x, step, _ = state
            new_x = x - self.learning_rate * grad(x)
            return new_x, step + 1, jnp.max(jnp.abs(new_x - x))

        start = (jnp.asarray(x0, jnp.float32), jnp.int32(0), jnp.float32(jnp.inf))
        condition = NotConverged(jnp.asarray(tolerance, jnp.float32), max_steps)
        x, steps, _ = jax.lax.while_loop(condition, body, start)
        return x, steps


def clipped(fun: Callable[..., Any]) -> Callable[..., Any]:
    """Clip a function's result to [0, 10]."""

    @functools.wraps(fun)
    def wrapper(*args: Any) -> Any:
        return jnp.clip(fun(*args), min=0.0, max=10.0)

    return wrapper


@clipped
@jax.jit
def squared_error(x: Any, target: Any) -> Any:
    return jnp.sum((x - target) ** 2)


def lowered_loss(x: Any, target: Any) -> Any:
    """Compile the clipped loss ahead of time; the clipping wrapper is kept."""
    return jax.lower(squared_error, x, target).compile()


def timed(fun: Callable[..., Any], *args: Any, repeats: int = 3) -> tuple[Any, float]:
    """Return ``fun(*args)`` and the best wall time of ``repeats`` calls, in seconds."""
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = jax.block_if_array(fun(*args))
        best = min(best, time.perf_counter() - start)
    return result, best


def scaled(params: Any, factor: float) -> Any:
    """Multiply every leaf of a pytree of parameters by ``factor``."""
    return jax.tree.map(lambda leaf: leaf * factor, params)


def report(x: Any) -> str:
    """Describe an array or a tracer by its abstract value: shape and dtype."""
    aval = jax.typeof(x)
    return f"{aval.dtype}{list(aval.shape)}"
