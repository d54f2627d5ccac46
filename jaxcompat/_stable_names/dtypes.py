"""Stable names of ``jax.dtypes``: added after JAX 0.4.13 (prng_key is in ``modules.py``), or
answering differently before."""

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
    # Before JAX 0.4.17 issubdtype(bfloat16, np.generic) was False (and the same for the
    # float8 types, int4 and uint4), though they are numbers: True, as numpy and JAX say now
    # (numpy.issubdtype, in numpy.py, likewise).
    StableName(
        "dtypes.issubdtype",
        (
            Source("jax.dtypes:issubdtype", releases=">=0.4.17"),
            Source("jax.dtypes:issubdtype", adapter="dtypes:dtypes_issubdtype_under_generic"),
        ),
    ),
    StableName(
        "dtypes.itemsize_bits",
        (
            Source("jax.dtypes:itemsize_bits"),
            Source("jaxcompat._backports.dtypes:itemsize_bits"),
        ),
    ),
)
