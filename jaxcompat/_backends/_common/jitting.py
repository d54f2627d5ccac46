"""``jit``, ``lower`` and ``trace``: one jit with the same surface on every JAX release.

Three traps this module closes:

* Up to JAX 0.5.3, ``lower``, ``trace`` and ``eval_shape`` live in the jitted function's
  instance ``__dict__``, so ``functools.wraps`` copies them onto a wrapper and
  ``wrapper.lower(...)`` silently skips the wrapper (JAX 0.6.0 moved them onto the type).
  :class:`Jitted` keeps them on its type, and ``lower(fun, ...)`` never trusts a ``lower``
  attribute found on something that is not a jit object.
* ``jax.jit(obj.method)`` bakes the instance's attributes in at trace time, so results go
  stale when they change, and ``@jax.jit`` on a method fails because ``self`` is not an array.
  :class:`MethodJit` passes the instance's arrays as traced arguments and its other attributes
  as a static key, on every call.
* Options appear, change and vanish across releases; :func:`make_jit` gives every row the
  same option set and a TypeError naming the release that adds a missing one.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import inspect
import operator
import pickle
import sys
import types
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

import jax

from ..._version import JAX_VERSION_STRING
from .aot import trace_by_closure
from .hashing import ATOMIC_TYPES, Tracer, _ByType, _instance_state, is_tracer

#: Every option ``jaxcompat.jit`` accepts, on every JAX release.
JIT_OPTIONS = (
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "compiler_options",
)

_NOT_FORWARDED = {
    "abstracted_axes": "it only works with the experimental jax_dynamic_shapes flag, and "
    "JAX 0.8.2 removed it",
    "fun": "pass the function positionally: jit(f, ...)",
}

PjitFunction: type = type(jax.jit(lambda x: x))


@dataclasses.dataclass(frozen=True)
class JitTraits:
    """What a backend's JAX release does, for the machinery below.

    Attributes:
        missing_options: options this release's ``jax.jit`` lacks, mapped to the first JAX
            release that has them and to the fix to suggest.
        hand_back_jax_jit: ``jax.jit``'s own object already meets the contract for plain
            functions (its AOT methods live on the type, so wrappers cannot copy them).
        native_trace: ``jax.jit(f).trace`` exists and returns ``jax.stages.Traced``.
        native_eval_shape: ``jax.jit(f).eval_shape`` exists.
        normalize_lowered: applied to every ``Lowered`` handed out.
        normalize_traced: applied to every native ``Traced`` handed out.
        translate_options: maps jaxcompat's option values to this release's ``jax.jit``.
    """

    missing_options: Mapping[str, tuple[str, str]]
    hand_back_jax_jit: bool
    native_trace: bool
    native_eval_shape: bool
    normalize_lowered: Callable[[Any], Any]
    normalize_traced: Callable[[Any], Any] = lambda traced: traced
    translate_options: Callable[[dict[str, Any]], dict[str, Any]] = lambda options: options


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, (tuple, list, dict, str)) and len(value) == 0)


def check_options(options: Mapping[str, Any], traits: JitTraits) -> dict[str, Any]:
    """Validate ``options`` and return the ones to forward to ``jax.jit``."""
    forwarded = {}
    for name, value in options.items():
        if name not in JIT_OPTIONS:
            why = _NOT_FORWARDED.get(name)
            hint = f" ({why})" if why else f". Valid options: {', '.join(JIT_OPTIONS)}"
            raise TypeError(f"jit() got an unexpected keyword argument {name!r}{hint}")
        if name in traits.missing_options:
            if _is_empty(value):  # the default: asking for nothing is not ignoring anything
                continue
            release, fix = traits.missing_options[name]
            raise TypeError(
                f"jit option {name!r} needs JAX {release} or newer, but JAX "
                f"{JAX_VERSION_STRING} is installed. Upgrade JAX, or {fix}."
            )
        if name in ("static_argnames", "donate_argnames") and value is not None:
            # JAX 0.4.31-0.4.35 match argument names by identity somewhere on the call path:
            # an equal but separate string (one read back by pickle, say) ends the call in
            # "RuntimeError: generator raised StopIteration". Interned names always match.
            value = _intern_names(value)
        forwarded[name] = value
    return traits.translate_options(forwarded)


def _intern_names(value: Any) -> Any:
    if isinstance(value, str):
        return sys.intern(value)
    return tuple(sys.intern(v) if isinstance(v, str) else v for v in value)


def _as_tuple(value: int | str | Iterable[Any] | None) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, (int, str)):
        return (value,)
    return tuple(value)


def defined_in_class_body(fun: Callable[..., Any]) -> bool:
    """True for a function written in a class body (``C.f`` or ``g.<locals>.C.f``)."""
    if not isinstance(fun, types.FunctionType):
        return False
    parts = fun.__qualname__.split(".")
    return len(parts) >= 2 and parts[-2] != "<locals>"


def _first_parameter(fun: Callable[..., Any]) -> str | None:
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return None
    if parameters and parameters[0].kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        return parameters[0].name
    return None


def resolve_argnums_argnames(
    fun: Callable[..., Any], argnums: Any, argnames: Any
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Complete positions from names and names from positions, as ``jax.jit`` does."""
    positions, keywords = _as_tuple(argnums), _as_tuple(argnames)
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return positions, keywords
    by_position = [
        p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    named = [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    extra_positions = tuple(i for i, name in enumerate(by_position) if name in keywords)
    extra_names = tuple(
        by_position[i] for i in positions if 0 <= i < len(by_position) and by_position[i] in named
    )
    positions = tuple(sorted(set(positions + extra_positions)))
    keywords = tuple(dict.fromkeys(keywords + extra_names))
    return positions, keywords


def _self_is_static(fun: Callable[..., Any], options: Mapping[str, Any]) -> bool:
    if 0 in _as_tuple(options.get("static_argnums")):
        return True
    first = _first_parameter(fun)
    return first is not None and first in _as_tuple(options.get("static_argnames"))


_AOT_METHODS = frozenset({"lower", "trace", "eval_shape", "specialize", "clear_cache"})


# --- Jitted: a jit object whose AOT methods live on its type --------------------------------


class Jitted(functools.partial):  # type: ignore[type-arg]
    """A function compiled by ``jaxcompat.jit``.

    Calling it calls JAX's own jitted function through ``functools.partial``'s C call path, so
    it adds no Python frame. ``lower``, ``trace`` and ``eval_shape`` are methods of this type,
    so ``functools.wraps`` never copies them onto a wrapper. In a class body it binds like a
    method, reading the instance's state on every call (see ``jaxcompat.jit``).
    """

    __slots__ = ("_jc_binds", "_jc_fun", "_jc_method", "_jc_options", "_jc_traits")

    _jc_fun: Callable[..., Any]
    _jc_options: dict[str, Any]
    _jc_traits: JitTraits
    _jc_binds: bool
    _jc_method: MethodJit | None

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
        self._jc_binds = defined_in_class_body(fun) and not _self_is_static(fun, options)
        self._jc_method = None
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
        if not self._jc_binds:  # like jax.jit: the instance becomes the first argument
            return WithInstance(self, instance)
        method = self._jc_method
        if method is None:
            method = self._jc_method = MethodJit(self._jc_fun, self._jc_options, self._jc_traits)
        return BoundJitted(method, instance)

    func: Any  # JAX's jitted function

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
        if self._jc_method is not None:
            self._jc_method.clear_cache()

    def __getattr__(self, name: str) -> Any:
        # Anything else JAX's jitted functions offer is passed through.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.func, name)

    def __repr__(self) -> str:
        return f"<jaxcompat.jit of {self._jc_fun!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_jit, (self._jc_fun, self._jc_options))


def _rebuild_jit(fun: Callable[..., Any], options: dict[str, Any]) -> Any:
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


# --- Methods: the instance's state, split into traced arrays and a static key --------------

_DYNAMIC, _STATIC, _TREE, _BY_IDENTITY = "dynamic", "static", "tree", "by-identity"


def _is_array_type(cls: type) -> bool:
    import numpy as np

    return issubclass(cls, (jax.Array, Tracer, np.ndarray))


_IS_ARRAY = _ByType(_is_array_type)


class _ByIdentity:
    """A static-key entry for a value that cannot be hashed: equal only to itself."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByIdentity) and other.value is self.value


class _Tree:
    """A static-key entry for a container holding arrays and other values."""

    __slots__ = ("_hash", "positions", "statics", "treedef")

    def __init__(self, treedef: Any, positions: tuple[int, ...], statics: tuple[Any, ...]) -> None:
        self.treedef = treedef
        self.positions = positions
        self.statics = statics
        self._hash = hash((treedef, positions, statics))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Tree)
            and self.treedef == other.treedef
            and self.positions == other.positions
            and self.statics == other.statics
        )


def _static_entry(value: Any) -> Any:
    try:
        hash(value)
    except Exception:  # unhashable (a list, a dict keyed by types, ...): by identity
        return _ByIdentity(value)
    return value


def _split_value(value: Any) -> tuple[Any, Any]:
    """Split one attribute into (traced part or None, static entry)."""
    try:
        leaves, treedef = jax.tree_util.tree_flatten(value)
    except Exception:  # does not flatten cleanly, e.g. a dict keyed by types
        return None, _static_entry(value)
    arrays = [i for i, leaf in enumerate(leaves) if _IS_ARRAY[type(leaf)]]
    if not arrays:
        return None, _static_entry(value)
    if len(arrays) == len(leaves):
        return value, None  # all arrays: JAX keys its cache on the structure itself
    statics = tuple(
        _static_entry(leaf) for i, leaf in enumerate(leaves) if not _IS_ARRAY[type(leaf)]
    )
    return tuple(leaves[i] for i in arrays), _Tree(treedef, tuple(arrays), statics)


def _join_value(traced: Any, entry: Any) -> Any:
    if isinstance(entry, _Tree):
        leaves: list[Any] = []
        arrays = iter(traced)
        statics = iter(entry.statics)
        positions = set(entry.positions)
        for i in range(entry.treedef.num_leaves):
            if i in positions:
                leaves.append(next(arrays))
            else:
                static = next(statics)
                leaves.append(static.value if isinstance(static, _ByIdentity) else static)
        return jax.tree_util.tree_unflatten(entry.treedef, leaves)
    if entry is None:
        return traced
    return entry.value if isinstance(entry, _ByIdentity) else entry


def _picker(indices: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    if not indices:
        return lambda values: ()
    if len(indices) == 1:
        index = indices[0]
        return lambda values: (values[index],)
    return operator.itemgetter(*indices)


class _Layout:
    """How one (class, attribute names, attribute types) combination is split; cached.

    Hashes by identity, so it costs nothing in the static key.
    """

    __slots__ = (
        "cls",
        "dynamic",
        "has_trees",
        "kinds",
        "names",
        "pick_dynamic",
        "pick_static",
        "static",
        "trees",
        "types",
    )

    def __init__(self, cls: type, names: tuple[str, ...], types_: tuple[type, ...]) -> None:
        self.cls = cls
        self.names = names
        self.types = types_
        self.kinds = tuple(
            _DYNAMIC if _IS_ARRAY[t] else _STATIC if t in ATOMIC_TYPES else _TREE for t in types_
        )
        self.dynamic = [i for i, kind in enumerate(self.kinds) if kind == _DYNAMIC]
        self.static = [i for i, kind in enumerate(self.kinds) if kind == _STATIC]
        self.trees = [i for i, kind in enumerate(self.kinds) if kind == _TREE]
        self.has_trees = bool(self.trees)
        self.pick_dynamic = _picker(self.dynamic)
        self.pick_static = _picker(self.static)


_LAYOUTS: dict[tuple[Any, ...], _Layout] = {}
_PYTREE_SELF = object()  # static key of an instance that is a registered pytree


def _registered_pytree(instance: Any) -> bool:
    leaves, _ = jax.tree_util.tree_flatten(instance)
    return not (len(leaves) == 1 and leaves[0] is instance)


_BY_DICT, _BY_PYTREE, _BY_STATE = 0, 1, 2
_PLANS: dict[type, int] = {}  # per class: how to read an instance's state
_LAST_LAYOUT: dict[type, _Layout] = {}  # per class: the layout seen last, checked first
_LAST_SPLIT: dict[type, tuple[tuple[str, ...], tuple[Any, ...], tuple[Any, Any]]] = {}


def _plan(instance: Any) -> int:
    cls = type(instance)
    if _registered_pytree(instance):
        return _BY_PYTREE
    if type(getattr(instance, "__dict__", None)) is dict and not any(
        "__slots__" in vars(klass) for klass in cls.__mro__[:-1]
    ):
        return _BY_DICT
    return _BY_STATE


def split_instance(instance: Any) -> tuple[Any, Any]:
    """Return (traced part, static key) for ``instance``'s current state."""
    cls = type(instance)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(instance)
    if plan == _BY_PYTREE:
        return instance, _PYTREE_SELF
    state = instance.__dict__ if plan == _BY_DICT else (_instance_state(instance) or {})
    values = tuple(state.values())
    names = tuple(state)
    last = _LAST_SPLIT.get(cls)
    # The same attribute objects as last time: the same split, and the very same static key,
    # which JAX then matches by identity. (Not for layouts with containers, which can change
    # in place.)
    if (
        last is not None
        and last[0] == names
        and len(last[1]) == len(values)
        and all(map(operator.is_, last[1], values))
    ):
        return last[2]
    types_ = tuple(map(type, values))
    layout = _LAST_LAYOUT.get(cls)
    # Comparing to the last layout is cheaper than hashing (names, types) on every call.
    if layout is None or layout.names != names or layout.types != types_:
        key = (cls, names, types_)
        layout = _LAYOUTS.get(key)
        if layout is None:
            layout = _LAYOUTS[key] = _Layout(cls, names, types_)
        _LAST_LAYOUT[cls] = layout
    dynamic = layout.pick_dynamic(values)
    static = (layout, *layout.pick_static(values))
    if not layout.has_trees:
        # Kept only where the whole state is the instance __dict__: BoundJitted.__call__
        # reuses this split after comparing the __dict__ alone, which misses slot attributes.
        if plan == _BY_DICT:
            _LAST_SPLIT[cls] = (names, values, (dynamic, static))
        return dynamic, static
    # Containers and objects: decided per call, since their contents can change.
    trees = []
    for i in layout.trees:
        traced, entry = _split_value(values[i])
        trees.append(traced)
        static += (entry,)
    return (dynamic, tuple(trees)), static


def _rebuild_state(
    layout: _Layout, dynamic: Any, static: tuple[Any, ...], live: dict[str, Any] | None
) -> dict[str, Any]:
    """The instance state to trace with: traced arrays, and the other attributes.

    Non-array attributes come from the live instance when there is one: the static key says
    which compiled code to use, and after a method's own side effects (a counter) it may be
    an older key that the current state was aliased to.
    """
    has_trees = len(layout.dynamic) + len(layout.static) != len(layout.names)
    arrays, trees = dynamic if has_trees else (dynamic, ())
    live = live or {}
    state: dict[str, Any] = {}
    for i, value in zip(layout.static, static[1:], strict=False):  # then tree entries
        name = layout.names[i]
        state[name] = live.get(name, value)
    for i, value in zip(layout.dynamic, arrays, strict=True):
        state[layout.names[i]] = value
    entries = static[1 + len(layout.static) :]
    tree_indices = [i for i, kind in enumerate(layout.kinds) if kind == _TREE]
    for i, traced, entry in zip(tree_indices, trees, entries, strict=True):
        name = layout.names[i]
        if traced is None and name in live:
            state[name] = live[name]
        else:
            state[name] = _join_value(traced, entry)
    return {name: state[name] for name in layout.names}


def _new_like(instance_cls: type, state: dict[str, Any]) -> Any:
    try:
        shadow = instance_cls.__new__(instance_cls)  # type: ignore[call-overload]
    except TypeError:  # a __new__ that needs arguments
        shadow = object.__new__(instance_cls)
    for name, value in state.items():
        object.__setattr__(shadow, name, value)
    return shadow


def _holds_tracer(value: Any) -> bool:
    if is_tracer(value):
        return True
    try:
        return any(is_tracer(leaf) for leaf in jax.tree_util.tree_leaves(value))
    except Exception:
        return False


def _write_back(shadow: Any, before: dict[str, Any], target: Any) -> bool:
    """Copy attributes set while tracing onto the real instance; True if any were."""
    # Side effects of tracing land on the real instance, as under jax.jit(obj.method).
    # Values holding tracers stay behind: on the instance they would be leaked tracers.
    after = _instance_state(shadow) or {}
    wrote = False
    for name, value in after.items():
        if (name not in before or before[name] is not value) and not _holds_tracer(value):
            object.__setattr__(target, name, value)
            wrote = True
    return wrote


def _calling_instance(method: MethodJit) -> Any:
    """The instance whose call of ``method`` is being traced, or None.

    Found on the calling thread's own stack, in the frame of the call that started the trace
    (``BoundJitted.__call__`` or ``MethodJit.stage``, which both name it ``instance``). This
    costs nothing on calls that hit JAX's cache; only a trace looks.
    """
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_code in _STARTS_A_TRACE:
            local = frame.f_locals
            if local.get("method") is method:
                return local.get("instance")
        frame = frame.f_back
    return None


class MethodJit:
    """The compiled form of a method, shared by every instance of its class.

    The jitted core takes ``(self_traced, self_static, *args, **kwargs)``: the instance's
    arrays are traced arguments, and everything else about it is one static argument.
    """

    def __init__(self, fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits) -> None:
        self.fun = fun
        self.options = options
        self.traits = traits
        # Static keys that an instance reaches by its own tracing side effects (a counter, a
        # cache), mapped to the key it was traced with, so that writing to self while being
        # traced does not force a retrace on the next call.
        self.aliases: dict[Any, Any] = {}
        core_options = dict(options)
        for nums, names in (
            ("static_argnums", "static_argnames"),
            ("donate_argnums", "donate_argnames"),
        ):
            if nums not in options and names not in options:
                continue
            positions, keywords = resolve_argnums_argnames(
                fun, options.get(nums), options.get(names)
            )
            # The core's first two slots replace self: self's arrays, then its static key.
            core_options[nums] = tuple(0 if i == 0 else i + 1 for i in positions)
            if names in options or keywords:
                core_options[names] = keywords
        core_options["static_argnums"] = (1, *_as_tuple(core_options.get("static_argnums")))
        if not core_options.get("donate_argnames"):
            core_options.pop("donate_argnames", None)  # may be missing on this release
        self.core = make_plain_jit(self._make_core(), core_options, traits)

    def _make_core(self) -> Callable[..., Any]:
        fun = self.fun

        def core(self_traced: Any, self_static: Any, /, *args: Any, **kwargs: Any) -> Any:
            target = _calling_instance(self)
            if self_static is _PYTREE_SELF:
                shadow = self_traced
            else:
                layout = self_static[0]
                live = _instance_state(target) if target is not None else None
                state = _rebuild_state(layout, self_traced, self_static, live)
                shadow = _new_like(layout.cls, state)
            before = dict(_instance_state(shadow) or {})
            out = fun(shadow, *args, **kwargs)
            if target is not None and _write_back(shadow, before, target):
                after = split_instance(target)[1]
                if after != self_static:
                    self.aliases[after] = self_static
            return out

        # JAX maps static/donate names to positions through the signature, so give the core
        # the method's parameters after two leading slots that replace ``self``.
        try:
            parameters = list(inspect.signature(fun).parameters.values())[1:]
            slots = [
                inspect.Parameter(name, inspect.Parameter.POSITIONAL_ONLY)
                for name in ("_jaxcompat_self_traced", "_jaxcompat_self_static")
            ]
            core.__signature__ = inspect.Signature(slots + parameters)  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            pass
        core.__name__ = getattr(fun, "__name__", "method")
        core.__qualname__ = getattr(fun, "__qualname__", core.__name__)
        core.__module__ = getattr(fun, "__module__", None)  # type: ignore[assignment]
        return core

    def split(self, instance: Any) -> tuple[Any, Any]:
        traced, static = split_instance(instance)
        if self.aliases:
            static = self.aliases.get(static, static)
        return traced, static

    def stage(self, instance: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        method = self  # the core finds this frame by its locals ``method`` and ``instance``
        traced, static = method.split(instance)
        return getattr(method.core, name)(traced, static, *args, **kwargs), static

    def clear_cache(self) -> None:
        self.core.clear_cache()


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


class BoundJitted:
    """A jitted method bound to an instance; reads the instance's state on every call."""

    __slots__ = ("__self__", "_method")

    def __init__(self, method: MethodJit, instance: Any) -> None:
        self._method = method
        self.__self__ = instance

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # MethodJit.split and .stage, inlined: this is the hot path of every method call. The
        # core finds this frame by its locals ``method`` and ``instance`` if it traces.
        method = self._method
        instance = self.__self__
        # split_instance's first check, inlined: the very attribute objects of last time.
        try:
            state = instance.__dict__
            names, values, split = _LAST_SPLIT[type(instance)]
        except (AttributeError, KeyError):  # no instance dict (slots), or a first call
            traced, static = split_instance(instance)
        else:
            if names == tuple(state) and all(map(operator.is_, values, state.values())):
                traced, static = split
            else:
                traced, static = split_instance(instance)
        if method.aliases:
            static = method.aliases.get(static, static)
        if kwargs:
            return method.core(traced, static, *args, **kwargs)
        return method.core(traced, static, *args)

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
        lowered, static = self._method.stage(self.__self__, "lower", args, kwargs)
        return BoundLowered(lowered, self._method, self.__self__, static)

    def trace(self, *args: Any, **kwargs: Any) -> BoundTraced:
        traced, static = self._method.stage(self.__self__, "trace", args, kwargs)
        return BoundTraced(traced, self._method, self.__self__, static)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        return self._method.stage(self.__self__, "eval_shape", args, kwargs)[0]

    def clear_cache(self) -> None:
        self._method.clear_cache()

    def __repr__(self) -> str:
        return f"<jaxcompat.jit of bound method {self.__qualname__} of {self.__self__!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_jit, (self.__wrapped__, _unbound_options(self._method.options)))


_STARTS_A_TRACE = frozenset({BoundJitted.__call__.__code__, MethodJit.stage.__code__})


def _unbound_options(options: dict[str, Any]) -> dict[str, Any]:
    # Options of a method are kept relative to the function (self at 0); a bound method's
    # options count from its first argument.
    shifted = dict(options)
    for name in ("static_argnums", "donate_argnums"):
        if name in shifted:
            shifted[name] = tuple(i - 1 for i in _as_tuple(shifted[name]) if i != 0)
    return shifted


class _BoundStage:
    __slots__ = ("_instance", "_method", "_stage", "_static")

    def __init__(self, stage: Any, method: MethodJit, instance: Any, static: Any) -> None:
        self._stage = stage
        self._method = method
        self._instance = instance
        self._static = static

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stage, name)


class BoundTraced(_BoundStage):
    """``trace`` of a jitted method: JAX's ``Traced`` whose ``lower()`` stays bound."""

    __slots__ = ()

    def lower(self, *args: Any, **kwargs: Any) -> BoundLowered:
        lowered = self._stage.lower(*args, **kwargs)
        return BoundLowered(lowered, self._method, self._instance, self._static)


class BoundLowered(_BoundStage):
    """``lower`` of a jitted method: JAX's ``Lowered`` whose ``compile()`` stays bound."""

    __slots__ = ()

    def compile(self, *args: Any, **kwargs: Any) -> BoundCompiled:
        compiled = self._stage.compile(*args, **kwargs)
        return BoundCompiled(compiled, self._method, self._instance, self._static)


class BoundCompiled(_BoundStage):
    """A compiled method: called with the method's arguments, it reads the instance's arrays.

    Its static attributes are fixed at lowering; calling it after one changed raises.
    """

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        traced, static = self._method.split(self._instance)
        if static != self._static:
            raise ValueError(
                f"the non-array attributes of {self._instance!r} changed after this method was "
                "lowered, so the compiled code no longer matches it; lower it again"
            )
        return self._stage(traced, *args, **kwargs)


# --- The public entry points -------------------------------------------------------------


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
    return (_rebuild_jit, recipe)


def make_plain_jit(fun: Callable[..., Any], options: dict[str, Any], traits: JitTraits) -> Any:
    """jit a function (not a bound method) with already-checked ``options``."""
    jitted = jax.jit(fun, **options)
    if traits.hand_back_jax_jit and not defined_in_class_body(fun):
        # JAX's own object already behaves as required: zero overhead.
        if PjitFunction not in copyreg.dispatch_table:
            copyreg.pickle(PjitFunction, _reduce_jax_jitted)
        _HANDED_BACK[jitted] = (fun, options)
        return jitted
    return Jitted(jitted, fun, options, traits)


def make_jit(
    traits: JitTraits,
) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """Build this backend's ``jit``, ``lower`` and ``trace``."""

    def jit(fun: Callable[..., Any] | None = None, /, **options: Any) -> Any:
        forwarded = check_options(options, traits)
        if fun is None:
            return functools.partial(jit, **options)
        if not callable(fun):
            jax.jit(fun)  # type: ignore[unreachable]  # raises JAX's own TypeError
            raise TypeError(f"Expected a callable value, got {fun!r}")
        if isinstance(fun, BoundJitted) and not forwarded:
            return fun
        if isinstance(fun, BoundJitted):
            fun = fun.__wrapped__
        if isinstance(fun, types.MethodType) and not isinstance(fun.__func__, Jitted):
            method_options = dict(forwarded)
            for name in ("static_argnums", "donate_argnums"):
                if name in method_options:
                    method_options[name] = tuple(i + 1 for i in _as_tuple(method_options[name]))
            return BoundJitted(
                shared_method_jit(fun.__func__, method_options, traits), fun.__self__
            )
        return make_plain_jit(fun, forwarded, traits)

    def stage_target(fun: Any) -> Any:
        if isinstance(fun, (Jitted, BoundJitted, WithInstance)):
            return fun
        if isinstance(fun, PjitFunction):
            wrapped = cast("Callable[..., Any]", getattr(fun, "__wrapped__", fun))
            return Jitted(cast("Callable[..., Any]", fun), wrapped, {}, traits)
        # Anything else, wrappers of jitted functions included, is jitted as a whole, so every
        # wrapper layer runs. A lower/trace attribute found on it is never trusted.
        target = jit(fun)
        if isinstance(target, (Jitted, BoundJitted)):
            return target
        return Jitted(target, fun, {}, traits)

    def lower(fun: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        return stage_target(fun).lower(*args, **kwargs)

    def trace(fun: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        return stage_target(fun).trace(*args, **kwargs)

    return jit, lower, trace
