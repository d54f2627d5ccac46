"""Newest keywords of the functions that place, build and save arrays, composed from the
installed release's own functions (the rules are in ``_keywords/rules/functions.py``).

Each helper takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs),
as every helper does (``adapter.helper``).
"""

from __future__ import annotations

import contextlib
from typing import Any

import jax
import numpy as np

from .._primitives.cycles import refuse_cycles

__all__ = [
    "checked_against_the_shards",
    "converted_with_copy",
    "copied_as_asked",
    "extended_as_opaque",
    "pickled_as_allowed",
    "placed_where_concrete",
    "unpacked_as_asked",
]


def copied_as_asked(
    function: Any,
    path: str,
    values: dict[str, Any],
    x: Any,
    device: Any = None,
    *,
    src: Any = None,
) -> Any:
    """device_put before JAX 0.6.0 (0.4.34-0.5.3's own may alias the input where asked
    not to), with donate= and may_alias= (each a bool, or a tree
    prefix of ``x`` with a bool per subtree), as the newest reads them per leaf: may_alias
    None means "not donated"; both True is an error; a leaf neither aliased nor donated is a
    copy. Donation is best effort in the newest too: here the input stays valid."""
    # Flattened here, before JAX sees it: a value that contains itself would crash jaxlib's
    # flatten on some releases (a segfault on 0.4.13), so it is a clear error first; the
    # flag trees are flattened too (a cyclic one exhausted the recursion limit, and broke
    # JAX's own cleanup at exit).
    refuse_cycles("device_put", (x,), {name: values[name] for name in values})
    donate = _per_leaf(values.get("donate", False), x, "donate")
    may_alias = _per_leaf(values.get("may_alias"), x, "may_alias")
    leaves, structure = jax.tree_util.tree_flatten(x)
    copied = []
    for leaf, donated, aliased in zip(leaves, donate, may_alias, strict=True):
        if aliased and donated:
            raise ValueError("may_alias and donate cannot be True at the same time.")
        if aliased is None:
            aliased = not donated
        if not aliased and not donated and isinstance(leaf, jax.Array):  # tracers too
            # The release's device_put may hand back the very array (or its buffer) where it
            # is already placed: a copy first, on the same devices, makes it a new one.
            leaf = jax.numpy.array(leaf, copy=True)
        copied.append(leaf)
    return function(jax.tree_util.tree_unflatten(structure, copied), device, src=src)


def _per_leaf(flags: Any, x: Any, name: str) -> list[Any]:
    """``flags`` (a bool or None, or a tree prefix of ``x`` of them) as one flag per leaf."""
    count = len(jax.tree_util.tree_leaves(x))
    if flags is None or isinstance(flags, bool):
        return [flags] * count
    spread: list[Any] = []
    try:
        jax.tree_util.tree_map(
            lambda flag, subtree: spread.extend([flag] * len(jax.tree_util.tree_leaves(subtree))),
            flags,
            x,
            is_leaf=lambda flag: flag is None or isinstance(flag, bool),
        )
    except ValueError as error:
        raise ValueError(
            f"device_put {name} must be a bool, None, or a tree prefix of x with one of them "
            f"per subtree: {error}"
        ) from None
    return spread


def checked_against_the_shards(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """make_array_from_callback and make_array_from_single_device_arrays before JAX 0.5.3,
    with dtype=: the array is built from its shards, as before, and their dtype must be the
    one given, as the newest checks."""
    result = function(*args, **kwargs)
    dtype = values["dtype"]
    # A scalar type (jnp.float32) or a name, as the NumPy dtype of this x64 mode; an extended
    # dtype (a key's), which NumPy does not know, is compared as it is.
    with contextlib.suppress(TypeError):
        dtype = jax.dtypes.canonicalize_dtype(np.dtype(dtype))
    if result.dtype != dtype:
        name = path.rpartition(".")[2]
        raise ValueError(
            f"If `dtype` is provided to `jax.{name}`, it must match the dtype of the "
            f"addressable shards. Got dtype={dtype} and shard dtype={result.dtype}`."
        )
    return result


def extended_as_opaque(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """canonicalize_dtype on JAX 0.4.13, whose allow_opaque_dtype= is the newest's
    allow_extended_dtype= (JAX 0.4.14 renamed opaque dtypes extended dtypes)."""
    return function(*args, allow_opaque_dtype=values["allow_extended_dtype"], **kwargs)


def pickled_as_allowed(
    function: Any, path: str, values: dict[str, Any], file: Any, *args: Any, **kwds: Any
) -> Any:
    """NumPy's savez before NumPy 2.2, with allow_pickle=: False refuses an object array,
    with NumPy's own message, before anything is written."""
    if not values["allow_pickle"]:
        for array in (*args, *kwds.values()):
            if np.asanyarray(array).dtype.hasobject:
                raise ValueError("Object arrays cannot be saved when allow_pickle=False")
    return function(file, *args, **kwds)


def converted_with_copy(
    function: Any, path: str, values: dict[str, Any], a: Any, dtype: Any = None, order: Any = None
) -> Any:
    """asarray before JAX 0.4.24, with copy= (the array API's): True is ``array``'s copy;
    False, as the newest reads it, refuses an object with a host buffer where the default
    device is not a CPU (the copy to it cannot be avoided), and is the release's asarray
    elsewhere."""
    copy = values["copy"]
    if copy:
        if isinstance(a, np.ndarray):
            # A copy of NumPy's buffer first: 0.4.13's array(copy=True) may keep an aligned
            # one (measured), and the copy is nobody else's.
            return jax.numpy.array(a.copy(), dtype=dtype, copy=False, order=order)
        return jax.numpy.array(a, dtype=dtype, copy=True, order=order)
    platform = jax.default_backend()
    if copy is False and not isinstance(a, jax.Array) and platform != "cpu":
        try:
            memoryview(a)
        except TypeError:
            pass  # no buffer: converting it is not a copy of one
        else:
            raise ValueError(
                f"jnp.asarray: cannot convert object of type {type(a)} to JAX Array on "
                f"platform={platform} with copy=False. Consider using copy=None or copy=True "
                "instead."
            )
    return function(a, dtype, order)


def placed_where_concrete(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """lax.full and full_like before JAX 0.4.24, with sharding=: a result outside a trace is
    put there; a traced one is the release's, as the newest leaves a concrete sharding of a
    traced fill to the computation's own placement."""
    result = function(*args, **kwargs)
    if isinstance(result, jax.core.Tracer):
        return result
    return jax.device_put(result, values["sharding"])


def unpacked_as_asked(
    function: Any, path: str, values: dict[str, Any], external_array: Any, /, **kwargs: Any
) -> Any:
    """numpy.from_dlpack before JAX 0.4.27 (and on 0.4.35-0.8.0, whose copy=False copies an
    unaligned host buffer silently), with device= and copy= (the array API's): the array is
    unpacked where it lives, then put on the device given (a copy, which copy=False refuses)
    or copied where copy=True."""
    device = values.get("device", kwargs.get("device"))
    copy = values.get("copy", kwargs.get("copy"))
    if isinstance(device, jax.sharding.Sharding):
        if len(device.device_set) > 1:
            raise ValueError(
                "from_dlpack can only unpack a dlpack tensor onto a singular device, but a "
                f"Sharding with {len(device.device_set)} devices was provided."
            )
        (device,) = device.device_set
    unpacked = function(external_array)
    (source,) = unpacked.devices()
    if device is not None and device != source:
        if copy is not None and not copy:
            raise ValueError(
                f"Specified {device=} which requires a copy since the source device is "
                f"{source!r}, however copy=False. Set copy=True or copy=None to perform the "
                "requested operation."
            )
        return jax.device_put(unpacked, device)
    if copy:
        return jax.numpy.array(unpacked, copy=True)
    if copy is not None and _copied_from(external_array, unpacked):
        # An unaligned host buffer is copied by every release's unpacking; the newest
        # refuses that copy where copy=False, with this message.
        raise ValueError(
            "Specified input which requires a copy since the source data buffer is not "
            "aligned to 64 bytes.  However copy=False. Set copy=True or copy=None to perform "
            "the requested operation."
        )
    return unpacked


def _copied_from(external_array: Any, unpacked: Any) -> bool:
    """Whether ``unpacked`` lives in another buffer than a host array it was unpacked from
    (False where the source's buffer address cannot be read)."""
    interface = getattr(external_array, "__array_interface__", None)
    if not isinstance(interface, dict) or external_array.size == 0:
        return False
    pointer: int = unpacked.addressable_data(0).unsafe_buffer_pointer()
    return bool(pointer != interface["data"][0])
