"""jaxcompat: the newest JAX API, with one behaviour, on every JAX release from 0.4.13.

Write code for the newest JAX and import jaxcompat instead of jax (``import jaxcompat as
jax``, ``import jaxcompat.numpy as jnp``): every public name of the installed JAX is here,
names that moved live at their newest path on every release that can have them
(``jaxcompat/_stable_names/``), and jaxcompat's own primitives (``jit``, ``lower``,
``trace``, ``tracer_safe_hash``, ``is_tracer``, ``block_if_array`` and the loop-safe ``lax``)
give one behaviour on every release. ``python -m jaxcompat`` reports the installed JAX, the
selected backend and a self-check of every primitive.

``jaxcompat.__version__`` is jaxcompat's own version; the JAX release is ``JAX_VERSION``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .__about__ import __version__
from ._cli.commands import requested_command as _requested_command

if _requested_command() is not None:  # `jaxcompat check`/`migrate`: they need no JAX
    from ._cli.commands import run as _run

    _run(_requested_command() or "")

__all__ = [
    "BACKEND",
    "JAXLIB_VERSION",
    "JAXLIB_VERSION_STRING",
    "JAX_VERSION",
    "JAX_VERSION_STRING",
    "__version__",
    "block_if_array",
    "is_tracer",
    "jit",
    "lax",
    "lower",
    "trace",
    "tracer_safe_hash",
]

if TYPE_CHECKING:
    # Type checkers see the stable names as JAX's own objects of the newest release.
    from jax import P as P  # type: ignore[attr-defined, unused-ignore]
    from jax import Ref as Ref  # type: ignore[attr-defined, unused-ignore]
    from jax import enable_x64 as enable_x64  # type: ignore[attr-defined, unused-ignore]
    from jax import freeze as freeze  # type: ignore[attr-defined, unused-ignore]
    from jax import get_abstract_mesh as get_abstract_mesh  # type: ignore[attr-defined, unused-ignore]
    from jax import get_mesh as get_mesh  # type: ignore[attr-defined, unused-ignore]
    from jax import make_mesh as make_mesh  # type: ignore[attr-defined, unused-ignore]
    from jax import new_ref as new_ref  # type: ignore[attr-defined, unused-ignore]
    from jax import reshard as reshard  # type: ignore[attr-defined, unused-ignore]
    from jax import set_mesh as set_mesh  # type: ignore[attr-defined, unused-ignore]
    from jax import shard_map as shard_map  # type: ignore[attr-defined, unused-ignore]
    from jax import typeof as typeof  # type: ignore[attr-defined, unused-ignore]

    from . import custom_derivatives as custom_derivatives
    from . import dtypes as dtypes
    from . import errors as errors
    from . import experimental as experimental
    from . import extend as extend
    from . import nn as nn
    from . import numpy as numpy
    from . import random as random
    from . import sharding as sharding
    from . import tree as tree
    from . import tree_util as tree_util
    from . import typing as typing

try:
    from ._dispatch import BACKEND, backend
    from ._version import JAX_VERSION, JAX_VERSION_STRING, JAXLIB_VERSION, JAXLIB_VERSION_STRING
except ImportError as error:
    # JAX is missing, broken or too old, or JAXCOMPAT_BACKEND names no backend. The import
    # still succeeds, so that `python -m jaxcompat` can diagnose the problem and the pytest
    # plugin loads; the first use of a name that needs JAX raises this error.
    _JAX_IMPORT_ERROR: ImportError | None = error

    def __getattr__(name: str) -> Any:
        # Private names (submodules such as jaxcompat._surface, which need no JAX) are left to
        # the import system.
        if name.startswith("_"):
            raise AttributeError(f"module 'jaxcompat' has no attribute {name!r}")
        raise ImportError(str(_JAX_IMPORT_ERROR)) from _JAX_IMPORT_ERROR

    def __dir__() -> list[str]:
        return list(__all__)

else:
    _JAX_IMPORT_ERROR = None

    from . import _contract, _namespace, _submodules

    # ``import jaxcompat.scipy.special`` as well as attribute access (see _submodules.py).
    _submodules.install()

    is_tracer = _contract.document("is_tracer", backend.is_tracer)
    tracer_safe_hash = _contract.document("tracer_safe_hash", backend.tracer_safe_hash)
    block_if_array = _contract.document("block_if_array", backend.block_if_array)
    jit: _contract.Jit = _contract.document("jit", backend.jit)
    lower = _contract.document("lower", backend.lower)
    trace = _contract.document("trace", backend.trace)

    from . import lax

    # Every other name: the stable-name table, the mirrored submodules, then the installed
    # JAX's own objects.
    __getattr__, __dir__ = _namespace.mirror(__name__, globals())

    del _contract, _namespace, _submodules, backend
