"""``jax.custom_derivatives``: ``custom_gradient`` as a decorator factory (JAX 0.11.1) and
its ``with_logs=`` keyword. (``custom_jvp`` and ``custom_vjp`` are JAX's own classes on every
release: their ``nondiff_argnames=``, JAX 0.6.2, is JAX's TypeError before it.
``zero_from_primal`` is JAX's own from 0.4.34 and not given before it: see its entry in
``_stable_names/modules.py``.)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["logs_dropped", "with_optional_fun"]


@functools.cache  # one function, under jax.custom_gradient and jax.custom_derivatives
def with_optional_fun(release_function: Callable[..., Any]) -> Callable[..., Any]:
    """The release's ``custom_gradient``, also as a decorator factory: JAX 0.11.1 made ``fun``
    optional, so that ``custom_gradient(with_logs=False)(f)`` is ``custom_gradient(f)`` (the
    keywords themselves are the newest's, from 0.11.1 and 0.12.0: ``_keywords/rules/functions.py``
    says what each becomes here)."""

    def custom_gradient(fun: Callable[..., Any] | None = None) -> Any:
        if fun is None:
            return release_function
        return release_function(fun)

    custom_gradient.__doc__ = release_function.__doc__
    # Found again by pickle under this name (jaxcompat.custom_gradient is the same object).
    custom_gradient.__module__ = "jaxcompat.custom_derivatives"
    custom_gradient.__qualname__ = "custom_gradient"
    return custom_gradient


def logs_dropped(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """custom_gradient(with_logs=True) before JAX 0.11.1: the gradient function returns
    ``(cotangents, logs)``, and the logs are dropped. The newest drops them too unless its
    VJP function's ``with_logs`` method asks for them, which no older release's VJP function
    has (a call to it is an AttributeError there, never a silent answer)."""
    if not values["with_logs"]:
        return function(*args, **kwargs)
    bound = inspect.signature(function).bind(*args, **kwargs)
    fun = bound.arguments.get("fun")

    def with_logs(fun: Callable[..., Any]) -> Any:
        @functools.wraps(fun)
        def logging_nothing(*primals: Any, **options: Any) -> Any:
            out, gradient = fun(*primals, **options)

            def cotangents(*out_cotangents: Any) -> Any:
                returned = gradient(*out_cotangents)
                if not (isinstance(returned, tuple) and len(returned) == 2):
                    raise TypeError(
                        "custom_gradient(with_logs=True): the gradient function must return "
                        f"a pair (cotangents, logs); it returned {type(returned).__name__}"
                    )
                in_cotangents, logs = returned
                if logs is not None and not isinstance(logs, dict):
                    raise TypeError(
                        "custom_gradient(with_logs=True): the logs must be a dict of named "
                        f"pytrees or None, not {type(logs).__name__}"
                    )
                return in_cotangents

            return out, cotangents

        return function(logging_nothing)

    return with_logs if fun is None else with_logs(fun)
