"""Loop-safe control flow: ``jax.lax`` primitives that never hash a user's callable object.

JAX caches traced loop bodies keyed by the callable, so it calls the callable's ``__hash__``
and ``__eq__``. When those touch a tracer (Equinox's closure-converted ``cond_fun`` carrying a
traced bound, Diffrax's solvers), the call warns on JAX 0.4.30-0.4.35 and raises TypeError from
0.4.36. Plain functions and ``functools.partial`` objects hash by identity and pass through
untouched, so JAX's cache keeps working for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax

from .hashing import has_identity_hash


def loop_safe(fun: Callable[..., Any]) -> Callable[..., Any]:
    """Return ``fun`` if JAX can hash it safely, else a fresh function that calls it.

    What is not callable is returned as it is, for JAX to take or refuse: ``lax.cond`` still
    accepts its per-branch form ``cond(pred, true_operand, true_fun, false_operand,
    false_fun)``, where the third argument is an operand, and it wraps those branches in fresh
    functions itself.
    """
    if not callable(fun) or has_identity_hash(fun):
        return fun

    def call(*args: Any, **kwargs: Any) -> Any:
        return fun(*args, **kwargs)

    call.__name__ = getattr(fun, "__name__", type(fun).__name__)
    call.__qualname__ = getattr(fun, "__qualname__", type(fun).__qualname__)
    return call


def while_loop(
    cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any], init_val: Any
) -> Any:
    return jax.lax.while_loop(loop_safe(cond_fun), loop_safe(body_fun), init_val)


def fori_loop(
    lower: Any, upper: Any, body_fun: Callable[[Any, Any], Any], init_val: Any, **kwargs: Any
) -> Any:
    return jax.lax.fori_loop(  # type: ignore[no-untyped-call, unused-ignore]
        lower, upper, loop_safe(body_fun), init_val, **kwargs
    )


def scan(
    f: Callable[[Any, Any], Any],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    **kwargs: Any,
) -> Any:
    # length, reverse and unroll may be given by position, as jax.lax.scan takes them.
    return jax.lax.scan(loop_safe(f), init, xs, length, reverse, unroll, **kwargs)


def cond(pred: Any, true_fun: Any, false_fun: Any, *operands: Any, **kwargs: Any) -> Any:
    return jax.lax.cond(pred, loop_safe(true_fun), loop_safe(false_fun), *operands, **kwargs)


def switch(
    index: Any, branches: Sequence[Callable[..., Any]], *operands: Any, **kwargs: Any
) -> Any:
    return jax.lax.switch(index, [loop_safe(branch) for branch in branches], *operands, **kwargs)


__all__ = ["cond", "fori_loop", "loop_safe", "scan", "switch", "while_loop"]
