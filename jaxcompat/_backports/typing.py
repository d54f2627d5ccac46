"""``jax.typing.DTypeLike`` before JAX 0.4.19: the same union, spelled out."""

from __future__ import annotations

from typing import Any, Protocol, Union

import numpy as np

__all__ = ["DTypeLike"]


class _SupportsDType(Protocol):
    @property
    def dtype(self) -> np.dtype[Any]: ...


# What jax.typing.DTypeLike is from 0.4.19: a name, a scalar type, a dtype, or anything with
# a ``dtype`` attribute.
DTypeLike = Union[str, type[Any], np.dtype[Any], _SupportsDType]  # noqa: UP007
