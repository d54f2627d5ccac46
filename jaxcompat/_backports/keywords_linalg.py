"""The helpers that honour newest keywords of ``jax.numpy.linalg`` with the release's own
functions (the rules: ``_stable_names/keywords.py``; the shared wrapper: ``keywords.py``).

Each takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs), and
computes what the newest JAX computes, with the operations that the newest JAX uses.
"""

from __future__ import annotations

import inspect
from typing import Any

import jax
import numpy as np

__all__ = ["as_the_numpy_function", "factored_as_asked", "rank_as_asked", "tolerance_as_rtol"]

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
    else:  # as JAX 0.6.0's cholesky, which hands symmetrize_input to lax's
        a = jax.numpy.asarray(a)
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ValueError(
                f"Argument to linalg.cholesky must have shape [..., n, n], got {a.shape}."
            )
        lower = lax_linalg.cholesky(_inexact(a), symmetrize_input=False)
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
