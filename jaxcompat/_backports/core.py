"""``jax.extend.core`` functions whose signature changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["unmapped_aval_without_axis_name"]


def unmapped_aval_without_axis_name(jax_unmapped_aval: Callable[..., Any]) -> Callable[..., Any]:
    """``unmapped_aval(size, axis, aval)``: JAX 0.5.1 dropped the ``axis_name`` parameter.

    Before, ``axis_name`` only removed that axis from the aval's named shape, which avals
    built without it do not have: None removes nothing.
    """

    def unmapped_aval(
        size: Any, axis: int | None, aval: Any, explicit_mesh_axis: Any = None
    ) -> Any:
        if explicit_mesh_axis is not None:
            raise TypeError(
                "jaxcompat.extend.core.unmapped_aval(explicit_mesh_axis=...) needs a JAX "
                "release with explicit sharding (0.7.0 or newer)."
            )
        return jax_unmapped_aval(size, None, axis, aval)

    return unmapped_aval
