"""``jit``, ``lower`` and ``trace``: one jit with the same surface on every JAX release.

Where each concept lives:

* ``jit_options``: the option set, and the errors for options a release lacks or a
  function cannot take;
* ``jit_object``: the jit object of a plain function and its AOT methods;
* ``methods``: methods, bound or called in any way, which read ``self`` on every
  call (the same on every release).

This module only routes what ``jit`` is given to the right one.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any, cast

from .jit_object import (
    JAX_JIT,
    Jitted,
    PjitFunction,
    WithInstance,
    defined_in_class_body,
    jit_function,
    jitted_type,
    make_plain_jit,
)
from .jit_options import (
    JitTraits,
    check_against_signature,
    check_options,
    newest_jit_signature,
    self_is_static,
)
from .methods.method_binding import (
    BoundJitted,
    JittedClassMethod,
    JittedMethod,
    JittedOnClass,
)
from .methods.method_jit import bound_method_options, shared_method_jit

__all__ = ["JitTraits", "make_jit"]


def make_jit(
    traits: JitTraits,
) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """Build this backend's ``jit``, ``lower`` and ``trace``."""

    def jit(fun: Callable[..., Any] | None = None, /, **options: Any) -> Any:
        forwarded = check_options(options, traits)
        if fun is None:
            return functools.partial(jit, **options)
        if isinstance(fun, staticmethod):  # @jit over @staticmethod: a plain function
            check_against_signature(fun.__func__, forwarded)
            return staticmethod(make_plain_jit(fun.__func__, forwarded, traits))
        if isinstance(fun, classmethod):  # @jit over @classmethod: binds to the class
            check_against_signature(fun.__func__, forwarded)  # type: ignore[unreachable]
            if self_is_static(fun.__func__, forwarded):  # the class is hashed, as self is
                return classmethod(make_plain_jit(fun.__func__, forwarded, traits))
            return JittedClassMethod(shared_method_jit(fun.__func__, forwarded, traits))
        if not callable(fun):
            JAX_JIT(fun)  # type: ignore[unreachable]  # raises JAX's own TypeError
            raise TypeError(f"Expected a callable value, got {fun!r}")
        if isinstance(fun, BoundJitted):
            if not forwarded:
                return fun
            fun = fun.__wrapped__
        check_against_signature(fun, forwarded)
        if isinstance(fun, types.MethodType) and not isinstance(
            fun.__func__, (Jitted, JittedMethod)
        ):
            method = shared_method_jit(fun.__func__, bound_method_options(forwarded), traits)
            return BoundJitted(method, fun.__self__)
        if defined_in_class_body(fun) and not self_is_static(fun, forwarded):
            return JittedMethod(fun, forwarded, traits)
        return jit_function(fun, forwarded, traits)

    # jit takes **options and checks them itself; inspect.signature shows the newest's.
    jit.__signature__ = newest_jit_signature()  # type: ignore[attr-defined]

    def stage_target(fun: Any) -> Any:
        if isinstance(fun, (Jitted, BoundJitted, WithInstance, JittedMethod, JittedOnClass)):
            return fun
        if isinstance(fun, PjitFunction):
            if traits.hand_back_jax_jit:  # JAX's own lower/trace already are the newest's
                return fun
            wrapped = cast("Callable[..., Any]", getattr(fun, "__wrapped__", fun))
            return make_plain_jit_of(fun, wrapped)
        # Anything else, wrappers of jitted functions included, is jitted as a whole, so every
        # wrapper layer runs. A lower/trace attribute found on it is never trusted.
        target = jit(fun)
        if isinstance(target, (Jitted, BoundJitted, JittedMethod, PjitFunction)):
            return target
        return make_plain_jit_of(target, fun)

    def make_plain_jit_of(jitted: Any, fun: Callable[..., Any]) -> Jitted:
        # JAX's jitted function (or a staticmethod's), with jaxcompat's lower and trace.
        return jitted_type(fun, {}, traits)(jitted, fun, {}, traits)

    # Where jaxlib's flatten segfaults, every stage target's lower/trace refuses arguments
    # that contain themselves, skipping its static arguments as JAX does; elsewhere they
    # reach JAX's flatten, as under jax.jit.
    def lower(fun: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        return stage_target(fun).lower(*args, **kwargs)

    def trace(fun: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        target: Any = stage_target(fun)
        traced = target.trace(*args, **kwargs)
        if isinstance(target, PjitFunction):  # JAX's own: its Traced, with the newest out_info
            return traits.normalize_traced(traced)
        return traced

    return jit, lower, trace
