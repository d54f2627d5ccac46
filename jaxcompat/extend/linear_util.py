"""``jax.extend.linear_util`` on every JAX release, with the newest form where it lacks it.

Every public name of the installed ``jax.extend.linear_util`` is JAX's own object, except
``wrap_init``, which takes ``debug_info=`` (JAX 0.5.0) on every release, on JAX 0.4.13 from
``jax.linear_util``, the module's place before 0.4.18.
"""

from typing import TYPE_CHECKING

from .. import _namespace

if TYPE_CHECKING:
    from jax.extend.linear_util import *  # type: ignore[import-not-found, unused-ignore]  # noqa: F403

__getattr__, __dir__ = _namespace.mirror(__name__, globals())
del _namespace
