"""Stable names of ``jax.random``: backported distributions and key functions."""

from __future__ import annotations

from ._schema import Source, StableName

NAMES: tuple[StableName, ...] = (
    # No key-reuse checker before 0.4.26, so handing the key back is what clone does.
    StableName(
        "random.clone",
        (Source("jax.random:clone"), Source("jaxcompat._backports.random:clone")),
    ),
)
