"""Expose: ``import jaxcompat.scipy.special`` gives JAX's own module, as attribute access does.

``jaxcompat.numpy.linalg`` is JAX's ``jax.numpy.linalg``, reached through the mirrored
module's ``__getattr__``. The import statement does not use ``__getattr__``: it asks the
finders on ``sys.meta_path`` for a module named ``jaxcompat.numpy.linalg``. This finder answers
for the names that jaxcompat does not implement itself, with the object attribute access gives,
so the two ways agree:

* ``import jaxcompat.numpy.linalg`` binds ``jax.numpy.linalg`` itself (``is`` holds), and
  ``sys.modules`` gains an alias for it; JAX's module is not executed a second time;
* a module that a release lacks raises the AttributeError's message (the release that added
  it) as a ModuleNotFoundError;
* jaxcompat's own modules, private ones included, are left to the normal import machinery,
  and JAX's private package is JAX's (``import jaxcompat._src.xla_bridge``), as
  ``jaxcompat._src`` is;
* a name that is not a module (``jaxcompat.numpy.clip``) is "No module named ...", as for JAX.

The mirrored modules that are single files have an empty ``__path__``, which Python requires
of a module before it looks for submodules in it.

The finder runs before Python's path finder: once ``jaxcompat.scipy`` is JAX's package, the
path finder would otherwise load ``jax/scipy/special.py`` a second time, as a new module.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

from ._namespace import MIRRORED

__all__ = ["ForwardedSubmoduleFinder", "install"]


class _ExistingModuleLoader(importlib.abc.Loader):
    """Loads a module that is already imported: JAX's own, under its jaxcompat name."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        # Python sets ``__spec__`` on the module it is given; JAX's module keeps its own.
        module.__spec__ = self.spec


class ForwardedSubmoduleFinder(importlib.abc.MetaPathFinder):
    """Finds ``jaxcompat.X.Y`` where jaxcompat forwards ``Y`` to one of JAX's modules."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        parent_name, _, name = fullname.rpartition(".")
        if not (parent_name == "jaxcompat" or parent_name.startswith("jaxcompat.")):
            return None
        below = fullname.split(".")[1:]
        if below[0] != "_src" and any(part.startswith("_") for part in below):
            return None  # jaxcompat's private modules, as they are
        parent = sys.modules.get(parent_name)
        if parent is None:
            return None
        if parent_name in MIRRORED:
            own = importlib.machinery.PathFinder.find_spec(fullname, path)
            if own is not None:
                return own  # one of jaxcompat's own modules
            try:
                found = getattr(parent, name)
            except AttributeError as error:
                if str(error) == f"module {parent_name!r} has no attribute {name!r}":
                    return None  # "No module named ...", as for JAX
                # A name of the newest JAX: the message names the release that added it.
                raise ModuleNotFoundError(str(error), name=fullname) from None
        else:  # one of JAX's modules, forwarded: its submodule is JAX's too
            jax_name = f"{parent.__name__}.{name}"
            try:
                found = importlib.import_module(jax_name)
            except ModuleNotFoundError as error:
                if error.name != jax_name:
                    raise  # the module exists and fails to import, as it would from jax
                return None
        if not isinstance(found, ModuleType):
            return None  # a function or a class: "No module named ...", as for JAX
        loader = _ExistingModuleLoader(found)
        return importlib.machinery.ModuleSpec(
            fullname, loader, is_package=hasattr(found, "__path__")
        )


_FINDER = ForwardedSubmoduleFinder()


def install() -> None:
    """Put the finder first on ``sys.meta_path``, once."""
    if not any(isinstance(finder, ForwardedSubmoduleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _FINDER)
