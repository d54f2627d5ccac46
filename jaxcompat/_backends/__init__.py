"""Implement: one module per JAX behaviour breakpoint, named by its floor.

``jax_X_Y_Z.py`` serves JAX ``X.Y.Z`` up to the next floor. Each one provides every name in
``jaxcompat._contract.BACKEND_NAMES`` and never imports another ``jax_*`` module, so dropping
support for old JAX releases deletes whole files. What the backends share lives in
``jaxcompat._primitives``; a backend chooses and configures it, and its docstring names the JAX
changes that force its floor. The method jit, the same on every release, is
``jaxcompat._primitives.methods``.
"""

from __future__ import annotations

import pkgutil

from .._releases import parse_release


def backend_floors() -> dict[str, tuple[int, ...]]:
    """Map every backend module name to its floor release, oldest first.

    Read from the file names alone, without importing JAX or a backend: ``_dispatch`` selects
    with it, and the import diagnosis and the matrix read it where JAX may be missing.
    """
    floors = {}
    for module in pkgutil.iter_modules(__path__):
        name = module.name
        if name.startswith("jax_"):
            floors[name] = parse_release(name[len("jax_") :].replace("_", "."))
    return dict(sorted(floors.items(), key=lambda item: item[1]))
