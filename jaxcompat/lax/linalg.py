"""``jax.lax.linalg`` on every JAX release, with the newest behaviour where the release lacks it.

Every public name of the installed ``jax.lax.linalg`` is JAX's own object, except one whose
newest form the release does not have, from the stable-name table: ``tridiagonal_solve``
takes systems of any size and complex values (JAX 0.5.0) on every release.
"""

from typing import TYPE_CHECKING

from .. import _namespace

if TYPE_CHECKING:
    from jax.lax.linalg import *  # noqa: F403

__getattr__, __dir__ = _namespace.mirror(__name__, globals())
del _namespace
