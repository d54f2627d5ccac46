"""``jax.lax.linalg.tridiagonal_solve`` as of JAX 0.5.0, for the releases before it.

Before 0.5.0 JAX's own solves real float32 and float64 systems of three rows or more only
("m (2) must be >= 3", "Only f32/f64 are supported, got complex64"), and has no
differentiation rule (nor, on 0.4.13, a batching rule). JAX 0.5.0 takes any number of rows
and complex values, and differentiates it.

Here, where JAX's own takes the system, it still computes the solution, inside
``lax.custom_linear_solve``: the system's matrix-vector product gives the derivatives (in
``b`` and in the three diagonals, forward and reverse), and the transposed system, solved by
JAX's own too, the reverse ones. So the values are JAX's, and the cost stays linear in the
number of rows. Other systems (fewer than three rows, complex values) are solved as the dense
matrix they stand for by ``jnp.linalg.solve``, LU with partial pivoting as LAPACK's tridiagonal
solver that the newest JAX calls on CPU. JAX 0.4.13's own solves one system at a time (its
diagonals must be vectors), so there systems given with batch dimensions are solved densely;
a real system of three rows or more under ``vmap`` raises JAX 0.4.13's own "Batching rule for
'tridiagonal_solve' not implemented", as JAX 0.4.13 does.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.lax import linalg as jax_linalg

from .._dispatch import installed_release_in
from .lax import no_option
from .lax_adapters import first_release_with

__all__ = ["tridiagonal_solve", "without_perturb_singular"]

_JAX_OWN_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
#: JAX's own (jax.lax.linalg re-exports it without ``__all__`` on 0.4.13).
_jax_own_solve = jax_linalg.tridiagonal_solve  # type: ignore[attr-defined, unused-ignore]
#: JAX 0.4.18 made its own take batch dimensions ([..., m]); 0.4.13's takes vectors only.
_JAX_OWN_TAKES_BATCHES = installed_release_in(">=0.4.18")


def _refuse_perturb_singular(perturb_singular: bool) -> None:
    if perturb_singular:
        raise no_option(
            "linalg.tridiagonal_solve",
            "perturb_singular",
            first_release_with("linalg.tridiagonal_solve", "perturb_singular"),
            "has no perturbed pivots for a singular system",
        )


def without_perturb_singular(function: Callable[..., Any]) -> Callable[..., Any]:
    """JAX 0.5.0-0.9.2's own ``tridiagonal_solve`` with the keyword JAX 0.10.0 added,
    ``perturb_singular=``: False, the default, is the only value they can honour."""

    @functools.wraps(function)
    def adapted(dl: Any, d: Any, du: Any, b: Any, *, perturb_singular: bool = False) -> Any:
        _refuse_perturb_singular(perturb_singular)
        return function(dl, d, du, b)

    adapted.__signature__ = inspect.signature(tridiagonal_solve)  # type: ignore[attr-defined]
    return adapted


def tridiagonal_solve(dl: Any, d: Any, du: Any, b: Any, *, perturb_singular: bool = False) -> Any:
    """Solve the tridiagonal systems ``A x = b``: ``dl``, ``d`` and ``du`` (``[..., m]``) are
    the diagonals below, on and above the main one (``dl[..., 0]`` and ``du[..., m - 1]`` are
    not read), ``b`` is ``[..., m, n]``. ``perturb_singular=True`` (JAX 0.10.0) is refused."""
    _refuse_perturb_singular(perturb_singular)
    dtypes = {jnp.result_type(value) for value in (dl, d, du, b)}
    rows = np.shape(d)[-1] if np.ndim(d) else 0
    if len(dtypes) != 1 or not jnp.issubdtype(next(iter(dtypes)), jnp.inexact):
        return _jax_own_solve(dl, d, du, b)  # JAX's own error for these
    batched = max(np.ndim(dl), np.ndim(d), np.ndim(du), np.ndim(b) - 1) > 1
    takes = rows >= 3 and next(iter(dtypes)) in _JAX_OWN_DTYPES
    if takes and (_JAX_OWN_TAKES_BATCHES or not batched):
        return _solved_by_jax(dl, d, du, b)
    return _solved_densely(dl, d, du, b)


def _solved_by_jax(dl: Any, d: Any, du: Any, b: Any) -> Any:
    dl, d, du = jnp.asarray(dl), jnp.asarray(d), jnp.asarray(du)
    zero = jnp.zeros_like(d[..., :1])
    # The transposed system: its diagonal below is the one above, moved down a row.
    dl_t = jnp.concatenate([zero, du[..., :-1]], axis=-1)
    du_t = jnp.concatenate([dl[..., 1:], zero], axis=-1)

    def matvec(x: Any) -> Any:
        below = jnp.concatenate([jnp.zeros_like(x[..., :1, :]), x[..., :-1, :]], axis=-2)
        above = jnp.concatenate([x[..., 1:, :], jnp.zeros_like(x[..., :1, :])], axis=-2)
        return dl[..., :, None] * below + d[..., :, None] * x + du[..., :, None] * above

    def solve(_: Any, rhs: Any) -> Any:
        return _jax_own_solve(dl, d, du, rhs)

    def transpose_solve(_: Any, rhs: Any) -> Any:
        return _jax_own_solve(dl_t, d, du_t, rhs)

    solved = lax.custom_linear_solve(  # type: ignore[no-untyped-call, unused-ignore]
        matvec, jnp.asarray(b), solve, transpose_solve
    )
    return solved


def _solved_densely(dl: Any, d: Any, du: Any, b: Any) -> Any:
    d = jnp.asarray(d)
    rows = d.shape[-1]

    def band(diagonal: Any, offset: int) -> Any:
        return jnp.asarray(diagonal)[..., :, None] * jnp.eye(rows, k=offset, dtype=d.dtype)

    return jnp.linalg.solve(band(d, 0) + band(dl, -1) + band(du, 1), b)
