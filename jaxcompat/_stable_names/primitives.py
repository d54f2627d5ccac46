"""Stable names of primitives: ``jax.extend.core.primitives`` and the ``*_p`` names of
``jax.lax``."""

from __future__ import annotations

from ._schema import StableName

NAMES: tuple[StableName, ...] = ()
