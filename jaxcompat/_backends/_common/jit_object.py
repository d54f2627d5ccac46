"""The jit object: JAX's jitted function with AOT methods that wrappers cannot copy.

Up to JAX 0.5.3, ``lower``, ``trace`` and ``eval_shape`` live in the jitted function's
instance ``__dict__``, so ``functools.wraps`` copies them onto a wrapper and
``wrapper.lower(...)`` silently skips the wrapper (JAX 0.6.0 moved them onto the type).
:class:`Jitted` keeps them on its type. From 0.6.0 JAX's own object is handed back.
"""

from __future__ import annotations

import copyreg
import functools
import inspect
import pickle
import sys
import types
import weakref
from collections.abc import Callable
from typing import Any

import jax

from .aot import trace_by_closure
from .cycles import LEAVES, refuse_cycles
from .jit_options import JitTraits, static_arguments

PjitFunction: type = type(jax.jit(lambda x: x))

_AOT_METHODS = frozenset({"lower", "trace", "eval_shape", "specialize", "clear_cache"})


def defined_in_class_body(fun: Callable[..., Any]) -> bool:
    """True for a function written in a class body (``C.f`` or ``g.<locals>.C.f``). The scope
    before the name is a class's name; ``<locals>``, ``<setcomp>``, ``<lambda>`` and the like
    (a function, a comprehension, a lambda) are no class."""
    if not isinstance(fun, types.FunctionType):
        return False
    parts = fun.__qualname__.split(".")
    return len(parts) >= 2 and not parts[-2].startswith("<")


class Jitted(functools.partial):  # type: ignore[type-arg]
    """A function compiled by ``jaxcompat.jit``.

    Calling it calls JAX's own jitted function through ``functools.partial``'s C call path, so
    it adds no Python frame. ``lower``, ``trace`` and ``eval_shape`` are methods of this type,
    so ``functools.wraps`` never copies them onto a wrapper. Looked up on an instance, it
    binds like ``jax.jit`` does: the instance becomes the first argument.
    """

    __slots__ = ("_jc_fun", "_jc_options", "_jc_traits")

    _jc_fun: Callable[..., Any]
    _jc_options: dict[str, Any]
    _jc_traits: JitTraits
    func: Any  # JAX's jitted function

    def __new__(
        cls,
        jitted: Callable[..., Any],
        fun: Callable[..., Any],
        options: dict[str, Any],
        traits: JitTraits,
    ) -> Jitted:
        self = super().__new__(cls, jitted)
        self._jc_fun = fun
        self._jc_options = options
        self._jc_traits = traits
        functools.update_wrapper(self, fun, updated=())
        # Copy the function's attributes, but never AOT methods that functools.wraps carried
        # onto it from a jitted function inside (JAX < 0.6.0): they would skip the wrapper.
        for name, value in getattr(fun, "__dict__", {}).items():
            if name not in _AOT_METHODS:
                self.__dict__.setdefault(name, value)
        return self

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return WithInstance(self, instance)

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        return self._jc_traits.normalize_lowered(self.func.lower(*args, **kwargs))

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        traits = self._jc_traits
        if traits.native_trace:
            return traits.normalize_traced(self.func.trace(*args, **kwargs))
        plain = self.func
        if self._jc_options.get("inline"):
            # The nested-call trick needs a call equation, which inline=True removes.
            options = {k: v for k, v in self._jc_options.items() if k != "inline"}
            plain = jax.jit(self._jc_fun, **options)
        return trace_by_closure(plain, args, kwargs, lambda: self.lower(*args, **kwargs))

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        if self._jc_traits.native_eval_shape:
            return self.func.eval_shape(*args, **kwargs)
        return jax.eval_shape(lambda: self.func(*args, **kwargs))

    def clear_cache(self) -> None:
        self.func.clear_cache()

    def __getattr__(self, name: str) -> Any:
        # Anything else JAX's jitted functions offer is passed through.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.func, name)

    @property
    def __signature__(self) -> inspect.Signature:
        # The function's own, as JAX's jitted function reports it; without it,
        # inspect.signature(..., follow_wrapped=False) fails on functools.partial's C call path.
        return inspect.signature(self._jc_fun)

    def __repr__(self) -> str:
        return f"<jaxcompat.jit of {self._jc_fun!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild_jit, (self._jc_fun, self._jc_options))


class CycleCheckedJitted(Jitted):
    """A ``Jitted`` whose every call first refuses an argument that contains itself, on the
    releases whose C++ flatten would crash the interpreter on it (JitTraits says which)."""

    __slots__ = ("_jc_static",)

    #: The static argument positions and names, which JAX never flattens.
    _jc_static: tuple[tuple[int, ...], tuple[str, ...]]

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        limit = sys.getrecursionlimit()
        for value in args:  # arrays and numbers, the usual arguments, hold nothing
            if not isinstance(value, LEAVES):
                refuse_cycles("jit", args, kwargs, deepest=limit, static=self._jc_static)
                break
        else:
            if kwargs:
                refuse_cycles("jit", (), kwargs, deepest=limit, static=self._jc_static)
        return self.func(*args, **kwargs)


def rebuild_jit(fun: Callable[..., Any], options: dict[str, Any]) -> Any:
    """Unpickle a jitted function: jit it again with the same options."""
    from jaxcompat import jit

    return jit(fun, **options)


class WithInstance:
    """A jitted function bound like ``jax.jit`` binds: the instance is its first argument."""

    __slots__ = ("__self__", "__wrapped__", "_jitted")

    def __init__(self, jitted: Jitted, instance: Any) -> None:
        self._jitted = jitted
        self.__self__ = instance
        self.__wrapped__ = types.MethodType(jitted._jc_fun, instance)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._jitted(self.__self__, *args, **kwargs)

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        return self._jitted.lower(self.__self__, *args, **kwargs)

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        return self._jitted.trace(self.__self__, *args, **kwargs)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        return self._jitted.eval_shape(self.__self__, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<jaxcompat.jit of {self.__wrapped__!r}>"


# JAX's jitted functions pickle with cloudpickle but not with pickle (their reduction holds a
# local closure). Those that jaxcompat hands back are remembered with how they were made, so
# that they pickle with both, like a Jitted, and work with multiprocessing.
_HANDED_BACK: weakref.WeakKeyDictionary[Any, tuple[Any, dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)


def _reduce_jax_jitted(jitted: Any) -> Any:
    recipe = _HANDED_BACK.get(jitted)
    if recipe is None:  # not made by jaxcompat: pickle exactly as JAX's type does
        return jitted.__reduce_ex__(pickle.DEFAULT_PROTOCOL)
    return (rebuild_jit, recipe)


def make_plain_jit(
    fun: Callable[..., Any],
    options: dict[str, Any],
    traits: JitTraits,
    *,
    check_cycles: bool = True,
) -> Any:
    """jit a function (not a method) with already-checked ``options``. ``check_cycles``
    False: the caller checks what it passes (a method jit's state is checked as it is split).
    """
    jitted = jax.jit(fun, **options)
    if traits.hand_back_jax_jit and not defined_in_class_body(fun):
        # JAX's own object already behaves as required: zero overhead.
        if PjitFunction not in copyreg.dispatch_table:
            copyreg.pickle(PjitFunction, _reduce_jax_jitted)
        _HANDED_BACK[jitted] = (fun, options)
        return jitted
    if traits.flatten_crashes_on_cycles and check_cycles:
        checked = CycleCheckedJitted(jitted, fun, options, traits)
        checked._jc_static = static_arguments(fun, options)
        return checked
    return Jitted(jitted, fun, options, traits)
