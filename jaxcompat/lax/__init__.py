"""``jax.lax`` on every JAX release, with loop-safe control flow.

``while_loop``, ``fori_loop``, ``scan``, ``cond`` and ``switch`` take the same arguments and
return the same results as ``jax.lax``'s, and also accept callables whose ``__hash__``
hashes tracers. On JAX releases where ``jax.lax`` already accepts such callables (up to
0.4.29), they are ``jax.lax``'s own functions. Every other name is the installed
``jax.lax``'s own object, or its newest form from the stable-name table.
"""

from typing import TYPE_CHECKING

from .. import _contract, _namespace
from .._dispatch import backend

if TYPE_CHECKING:
    from jax.lax import *  # noqa: F403

__all__ = ["cond", "fori_loop", "scan", "switch", "while_loop"]

while_loop = _contract.document("while_loop", backend.while_loop)
fori_loop = _contract.document("fori_loop", backend.fori_loop)
scan = _contract.document("scan", backend.scan)
cond = _contract.document("cond", backend.cond)
switch = _contract.document("switch", backend.switch)

__getattr__, __dir__ = _namespace.mirror(__name__, globals())

del _contract, _namespace, backend
