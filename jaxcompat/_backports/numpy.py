"""``jax.numpy`` functions whose keywords were renamed: clip in JAX 0.4.27, reshape in 0.4.28."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["clip_from_a_min_a_max", "reshape_from_newshape"]


def clip_from_a_min_a_max(jax_clip: Callable[..., Any]) -> Callable[..., Any]:
    """``jnp.clip(arr, /, min=None, max=None)`` from the ``clip(a, a_min, a_max)`` of < 0.4.27."""

    def clip(arr: Any = None, /, min: Any = None, max: Any = None) -> Any:
        return jax_clip(arr, min, max)

    clip.__doc__ = jax_clip.__doc__
    return clip


def reshape_from_newshape(jax_reshape: Callable[..., Any]) -> Callable[..., Any]:
    """``jnp.reshape(a, shape, order, *, copy, out_sharding)`` from ``reshape(a, newshape)``."""

    def reshape(
        a: Any, shape: Any, order: str = "C", *, copy: bool | None = None, out_sharding: Any = None
    ) -> Any:
        if out_sharding is not None:
            raise TypeError(
                "jaxcompat.numpy.reshape(out_sharding=...) needs JAX 0.6.2 or newer "
                "(sharding in types); reshard the result instead."
            )
        result = jax_reshape(a, shape, order)
        if copy:
            import jax.numpy as jnp

            result = jnp.array(result, copy=True)
        return result

    reshape.__doc__ = jax_reshape.__doc__
    return reshape
