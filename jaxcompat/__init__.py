"""jaxcompat: one behaviour for JAX's version-sensitive primitives on every JAX release.

Import these names from jaxcompat instead of jax, declare ``jax>=0.4.13`` with no upper pin,
and get the same behaviour from JAX 0.4.13 to the newest release. ``python -m jaxcompat``
reports the installed JAX, the selected backend and a self-check of every primitive.
"""

from . import _contract
from .__about__ import __version__
from ._dispatch import BACKEND, backend
from ._version import JAX_VERSION, JAX_VERSION_STRING, JAXLIB_VERSION, JAXLIB_VERSION_STRING

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

is_tracer = _contract.document("is_tracer", backend.is_tracer)
tracer_safe_hash = _contract.document("tracer_safe_hash", backend.tracer_safe_hash)
block_if_array = _contract.document("block_if_array", backend.block_if_array)
jit: _contract.Jit = _contract.document("jit", backend.jit)
lower = _contract.document("lower", backend.lower)
trace = _contract.document("trace", backend.trace)

from . import lax  # noqa: E402  (needs the backend above)

del _contract, backend


def __dir__() -> list[str]:
    return list(__all__)
