"""Jitted methods: every way a method is bound or called reads ``self`` on every call.

The forms, and what serves them:

* ``@jit`` on a function in a class body gives a :class:`JittedMethod`. Python decides, by
  how it binds it, whether it is a method: looked up on an instance (``obj.f``,
  ``super().f``) it returns a :class:`BoundJitted`; looked up on the class it returns a
  :class:`JittedOnClass`, which takes the instance as its first argument (``C.f(obj, x)``).
  Called directly (under ``@staticmethod``, or a wrapper that only looks like a method) it
  is the plain jitted function, exactly as ``jax.jit`` gives it. Under ``@classmethod`` the
  class is the instance.
* ``jit(obj.method)`` gives a :class:`BoundJitted` directly; ``jit(C.make)`` for a
  classmethod binds to the class. ``jit(classmethod(f))`` gives a :class:`JittedClassMethod`.

Every call goes through a :class:`~.method_jit.MethodJit`, shared by every instance and
every form (``method_jit``): ``self``'s state is split into traced arrays and a static key
(``instance_state``), and JAX's jitted core runs with them. :class:`BoundJitted` makes that
call inline, as it is the hot path of every method call.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from ..cycles import ATOM_TYPES, refuse_cycles
from ..jit_object import jit_repr, make_plain_jit, rebuild_jit
from ..jit_options import JitTraits
from .method_jit import MethodJit, calling, unbound_method_options
from .state_walk import read_state


def _is_array_like(value: Any) -> bool:
    """A first argument that is an array or a number, which JAX traces: not an instance.

    ``C.f(x)`` for a function kept in a class body that takes no ``self``: Python passes
    ``x`` first. Read as an instance, a number would be compared by value (compiled in as a
    constant, one trace per value); ``jax.jit`` traces it.
    """
    return isinstance(value, (bool, int, float, complex, np.ndarray, np.generic, jax.Array))


class JittedMethod:
    """``@jit`` on a function in a class body: a method where Python binds it as one.

    Its name only says it may be one (``defined_in_class_body``); nothing is decided from
    it. Called directly it is the plain jitted function, with the options as given, except
    with a class first: ``@classmethod`` over ``@jit`` binds through ``__get__`` up to Python
    3.12, and from 3.13 calls this object with the class first. A class is never an argument
    JAX can trace (``jax.jit`` raises on it), so there it is the class the classmethod is
    bound to, whose data attributes are the state.
    """

    # Held by an object whose method is jitted, it is compared by identity: its state is
    # compiled code, not the object's. (A bound one is walked by its instance.)
    _jaxcompat_compare_by_identity = True

    def __init__(self, fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits) -> None:
        # First: update_wrapper copies the function's __dict__, which a function made by
        # functools.wraps of a JAX jitted method holds JAX's `_fun` in (JAX 0.6.0 and newer).
        functools.update_wrapper(self, fun)
        self._fun = fun
        self._options = options
        self._traits = traits
        self._method: MethodJit | None = None
        self._plain: Any = None

    @property
    def method(self) -> MethodJit:
        method = self._method
        if method is None:  # built on first use; a race builds two, and one wins
            method = self._method = MethodJit(self._fun, self._options, self._traits)
        return method

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return JittedOnClass(self)
        return BoundJitted(self.method, instance)

    @property
    def plain(self) -> Any:
        """The function jitted as a plain function: its first argument is an argument."""
        plain = self._plain
        if plain is None:
            plain = self._plain = make_plain_jit(self._fun, self._options, self._traits)
        return plain

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], type):  # @classmethod over @jit (class docstring)
            return self.method.call(args[0], args[1:], kwargs)
        return self.plain(*args, **kwargs)

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        return self._stage("lower", args, kwargs)

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        return self._stage("trace", args, kwargs)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        return self._stage("eval_shape", args, kwargs)

    def _stage(self, name: str, args: tuple[Any, ...], kwargs: Any) -> Any:
        if args and isinstance(args[0], type):  # @classmethod over @jit (class docstring)
            return getattr(BoundJitted(self.method, args[0]), name)(*args[1:], **kwargs)
        return getattr(self.plain, name)(*args, **kwargs)

    def clear_cache(self) -> None:
        if self._method is not None:
            self._method.clear_cache()
        if self._plain is not None:
            self._plain.clear_cache()

    def __repr__(self) -> str:
        return jit_repr(lambda: repr(self._fun))

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild_jit, (self._fun, self._options))


class JittedOnClass:
    """A :class:`JittedMethod` looked up on its class: ``C.f(obj, x)``, as ``super()`` chains
    write by hand. The first argument is the instance, unless it is an array or a number."""

    __slots__ = ("__weakref__", "__wrapped__", "_jitted")  # weakref: see WithInstance

    def __init__(self, jitted: JittedMethod) -> None:
        self._jitted = jitted
        self.__wrapped__ = jitted._fun

    def __call__(self, instance: Any, /, *args: Any, **kwargs: Any) -> Any:
        if _is_array_like(instance):
            return self._jitted.plain(instance, *args, **kwargs)
        return self._jitted.method.call(instance, args, kwargs)

    def lower(self, instance: Any, /, *args: Any, **kwargs: Any) -> Any:
        return self._stage("lower", instance, args, kwargs)

    def trace(self, instance: Any, /, *args: Any, **kwargs: Any) -> Any:
        return self._stage("trace", instance, args, kwargs)

    def eval_shape(self, instance: Any, /, *args: Any, **kwargs: Any) -> Any:
        return self._stage("eval_shape", instance, args, kwargs)

    def _stage(self, name: str, instance: Any, args: tuple[Any, ...], kwargs: Any) -> Any:
        if _is_array_like(instance):
            return getattr(self._jitted.plain, name)(instance, *args, **kwargs)
        return getattr(BoundJitted(self._jitted.method, instance), name)(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:  # __name__, __doc__, clear_cache, ...
        return getattr(self._jitted, name)

    def __eq__(self, other: object) -> bool:  # C.f == C.f, as for functions
        return isinstance(other, JittedOnClass) and other._jitted is self._jitted

    def __hash__(self) -> int:
        return hash(self._jitted)

    def __repr__(self) -> str:
        return repr(self._jitted)

    def __reduce__(self) -> tuple[Any, ...]:
        return self._jitted.__reduce__()


class JittedClassMethod:
    """``jit(classmethod(f))``: binds to the class, whose data attributes are its state."""

    # Held by an object whose method is jitted, it is compared by identity: its state is
    # compiled code, not the object's. (A bound one is walked by its instance.)
    _jaxcompat_compare_by_identity = True

    def __init__(self, method: MethodJit) -> None:
        functools.update_wrapper(self, method.fun)  # type: ignore[arg-type]  # first: see above
        self._method = method

    def __get__(self, instance: Any, owner: type | None = None) -> BoundJitted:
        return BoundJitted(self._method, owner if owner is not None else type(instance))


class BoundJitted:
    """A jitted method bound to an instance; reads the instance's state on every call."""

    __slots__ = ("__self__", "_method")

    def __init__(self, method: MethodJit, instance: Any) -> None:
        self._method = method
        self.__self__ = instance

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # MethodJit.call, inlined: this is the hot path of every method call.
        method = self._method
        instance = self.__self__
        if method.screens_arguments:  # where jaxlib's flatten segfaults on a cycle
            for value in args:  # arrays and numbers, the usual arguments, hold no cycle
                if type(value) not in ATOM_TYPES:
                    refuse_cycles("jit", args, kwargs, static=method.static_arguments)
                    break
            else:
                if kwargs:
                    refuse_cycles("jit", args, kwargs, static=method.static_arguments)
        # The splitter's last split, checked here: it holds on most calls (one frame less).
        splitter = method.splitter
        last = splitter.last
        if (
            last is not None
            and last.cls is type(instance)
            and last.holds(instance.__dict__ if last.state_is_dict else read_state(instance))
        ):
            arrays, key = last.split
        else:
            arrays, key = splitter.split(instance)
        writes = method.writes
        if writes is not None:  # only once a trace of this method wrote to self
            key = writes.key_for(instance, key)
        # The core reads the instance first thing if JAX traces it; a nested call that sets
        # another one later does no harm, and clearing it, after an exception too, keeps no
        # instance alive (a try costs nothing where nothing is raised, from Python 3.11).
        calling.instance = instance
        core = method.call_core
        try:
            return core(arrays, key, *args, **kwargs) if kwargs else core(arrays, key, *args)
        finally:
            calling.instance = None

    @property
    def __wrapped__(self) -> Callable[..., Any]:
        return types.MethodType(self._method.fun, self.__self__)

    @property
    def __func__(self) -> Callable[..., Any]:
        return self._method.fun

    @property
    def __name__(self) -> str:
        return getattr(self._method.fun, "__name__", "method")

    def __getattr__(self, name: str) -> Any:
        if name == "__qualname__":  # a class body cannot define it as a property
            return getattr(self._method.fun, "__qualname__", self.__name__)
        raise AttributeError(name)

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        return getattr(self._method.fun, "__doc__", None)

    def lower(self, *args: Any, **kwargs: Any) -> BoundLowered:
        lowered, key = self._method.stage(self.__self__, "lower", args, kwargs)
        return BoundLowered(lowered, self._method, self.__self__, key)

    def trace(self, *args: Any, **kwargs: Any) -> BoundTraced:
        traced, key = self._method.stage(self.__self__, "trace", args, kwargs)
        return BoundTraced(traced, self._method, self.__self__, key)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        return self._method.stage(self.__self__, "eval_shape", args, kwargs)[0]

    def clear_cache(self) -> None:
        self._method.clear_cache()

    def __repr__(self) -> str:
        return jit_repr(lambda: f"bound method {self.__qualname__} of {self.__self__!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild_jit, (self.__wrapped__, unbound_method_options(self._method.options)))


class _BoundStage:
    __slots__ = ("_instance", "_key", "_method", "_stage")

    def __init__(self, stage: Any, method: MethodJit, instance: Any, key: Any) -> None:
        self._stage = stage
        self._method = method
        self._instance = instance
        self._key = key

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stage, name)


class BoundTraced(_BoundStage):
    """``trace`` of a jitted method: JAX's ``Traced`` whose ``lower()`` stays bound."""

    __slots__ = ()

    def lower(self, *args: Any, **kwargs: Any) -> BoundLowered:
        lowered = self._stage.lower(*args, **kwargs)
        return BoundLowered(lowered, self._method, self._instance, self._key)


class BoundLowered(_BoundStage):
    """``lower`` of a jitted method: JAX's ``Lowered`` whose ``compile()`` stays bound."""

    __slots__ = ()

    def compile(self, *args: Any, **kwargs: Any) -> BoundCompiled:
        compiled = self._stage.compile(*args, **kwargs)
        return BoundCompiled(compiled, self._method, self._instance, self._key)


class BoundCompiled(_BoundStage):
    """A compiled method: called with the method's arguments, it reads the instance's arrays.

    The rest of the state is fixed at lowering; calling it after that changed raises.
    """

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        arrays, key = self._method.splitter.split(self._instance)
        writes = self._method.writes
        if writes is not None:
            key = writes.key_for(self._instance, key)
        if key != self._key:
            raise ValueError(
                f"the non-array state of {self._instance!r} changed after this method was "
                "lowered, so the compiled code no longer matches it; lower it again"
            )
        return self._stage(arrays, *args, **kwargs)
