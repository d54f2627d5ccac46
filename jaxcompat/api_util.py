"""``jax.api_util`` on every JAX release, with the newest form where the release lacks it.

JAX's helpers for wrapping and flattening functions, which libraries that write their own
transformations use. Every public name of the installed ``jax.api_util`` is JAX's own object,
except ``debug_info`` (public from JAX 0.5.1), given before it from the release's own private
helper, as the record that release's ``jax.extend.linear_util.wrap_init`` takes.
"""

from typing import TYPE_CHECKING

from . import _namespace

if TYPE_CHECKING:
    from jax.api_util import *  # noqa: F403

__getattr__, __dir__ = _namespace.mirror(__name__, globals())
del _namespace
