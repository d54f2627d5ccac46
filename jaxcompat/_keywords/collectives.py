"""``jax.lax.all_gather(to=)`` before JAX 0.8.2, which added it, and its value "invarying"
before JAX 0.10.0, which added that (the rule is in ``_keywords/rules/functions.py``).

``to`` is the type of the result across the gathered axes: "varying" (the default) is every
release's all_gather; "invarying" is the same values, typed as the same on every device, so
that shard_map's check accepts the result where an unmapped output needs it (``out_specs``
without the axis); "reduced" types it as reduced across the axes, which needs the reduced
axes of JAX 0.8.2.

"invarying" is JAX's own ``lax.all_gather_invariant`` on JAX 0.6.2-0.8.1 (public there
only). Elsewhere no public gather is typed as the same on every device, but a psum is:
each device's block is placed in zeros at its own index and the blocks summed, as unsigned
integers of the value's width so that adding the zeros keeps every bit (a float's -0.0 and
NaN payloads too). That needs the device's index, ``lax.axis_index``, which an eager (not
jitted) shard_map of JAX 0.4.13-0.4.20 lacks: there "invarying" outside ``jit`` is JAX's
NotImplementedError, whose message says to jit the shard_map (measured on each of those rows;
the rule's reason puts it in the docs).
"""

from __future__ import annotations

import inspect
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from .._primitives.cycles import refuse_cycles
from .._version import JAX_VERSION_STRING

__all__ = ["gathered_as_asked"]


def gathered_as_asked(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """all_gather with to=: "invarying" as the same values typed as the same on every
    device; "reduced" a clear error before JAX 0.8.2 (it needs reduced axes; from 0.8.2 the
    release's own function takes it, and only "invarying" reaches here)."""
    to = values["to"]
    if to not in ("varying", "reduced", "invarying"):
        raise ValueError(
            "Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: "
            "{'varying', 'reduced', 'invarying'}"
        )
    if to == "varying":
        return function(*args, **kwargs)
    if to == "reduced":
        raise TypeError(
            "jaxcompat.lax.all_gather(to='reduced') needs JAX 0.8.2 or newer: JAX "
            f"{JAX_VERSION_STRING} has no reduced axes to type the result with. Pass "
            "to='varying' (the default) or to='invarying', or upgrade JAX."
        )
    call = inspect.signature(function).bind(*args, **kwargs)
    call.apply_defaults()
    x, axis_name = call.arguments["x"], call.arguments["axis_name"]
    axis, tiled = call.arguments["axis"], call.arguments["tiled"]
    if call.arguments["axis_index_groups"] is not None:
        # Groups are pmap's, where nothing is typed across devices: the newest gathers as
        # every release does there (under shard_map's check it refuses groups).
        return function(*args, **kwargs)
    # A tree that contains itself is refused first (JAX's C++ flatten crashes on one on some
    # releases).
    refuse_cycles("lax.all_gather", (x,), {})
    invariant = getattr(jax.lax, "all_gather_invariant", None)
    if invariant is not None:  # JAX 0.6.2-0.8.1
        return invariant(x, axis_name, axis=axis, tiled=tiled)
    gather = partial(_gathered_by_psum, axis_name=axis_name, axis=axis, tiled=tiled)
    return jax.tree_util.tree_map(gather, x)


def _gathered_by_psum(leaf: Any, axis_name: Any, axis: int, tiled: bool) -> Any:
    """Each device's block placed in zeros at its index along the axes, and the blocks
    summed (shard_map's check types a psum as the same on every device; a pmax, which needs
    no index, has no rule in that check before JAX 0.4.34)."""
    x = jnp.asarray(leaf)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        real = _gathered_by_psum(jnp.real(x), axis_name, axis, tiled)
        imaginary = _gathered_by_psum(jnp.imag(x), axis_name, axis, tiled)
        return jax.lax.complex(real, imaginary)
    # psum of a Python 1 is the axis size, a Python int.
    size = jax.lax.psum(1, axis_name)  # type: ignore[no-untyped-call,unused-ignore]
    bits = _as_unsigned(x)
    placed = jnp.zeros((size, *x.shape), bits.dtype)
    index = jax.lax.axis_index(axis_name)  # type: ignore[no-untyped-call,unused-ignore]
    placed = jax.lax.dynamic_update_index_in_dim(placed, bits, index, 0)
    summed = jax.lax.psum(placed, axis_name)  # type: ignore[no-untyped-call,unused-ignore]
    gathered = _from_unsigned(summed, x.dtype)
    if not tiled:
        return jnp.moveaxis(gathered, 0, axis % (x.ndim + 1))
    if x.ndim == 0:
        raise ValueError("all_gather(tiled=True) needs an array with at least one axis")
    axis = axis % x.ndim
    moved = jnp.moveaxis(gathered, 0, axis)
    return moved.reshape((*x.shape[:axis], size * x.shape[axis], *x.shape[axis + 1 :]))


def _as_unsigned(x: Any) -> Any:
    if x.dtype == jnp.bool_:
        return x.astype(jnp.uint8)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return x  # integer sums with zeros are exact
    unsigned = jnp.dtype(f"uint{8 * x.dtype.itemsize}")
    return jax.lax.bitcast_convert_type(x, unsigned)


def _from_unsigned(bits: Any, dtype: Any) -> Any:
    if dtype == jnp.bool_:
        return bits.astype(jnp.bool_)
    if jnp.issubdtype(dtype, jnp.integer):
        return bits
    return jax.lax.bitcast_convert_type(bits, dtype)
