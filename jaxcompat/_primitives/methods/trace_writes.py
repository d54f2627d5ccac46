"""Which instances a jitted method wrote to while it was traced, and the keys that follow.

``jax.jit(obj.method)`` traces the method once per bound instance (JAX caches on the bound
method, which compares by its ``__self__``), so whatever the trace writes to ``self`` (a
tracer saved for later, a counter, a cache entry) lands on every instance it is called on,
and once on each. A jaxcompat method shares its compiled code between instances with equal
state, which would skip those writes on every instance after the first. So a trace that
wrote to ``self`` marks its static key as written: another instance that reaches that key
gets a key of its own (:class:`PerInstanceKey`), and so a trace of its own, where the write
lands; the instance that wrote, and every later call on it, keep the shared key. A method
that never writes while tracing never reaches this module: equal state shares compiled code.

What counts as a write is decided in ``method_jit``: an attribute set or deleted on
``self`` itself, or any change the trace made to the state the method reads at any depth
(``self.cfg.count += 1``, ``self.log.append(...)``), which would land on one instance alone.

A write also changes the instance's state, and so its key, though JAX would not retrace
the bound method for it: the instance's new key is an alias of the key it was traced with
(:attr:`Writer.aliases`). Aliases are per instance, since the state they name was reached by
that instance's own trace; another instance arriving at equal state by itself is traced.
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple

from .instance_state import StateSplitter, root_kind
from .state_walk import OBJECT, read_state

#: How many instances, and aliases per instance, one method remembers before it starts
#: afresh (then an instance it forgot is traced once more, as after ``clear_cache``).
MAX_WRITERS = 4096
MAX_ALIASES = 256


class Writer:
    """One instance seen by a method that writes while tracing: compared by identity, it
    stands for the instance in static keys without keeping it alive where it can be weakly
    referenced."""

    __slots__ = ("aliases", "instance")

    def __init__(self, instance: Any, forget: Any) -> None:
        try:
            self.instance: Any = weakref.ref(instance, forget)
        except TypeError:  # no weak references (__slots__ without __weakref__): held
            self.instance = _Held(instance)
        # State keys this instance reached by its own tracing, to the key it was traced with.
        self.aliases: dict[Any, Any] = {}


class _Held:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self) -> Any:
        return self.value


class PerInstanceKey(NamedTuple):
    """A written key, reached by another instance: its own trace, so the write lands there."""

    key: Any
    writer: Writer


class TraceWrites:
    """Per method: the keys whose trace wrote to ``self``, and the instances seen since."""

    def __init__(self) -> None:
        # A traced key whose trace wrote to self, to the instance that was traced with it:
        # one per trace that wrote, as JAX keeps one compiled function per trace.
        self.written: dict[Any, Writer] = {}
        self._writers: dict[int, Writer] = {}

    def known_writer(self, instance: Any) -> Writer | None:
        writer = self._writers.get(id(instance))
        if writer is not None and writer.instance() is instance:
            return writer
        return None

    def writer_of(self, instance: Any) -> Writer:
        writer = self.known_writer(instance)
        if writer is not None:
            return writer
        if len(self._writers) >= MAX_WRITERS:
            self._writers.clear()
        ident = id(instance)
        writer = Writer(instance, lambda _ref: self._forget(ident, writer))
        self._writers[ident] = writer
        return writer

    def _forget(self, ident: int, writer: Writer | None) -> None:
        if writer is not None and self._writers.get(ident) is writer:
            del self._writers[ident]
            writer.aliases.clear()

    def key_for(self, instance: Any, key: Any) -> Any:
        """The key ``instance`` is called with, given the key of its state."""
        writer = self.known_writer(instance)
        if writer is not None and writer.aliases:
            key = writer.aliases.get(key, key)
        owner = self.written.get(key)
        if owner is None or owner is writer:
            return key
        return PerInstanceKey(key, writer or self.writer_of(instance))

    def record(self, instance: Any, traced_key: Any, key_now: Any) -> None:
        """``instance``'s trace under ``traced_key`` wrote to it, leaving it at ``key_now``."""
        writer = self.writer_of(instance)
        self.written[traced_key] = writer
        if key_now is not None and key_now != _state_key(traced_key):
            if len(writer.aliases) >= MAX_ALIASES:
                writer.aliases.clear()
            writer.aliases[key_now] = traced_key

    def clear(self) -> None:
        self.written.clear()
        self._writers.clear()


def _state_key(key: Any) -> Any:
    return key.key if type(key) is PerInstanceKey else key


def attributes_of(instance: Any) -> dict[str, Any] | None:
    """The attributes of ``self`` before a trace, to tell what the trace set or deleted
    (None where ``self`` is walked as a value or is a class: its key tells)."""
    if root_kind(instance) is OBJECT:
        return dict(read_state(instance))
    return None


def attributes_changed(before: dict[str, Any], instance: Any) -> bool:
    """Whether an attribute of ``instance`` was set, replaced or deleted since ``before``."""
    after = read_state(instance)
    return after.keys() != before.keys() or any(after[k] is not v for k, v in before.items())


def state_key(splitter: StateSplitter, instance: Any) -> Any:
    """The static key of ``instance``'s state; None where it cannot be compared (the next call
    raises it)."""
    try:
        return splitter.split(instance)[1]
    except (TypeError, ValueError):
        return None
