"""The helpers that honour newest keywords of ``jax.numpy.linalg`` and of
``lax.conv_transpose`` with the release's own functions (the rules:
``_keywords/rules/functions.py``; the shared wrapper: ``adapter.py``).

Each takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs), and
computes what the newest JAX computes, with the operations that the newest JAX uses.
"""

from __future__ import annotations

import inspect
from typing import Any

import jax
import numpy as np

from .._version import JAX_VERSION_STRING

__all__ = [
    "as_the_numpy_function",
    "factored_as_asked",
    "padded_consistently",
    "rank_as_asked",
    "subset_where_computable",
    "tolerance_as_rtol",
]

# Untyped, or not re-exported in the stubs of some releases.
lax_linalg: Any = jax.lax.linalg
finfo: Any = jax.numpy.finfo


def _inexact(a: Any) -> Any:
    """``a`` as an array of an inexact dtype, as JAX's ``promote_dtypes_inexact`` makes it:
    floats and complexes keep theirs; integers and booleans take the default float."""
    a = jax.numpy.asarray(a)
    return a.astype(jax.numpy.result_type(a, float))


def factored_as_asked(
    function: Any, path: str, values: dict[str, Any], a: Any, /, *args: Any, **kwargs: Any
) -> Any:
    """cholesky with upper= (JAX 0.4.24) and symmetrize_input= (0.6.0), and eigvalsh with
    symmetrize_input= (0.6.0). Before, both always symmetrize their input (``(a + a^H) / 2``),
    and cholesky gives the lower factor."""
    symmetrize = values.get("symmetrize_input", True)
    if path == "jax.numpy.linalg.eigvalsh":
        uplo = inspect.signature(function).bind(a, *args, **kwargs).arguments.get("UPLO", "L")
        return jax.numpy.linalg.eigh(a, uplo, symmetrize_input=symmetrize)[0]
    upper = values.get("upper", kwargs.pop("upper", False))
    if symmetrize:
        lower = function(a, *args, **kwargs)
    else:  # as JAX 0.6.0's cholesky, which factors the lower triangle alone
        a = jax.numpy.asarray(a)
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ValueError(
                f"Argument to linalg.cholesky must have shape [..., n, n], got {a.shape}."
            )
        # The release's cholesky symmetrizes its input, and so, under vmap, does lax's
        # cholesky(symmetrize_input=False) before JAX 0.5.x (its batching rule dropped the
        # keyword). The matrix whose upper triangle mirrors the lower one is its own
        # symmetrization, exactly, and its factor is the lower triangle's.
        a = _inexact(a)
        mirror = jax.numpy.conj(jax.numpy.swapaxes(jax.numpy.tril(a, -1), -1, -2))
        lower = function(jax.numpy.tril(a) + mirror, *args, **kwargs)
    return jax.numpy.conj(jax.numpy.swapaxes(lower, -1, -2)) if upper else lower


def rank_as_asked(
    function: Any, path: str, values: dict[str, Any], matrix: Any, /, *args: Any, **kwargs: Any
) -> Any:
    """matrix_rank with rtol= (JAX 0.4.29, the release's tol= under its newest name) and
    hermitian= (0.10.1: the singular values are those of a Hermitian matrix, from its
    eigenvalues)."""
    rest = dict(kwargs)
    given = (args[0] if args else None, rest.pop("rtol", None), rest.pop("tol", None))
    if len(args) > 1 or rest:
        return function(matrix, *args, **kwargs)  # the release's own TypeError
    tolerances = [value for value in (*given, values.get("rtol")) if value is not None]
    if len(tolerances) > 1:
        raise ValueError("matrix_rank: only one of tol or rtol may be specified.")
    rtol = tolerances[0] if tolerances else None
    if not values.get("hermitian", False):
        own = inspect.signature(function).parameters
        return function(matrix, **{"rtol" if "rtol" in own else "tol": rtol})
    # JAX 0.10.1's matrix_rank, with svd(hermitian=True), which every release has.
    matrix = _inexact(matrix)
    if matrix.ndim < 2:
        return (matrix != 0).any().astype(np.int32)
    singular = jax.numpy.linalg.svd(matrix, full_matrices=False, compute_uv=False, hermitian=True)
    if rtol is None:
        size = np.max(matrix.shape[-2:]).astype(singular.dtype)
        rtol = singular.max(-1) * size * finfo(singular.dtype).eps
    rtol = jax.numpy.expand_dims(rtol, np.ndim(rtol))
    return jax.numpy.sum(singular > rtol, axis=-1)


def tolerance_as_rtol(
    function: Any, path: str, values: dict[str, Any], a: Any, /, *args: Any, **kwargs: Any
) -> Any:
    """pinv with rtol= (JAX 0.4.29): the release's rcond= under its newest name."""
    given = inspect.signature(function).bind(a, *args, **kwargs).arguments
    if given.get("rcond") is not None:
        raise ValueError("pinv: only one of rtol and rcond may be specified.")
    return function(a, rcond=values["rtol"], hermitian=given.get("hermitian", False))


def as_the_numpy_function(
    function: Any, path: str, values: dict[str, Any], x1: Any, x2: Any, /, **kwargs: Any
) -> Any:
    """linalg.matmul, tensordot and vecdot with precision= and preferred_element_type= (JAX
    0.4.28): before, each is the ``jax.numpy`` function of its name, which takes both."""
    numpy_function = getattr(jax.numpy, path.rpartition(".")[2])
    return numpy_function(x1, x2, **kwargs, **values)


def subset_where_computable(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """svd before JAX 0.4.25, with subset_by_index=(start, end): the whole range (0,
    min(m, n)) is every singular value, as without it; another range is the newest's
    ValueError with full_matrices, and on CPU and GPU its NotImplementedError (the newest
    computes a part of the singular values on TPU only)."""
    call = inspect.signature(function).bind(*args, **kwargs)
    call.apply_defaults()
    start, end = (int(i) for i in values["subset_by_index"])
    a = jax.numpy.asarray(call.arguments["a"])
    if (start, end) == (0, min(a.shape[-2:])):
        return function(*args, **kwargs)
    if call.arguments["full_matrices"] and not call.arguments["hermitian"]:
        raise ValueError("full_matrices and subset_by_index cannot both be set")
    if jax.default_backend() in ("cpu", "gpu", "cuda", "rocm"):
        # The newest's words: eigh's (hermitian) and svd's.
        what = "supported on" if call.arguments["hermitian"] else "implemented for"
        raise NotImplementedError(f"subset_by_index not {what} CPU and GPU")
    raise NotImplementedError(
        f"jaxcompat.numpy.linalg.svd(subset_by_index=...) of a part of the singular values "
        f"needs JAX 0.4.25 or newer on {jax.default_backend()}: JAX {JAX_VERSION_STRING}'s "
        "svd computes all of them. Leave subset_by_index out and slice the result, or "
        "upgrade JAX."
    )


#: conv_transpose's dimension numbers where none are given, by the rank of lhs.
_CONV_LAYOUTS = {
    2: ("NC", "IO", "NC"),
    3: ("NHC", "HIO", "NHC"),
    4: ("NHWC", "HWIO", "NHWC"),
    5: ("NHWDC", "HWDIO", "NHWDC"),
}


def padded_consistently(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """lax.conv_transpose before JAX 0.9.0, with use_consistent_padding=True: explicit
    padding (lo, hi) of a spatial axis is that of the forward convolution, as for "SAME"
    and "VALID" (PyTorch's meaning); the transposed convolution then pads by (k - lo - 1,
    k - hi - 1), k the dilated kernel size. Every release takes those pads as its own
    explicit padding."""
    call = inspect.signature(function).bind(*args, **kwargs)
    call.apply_defaults()
    padding = call.arguments["padding"]
    if isinstance(padding, str):
        return function(*args, **kwargs)  # SAME and VALID are consistent on every release
    lhs, rhs = jax.numpy.asarray(call.arguments["lhs"]), jax.numpy.asarray(call.arguments["rhs"])
    layout = call.arguments["dimension_numbers"]
    if layout is None:
        if lhs.ndim not in _CONV_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        layout = _CONV_LAYOUTS[lhs.ndim]
    numbers = jax.lax.conv_dimension_numbers(lhs.shape, rhs.shape, layout)
    kernel = np.take(rhs.shape, numbers.rhs_spec)[2:]
    dilation = call.arguments["rhs_dilation"] or (1,) * len(kernel)
    dilated = [(k - 1) * d + 1 for k, d in zip(kernel, dilation, strict=True)]
    call.arguments["padding"] = tuple(
        (k - low - 1, k - high - 1) for k, (low, high) in zip(dilated, padding, strict=True)
    )
    return function(*call.args, **call.kwargs)
