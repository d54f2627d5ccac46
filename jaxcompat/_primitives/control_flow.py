"""Loop-safe control flow: ``jax.lax`` primitives that never hash a user's callable object.

JAX caches traced loop bodies keyed by the callable, so it calls the callable's ``__hash__``
and ``__eq__``. When those touch a tracer (Equinox's closure-converted ``cond_fun`` carrying a
traced bound, Diffrax's solvers), the call warns on JAX 0.4.30-0.4.35 and raises TypeError from
0.4.36. Plain functions and ``functools.partial`` objects hash by identity and pass through
untouched, so JAX's cache keeps working for them.
"""

from __future__ import annotations

import inspect
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
    lower: Any,
    upper: Any,
    body_fun: Callable[[Any, Any], Any],
    init_val: Any,
    *,
    unroll: int | bool | None = None,
) -> Any:
    return newest_fori_loop(lower, upper, loop_safe(body_fun), init_val, unroll=unroll)


def scan(
    f: Callable[[Any, Any], Any],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
) -> Any:
    return newest_scan(loop_safe(f), init, xs, length, reverse, unroll, _split_transpose)


# The newest cond and switch take operand= (a legacy single operand) with this default; JAX's
# own sentinel is private, so jaxcompat's stands for "not given".
_NO_OPERAND: Any = type("NoOperand", (), {"__repr__": lambda self: "<no operand>"})()


def cond(
    pred: Any,
    true_fun: Any,
    false_fun: Any,
    *operands: Any,
    operand: Any = _NO_OPERAND,
    **legacy: Any,
) -> Any:
    if operand is not _NO_OPERAND:
        legacy["operand"] = operand
    return jax.lax.cond(pred, loop_safe(true_fun), loop_safe(false_fun), *operands, **legacy)


def switch(
    index: Any,
    branches: Sequence[Callable[..., Any]],
    *operands: Any,
    operand: Any = _NO_OPERAND,
) -> Any:
    branches = [loop_safe(branch) for branch in branches]
    if operand is not _NO_OPERAND:
        return jax.lax.switch(index, branches, *operands, operand=operand)
    return jax.lax.switch(index, branches, *operands)


# cond's linear= (gone in JAX 0.4.31) still reaches JAX's cond where it has one, but the
# signature shown is the newest's.
cond.__signature__ = inspect.signature(cond).replace(  # type: ignore[attr-defined]
    parameters=[p for p in inspect.signature(cond).parameters.values() if p.name != "legacy"]
)


# --- the newest signatures of fori_loop and scan on releases that predate them -------------

# JAX 0.4.22 gave fori_loop unroll= and made scan's unroll=True the whole loop (1 before);
# 0.4.26 gave scan _split_transpose=, and 0.4.27 made its xs optional.
_FORI_LOOP_TAKES_UNROLL = "unroll" in inspect.signature(jax.lax.fori_loop).parameters
_SCAN_TAKES_BOOLEAN_UNROLL = _FORI_LOOP_TAKES_UNROLL
_SCAN_TAKES_SPLIT_TRANSPOSE = "_split_transpose" in inspect.signature(jax.lax.scan).parameters

# The release's own fori_loop, scan and config, typed loosely: their signatures (and JAX
# 0.4.13's untyped fori_loop) differ from release to release, which the flags above decide.
_jax_fori_loop: Callable[..., Any] = jax.lax.fori_loop
_jax_scan: Callable[..., Any] = jax.lax.scan
_jax_config: Any = jax.config


def newest_fori_loop(
    lower: Any,
    upper: Any,
    body_fun: Callable[[Any, Any], Any],
    init_val: Any,
    *,
    unroll: int | bool | None = None,
) -> Any:
    """``jax.lax.fori_loop`` with the newest ``unroll=`` on every release."""
    if unroll is None:
        return _jax_fori_loop(lower, upper, body_fun, init_val)
    try:
        start, stop = int(lower), int(upper)
    except TypeError:  # a tracer (jax.errors.ConcretizationTypeError is a TypeError)
        # As the newest fori_loop: unknown bounds take no unrolling (False, 1, and True == 1).
        if unroll is not False and unroll != 1:
            raise ValueError(
                "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."
            ) from None
        return _jax_fori_loop(lower, upper, body_fun, init_val)
    length = max(stop - start, 0)
    if unroll is True:  # the whole loop; JAX 0.4.22-0.4.29 divide by zero on an empty one
        unroll = max(length, 1)
    if _FORI_LOOP_TAKES_UNROLL:
        return _jax_fori_loop(lower, upper, body_fun, init_val, unroll=unroll)
    # As the newest fori_loop does with bounds known at trace time: a scan of that length.
    if length == 0 and _jax_config.jax_disable_jit:
        return init_val  # JAX's scan without jit takes no empty loop

    def step(carry: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
        index, value = carry
        return (index + 1, body_fun(index, value)), None

    steps = 1 if unroll is False else unroll
    (_, result), _ = _jax_scan(step, (start, init_val), None, length=length, unroll=steps)
    return result


def newest_scan(
    f: Callable[[Any, Any], Any],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
) -> Any:
    """``jax.lax.scan`` with the newest signature on every release."""
    if isinstance(unroll, bool) and not _SCAN_TAKES_BOOLEAN_UNROLL:
        if unroll and length is None:
            leaves = jax.tree_util.tree_leaves(xs)
            length = len(leaves[0]) if leaves else None  # else JAX asks for length itself
        unroll = max(length or 1, 1) if unroll else 1
    if _SCAN_TAKES_SPLIT_TRANSPOSE:
        return _jax_scan(f, init, xs, length, reverse, unroll, _split_transpose)
    return _jax_scan(f, init, xs, length, reverse, unroll)


__all__ = [
    "cond",
    "fori_loop",
    "loop_safe",
    "newest_fori_loop",
    "newest_scan",
    "scan",
    "switch",
    "while_loop",
]
