"""Adapters that give native ``jax.lax`` functions the keywords the newest JAX added.

``accuracy=`` (JAX 0.6.0) and ``out_sharding=`` (sharding in types) are accepted with the
only value an older release can honour, None; any other value is a TypeError that names the
first release that takes it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import jax

from .. import _surface
from .lax import no_option

__all__ = [
    "first_release_with",
    "keyword_only_accuracy",
    "without_accuracy",
    "without_out_sharding",
]


def first_release_with(name: str, keyword: str) -> str:
    """The first JAX release whose ``jax.lax.<name>`` takes ``keyword=``."""
    return next(
        release
        for release, signature in _surface.signature_runs(f"jax.lax.{name}")
        if signature is not None and f"{keyword}=" in signature.split(",")
    )


_UNARY_ACCURACY = inspect.Signature(
    [
        inspect.Parameter("x", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("accuracy", inspect.Parameter.KEYWORD_ONLY, default=None),
    ]
)


def without_accuracy(function: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``function(x, *, accuracy=None)`` for a unary function that predates the keyword.

    ``accuracy=`` (a ``Tolerance`` or ``AccuracyMode``) came in JAX 0.6.0 (``erfc``'s in
    0.12.0); None, the default implementation, is the only value older releases can honour.
    """
    name = function.__name__

    @functools.wraps(function)
    def adapted(x: Any, *, accuracy: Any = None) -> jax.Array:
        if accuracy is not None:
            raise no_option(
                name,
                "accuracy",
                first_release_with(name, "accuracy"),
                f"has no accuracy-selected implementations of {name}",
            )
        return function(x)

    adapted.__signature__ = _UNARY_ACCURACY  # type: ignore[attr-defined]
    return adapted


def keyword_only_accuracy(function: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``function(x, *, accuracy=None)`` for JAX 0.6.0-0.9.1, where accuracy was positional.

    JAX 0.9.2 made ``accuracy`` keyword-only; the values it takes are unchanged.
    """

    @functools.wraps(function)
    def adapted(x: Any, *, accuracy: Any = None) -> jax.Array:
        return function(x, accuracy=accuracy)

    adapted.__signature__ = _UNARY_ACCURACY  # type: ignore[attr-defined]
    return adapted


def without_out_sharding(function: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``function(..., *, out_sharding=None)`` for a function that predates the keyword.

    ``out_sharding=`` places the result under explicit sharding (sharding in types); None,
    the result's default placement, is the only value an older signature can honour.
    """
    # The reductions before 0.5.1 are jax._src.lax.lax's private _reduce_sum etc.
    name = function.__name__.lstrip("_")

    @functools.wraps(function)
    def adapted(*args: Any, out_sharding: Any = None, **kwargs: Any) -> jax.Array:
        if out_sharding is not None:
            raise no_option(
                name,
                "out_sharding",
                first_release_with(name, "out_sharding"),
                f"has no out_sharding for {name}",
            )
        return function(*args, **kwargs)

    adapted.__name__ = name
    signature = inspect.signature(function)
    parameters = [
        p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    parameters.append(
        inspect.Parameter("out_sharding", inspect.Parameter.KEYWORD_ONLY, default=None)
    )
    adapted.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=parameters
    )
    return adapted
