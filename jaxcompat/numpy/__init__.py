"""``jax.numpy`` on every JAX release, with the newest API where the release has it.

Every public name of the installed ``jax.numpy`` is JAX's own object; the names that
``jaxcompat/_stable_names/`` lists for this module resolve to their newest form.
"""

from typing import TYPE_CHECKING

from .. import _namespace

if TYPE_CHECKING:
    from jax.numpy import *  # noqa: F403

__getattr__, __dir__ = _namespace.mirror(__name__, globals())
del _namespace
