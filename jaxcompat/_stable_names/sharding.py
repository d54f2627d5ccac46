"""Stable names of ``jax.sharding``: meshes, and sharding in types."""

from __future__ import annotations

from ._schema import NO_EXPLICIT_SHARDING, SET_MESH_FALLBACKS, Source, StableName

NAMES: tuple[StableName, ...] = (
    # --- jax.sharding ---------------------------------------------------------------------
    StableName(
        "sharding.set_mesh",
        (
            Source("jax.sharding:set_mesh", releases=">=0.7.1"),
            *SET_MESH_FALLBACKS,
        ),
    ),
    StableName(
        "sharding.get_mesh",
        (Source("jax.sharding:get_mesh"),),
        first="0.8.1",
        reason="no public function reads the mesh set by set_mesh before it",
    ),
    StableName(
        "sharding.get_abstract_mesh",
        (Source("jax.sharding:get_abstract_mesh"),),
        first="0.5.3",
        reason="there is no abstract mesh before it",
    ),
    StableName(
        "sharding.AxisType",
        (Source("jax.sharding:AxisType"),),
        first="0.5.3",
        reason=NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.reshard",
        (Source("jax.sharding:reshard"),),
        first="0.7.0",
        reason=NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.auto_axes",
        (Source("jax.sharding:auto_axes"),),
        first="0.7.0",
        reason=NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.explicit_axes",
        (Source("jax.sharding:explicit_axes"),),
        first="0.7.0",
        reason=NO_EXPLICIT_SHARDING,
    ),
)
