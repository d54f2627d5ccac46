"""``jax.custom_derivatives``: ``zero_from_primal`` (JAX 0.4.34), and ``custom_jvp`` and
``custom_vjp`` taking ``nondiff_argnames=`` (JAX 0.6.2).

``zero_from_primal``: custom_vjp's symbolic zeros (``SymbolicZero``) and the zero tangents
of each aval have been there on every supported release; 0.4.34 made a public constructor
of them. Before it the tangent aval of a primal is
``raise_to_shaped(get_aval(x)).at_least_vspace()`` (0.4.34 renamed it ``to_tangent_aval``):
float0 for integers and booleans.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import jax
from jax._src import ad_util as jax_ad_util
from jax._src import core as jax_core

from .release_class import standing_for

__all__ = ["logs_dropped", "with_nondiff_argnames", "zero_from_primal"]

# Private on every release, and untyped.
ad_util: Any = jax_ad_util
core: Any = jax_core


def _tangent_aval(x: Any) -> Any:
    return core.raise_to_shaped(core.get_aval(x)).at_least_vspace()


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """The zero tangent of each leaf of ``val``: a ``SymbolicZero``, or zeros of its
    tangent dtype (float0 for integers and booleans)."""

    def zero(x: Any) -> Any:
        aval = _tangent_aval(x)
        return ad_util.SymbolicZero(aval) if symbolic_zeros else ad_util.zeros_like_aval(aval)

    return jax.tree_util.tree_map(zero, val)


def _positions_of(
    kind: str, fun: Callable[..., Any], nondiff_argnames: Sequence[str] | str
) -> tuple[int, ...]:
    """The positions of ``nondiff_argnames`` among ``fun``'s parameters, as JAX 0.6.2 reads
    them: a name that is no positional-or-keyword parameter names no position."""
    names = (nondiff_argnames,) if isinstance(nondiff_argnames, str) else tuple(nondiff_argnames)
    try:
        parameters = inspect.signature(fun).parameters
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"jaxcompat.{kind}(nondiff_argnames=...) reads the positions of the names from "
            f"the signature of {fun!r}, which has none ({error}); pass nondiff_argnums instead"
        ) from error
    return tuple(
        index
        for index, (name, parameter) in enumerate(parameters.items())
        if parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and name in names
    )


@functools.cache  # one class, under jax.custom_vjp and jax.custom_derivatives.custom_vjp
def with_nondiff_argnames(release_class: type) -> type:
    """The release's ``custom_jvp`` or ``custom_vjp``, taking the newest ``nondiff_argnames=``.

    JAX 0.6.2 added it: the names become the positions of those parameters in ``fun``'s
    signature, joined with ``nondiff_argnums``. A subclass, so what it makes is JAX's own
    object to JAX (``defvjp``, tracing, ``isinstance``), and one JAX made itself is an
    instance of it too. The release's own call, ``nondiff_argnums=`` alone, is unchanged.
    """
    kind = release_class.__name__

    class WithNondiffArgnames(release_class, metaclass=standing_for(release_class)):  # type: ignore[misc,metaclass]
        def __init__(
            self,
            fun: Callable[..., Any],
            nondiff_argnums: Sequence[int] = (),
            nondiff_argnames: Sequence[str] = (),
        ) -> None:
            positions = set(nondiff_argnums)
            if nondiff_argnames:
                positions.update(_positions_of(kind, fun, nondiff_argnames))
            super().__init__(fun, nondiff_argnums=tuple(sorted(positions)))

        def __class_getitem__(cls, item: Any) -> Any:  # jax.custom_vjp[T] in annotations
            return release_class[item]  # type: ignore[index]

    WithNondiffArgnames.__name__ = WithNondiffArgnames.__qualname__ = kind
    WithNondiffArgnames.__module__ = "jaxcompat.custom_derivatives"
    WithNondiffArgnames.__doc__ = release_class.__doc__
    return WithNondiffArgnames


@functools.cache  # one function, under jax.custom_gradient and jax.custom_derivatives
def with_optional_fun(release_function: Callable[..., Any]) -> Callable[..., Any]:
    """The release's ``custom_gradient``, also as a decorator factory: JAX 0.11.1 made ``fun``
    optional, so that ``custom_gradient(with_logs=False)(f)`` is ``custom_gradient(f)`` (the
    keywords themselves are the newest's, from 0.11.1 and 0.12.0: ``_stable_names/keywords.py``
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
