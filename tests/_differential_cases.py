"""The calls of the differential test: jaxcompat's backports and keyword adapters, written for
the newest JAX.

``tools/differential_newest.py`` records each call's result on the newest JAX
(``tests/differential_newest.json``); ``tests/test_differential.py`` makes the same calls on
every row and compares. Each case is a function of arrays and its inputs; it runs eagerly,
under ``jit`` and under ``vmap`` (over the inputs stacked with a variant of them: floats times
1.5, the rest as they are), except the modes it leaves out (a result whose shape depends on
values cannot be traced).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import jaxcompat as jax

jnp = jax.numpy
lax = jax.lax

MODES = ("eager", "jit", "vmap")

_RNG = np.random.RandomState(0)
VECTOR = _RNG.randn(6).astype(np.float32)
MATRIX = _RNG.randn(3, 4).astype(np.float32)
SQUARE = _RNG.randn(4, 4).astype(np.float32)
SPD = (SQUARE @ SQUARE.T + 4 * np.eye(4)).astype(np.float32)
# Its lower triangle is SPD's; the upper one is noise that symmetrizing would read.
LOWER_ONLY = (np.tril(SPD) + np.triu(_RNG.randn(4, 4), 1)).astype(np.float32)
INTS = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
BITS = np.array([0, 1, 7, 255, -1, 1024], np.int32)
POSITIVE = (np.abs(_RNG.randn(5)) + 0.5).astype(np.float32)
NEGATIVE = -POSITIVE


def _tridiagonal(rows: int) -> tuple[np.ndarray, ...]:
    """A tridiagonal system: the diagonals below, on and above the main one, and two
    right-hand sides (a generator of its own, so the arrays above stay as they are)."""
    draw = np.random.RandomState(rows)
    below, above = draw.randn(rows), draw.randn(rows)
    below[0] = above[-1] = 0.0  # not read
    on = draw.randn(rows) + 4.0
    sides = draw.randn(rows, 2)
    return tuple(a.astype(np.float32) for a in (below, on, above, sides))


@dataclass(frozen=True)
class Case:
    id: str
    function: Callable[..., Any]
    inputs: tuple[np.ndarray, ...]
    modes: tuple[str, ...] = MODES


CASES = [
    # jax.numpy backports
    Case("numpy.concat", lambda a, b: jnp.concat([a, b], axis=1), (MATRIX, MATRIX)),
    Case(
        "numpy.cumulative_sum",
        lambda a: jnp.cumulative_sum(a, axis=1, include_initial=True),
        (MATRIX,),
    ),
    Case("numpy.cumulative_prod", lambda a: jnp.cumulative_prod(a, axis=0), (MATRIX,)),
    Case("numpy.fill_diagonal", lambda a: jnp.fill_diagonal(a, 7.0, inplace=False), (SQUARE,)),
    Case("numpy.matvec", lambda a, v: jnp.matvec(a, v), (MATRIX, VECTOR[:4])),
    Case("numpy.vecmat", lambda v, a: jnp.vecmat(v, a), (VECTOR[:3], MATRIX)),
    Case("numpy.vecdot", lambda a, b: jnp.vecdot(a, b), (MATRIX, MATRIX)),
    Case("numpy.permute_dims", lambda a: jnp.permute_dims(a, (1, 0)), (MATRIX,)),
    Case(
        "numpy.put_along_axis",
        lambda a: jnp.put_along_axis(a, jnp.array([[0], [2], [1]]), 9.0, axis=1, inplace=False),
        (MATRIX,),
    ),
    Case("numpy.spacing", lambda a: jnp.spacing(a), (VECTOR,)),
    Case("numpy.trapezoid", lambda a: jnp.trapezoid(a, dx=0.5, axis=-1), (MATRIX,)),
    Case("numpy.unstack", lambda a: jnp.unstack(a, axis=1), (MATRIX,)),
    Case(
        "numpy.place",
        lambda a: jnp.place(a, a > 0, jnp.array([1.0, 2.0]), inplace=False),
        (VECTOR,),
        ("eager",),
    ),
    Case("numpy.put", lambda a: jnp.put(a, jnp.array([0, 3]), 5.0, inplace=False), (VECTOR,)),
    Case("numpy.top_k", lambda a: jnp.top_k(a, 3), (VECTOR,)),
    Case("numpy.bitwise_count", lambda a: jnp.bitwise_count(a), (BITS,)),
    Case("numpy.astype", lambda a: jnp.astype(a, jnp.int32), (VECTOR * 3,)),
    Case("numpy.unique_counts", lambda a: jnp.unique_counts(a, size=8), (INTS,)),
    Case("numpy.unique_inverse", lambda a: jnp.unique_inverse(a, size=8), (INTS,)),
    Case("numpy.unique_values", lambda a: jnp.unique_values(a), (INTS,), ("eager",)),
    Case(
        "numpy.trim_zeros",
        lambda a: jnp.trim_zeros(a),
        (np.array([0, 0, 1, 2, 0], np.int32),),
        ("eager",),
    ),
    # jax.numpy.linalg backports
    Case(
        "numpy.linalg.cross", lambda a, b: jnp.linalg.cross(a, b), (MATRIX[:, :3], MATRIX[::-1, :3])
    ),
    Case("numpy.linalg.diagonal", lambda a: jnp.linalg.diagonal(a, offset=1), (SQUARE,)),
    Case("numpy.linalg.matmul", lambda a, b: jnp.linalg.matmul(a, b), (SQUARE, MATRIX.T)),
    Case("numpy.linalg.matrix_norm", lambda a: jnp.linalg.matrix_norm(a, ord="fro"), (SQUARE,)),
    Case("numpy.linalg.matrix_transpose", lambda a: jnp.linalg.matrix_transpose(a), (MATRIX,)),
    Case("numpy.linalg.outer", lambda a, b: jnp.linalg.outer(a, b), (VECTOR, VECTOR[:3])),
    Case("numpy.linalg.svdvals", lambda a: jnp.linalg.svdvals(a), (MATRIX,)),
    Case(
        "numpy.linalg.tensordot",
        lambda a, b: jnp.linalg.tensordot(a, b, axes=1),
        (MATRIX, MATRIX.T),
    ),
    Case("numpy.linalg.trace", lambda a: jnp.linalg.trace(a, offset=0), (SQUARE,)),
    Case("numpy.linalg.vecdot", lambda a, b: jnp.linalg.vecdot(a, b, axis=0), (MATRIX, MATRIX)),
    Case("numpy.linalg.vector_norm", lambda a: jnp.linalg.vector_norm(a, ord=3, axis=1), (MATRIX,)),
    # jax.lax.linalg backports: JAX's own solved real systems of 3 rows or more only, and did
    # not differentiate them, before 0.5.0 (nor, on 0.4.13, batch them: no vmap of 5 rows)
    Case(
        "lax.linalg.tridiagonal_solve(2 rows)",
        lambda dl, d, du, b: lax.linalg.tridiagonal_solve(dl, d, du, b),
        _tridiagonal(2),
    ),
    Case(
        "lax.linalg.tridiagonal_solve",
        lambda dl, d, du, b: lax.linalg.tridiagonal_solve(dl, d, du, b),
        _tridiagonal(5),
        ("eager", "jit"),
    ),
    Case(
        "lax.linalg.tridiagonal_solve differentiated",
        lambda dl, d, du, b: jax.grad(
            lambda dl, d, du, b: lax.linalg.tridiagonal_solve(dl, d, du, b).sum(), (0, 1, 2, 3)
        )(dl, d, du, b),
        _tridiagonal(5),
        ("eager", "jit"),
    ),
    # jax.numpy keyword adapters
    Case("numpy.clip(min=, max=)", lambda a: jnp.clip(a, min=-0.5, max=0.5), (VECTOR,)),
    Case("numpy.reshape(shape=)", lambda a: jnp.reshape(a, shape=(2, 6)), (MATRIX,)),
    Case("numpy.sort(descending=)", lambda a: jnp.sort(a, descending=True, stable=True), (VECTOR,)),
    Case("numpy.argsort(descending=)", lambda a: jnp.argsort(a, descending=True), (INTS,)),
    Case(
        "numpy.linalg.cholesky(upper=, symmetrize_input=)",
        lambda a: jnp.linalg.cholesky(a, upper=True, symmetrize_input=False),
        (LOWER_ONLY,),
    ),
    Case(
        "numpy.linalg.eigvalsh(symmetrize_input=)",
        lambda a: jnp.linalg.eigvalsh(a, symmetrize_input=False),
        (LOWER_ONLY,),
    ),
    Case(
        "numpy.linalg.matrix_rank(rtol=)", lambda a: jnp.linalg.matrix_rank(a, rtol=0.1), (MATRIX,)
    ),
    Case("numpy.round(decimals=)", lambda a: jnp.round(a, decimals=2), (VECTOR,)),
    # jax.nn backports
    Case("nn.identity", lambda a: jax.nn.identity(a), (VECTOR,)),
    Case("nn.log1mexp", lambda a: jax.nn.log1mexp(a), (POSITIVE,)),
    Case("nn.logmeanexp", lambda a: jax.nn.logmeanexp(a, axis=1), (MATRIX,)),
    Case("nn.mish", lambda a: jax.nn.mish(a), (VECTOR,)),
    Case("nn.sparse_plus", lambda a: jax.nn.sparse_plus(a), (VECTOR,)),
    Case("nn.sparse_sigmoid", lambda a: jax.nn.sparse_sigmoid(a), (VECTOR,)),
    Case("nn.squareplus", lambda a: jax.nn.squareplus(a, b=2.0), (VECTOR,)),
    Case("nn.standardize", lambda a: jax.nn.standardize(a, axis=1), (MATRIX,)),
    Case(
        "nn.standardize(where=)",
        lambda a: jax.nn.standardize(a, axis=1, where=a > -0.5),
        (MATRIX,),
    ),
    Case("nn.one_hot", lambda a: jax.nn.one_hot(a, 10), (INTS,)),
    Case(
        "nn.dot_product_attention",
        lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True),
        tuple(_RNG.randn(1, 4, 2, 8).astype(np.float32) for _ in range(3)),
    ),
    # jax.lax backports
    Case("lax.split", lambda a: lax.split(a, (1, 3), axis=1), (MATRIX,)),
    Case("lax.tile", lambda a: lax.tile(a, (2, 1)), (MATRIX,)),
    Case("lax.stack", lambda a, b: lax.stack([a, b]), (VECTOR, VECTOR)),
    Case("lax.unstack", lambda a: lax.unstack(a, axis=0), (MATRIX,)),
    Case("lax.mulhi", lambda a, b: lax.mulhi(a, b), (INTS * 100000, INTS[::-1] * 300000)),
    Case("lax.log2", lambda a: lax.log2(a), (POSITIVE,)),
    Case("lax.exp2", lambda a: lax.exp2(a), (VECTOR,)),
    Case("lax.one_minus_square", lambda a: lax.one_minus_square(a), (VECTOR,)),
    Case("lax.polynomial", lambda c, x: lax.polynomial(c, x), (VECTOR[:3], VECTOR)),
    Case(
        "lax.top_k(axis=)",
        lambda a: lax.top_k(a, 2, axis=0),
        (MATRIX,),
    ),
    Case(
        "lax.ragged_dot",
        lambda a, b: lax.ragged_dot(a, b, jnp.array([1, 2], jnp.int32)),
        (MATRIX, _RNG.randn(2, 4, 5).astype(np.float32)),
        ("eager", "jit"),  # the newest JAX has no batching rule for it
    ),
    # jax.tree backports
    Case(
        "tree.all",
        lambda a: jax.tree.all([bool(a[0] > -9), {"b": bool(a[1] < -9)}]),
        (VECTOR,),
        ("eager",),
    ),
    Case(
        "tree.broadcast",
        lambda a: jax.tree.broadcast([a, 2.0], [(1, 2), {"x": 3}]),
        (VECTOR,),
        ("eager",),
    ),
    Case(
        "tree.reduce_associative",
        lambda a: jax.tree.reduce_associative(lambda x, y: x + y, [a, a * 2, a * 3]),
        (VECTOR,),
    ),
    Case(
        "tree.transpose",
        lambda a: jax.tree.transpose(
            jax.tree.structure([0, 0]), jax.tree.structure((0, 0)), [(a, a * 2), (a * 3, a * 4)]
        ),
        (VECTOR,),
    ),
]


def _batched(array: np.ndarray) -> np.ndarray:
    variant = array * 1.5 if np.issubdtype(array.dtype, np.floating) else array
    return np.stack([array, variant.astype(array.dtype)])


def structure(tree: Any) -> Any:
    """The pytree structure of ``tree``, written the same way by every JAX release: ``*`` a
    leaf, ``[kind, children]`` a node (a list, a tuple, a dict with its keys, a namedtuple by
    its type's name)."""
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return [type(tree).__name__, [structure(item) for item in tree]]
    if isinstance(tree, list | tuple):
        return [type(tree).__name__, [structure(item) for item in tree]]
    if isinstance(tree, dict):
        return ["dict", {str(key): structure(value) for key, value in sorted(tree.items())}]
    if tree is None:
        return "None"
    return "*"


def _leaf(value: Any) -> dict[str, Any]:
    array = np.asarray(value)
    if array.dtype.kind == "c":
        values = np.stack([array.real, array.imag], axis=-1).tolist()
    elif array.dtype.kind in "biu":
        values = array.tolist()
    else:
        values = array.astype(np.float64).tolist()
    return {"dtype": str(array.dtype), "shape": list(array.shape), "values": values}


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, list | tuple):
        return [leaf for item in tree for leaf in _leaves(item)]
    if isinstance(tree, dict):
        return [leaf for _, value in sorted(tree.items()) for leaf in _leaves(value)]
    return [] if tree is None else [tree]


def outcome(case: Case, mode: str) -> dict[str, Any]:
    """What ``case`` gives in ``mode``: its result's structure and leaves, or the type of
    the exception it raises."""
    try:
        if mode == "eager":
            result = case.function(*case.inputs)
        elif mode == "jit":
            result = jax.jit(case.function)(*case.inputs)
        else:
            result = jax.vmap(case.function)(*(_batched(a) for a in case.inputs))
    except Exception as error:  # the newest JAX's exception is the expected outcome too
        return {"error": type(error).__name__}
    return {"structure": structure(result), "leaves": [_leaf(v) for v in _leaves(result)]}
