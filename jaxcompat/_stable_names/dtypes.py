"""Stable names of ``jax.dtypes`` added after JAX 0.4.13 (prng_key is in ``modules.py``)."""

from __future__ import annotations

from ._schema import Source, StableName

NAMES: tuple[StableName, ...] = (
    # Exported from jax.dtypes in 0.10.1: the error JAX's type promotion has always raised.
    StableName(
        "dtypes.TypePromotionError",
        (Source("jax.dtypes:TypePromotionError"), Source("jax._src.dtypes:TypePromotionError")),
    ),
    StableName(
        "dtypes.extended",
        (Source("jax.dtypes:extended"),),
        first="0.4.18",
        reason="extended dtypes do not exist before it",
    ),
    StableName(
        "dtypes.itemsize_bits",
        (
            Source("jax.dtypes:itemsize_bits"),
            Source("jaxcompat._backports.dtypes:itemsize_bits"),
        ),
    ),
)
