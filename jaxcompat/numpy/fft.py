"""``jax.numpy.fft`` on every JAX release, with the newest keywords where the release lacks them.

Every public name of the installed ``jax.numpy.fft`` is JAX's own object, except a function
that lacks a keyword of its newest signature: it is given it (``_keywords/rules/functions.py``).
"""

from typing import TYPE_CHECKING

from .. import _namespace

if TYPE_CHECKING:
    from jax.numpy.fft import *  # noqa: F403

__getattr__, __dir__ = _namespace.mirror(__name__, globals())
del _namespace
