"""The stable-name table: where each drifted name of the newest JAX lives on every release.

One entry per public name of the newest JAX whose location or meaning drifted between JAX
0.4.13 and the newest release. ``path`` is the name's path under ``jax`` (and so under
``jaxcompat``); ``sources`` are tried in order, and the first that exists on the installed
JAX wins. A source is ``module:attribute``: a JAX location, or a backport in
``jaxcompat._backports`` where JAX has no object that does the job. An ``adapter`` turns the
object found into the newest call signature. ``releases`` limits a source to the releases on
which it has the newest meaning; it is used only where the same JAX name changed meaning (the
rest is feature detection). Where no source exists, the name raises an AttributeError that
names ``first``, the first JAX release that has it, and ``reason``.

Any name that is not in this table is forwarded to the installed JAX's module of the same
name (``jaxcompat/_namespace.py``). The table is plain data, a file per JAX module
with many drifted names (``tree.py`` holds ``jax.tree``, ``top_level.py`` the names directly
under ``jax``) and three that gather by concept: ``modules.py`` the few names of small
modules, ``extend.py`` JAX's internals (under ``jax.extend``, ``jax.experimental`` and
``jax.api_util``), and ``primitives.py`` every primitive wherever JAX puts it. The newest
keywords' rules are in ``jaxcompat._keywords.rules``. The table imports nothing from JAX,
so the docs and ``python -m jaxcompat check`` read it without JAX installed.
"""

from __future__ import annotations

from . import (
    dtypes,
    errors,
    extend,
    lax,
    modules,
    nn,
    numpy,
    primitives,
    random,
    sharding,
    top_level,
    tree,
    tree_util,
)
from ._schema import Source, StableName

__all__ = ["STABLE_NAMES", "Source", "StableName", "by_path"]

STABLE_NAMES: tuple[StableName, ...] = (
    *tree.NAMES,
    *top_level.NAMES,
    *sharding.NAMES,
    *modules.NAMES,
    *numpy.NAMES,
    *extend.NAMES,
    *tree_util.NAMES,
    *errors.NAMES,
    *dtypes.NAMES,
    *nn.NAMES,
    *random.NAMES,
    *lax.NAMES,
    *primitives.NAMES,
)


def by_path() -> dict[str, StableName]:
    """The table as a mapping from path (``"tree.map"``) to entry."""
    return {entry.path: entry for entry in STABLE_NAMES}
