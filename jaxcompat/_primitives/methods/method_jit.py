"""The compiled form of a jitted method, shared by every instance and every way it is bound.

A :class:`MethodJit` holds JAX's jitted *core* of one method with one set of options. The
core takes ``(self_arrays, self_key, *args, **kwargs)``: the instance's state, split on every
call (``instance_state``), is its traced arrays and one static key, so instances with equal
state share compiled code. The core receives the instance itself through :data:`calling`,
which a call sets for its duration on its own thread (:meth:`MethodJit.stage`, and
``method_binding.BoundJitted.__call__`` inline). JAX's jit takes only arrays and hashed static
values as arguments, and the instance is neither: as a static argument JAX would hash it by
its own ``__hash__`` and keep it alive in its cache, and a carrier of it in the key's slot,
hashed and compared as the key, costs an object and a Python ``__hash__`` and ``__eq__`` on
every call (2-5% of a cached method call, on JAX 0.4.13 and 0.12.0.1); the thread-local
costs neither. When JAX traces, the core runs the method on a shadow of the instance holding
tracers (``shadow``), then writes what the method assigned back onto the real objects and
records that it wrote (``trace_writes``).

How a method is bound or called, and so which instance a call passes, is
``method_binding``'s.
"""

from __future__ import annotations

import inspect
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cycles import refuse_cycles
from ..jit_object import make_plain_jit
from ..jit_options import (
    JitTraits,
    as_tuple,
    resolve_argnums_argnames,
    static_arguments,
)
from . import instance_state
from .shadow import shadow_for_trace
from .trace_writes import TraceWrites, attributes_changed, attributes_of, state_key

#: The instance whose jitted method is being called, per thread (``None`` outside a call).
calling = threading.local()


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
        core_options = _core_options(fun, options)
        sharding = core_options.get("in_shardings")
        # None, except where one sharding is given for every argument of a bound method: JAX's
        # in_shardings must then be a tuple as long as the call's arguments, a core per count.
        self.cores_by_count: dict[int, Any] | None = None
        if isinstance(sharding, EachArgumentAfterSelf):
            self.cores_by_count = {}
            self.sharding_per_count = (sharding.sharding, core_options, traits, self._make_core())
            self.core = self.core_for(())
            self.call_core = self._call_core_for_its_arguments
        else:
            self.core = make_plain_jit(self._make_core(), core_options, traits)
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
        calling.instance = instance  # see method_binding.BoundJitted.__call__
        try:
            core = self.core if self.cores_by_count is None else self.core_for(args)
            target = self.call_core if name == "__call__" else getattr(core, name)
            return target(arrays, key, *args, **kwargs), key
        finally:
            calling.instance = None

    def core_for(self, args: tuple[Any, ...]) -> Any:
        """The core for a call with `args` where one sharding is given for every argument of a
        bound method: its in_shardings name that sharding once per argument JAX traces, and
        leave self's arrays unspecified, as JAX leaves the arrays a bound method closes over."""
        count = len(args)
        cores = self.cores_by_count
        assert cores is not None  # only made with them
        core = cores.get(count)
        if core is None:
            sharding, core_options, traits, function = self.sharding_per_count
            static, _ = self.static_arguments
            traced = sum(1 for i in range(count) if i not in static and i - count not in static)
            per_argument = {**core_options, "in_shardings": (None, *[sharding] * traced)}
            core = cores[count] = make_plain_jit(function, per_argument, traits)
        return core

    def _call_core_for_its_arguments(self, arrays: Any, key: Any, *args: Any, **kwargs: Any) -> Any:
        return self.core_for(args).func(arrays, key, *args, **kwargs)

    def refuse_cycles(self, verb: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Refuse arguments jaxlib's flatten would segfault on (``cycles``), where it would;
        the state is checked for cycles as it is split."""
        if self.screens_arguments:
            refuse_cycles(verb, args, kwargs, static=self.static_arguments)

    def _make_core(self) -> Callable[..., Any]:
        fun = self.fun

        def core(self_arrays: Any, self_key: Any, /, *args: Any, **kwargs: Any) -> Any:
            instance = calling.instance  # set by the call on this thread (module docstring)
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
        for core in (self.cores_by_count or {}).values():
            core.clear_cache()
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


@dataclass(frozen=True)
class EachArgumentAfterSelf:
    """``jit(obj.method, in_shardings=sharding)``: one sharding for each argument after self,
    and none for self's arrays, which JAX would close over (``MethodJit.core_for``)."""

    sharding: Any


def bound_method_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options given for ``jit(obj.method)`` count from the argument after self: shift them."""
    shifted = dict(options)
    for name in ("static_argnums", "donate_argnums"):
        if name in shifted:
            shifted[name] = tuple(i + 1 for i in as_tuple(shifted[name]))
    in_shardings = shifted.get("in_shardings")
    if isinstance(in_shardings, tuple | list):
        # One sharding per argument after self (flax's `jax.jit(model.init, in_shardings=
        # (key, x))`); self's arrays, the core's first traced argument, are placed as JAX
        # places the ones a bound method closes over: None, unspecified for jit.
        shifted["in_shardings"] = (None, *in_shardings)
    elif in_shardings is not None and "in_shardings" in shifted:
        # One sharding for every argument: not for self's arrays, which may not divide by the
        # mesh's axes as the arguments do (JAX's own jit never shards what a method closes over).
        shifted["in_shardings"] = EachArgumentAfterSelf(in_shardings)
    return shifted


def unbound_method_options(options: dict[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`bound_method_options`, for pickling a bound method."""
    shifted = dict(options)
    for name in ("static_argnums", "donate_argnums"):
        if name in shifted:
            shifted[name] = tuple(i - 1 for i in as_tuple(shifted[name]) if i != 0)
    if isinstance(shifted.get("in_shardings"), tuple):
        shifted["in_shardings"] = shifted["in_shardings"][1:]
    elif isinstance(shifted.get("in_shardings"), EachArgumentAfterSelf):
        shifted["in_shardings"] = shifted["in_shardings"].sharding
    return shifted
