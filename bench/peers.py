"""The same model's method, jitted by jaxcompat and by its peers, each against ``jax.jit``.

One computation, ``sum(weights) * x * scale`` over 10 arrays and a Python float, written the
way each library has it: a plain class whose method is ``@jaxcompat.jit``, an
``equinox.Module`` whose method is ``@eqx.filter_jit``, and an ``nnx.Module`` called through
``nnx.jit`` and through ``nnx.cached_partial``. Each figure is a ratio to the explicit
``jax.jit`` of a function taking the arrays. The peers come from the ``bench`` dependency
group (``nox -s bench``); a row where one does not install or import gets a cell saying so.
jaxcompat's method must be the fastest of them on each row.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from typing import Any

from harness import Figure, interleaved, not_measured, summarize

COMPARED_WITH = "jax.jit of a function taking the arrays explicitly"
EQUINOX = "peers: an equinox.Module method under @eqx.filter_jit"
NNX_JIT = "peers: an nnx.Module under flax.nnx.jit"
NNX_CACHED_PARTIAL = "peers: an nnx.Module under nnx.cached_partial"
CALLS = 1000


def _explicit() -> tuple[Callable[[], Any], tuple[Any, ...], Any]:
    import jax
    import jax.numpy as jnp

    def explicit(weights: tuple[Any, ...], x: Any) -> Any:
        return sum(weights) * x * 2.0

    weights = tuple(jnp.full(4, float(i)) for i in range(10))
    x = jnp.ones(4)
    jitted = jax.jit(explicit)
    return lambda: jitted(weights, x), weights, x


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def jaxcompat_method(rounds: int) -> Figure:
    import jaxcompat

    class Model:
        def __init__(self, weights: tuple[Any, ...]) -> None:
            self.weights = weights
            self.scale = 2.0

        @jaxcompat.jit
        def apply(self, x: Any) -> Any:
            return sum(self.weights) * x * self.scale

    theirs, weights, x = _explicit()
    model = Model(weights)
    figure = Figure("peers: a plain class's method under @jaxcompat.jit", COMPARED_WITH, 1.25)
    return summarize(figure, interleaved(lambda: model.apply(x), theirs, CALLS, rounds))


def equinox_method(rounds: int) -> Figure:
    figure = Figure(EQUINOX, COMPARED_WITH, None)
    try:
        import equinox as eqx
    except Exception as error:  # not installed, or not importable with this JAX
        return not_measured(figure, f"not installed ({type(error).__name__})")
    figure.note = f"equinox {_version('equinox')}"

    class Model(eqx.Module):  # type: ignore[misc]
        weights: tuple[Any, ...]
        scale: float

        @eqx.filter_jit  # type: ignore[misc]
        def apply(self, x: Any) -> Any:
            return sum(self.weights) * x * self.scale

    theirs, weights, x = _explicit()
    model = Model(weights, 2.0)
    return summarize(figure, interleaved(lambda: model.apply(x), theirs, CALLS, rounds))


def _nnx_model() -> tuple[Any, Any, Callable[[], Any], Any] | str:
    try:
        import flax
    except Exception as error:  # not installed, or not importable with this JAX
        return f"not installed ({type(error).__name__})"
    try:
        from flax import nnx
    except Exception as error:  # a flax before nnx (0.9), or one whose nnx fails here
        return f"no flax.nnx in flax {flax.__version__} ({type(error).__name__})"
    theirs, weights, x = _explicit()

    class Model(nnx.Module):  # type: ignore[misc]
        # One Param attribute per array: a list of Params is a static attribute to flax 0.12.
        def __init__(self) -> None:
            for i, w in enumerate(weights):
                setattr(self, f"w{i}", nnx.Param(w))
            self.scale = 2.0

        def apply(self, x: Any) -> Any:
            return sum(getattr(self, f"w{i}")[...] for i in range(10)) * x * self.scale

    return nnx, Model(), theirs, x


def nnx_jit(rounds: int) -> Figure:
    figure = Figure(NNX_JIT, COMPARED_WITH, None)
    found = _nnx_model()
    if isinstance(found, str):
        return not_measured(figure, found)
    nnx, model, theirs, x = found
    figure.note = f"flax {_version('flax')}"
    apply = nnx.jit(type(model).apply)
    return summarize(figure, interleaved(lambda: apply(model, x), theirs, CALLS, rounds))


def nnx_cached_partial(rounds: int) -> Figure:
    figure = Figure(NNX_CACHED_PARTIAL, COMPARED_WITH, None)
    found = _nnx_model()
    if isinstance(found, str):
        return not_measured(figure, found)
    nnx, model, theirs, x = found
    if not hasattr(nnx, "cached_partial"):
        return not_measured(figure, f"not in flax {_version('flax')}")
    figure.note = f"flax {_version('flax')}"
    apply = nnx.cached_partial(nnx.jit(type(model).apply), model)
    return summarize(figure, interleaved(lambda: apply(x), theirs, CALLS, rounds))


def _or_failure(peer: Callable[[int], Figure], name: str, rounds: int) -> Figure:
    """``peer``'s figure, or one that says how the peer failed on this row."""
    try:
        return peer(rounds)
    except Exception as error:  # a peer release that installs but does not work here
        return not_measured(Figure(name, COMPARED_WITH, None), f"failed ({type(error).__name__})")


def peer_figures(rounds: int) -> list[Figure]:
    """The four figures; jaxcompat's misses its target where a peer is faster on this row."""
    ours = jaxcompat_method(rounds)
    others = [
        _or_failure(equinox_method, EQUINOX, rounds),
        _or_failure(nnx_jit, NNX_JIT, rounds),
        _or_failure(nnx_cached_partial, NNX_CACHED_PARTIAL, rounds),
    ]
    faster = [
        f.name.removeprefix("peers: ")
        for f in others
        if f.median is not None and ours.median is not None and f.median < ours.median
    ]
    if faster:
        ours.note = "slower than " + ", ".join(faster)
    return [ours, *others]
