"""The schema of the stable-name table, and the reasons shared by its entries."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "NEW_PRIMITIVE",
    "NO_EXPLICIT_SHARDING",
    "NO_REFS",
    "NO_STACKLESS",
    "SET_MESH_FALLBACKS",
    "Source",
    "StableName",
]


@dataclass(frozen=True)
class Source:
    """One place a stable name can be had: ``module:attribute``."""

    where: str
    #: ``module:function`` in ``jaxcompat._backports`` that turns the object found at
    #: ``where`` into the newest API.
    adapter: str | None = None
    #: The releases on which ``where`` has the newest meaning, e.g. ``">=0.7.0"`` or
    #: ``">=0.4.30,<0.6.2"``; None: wherever it exists.
    releases: str | None = None


@dataclass(frozen=True)
class StableName:
    """A name of the newest JAX, and where it lives on each release."""

    path: str
    sources: tuple[Source, ...]
    #: The first JAX release that has the name (None: every supported release).
    first: str | None = None
    #: Why releases before ``first`` cannot have it.
    reason: str = ""


NO_STACKLESS = (
    "JAX's tracing machinery before the 0.4.34 'stackless' rewrite has no equivalent of it"
)
NO_EXPLICIT_SHARDING = "sharding in types (explicit axes) does not exist before it"
NO_REFS = "mutable array references do not exist before it"
# A release without the primitive computes the operation with other primitives, so its
# jaxprs never contain it and no rule written for it would ever run.
NEW_PRIMITIVE = (
    "the primitive does not exist before it: older releases compute the operation with other"
    " primitives"
)


#: Where set_mesh's job is done before the release has its own: use_mesh (0.5.1; use_mesh of
#: 0.5.0 sets only the abstract mesh), else ``with mesh:``.
SET_MESH_FALLBACKS: tuple[Source, ...] = (
    Source("jax.sharding:use_mesh", adapter="sharding:set_mesh_from_use_mesh", releases=">=0.5.1"),
    Source("jax.sharding:Mesh", adapter="sharding:set_mesh_from_mesh_context"),
)
