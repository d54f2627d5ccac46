"""Functions directly under ``jax`` that older releases lack, built from their own API."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import jax

__all__ = ["copy_to_host_async", "fwd_and_bwd", "process_indices"]


def copy_to_host_async(x: Any) -> Any:
    """``jax.copy_to_host_async`` (JAX 0.5.3): start copying every array leaf to the host.

    Leaves without a ``copy_to_host_async`` method are left alone; ``x`` is returned as it is.
    """
    for leaf in jax.tree_util.tree_leaves(x):
        try:
            start_copy = leaf.copy_to_host_async
        except AttributeError:
            continue
        start_copy()
    return x


def process_indices(backend: Any = None) -> list[int]:
    """``jax.process_indices`` (JAX 0.4.33): the indices of all JAX processes."""
    return list(range(jax.process_count(backend)))


def _index_or_indices(argnums: int | Sequence[int]) -> int | tuple[int, ...]:
    # JAX's _ensure_index: an index, or a sequence of indices made a tuple.
    try:
        return operator.index(argnums)  # type: ignore[arg-type]
    except TypeError:
        return tuple(map(operator.index, argnums))  # type: ignore[arg-type]


def _in_bounds(argnums: tuple[int, ...], count: int) -> list[int]:
    # JAX's _ensure_inbounds: negative indices count from the end.
    for index in argnums:
        if not -count <= index < count:
            raise ValueError(
                "Positional argument indices, e.g. for `static_argnums`, must have value "
                "greater than or equal to -len(args) and less than len(args), but got value "
                f"{index} for len(args) == {count}."
            )
    return [index % count for index in argnums]


def fwd_and_bwd(
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    has_aux: bool = False,
    jitted: bool = True,
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``jax.fwd_and_bwd`` (JAX 0.6.1): ``jax.vjp`` split into a forward and a backward.

    ``fwd(*args)`` returns ``(fun(*args), residuals)`` (and ``aux`` with ``has_aux``);
    ``bwd(residuals, cotangent)`` returns the cotangents of the arguments in ``argnums``.
    The residuals are the pullback of ``jax.vjp``, a pytree of arrays, as in the newest JAX.
    """
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    argnums = _index_or_indices(argnums)
    positions = (argnums,) if isinstance(argnums, int) else argnums

    def fwd(*args: Any, **kwargs: Any) -> Any:
        chosen = _in_bounds(positions, len(args))

        def of_differentiated(*differentiated: Any) -> Any:
            full = list(args)
            for position, value in zip(chosen, differentiated, strict=True):
                full[position] = value
            return fun(*full, **kwargs)

        vjp: Any = jax.vjp
        return vjp(of_differentiated, *[args[i] for i in chosen], has_aux=has_aux)

    def bwd(f_vjp: Any, outgrad: Any) -> Any:
        cotangents = f_vjp(outgrad)
        return cotangents[0] if isinstance(argnums, int) else cotangents

    if jitted:
        return jax.jit(fwd), jax.jit(bwd)
    return fwd, bwd
