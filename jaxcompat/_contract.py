"""The backend contract: the names every backend provides, with their public documentation.

Each ``jaxcompat/_backends/jax_*.py`` defines every name in :data:`BACKEND_NAMES`. The
docstrings here are the public ones: :func:`document` attaches them to jaxcompat's own
functions, so signatures and documentation live in one place whichever backend is selected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, overload

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class Jit(Protocol):
    """The type of ``jaxcompat.jit``: a function, a decorator, or a decorator factory."""

    @overload
    def __call__(self, fun: F, /, **options: Any) -> F: ...

    @overload
    def __call__(self, fun: None = None, /, **options: Any) -> Callable[[F], F]: ...


def is_tracer(x: object) -> bool:
    """Return True exactly when ``x`` is a JAX tracer.

    Works on every supported JAX release, inside ``jit``, ``grad``, ``vmap`` and
    ``make_jaxpr``, and emits no deprecation warning. Concrete arrays, numpy arrays, Python
    scalars and ``jax.ShapeDtypeStruct`` are not tracers.
    """
    raise NotImplementedError


def tracer_safe_hash(obj: Any) -> int:
    """Hash ``obj``, never raising and never warning, even when it holds tracers.

    * A hashable object that holds no tracer hashes exactly as ``hash(obj)``.
    * Tracers and concrete jax Arrays hash by identity: the same tracer always gives the
      same hash.
    * Containers (tuples, lists, dicts, sets), dataclasses, registered pytrees and plain
      objects that hold tracers, or cannot be hashed, hash by structure: equal contents
      give equal hashes. Self-referential containers are handled.
    * An object whose own ``__hash__`` hashes a tracer is hashed without warning.

    Thread-safe; it does not touch the process-wide warning filters. JAX made hashing a
    tracer silent up to 0.4.29, a FutureWarning in 0.4.30-0.4.35 and a TypeError from 0.4.36.
    """
    raise NotImplementedError


def block_if_array(tree: T) -> T:
    """Wait until every concrete jax Array in the pytree ``tree`` is ready; return ``tree``.

    Leaves everything else alone: Python scalars, numpy arrays, None, strings, other objects
    and tracers (so it can be called inside ``jit``, ``grad`` and ``vmap``). Deleted and
    donated arrays are skipped, since there is nothing to wait for. An error raised by the
    computation itself propagates. ``tree`` is returned as the same object. Self-referential
    and very deep pytrees are handled: each node is visited once, and JAX's own flatten,
    which crashes on a cycle, never sees one.
    """
    raise NotImplementedError


def jit(fun: Callable[..., Any] | None = None, /, **options: Any) -> Any:
    """Compile ``fun`` with XLA: a drop-in replacement for ``jax.jit`` on every JAX release.

    Call forms: ``jit(f, ...)``, ``@jit``, ``functools.partial(jit, ...)`` and the decorator
    factory ``@jit(static_argnames=...)`` (which ``jax.jit`` only accepts from 0.8.1).

    Options: ``static_argnums``, ``static_argnames``, ``donate_argnums``, ``donate_argnames``,
    ``in_shardings``, ``out_shardings``, ``keep_unused``, ``inline``, ``compiler_options``,
    and ``device``/``backend`` wherever JAX still accepts them (JAX warns that they are
    deprecated). ``inline`` means what the installed ``jax.jit`` makes it mean (from JAX
    0.11.2 ``inline=True`` is ``jax.Inline.JAX_LATE``, as in the newest JAX). An option the
    installed JAX lacks raises TypeError naming the release that adds it; an unknown option
    raises TypeError naming it. Nothing is silently ignored.

    For a function, the result is ``jax.jit``'s own object from JAX 0.6.0; before it, a
    wrapper of JAX's jitted function that calls it through ``functools.partial``'s C path.
    Either way it keeps ``__wrapped__``, ``__name__``, ``__doc__`` and the signature of
    ``fun``, has ``lower``, ``trace``, ``eval_shape`` and ``clear_cache`` methods, shows JAX's
    repr and pickles as ``jax.jit(fun)`` does. Those methods are never copied onto a
    ``functools.wraps`` wrapper; use :func:`lower` and :func:`trace` to stage a wrapped
    function. On JAX 0.4.13 only, whose flatten segfaults on one, an argument that contains
    itself (or nests past the recursion limit) is refused first with a clear error;
    elsewhere it reaches JAX, as under ``jax.jit``.
    ``inspect.signature(jit)`` shows the newest ``jax.jit``'s options on every release.
    Where a test double has replaced ``jax.jit`` on JAX's module (``mock.patch("jax.jit",
    ...)``, chex's ``OnCallOfTransformedFunction``), the jit of a plain function is what the
    double returns, as in code that calls ``jax.jit``.

    Methods: ``@jit`` on a method, ``jit(obj.method)``, ``Class.method(obj, ...)``,
    ``super().method(...)``, classmethods and staticmethods (``@jit`` above or below the
    ``@classmethod``/``@staticmethod``, and ``jit(C.make)``), and properties returning
    ``jit(self.f)`` all read the instance's current state on every call, so results never go
    stale. What makes a method is how Python binds it, never its name: ``@jit`` in a class
    body gives an object that is a method when looked up on an instance or its class, and
    the plain jitted function, exactly as ``jax.jit`` gives it, when called directly.

    * The state is what the method can read: every attribute it names through ``self``
      (``self.cfg``, ``getattr(self, "cfg")``, ``super().f``), in its own code and in the
      methods, properties and ``__getattr__`` it reaches through ``self``, with everything
      reachable from those: recursively, the items of lists, tuples, dicts and sets, the
      attributes of plain objects and dataclasses, and the children of registered pytrees.
      Attributes it never names (a logger, an open file, a large index) are not compared and
      cost nothing. An attribute it reads only through a chain of attribute loads and
      constant subscripts (``self.cfg.optimizer.rate``, ``self.params["dense"][0]``) counts
      along that chain alone, followed through plain objects, dicts and lists on every call:
      the rest of ``self.cfg`` costs nothing, and rebinding anything on the chain is seen. The
      chain stops, and the object there counts whole, where reading on would run code (a
      property, a method, ``__getattr__``, ``__getattribute__``, a dict subclass's
      ``__getitem__``) or meet something other than a plain object, a dict or a list.
      ``getattr(self, f"layer{i}")`` reads every attribute whose name starts with ``layer``.
      Where the method uses ``self`` in any other way (hands it to a function,
      ``vars(self)``, ``getattr`` with a name computed otherwise), where its source cannot be
      read, or where what it reads leads back to ``self``, every attribute counts.
    * Arrays (jax, numpy, tracers) anywhere in it are traced arguments: new values of the same
      shape and dtype reuse the compiled code.
    * Everything else is compared by type and value (``==``) on every call: a change at any
      depth, by rebinding or in place (a list appended to, a dict item set), retraces. Equal
      state reuses the compiled code, across instances too.
    * Functions, classes, modules, loggers and objects without attributes (a lock) compare
      by identity; other objects with their own ``__hash__`` (enums, numpy scalars) by their
      own ``==``. Dataclasses are always compared field by field.
    * Cycles and shared objects are followed once. State nested more than 200 levels deep,
      or a tuple or pytree that holds itself and arrays, raises ValueError naming its path.
    * State with no value to compare (an iterator, a generator, an open file, an object whose
      ``__eq__`` or ``__hash__`` raises) is kept by identity. A method that never reads it
      runs as under ``jax.jit``; one that reads it while tracing (any attribute, call,
      iteration, truth test, ``==`` or ``repr``) raises TypeError naming its path, such as
      ``self.cfg.loader``, since a compiled call could not see it change: pass it as an
      argument, or make ``self`` static. (A classmethod's class attributes are not copied
      while tracing, so there such state is refused on every call.)
    * A classmethod's state is its class's data attributes; arrays there are constants,
      compared by identity. An instance that is a registered pytree is walked as that pytree.
    * While tracing, the method runs on copies of the objects that lead to arrays, holding
      tracers; everything it assigns, tracers included, is then set on the real objects, as
      under ``jax.jit``. A tracer left there has escaped: using it, or calling the method
      again, raises JAX's ``UnexpectedTracerError``. A method whose trace wrote to ``self``
      (set or deleted an attribute, or changed anything it reads at any depth: a cache entry,
      a list appended to, ``self.cfg.count += 1``) is traced once for each instance, as
      ``jax.jit(obj.method)`` is, so the write lands on every instance; what it wrote does
      not force a retrace of that instance. A method that writes nothing while tracing shares
      its compiled code across instances with equal state.

    ``static_argnums``/``donate_argnums`` count from the first argument after ``self`` for
    ``jit(obj.method)``, and from ``self`` (position 0) for ``@jit`` in a class body, where
    ``static_argnums=0`` makes ``self`` static exactly as in ``jax.jit`` (hashed and compared
    with its own ``__hash__`` and ``__eq__``). On every release, positions past the last
    parameter, names that are not parameters, and arguments both static and donated raise
    the ValueError of the newest ``jax.jit`` when ``jit`` is called.
    """
    raise NotImplementedError


def lower(fun: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Lower ``fun(*args, **kwargs)`` ahead of time, honouring every wrapper around it.

    ``fun`` may be a ``jaxcompat.jit`` or ``jax.jit`` object (lowered with its own options), a
    bound jitted method, or any other callable, including a ``functools.wraps`` wrapper around
    a jitted function: that is jitted as a whole with default options, so every wrapper runs.
    ``lower(f, *args).compile()(*args) == f(*args)``, with static arguments left out of the
    compiled call as JAX does. ``Lowered.as_text()``, ``Lowered.compile()``, ``Compiled``
    calls, ``Compiled.as_text()`` and ``Compiled.cost_analysis()`` (a dict) work on every row.
    """
    raise NotImplementedError


def trace(fun: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Trace ``fun(*args, **kwargs)``, following the same rules as :func:`lower`.

    Returns an object with ``.jaxpr`` (the closed jaxpr of the function body), ``.out_info``
    (a pytree of shape/dtype structs) and ``.lower()``, also on JAX releases older than
    0.4.29, whose jit has no ``trace``.
    """
    raise NotImplementedError


def while_loop(
    cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any], init_val: Any
) -> Any:
    """``jax.lax.while_loop`` that accepts callables whose ``__hash__`` touches a tracer."""
    raise NotImplementedError


def fori_loop(
    lower: Any,
    upper: Any,
    body_fun: Callable[[Any, Any], Any],
    init_val: Any,
    *,
    unroll: int | bool | None = None,
) -> Any:
    """``jax.lax.fori_loop`` that accepts callables whose ``__hash__`` touches a tracer.

    ``unroll=`` (JAX 0.4.22) works on every release: with bounds known at trace time, the loop
    is a scan unrolled as asked; otherwise only no unrolling may be asked for, as in JAX.
    """
    raise NotImplementedError


def scan(
    f: Callable[[Any, Any], Any],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
) -> Any:
    """``jax.lax.scan`` that accepts callables whose ``__hash__`` touches a tracer.

    ``xs`` may be left out on every release (JAX 0.4.27 made it optional); ``unroll=True``
    unrolls the whole loop on every release. ``_split_transpose`` (JAX 0.4.26, a private
    memory option that does not change results) is passed on where JAX has it.
    """
    raise NotImplementedError


def cond(pred: Any, true_fun: Any, false_fun: Any, *operands: Any, operand: Any = ...) -> Any:
    """``jax.lax.cond`` that accepts callables whose ``__hash__`` touches a tracer."""
    raise NotImplementedError


def switch(
    index: Any, branches: Sequence[Callable[..., Any]], *operands: Any, operand: Any = ...
) -> Any:
    """``jax.lax.switch`` that accepts callables whose ``__hash__`` touches a tracer."""
    raise NotImplementedError


#: The names each backend defines, each documented by the function of that name above.
BACKEND_NAMES = (
    "is_tracer",
    "tracer_safe_hash",
    "block_if_array",
    "jit",
    "lower",
    "trace",
    "while_loop",
    "fori_loop",
    "scan",
    "cond",
    "switch",
)

CONTROL_FLOW_NAMES = ("while_loop", "fori_loop", "scan", "cond", "switch")


def document(name: str, implementation: Any) -> Any:
    """Give jaxcompat's own implementation of ``name`` its public docstring."""
    module = getattr(implementation, "__module__", "") or ""
    if module.startswith("jaxcompat.") and isinstance(implementation, type(document)):
        implementation.__doc__ = globals()[name].__doc__
        implementation.__qualname__ = name
    return implementation
