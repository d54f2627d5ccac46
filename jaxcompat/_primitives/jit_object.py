"""The jit object of a plain function: JAX's own where JAX's already behaves as the newest.

From JAX 0.6.0 ``lower``, ``trace`` and ``eval_shape`` are methods of the jitted function's
type, so ``functools.wraps`` cannot copy them, and ``jaxcompat.jit`` of a plain function is
``jax.jit``'s own object (:func:`jit_function`). Up to JAX 0.5.3 they live in the jitted
function's instance ``__dict__``, so ``functools.wraps`` copies them onto a wrapper and
``wrapper.lower(...)`` silently skips the wrapper (jax#27829): there a :class:`Jitted` keeps
them on its type and calls JAX's jitted function through ``functools.partial``'s C call path.

Where jaxlib's C++ flatten segfaults on an argument that contains itself or nests too
deeply (a backend's ``JitTraits.flatten_segfaults``), a :class:`ScreenedJitted` refuses such
an argument first (``cycles``). Everywhere else the argument reaches JAX, as under
``jax.jit``.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from typing import Any, cast

import jax

from .aot import trace_by_closure
from .cycles import ATOM_TYPES, refuse_cycles
from .jit_options import JitTraits, static_arguments

#: JAX's own jit, read once, when jaxcompat's jit is built. Code that replaces ``jax.jit`` with
#: ``jaxcompat.jit`` (to run a test suite through it, as a drop-in) must not make jaxcompat's
#: jit call itself.
JAX_JIT: Callable[..., Any] = jax.jit
PjitFunction: type = type(JAX_JIT(lambda x: x))

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
    """A function compiled by ``jaxcompat.jit`` that is not ``jax.jit``'s own object.

    Calling it calls JAX's own jitted function through ``functools.partial``'s C call path,
    which adds no Python frame. ``lower``, ``trace`` and ``eval_shape`` are methods of this
    type, so ``functools.wraps`` never copies them onto a wrapper. Looked up on an instance,
    it binds like ``jax.jit`` does: the instance becomes the first argument. Its repr, state
    and pickling are those of JAX's jitted function.
    """

    __slots__ = ("_jc_fun", "_jc_options", "_jc_static", "_jc_traits")

    _jc_fun: Callable[..., Any]
    _jc_options: dict[str, Any]
    _jc_traits: JitTraits
    #: The static argument positions and names, which JAX never flattens.
    _jc_static: tuple[tuple[int, ...], tuple[str, ...]]
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
        self._jc_static = static_arguments(fun, options)
        functools.update_wrapper(self, fun, updated=())
        # Copy the function's attributes, but never AOT methods that functools.wraps carried
        # onto it from a jitted function inside (JAX < 0.6.0): they would skip the wrapper.
        for name, value in getattr(fun, "__dict__", {}).items():
            if name not in _AOT_METHODS:
                self.__dict__.setdefault(name, value)
        return self

    def _screen(self, verb: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Refuse what JAX's flatten would crash on: nothing here (see ScreenedJitted)."""

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return WithInstance(self, instance)

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        self._screen("lower", args, kwargs)
        return self._jc_traits.normalize_lowered(self.func.lower(*args, **kwargs))

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        self._screen("trace", args, kwargs)
        traits = self._jc_traits
        if traits.native_trace:
            return traits.normalize_traced(self.func.trace(*args, **kwargs))
        plain = self.func
        if self._jc_options.get("inline"):
            # The nested-call trick needs a call equation, which inline=True removes.
            options = {k: v for k, v in self._jc_options.items() if k != "inline"}
            plain = JAX_JIT(self._jc_fun, **options)
        return trace_by_closure(plain, args, kwargs, lambda: self.lower(*args, **kwargs))

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        self._screen("jit", args, kwargs)
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
        return repr(self.func)  # JAX's, which never raises

    def __reduce__(self) -> tuple[Any, ...]:
        # JAX's jitted function is pickled along, so this pickles exactly where it does: with
        # cloudpickle, and never with pickle (its state holds a local function).
        return (rebuild_jit_of, (self.func, self._jc_fun, self._jc_options))

    def __getstate__(self) -> Any:
        # JAX's jitted function's own state (its function_name, ...), as code that reads it
        # from ``jax.jit`` expects; pickling goes by __reduce__ above, never through it.
        return self.func.__getstate__()


class ScreenedJitted(Jitted):
    """A :class:`Jitted` whose every call, ``lower``, ``trace`` and ``eval_shape`` first
    refuses an argument that contains itself or nests too deeply (``cycles``): the releases
    whose jaxlib flatten segfaults on one (``JitTraits.flatten_segfaults``). Arrays and
    numbers, the usual arguments, are told apart by one set lookup each; a static argument
    (``self`` of a method jitted with ``static_argnames=("self",)``), which JAX hashes and
    never flattens, is skipped by ``refuse_cycles`` before anything is asked of it."""

    __slots__ = ()

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            for value in args:
                if type(value) not in ATOM_TYPES:
                    break
            else:
                return self.func(*args)
        refuse_cycles("jit", args, kwargs, static=self._jc_static)
        return self.func(*args, **kwargs)

    def _screen(self, verb: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        refuse_cycles(verb, args, kwargs, static=self._jc_static)


class ScreenedAfterStaticJitted(ScreenedJitted):
    """A :class:`ScreenedJitted` of a function whose first arguments are static (a method
    jitted with ``static_argnames=("self",)``): each call's screen starts after them, so
    that the instance is never looked at. Its own type, so that a function without static
    arguments pays nothing for it."""

    __slots__ = ("_jc_screen_from",)

    #: The first position that is not one of the leading static arguments.
    _jc_screen_from: int

    def __new__(cls, *arguments: Any) -> ScreenedAfterStaticJitted:  # Jitted's arguments
        self = cast(ScreenedAfterStaticJitted, super().__new__(cls, *arguments))
        first = 0
        while first in self._jc_static[0]:
            first += 1
        self._jc_screen_from = first
        return self

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            for value in args[self._jc_screen_from :]:
                if type(value) not in ATOM_TYPES:
                    break
            else:
                return self.func(*args)
        refuse_cycles("jit", args, kwargs, static=self._jc_static)
        return self.func(*args, **kwargs)


def jitted_type(
    fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits
) -> type[Jitted]:
    """The jit object's type for ``fun`` under ``options``: screened where jaxlib's flatten
    segfaults on a cycle (from its first non-static argument on), else a plain
    :class:`Jitted`."""
    if not traits.flatten_segfaults:
        return Jitted
    if 0 in static_arguments(fun, options)[0]:
        return ScreenedAfterStaticJitted
    return ScreenedJitted


def jit_repr(describe: Callable[[], str]) -> str:
    """``<jaxcompat.jit of ...>``, or ``<jaxcompat.jit>`` where the description fails (a
    method whose instance's ``repr`` raises): as JAX's jitted functions, a repr never raises."""
    try:
        return f"<jaxcompat.jit of {describe()}>"
    except Exception:
        return "<jaxcompat.jit>"


def rebuild_jit(fun: Callable[..., Any], options: dict[str, Any]) -> Any:
    """Unpickle a jitted method: jit it again with the same options, by the selected backend
    (read when called: the backend imports this module)."""
    from .._dispatch import backend

    return backend.jit(fun, **options)


def rebuild_jit_of(jax_jitted: Any, fun: Callable[..., Any], options: dict[str, Any]) -> Any:
    """Unpickle a :class:`Jitted`: jit its function again. JAX's jitted function comes along
    only so that pickling succeeds or fails as JAX's does."""
    del jax_jitted
    return rebuild_jit(fun, options)


class WithInstance(functools.partial):  # type: ignore[type-arg]
    """A jitted function bound like ``jax.jit`` binds: the instance is its first argument.

    A ``functools.partial`` of the jitted function and the instance, so that a call takes
    ``partial``'s C path with no Python frame, as JAX's own bound jitted method does; a
    partial can be weakly referenced, as JAX's tracing memo requires of the functions it is
    given (``jax.jit(obj.method)``). ``lower``, ``trace`` and ``eval_shape`` pass the instance.
    """

    __slots__ = ()

    # Built as ``WithInstance(jitted, instance)`` by partial's own constructor, in C: a
    # ``__new__`` here would add a Python frame to every method lookup.
    func: Jitted
    args: tuple[Any, ...]

    @property
    def __self__(self) -> Any:
        return self.args[0]

    @property
    def __wrapped__(self) -> Any:
        return types.MethodType(self.func._jc_fun, self.args[0])

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        return self.func.lower(self.args[0], *args, **kwargs)

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        return self.func.trace(self.args[0], *args, **kwargs)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        return self.func.eval_shape(self.args[0], *args, **kwargs)

    def __repr__(self) -> str:
        return jit_repr(lambda: repr(self.__wrapped__))

    # Equal where it binds the same jitted function to the same instance, as bound methods
    # are: JAX's caches keyed on the function find the compiled program again.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WithInstance):
            return NotImplemented
        return self.func is other.func and self.args[0] is other.args[0]

    def __hash__(self) -> int:
        return hash((id(self.func), id(self.args[0])))

    def __reduce__(self) -> tuple[Any, ...]:
        return WithInstance, (self.func, self.args[0])


def make_plain_jit(fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits) -> Jitted:
    """jaxcompat's jit object of ``fun`` with already-checked ``options``: a method's core, a
    staticmethod, or a plain function below JAX 0.6.0."""
    return jitted_type(fun, options, traits)(JAX_JIT(fun, **options), fun, options, traits)


def patched_jax_jit() -> Callable[..., Any] | None:
    """What replaced ``jax.jit`` on JAX's module (a test double such as
    ``mock.patch("jax.jit", counting_jit)``, as chex's ``OnCallOfTransformedFunction`` sets),
    or None while it is JAX's own. jaxcompat's jit put there, or a wrapper or partial of it (a
    suite run through ``jaxcompat.jit`` as a drop-in), counts as JAX's own: calling it would
    call itself."""
    installed = jax.jit
    if installed is JAX_JIT:
        return None
    inner = getattr(installed, "func", installed)  # functools.partial(jit, ...)
    if str(getattr(inner, "__module__", "")).startswith("jaxcompat."):
        return None
    return installed


def jit_function(fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits) -> Any:
    """The jit of a plain function: what ``jax.jit`` gives where a test double replaced it on
    JAX's module (:func:`patched_jax_jit`), as under raw JAX; ``jax.jit``'s own object where it
    already behaves as the newest's (``JitTraits.hand_back_jax_jit``); else
    :func:`make_plain_jit`'s."""
    patched = patched_jax_jit()
    if patched is not None:
        return patched(fun, **options)
    if traits.hand_back_jax_jit:
        return JAX_JIT(fun, **options)
    return make_plain_jit(fun, options, traits)
