"""Loop-safe control flow: ``jax.lax`` primitives that accept callables hashing tracers.

Same arguments and results as ``jax.lax``. On JAX releases where ``jax.lax`` already accepts
such callables (up to 0.4.29), these are ``jax.lax``'s own functions.
"""

from . import _contract
from ._dispatch import backend

__all__ = ["cond", "fori_loop", "scan", "switch", "while_loop"]

while_loop = _contract.document("while_loop", backend.while_loop)
fori_loop = _contract.document("fori_loop", backend.fori_loop)
scan = _contract.document("scan", backend.scan)
cond = _contract.document("cond", backend.cond)
switch = _contract.document("switch", backend.switch)

del _contract, backend


def __dir__() -> list[str]:
    return list(__all__)
