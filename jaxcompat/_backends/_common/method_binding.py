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

Every call goes through :meth:`MethodJit.call`: ``self``'s state is split into traced arrays
and a static key (``instance_state``), and JAX's jitted *core* runs with them. The core
receives the instance through :data:`_calling`, which the call sets for its duration on
its own thread; when JAX traces, the core runs the method on a shadow of the instance
holding tracers, then writes what the method assigned back onto the real objects.
"""

from __future__ import annotations

import functools
import inspect
import threading
import types
import weakref
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from . import instance_state
from .cycles import ATOM_TYPES, refuse_cycles
from .jit_object import jit_repr, make_plain_jit, rebuild_jit
from .jit_options import JitTraits, as_tuple, resolve_argnums_argnames, static_arguments
from .shadow import shadow_for_trace
from .state_walk import read_state
from .trace_writes import TraceWrites, attributes_changed, attributes_of, state_key

#: The instance whose jitted method is being called, per thread (``None`` outside a call).
_calling = threading.local()


class MethodJit:
    """The compiled form of one method with one set of options, shared by all instances.

    JAX's jitted core takes ``(self_arrays, self_key, *args, **kwargs)``: the instance's arrays
    are traced arguments, and the rest of its state is one static argument.
    """

    # Held by an object whose method is jitted, it is compared by identity: its state is
    # compiled code, not the object's. (A bound one is walked by its instance.)
    _jaxcompat_compare_by_identity = True

    def __init__(self, fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits) -> None:
        self.fun = fun
        self.options = options
        self.splitter = instance_state.StateSplitter(fun)
        # Made when a trace first writes to self (``trace_writes``): until then, instances
        # with equal state share compiled code, and no call pays for telling them apart.
        self.writes: TraceWrites | None = None
        # The static arguments after self, which JAX never flattens (negative positions count
        # from the end either way).
        positions, names = static_arguments(fun, options)
        self.static_arguments = (tuple(i - 1 if i > 0 else i for i in positions if i), names)
        # Arguments are screened for cycles only where jaxlib's flatten segfaults on them.
        self.screens_arguments = traits.flatten_segfaults
        self.core = make_plain_jit(self._make_core(), _core_options(fun, options), traits)
        # JAX's own jitted core, for calls whose arguments were checked for cycles before
        # the state was split (the core's own check would walk the state's arrays again).
        self.call_core = self.core.func

    def call(self, instance: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return self.stage(instance, "__call__", args, kwargs)[0]

    def stage(self, instance: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call the core, or its ``lower``/``trace``/``eval_shape``; return it with the key."""
        self.refuse_cycles(name if name in ("lower", "trace") else "jit", args, kwargs)
        arrays, key = self.splitter.split(instance)
        writes = self.writes
        if writes is not None:
            key = writes.key_for(instance, key)
        _calling.instance = instance  # see BoundJitted.__call__
        try:
            target = self.call_core if name == "__call__" else getattr(self.core, name)
            return target(arrays, key, *args, **kwargs), key
        finally:
            _calling.instance = None

    def refuse_cycles(self, verb: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Refuse arguments jaxlib's flatten would segfault on (``cycles``), where it would;
        the state is checked for cycles as it is split."""
        if self.screens_arguments:
            refuse_cycles(verb, args, kwargs, static=self.static_arguments)

    def _make_core(self) -> Callable[..., Any]:
        fun = self.fun

        def core(self_arrays: Any, self_key: Any, /, *args: Any, **kwargs: Any) -> Any:
            instance = _calling.instance  # set by the call on this thread, read before all else
            reads = self.splitter.reads_of(type(instance))
            before = attributes_of(instance), state_key(self.splitter, instance)
            stand_in, copies = shadow_for_trace(instance, self_arrays, reads)
            out = fun(stand_in, *args, **kwargs)
            wrote_below = copies.write_back()
            self._remember_writes(instance, self_key, before, wrote_below)
            return out

        # JAX maps static/donate names to positions through the signature, so give the core
        # the method's parameters after two leading slots that replace ``self``.
        try:
            parameters = list(inspect.signature(fun).parameters.values())[1:]
            slots = [
                inspect.Parameter(name, inspect.Parameter.POSITIONAL_ONLY)
                for name in ("_jaxcompat_self_arrays", "_jaxcompat_self_key")
            ]
            core.__signature__ = inspect.Signature(slots + parameters)  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            pass
        else:
            # JAX names the traced function's file and line (in an escaped tracer's error,
            # in debug info) from inspect.unwrap of it: the method's own, as under jax.jit.
            # The signature above stops inspect.signature from unwrapping to it.
            core.__wrapped__ = fun  # type: ignore[attr-defined]
        core.__name__ = getattr(fun, "__name__", "method")
        core.__qualname__ = getattr(fun, "__qualname__", core.__name__)
        core.__module__ = getattr(fun, "__module__", None)  # type: ignore[assignment]
        return core

    def _remember_writes(
        self, instance: Any, traced_key: Any, before: tuple[Any, Any], wrote_below: bool
    ) -> None:
        """If the trace wrote to ``instance``, mark ``traced_key`` as its own (``trace_writes``).

        A write is an attribute of ``self`` set, replaced or deleted, or any change to the
        state the method reads, at any depth (``self.cfg.count += 1``, ``self.log.append``):
        under ``jax.jit`` each instance's own trace makes it, so each instance is traced.
        """
        attributes_before, key_before = before
        key_now = state_key(self.splitter, instance)
        wrote = (
            wrote_below
            or (attributes_before is not None and attributes_changed(attributes_before, instance))
            or key_now is None
            or key_now != key_before
        )
        if not wrote:
            return
        writes = self.writes
        if writes is None:
            writes = self.writes = TraceWrites()
        writes.record(instance, traced_key, key_now)

    def clear_cache(self) -> None:
        self.core.clear_cache()
        if self.writes is not None:
            self.writes.clear()


def _core_options(fun: Callable[..., Any], options: dict[str, Any]) -> dict[str, Any]:
    """The method's options, moved onto the core, whose two first slots replace ``self``."""
    core_options = dict(options)
    pairs = (("static_argnums", "static_argnames"), ("donate_argnums", "donate_argnames"))
    for nums, names in pairs:
        if nums not in options and names not in options:
            continue
        positions, keywords = resolve_argnums_argnames(fun, options.get(nums), options.get(names))
        core_options[nums] = tuple(0 if i == 0 else i + 1 for i in positions)
        if names in options or keywords:
            core_options[names] = keywords
    core_options["static_argnums"] = (1, *as_tuple(core_options.get("static_argnums")))
    if not core_options.get("donate_argnames"):
        core_options.pop("donate_argnames", None)  # may be missing on this release
    return core_options


_SHARED: weakref.WeakKeyDictionary[Any, dict[Any, MethodJit]] = weakref.WeakKeyDictionary()


def shared_method_jit(
    fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits
) -> MethodJit:
    """One MethodJit per (function, options), so jit(a.f) and jit(b.f) share compiled code."""
    try:
        key = tuple(sorted(options.items()))
        hash(key)
        per_function = _SHARED.setdefault(fun, {})
    except TypeError:  # unhashable options, or a function that cannot be weakly referenced
        return MethodJit(fun, options, traits)
    method = per_function.get(key)
    if method is None:
        method = per_function[key] = MethodJit(fun, options, traits)
    return method


def bound_method_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options given for ``jit(obj.method)`` count from the argument after self: shift them."""
    shifted = dict(options)
    for name in ("static_argnums", "donate_argnums"):
        if name in shifted:
            shifted[name] = tuple(i + 1 for i in as_tuple(shifted[name]))
    return shifted


def _unbound_options(options: dict[str, Any]) -> dict[str, Any]:
    shifted = dict(options)
    for name in ("static_argnums", "donate_argnums"):
        if name in shifted:
            shifted[name] = tuple(i - 1 for i in as_tuple(shifted[name]) if i != 0)
    return shifted


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
        self._fun = fun
        self._options = options
        self._traits = traits
        self._method: MethodJit | None = None
        self._plain: Any = None
        functools.update_wrapper(self, fun)

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

    __slots__ = ("__wrapped__", "_jitted")

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
        self._method = method
        functools.update_wrapper(self, method.fun)  # type: ignore[arg-type]

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
        # another one later does no harm, and clearing it keeps no instance alive.
        _calling.instance = instance
        core = method.call_core
        out = core(arrays, key, *args, **kwargs) if kwargs else core(arrays, key, *args)
        _calling.instance = None
        return out

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
        return (rebuild_jit, (self.__wrapped__, _unbound_options(self._method.options)))


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
