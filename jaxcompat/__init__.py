"""jaxcompat: one behaviour for JAX's version-sensitive primitives on every JAX release.

Import these names from jaxcompat instead of jax, declare ``jax>=0.4.13`` with no upper pin,
and get the same behaviour from JAX 0.4.13 to the newest release. ``python -m jaxcompat``
reports the installed JAX, the selected backend and a self-check of every primitive.
"""

from __future__ import annotations

from typing import Any

from .__about__ import __version__

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

try:
    from ._dispatch import BACKEND, backend
    from ._version import JAX_VERSION, JAX_VERSION_STRING, JAXLIB_VERSION, JAXLIB_VERSION_STRING
except ImportError as error:
    # JAX is missing, broken or too old, or JAXCOMPAT_BACKEND names no backend. The import
    # still succeeds, so that `python -m jaxcompat` can diagnose the problem and the pytest
    # plugin loads; the first use of a name that needs JAX raises this error.
    _JAX_IMPORT_ERROR: ImportError | None = error
else:
    _JAX_IMPORT_ERROR = None

    from . import _contract

    is_tracer = _contract.document("is_tracer", backend.is_tracer)
    tracer_safe_hash = _contract.document("tracer_safe_hash", backend.tracer_safe_hash)
    block_if_array = _contract.document("block_if_array", backend.block_if_array)
    jit: _contract.Jit = _contract.document("jit", backend.jit)
    lower = _contract.document("lower", backend.lower)
    trace = _contract.document("trace", backend.trace)

    from . import lax

    del _contract, backend


def __getattr__(name: str) -> Any:
    if _JAX_IMPORT_ERROR is not None and name in __all__:
        raise ImportError(str(_JAX_IMPORT_ERROR)) from _JAX_IMPORT_ERROR
    raise AttributeError(f"module 'jaxcompat' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
