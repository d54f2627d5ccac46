"""Stable names of ``jax.lax``: backported functions, and what cannot be had."""

from __future__ import annotations

from ._schema import StableName

NAMES: tuple[StableName, ...] = ()
