"""``jax.random.clone`` before JAX 0.4.26."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["clone"]

Key = TypeVar("Key")


def clone(key: Key) -> Key:
    """``jax.random.clone``: a key that may be reused.

    Releases before JAX 0.4.26 have no key-reuse checker, so every key may be reused and
    the key itself is what ``clone`` observably returns.
    """
    return key
