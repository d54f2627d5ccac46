"""``jax.lax.ragged_dot`` as of JAX 0.5.3, for the releases before it.

JAX's own (0.4.29) could not be differentiated until 0.4.31 nor batched until 0.4.35, and
checked ``group_sizes`` with other errors until 0.5.3.

A ragged (grouped) matrix product: the rows of ``lhs`` (m, k) fall into consecutive groups
of ``group_sizes`` (g,), and each group is multiplied by its own ``rhs`` matrix (g, k, n).
Rows past the last group give zeros.

On CPU the newest JAX computes it the way composed here: ``lhs`` is spread over the groups
(g, m, k), with the rows outside each group set to zero, and one ``dot_general`` contracts
``k`` and the group axis against ``rhs``. So it gives the same results and dtypes, traces,
vmaps and differentiates; its derivatives are those of this composition, which equal the
ragged products the newest JAX's own rules compute.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .lax import no_option

__all__ = ["ragged_dot"]


def _check(lhs: jax.Array, rhs: jax.Array, group_sizes: jax.Array) -> None:
    # The newest JAX's checks of the basic ragged product, with its messages.
    if group_sizes.ndim == 0:
        raise TypeError("expected rank of group_sizes to be >=1.")
    if group_sizes.ndim != 1:
        raise TypeError(
            f"expected group_sizes to have shape {(group_sizes.shape[-1],)}, got "
            f"{group_sizes.shape}."
        )
    if lhs.ndim != 2 or rhs.ndim != 3:
        raise TypeError(
            "ragged_dot requires lhs of rank 2 (m, k) and rhs of rank 3 (g, k, n), got "
            f"lhs of shape {lhs.shape} and rhs of shape {rhs.shape}."
        )
    if rhs.shape[0] != group_sizes.shape[0]:
        raise TypeError(
            f"expected rhs group dimension size to be {group_sizes.shape[0]}, got {rhs.shape[0]}."
        )
    if not jnp.issubdtype(group_sizes.dtype, np.integer):
        raise TypeError(
            "ragged_dot_general requires that group_sizes.dtype is subtype of np.integer."
        )


def ragged_dot(
    lhs: Any,
    rhs: Any,
    group_sizes: Any,
    precision: Any = None,
    preferred_element_type: Any = None,
    group_offset: Any = None,
    out_sharding: Any = None,
) -> jax.Array:
    """``lhs`` (m, k) times ``rhs`` (g, k, n), each row by the matrix of its group."""
    if group_offset is not None:
        # The newest JAX has no group_offset support either (a TypeError or a
        # NotImplementedError, by how it is called).
        raise TypeError("ragged_dot: Unimplemented group_offset support. Leave it None.")
    if out_sharding is not None:
        raise no_option(
            "ragged_dot", "out_sharding", "0.10.1", "has no out_sharding for ragged_dot"
        )
    for position, operand in enumerate((lhs, rhs, group_sizes)):
        # Like every lax function, it takes arrays and scalars, not lists (the newest text).
        if isinstance(operand, (list, tuple)):
            raise TypeError(
                "Error interpreting argument to ragged_dot_general as a JAX value. The "
                f"problematic value is of type {type(operand)} and was passed to "
                f"ragged_dot_general at position {position}.\n"
            )
    lhs, rhs, group_sizes = jnp.asarray(lhs), jnp.asarray(rhs), jnp.asarray(group_sizes)
    _check(lhs, rhs, group_sizes)
    ends = lax.cumsum(group_sizes)
    starts = ends - group_sizes
    rows = lax.broadcasted_iota(group_sizes.dtype, (group_sizes.shape[0], lhs.shape[0]), 1)
    in_group = (starts[:, None] <= rows) & (rows < ends[:, None])
    spread = jnp.where(in_group[:, :, None], lhs[None], jnp.zeros((), lhs.dtype))
    return lax.dot_general(
        spread,
        rhs,
        dimension_numbers=(((2, 0), (1, 0)), ((), ())),
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
