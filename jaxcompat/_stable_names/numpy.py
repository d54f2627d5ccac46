"""Stable names of ``jax.numpy``: renamed keywords, array-API aliases and backports."""

from __future__ import annotations

from ._schema import Source, StableName

NAMES: tuple[StableName, ...] = (
    # --- jax.numpy: keywords renamed (clip min/max in 0.4.27, reshape shape in 0.4.28) --------
    StableName(
        "numpy.clip",
        (
            Source("jax.numpy:clip", releases=">=0.4.27"),
            Source("jax.numpy:clip", adapter="numpy:clip_from_a_min_a_max"),
        ),
    ),
    StableName(
        "numpy.reshape",
        (
            Source("jax.numpy:reshape", releases=">=0.4.28"),
            Source("jax.numpy:reshape", adapter="numpy:reshape_from_newshape"),
        ),
    ),
    # Before JAX 0.4.17 issubdtype(bfloat16, np.generic) was False (dtypes.issubdtype too).
    StableName(
        "numpy.issubdtype",
        (
            Source("jax.numpy:issubdtype", releases=">=0.4.17"),
            Source("jax.numpy:issubdtype", adapter="dtypes:numpy_issubdtype_under_generic"),
        ),
    ),
    # --- jax.numpy: the array-API aliases (JAX 0.4.24) are the older functions renamed -----
    *(
        StableName(f"numpy.{name}", (Source(f"jax.numpy:{name}"), Source(f"jax.numpy:{old}")))
        for name, old in (
            ("acos", "arccos"),
            ("acosh", "arccosh"),
            ("asin", "arcsin"),
            ("asinh", "arcsinh"),
            ("atan", "arctan"),
            ("atan2", "arctan2"),
            ("atanh", "arctanh"),
            ("bitwise_invert", "invert"),
            ("bitwise_left_shift", "left_shift"),
            ("bitwise_right_shift", "right_shift"),
            ("bool", "bool_"),
            ("pow", "power"),
        )
    ),
    # --- jax.numpy.linalg: the array-API functions (JAX 0.4.22-0.4.29), backported ---------
    *(
        StableName(
            f"numpy.linalg.{name}",
            (
                Source(f"jax.numpy.linalg:{name}"),
                Source(f"jaxcompat._backports.numpy_linalg:{name}"),
            ),
        )
        for name in (
            "cross",  # 0.4.22
            "diagonal",  # 0.4.24
            "matmul",  # 0.4.24
            "matrix_norm",  # 0.4.24
            "matrix_transpose",  # 0.4.24
            "outer",  # 0.4.22
            "svdvals",  # 0.4.24
            "tensordot",  # 0.4.24
            "trace",  # 0.4.29
            "vecdot",  # 0.4.24
        )
    ),
    # JAX 0.4.24's vector_norm takes a matrix norm over a two-axis tuple (the spectral norm
    # for ord=2) and refuses other orders there; 0.4.36 first gives the vector norm over
    # any axes, as the newest does (measured on every row from 0.4.24).
    StableName(
        "numpy.linalg.vector_norm",
        (
            Source("jax.numpy.linalg:vector_norm", releases=">=0.4.36"),
            Source("jaxcompat._backports.numpy_linalg:vector_norm"),
        ),
    ),
    # --- jax.numpy: functions added from 0.4.18 on, backported where they are missing ------
    *(
        StableName(
            f"numpy.{name}",
            (Source(f"jax.numpy:{name}"), Source(f"jaxcompat._backports.{module}:{name}")),
        )
        for name, module in (
            ("concat", "numpy_array_api"),  # 0.4.24
            ("cumulative_prod", "numpy_array_api"),  # 0.4.36
            ("fill_diagonal", "numpy_functions"),  # 0.4.20
            ("matvec", "numpy_array_api"),  # 0.4.38
            ("minmax", "numpy_functions"),  # 0.11.2
            ("permute_dims", "numpy_array_api"),  # 0.4.24
            ("put_along_axis", "numpy_functions"),  # 0.4.36
            ("spacing", "numpy_functions"),  # 0.4.35
            ("trapezoid", "numpy_functions"),  # 0.4.26
            ("unstack", "numpy_array_api"),  # 0.4.27
            ("vecdot", "numpy_array_api"),  # 0.4.24
            ("vecmat", "numpy_array_api"),  # 0.4.38
        )
    ),
    # place and put raised for every call until 0.4.18, which gave them inplace=False;
    # mask_indices and load took (*args, **kwargs) until 0.4.34 and 0.4.35, which gave them
    # the newest signatures (and mask_indices size=, for use under jit); trim_zeros gave an
    # empty array for more than one dimension until 0.8.0, which trims each axis (axis=).
    *(
        StableName(
            f"numpy.{name}",
            (
                Source(f"jax.numpy:{name}", releases=f">={first}"),
                Source(f"jaxcompat._backports.numpy_functions:{name}"),
            ),
        )
        for name, first in (
            ("place", "0.4.18"),
            ("put", "0.4.18"),
            ("mask_indices", "0.4.34"),
            ("load", "0.4.35"),
            ("trim_zeros", "0.8.0"),
        )
    ),
    # JAX 0.4.13's array(copy=True) hands back an array over a 64-byte-aligned NumPy buffer
    # itself on CPU, so a later write to the NumPy array shows through (measured; 0.4.18 on
    # copy it).
    StableName(
        "numpy.array",
        (
            Source("jax.numpy:array", releases=">=0.4.18"),
            Source("jaxcompat._backports.numpy_functions:array"),
        ),
    ),
    # top_k arrived in 0.11.1; until 0.12.0 mode="smallest" negates the input, which overflows
    # for the smallest integer (measured: top_k([3, INT_MIN, INT_MAX, 0], 2, mode="smallest")
    # gives [0, 3] on 0.11.1 and 0.11.2); 0.12.0 gives [INT_MIN, 0].
    StableName(
        "numpy.top_k",
        (
            Source("jax.numpy:top_k", releases=">=0.12.0"),
            Source("jaxcompat._backports.numpy_functions:top_k"),
        ),
    ),
    # bitwise_count arrived in 0.4.18; it accepts booleans from 0.4.24 (measured: a TypeError
    # from population_count on 0.4.18-0.4.23).
    StableName(
        "numpy.bitwise_count",
        (
            Source("jax.numpy:bitwise_count", releases=">=0.4.24"),
            Source("jaxcompat._backports.numpy_array_api:bitwise_count"),
        ),
    ),
    # cumulative_sum arrived in 0.4.27; with dtype=bool it summed the numbers, not their truth
    # values, until 0.7.2.
    StableName(
        "numpy.cumulative_sum",
        (
            Source("jax.numpy:cumulative_sum", releases=">=0.7.2"),
            Source("jaxcompat._backports.numpy_array_api:cumulative_sum"),
        ),
    ),
    # isdtype arrived in 0.4.24; a dtype as the kind is accepted from 0.4.27.
    StableName(
        "numpy.isdtype",
        (
            Source("jax.numpy:isdtype", releases=">=0.4.27"),
            Source("jaxcompat._backports.numpy_array_api:isdtype"),
        ),
    ),
    # astype arrived in 0.4.21 with copy=True by default and no device; the newest
    # signature (copy=False, device) is 0.4.27's.
    StableName(
        "numpy.astype",
        (
            Source("jax.numpy:astype", releases=">=0.4.27"),
            Source("jaxcompat._backports.numpy_array_api:astype"),
        ),
    ),
    # unique_* arrived in 0.4.24 without size/fill_value, which came in 0.4.29.
    *(
        StableName(
            f"numpy.{name}",
            (
                Source(f"jax.numpy:{name}", releases=">=0.4.29"),
                Source(f"jaxcompat._backports.numpy_array_api:{name}"),
            ),
        )
        for name in ("unique_all", "unique_counts", "unique_inverse", "unique_values")
    ),
    # Narrow and float8 dtypes: JAX's type promotion, lowering and scalar types know a dtype
    # only from the release that added it.
    *(
        StableName(
            f"numpy.{name}",
            (Source(f"jax.numpy:{name}"),),
            first=first,
            reason=f"JAX does not support the {name} dtype before it",
        )
        for name, first in (
            ("float4_e2m1fn", "0.5.3"),
            ("float6_e2m3fn", "0.10.2"),
            ("float6_e3m2fn", "0.10.2"),
            ("float8_e3m4", "0.4.36"),
            ("float8_e4m3", "0.4.36"),
            ("float8_e4m3fnuz", "0.4.18"),
            ("float8_e5m2fnuz", "0.4.18"),
            ("float8_e8m0fnu", "0.5.1"),
            ("int1", "0.9.1"),
            ("int2", "0.4.31"),
            ("uint1", "0.9.1"),
            ("uint2", "0.4.31"),
        )
    ),
    # jax.numpy.ufunc (0.4.18) has the newest meaning on every release that has it, and is
    # JAX's own class; 0.4.33 added its call/reduce/accumulate/at/reduceat keyword arguments
    # (_keywords/rules/classes.py).
    StableName(
        "numpy.frompyfunc",
        (Source("jax.numpy:frompyfunc"),),
        first="0.4.18",
        reason="jax.numpy has no ufunc objects before it",
    ),
    StableName(
        "numpy.ufunc",
        (Source("jax.numpy:ufunc"),),
        first="0.4.18",
        reason="jax.numpy has no ufunc objects before it",
    ),
)
