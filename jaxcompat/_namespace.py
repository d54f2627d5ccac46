"""Expose: jaxcompat's modules that mirror JAX's, resolved lazily on first access (PEP 562).

``jaxcompat.numpy.clip`` is looked up once, when first used, in this order:

1. jaxcompat's own names (``jaxcompat.jit``, the loop-safe ``jaxcompat.lax.scan``, ...) are
   ordinary module globals and never reach this module;
2. a name of the stable-name table (``jaxcompat/_stable_names/``) resolves to the first of
   its sources that the installed JAX has, and raises an AttributeError that names the first
   JAX release with it where there is none;
   (2 and 4) a function whose newest signature has a keyword that the installed release's
   function lacks is wrapped once to take it (``_keywords/adapter.py``);
3. a mirrored submodule (``jaxcompat.numpy``) is imported;
4. anything else is the installed JAX's own object (``jaxcompat.vmap is jax.vmap``), so it
   costs nothing per call and behaves exactly as JAX does on that release.

A resolved name is stored in the module's globals, so later lookups are plain attribute
reads. JAX's deprecated names are read from its ``_deprecations`` table rather than through
its warning ``__getattr__``, so resolving a stable name never emits JAX's deprecation
warnings; a name that is merely forwarded warns exactly as JAX does.
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._dispatch import installed_release_in
from ._mirrored import MIRRORED
from ._version import JAX_VERSION_STRING

if TYPE_CHECKING:
    from ._stable_names import Source, StableName

__all__ = ["MIRRORED", "mirror", "resolve", "select_source"]


@functools.cache
def _table() -> dict[str, StableName]:
    # Read on the first lookup, not at import: importing jaxcompat stays cheap.
    from ._stable_names import by_path

    return by_path()


def _keywords() -> ModuleType:
    # Newest keywords on older releases; imported on the first lookup, not at import.
    return importlib.import_module("jaxcompat._keywords.adapter")


def _names_under(prefix: str) -> set[str]:
    """The stable names directly in the jaxcompat module ``prefix`` ("" is jaxcompat itself)."""
    return {path.rpartition(".")[2] for path in _table() if path.rpartition(".")[0] == prefix}


# Resolution imports modules and may build adapters: one lock keeps each name's object unique.
# Re-entrant, because building one name can look up another.
_LOCK = threading.RLock()
_MISSING = object()


def quiet_getattr(module: ModuleType, name: str) -> Any:
    """``module.name`` without JAX's deprecation warning, or ``_MISSING``.

    JAX keeps a deprecated name in the module's ``_deprecations`` table as
    ``(message, object)``, with object None once accessing it raises.
    """
    namespace = vars(module)
    if name in namespace:
        return namespace[name]
    deprecated = namespace.get("_deprecations", {})
    if name in deprecated:
        found = deprecated[name][1]
        return _MISSING if found is None else found
    try:  # a submodule that is not imported yet
        return importlib.import_module(f"{module.__name__}.{name}")
    except ImportError:
        return _MISSING


def _locate(where: str) -> Any:
    module_name, _, name = where.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return _MISSING
    return quiet_getattr(module, name)


def _adapter(spec: str) -> Callable[[Any], Any]:
    module_name, _, name = spec.partition(":")
    module = importlib.import_module(f"jaxcompat._backports.{module_name}")
    adapter: Callable[[Any], Any] = getattr(module, name)
    return adapter


def unavailable_message(entry: StableName) -> str:
    return (
        f"jaxcompat.{entry.path} is not available on JAX {JAX_VERSION_STRING}: it needs JAX "
        f"{entry.first} or newer, because {entry.reason}. Upgrade JAX to use it, or check "
        f"for it with hasattr()."
    )


def select_source(path: str) -> tuple[Source, Any] | None:
    """The source of the stable name ``path`` that the installed JAX uses, and its object."""
    for source in _table()[path].sources:
        if source.releases is not None and not installed_release_in(source.releases):
            continue
        found = _locate(source.where)
        if found is not _MISSING:
            return source, found
    return None


def resolve(path: str) -> Any:
    """The object that the stable name ``path`` (``"tree.map"``) is on the installed JAX."""
    selected = select_source(path)
    if selected is None:
        raise AttributeError(unavailable_message(_table()[path]))
    source, found = selected
    return _adapter(source.adapter)(found) if source.adapter else found


def _newest_surface_message(public_name: str, jax_module: str, name: str) -> str | None:
    """The AttributeError message for a name the newest JAX has and this one lacks."""
    # The recorded API surface of every matrix row (jaxcompat/_data/api_surface.json).
    surface = importlib.import_module("jaxcompat._surface")
    if jax_module not in surface.modules() or name not in surface.newest_names(jax_module):
        return None
    first = surface.first_row_with_status(jax_module, name, "o")
    return (
        f"{public_name}.{name} is not available on JAX {JAX_VERSION_STRING}: JAX added "
        f"{jax_module}.{name} in {first}, and jaxcompat has no backport of it for older "
        "releases yet. Upgrade JAX to use it, or check for it with hasattr()."
    )


def _lookup(public_name: str, name: str) -> tuple[Any, bool]:
    """Return (object, whether it may be cached) for ``public_name.name``."""
    jax_module_name, submodules = MIRRORED[public_name]
    prefix = public_name.removeprefix("jaxcompat").lstrip(".")
    path = f"{prefix}.{name}" if prefix else name
    jax_path = f"{jax_module_name}.{name}"
    if path in _table():
        return _keywords().accept_newest_keywords(path, jax_path, resolve(path)), True
    if name in submodules:
        return importlib.import_module(f"{public_name}.{name}"), True
    if public_name == "jaxcompat" and name == "_src":
        # JAX's private implementation package, forwarded as it is (``jax._src.xla_bridge``
        # is common in libraries' test helpers). It carries no stability promise on any release.
        return importlib.import_module("jax._src"), True
    # Private and dunder names are never forwarded: a forwarded __path__ would make a module
    # look like a package, and __version__ stays jaxcompat's own, so JAX's __version_info__
    # is not forwarded either (read jaxcompat.JAX_VERSION instead).
    if not name.startswith("_"):
        try:
            jax_module = importlib.import_module(jax_module_name)
        except ImportError:  # e.g. jax.tree before 0.4.25
            pass
        else:
            namespace = vars(jax_module)
            if name in namespace:
                found = namespace[name]
                if name in _keywords().names_to_adapt(jax_module_name):
                    # Given the newest keywords once; the wrapper reads JAX's module on
                    # every call, so a patch of it is still seen.
                    adapted = _keywords().accept_newest_keywords(
                        path, jax_path, found, live_in=namespace
                    )
                    return adapted, True
                # Not cached: read from JAX's module on every access, so a patch of it
                # (``mock.patch("jax.pmap", ...)``, as chex's fake_pmap does) is seen here too.
                return found, False
            try:
                # JAX's own __getattr__: deprecated names warn as they do in JAX. Not cached,
                # so they keep warning as JAX's do.
                return getattr(jax_module, name), False
            except AttributeError:
                pass
            found = quiet_getattr(jax_module, name)  # a submodule not imported yet
            if isinstance(found, ModuleType):
                return found, True
    message = (
        None
        if name.startswith("_")
        else _newest_surface_message(public_name, jax_module_name, name)
    )
    raise AttributeError(message or f"module {public_name!r} has no attribute {name!r}")


def mirror(
    public_name: str, module_globals: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of the jaxcompat module ``public_name``."""

    jax_module_name, submodules = MIRRORED[public_name]
    prefix = public_name.removeprefix("jaxcompat").lstrip(".")
    # A module file gets an empty __path__: Python looks for ``import jaxcompat.numpy.linalg``
    # only in a module that has one, and the finder in _submodules.py answers it.
    module_globals.setdefault("__path__", [])
    # Filled on the first lookup, not at import: the names jaxcompat decides itself (the
    # stable-name table, the mirrored submodules), and the namespace of JAX's module.
    decided_here: set[str] = set()
    jax_namespace: dict[str, Any] = {}

    def __getattr__(name: str) -> Any:
        nonlocal jax_namespace
        # The fast path: any other public name is JAX's, read from JAX's module on every
        # access and never cached, so that a patch of JAX's module is seen here too.
        if name in jax_namespace and name not in decided_here and name[:1] != "_":
            return jax_namespace[name]
        with _LOCK:
            if not decided_here:
                adapted = _keywords().names_to_adapt(jax_module_name)
                decided_here.update(_names_under(prefix), submodules, adapted)
            if name in module_globals:  # another thread resolved it meanwhile
                return module_globals[name]
            found, cacheable = _lookup(public_name, name)
            if cacheable:
                module_globals[name] = found
            if not jax_namespace and jax_module_name in sys.modules:
                # Set only after decided_here: the fast path relies on it.
                jax_namespace = vars(sys.modules[jax_module_name])
            return found

    def __dir__() -> list[str]:
        try:
            jax_names = set(dir(importlib.import_module(jax_module_name)))
        except ImportError:
            jax_names = set()
        stable = set()
        for path in _table():
            head, _, tail = path.rpartition(".")
            if head == prefix:
                try:
                    resolve(path)
                except AttributeError:
                    continue
                stable.add(tail)
        own = set(module_globals.get("__all__", ()))
        names = {n for n in jax_names | stable | set(submodules) if not n.startswith("_")}
        return sorted(names | own)

    return __getattr__, __dir__
