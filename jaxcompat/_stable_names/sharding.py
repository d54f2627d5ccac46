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
    # AbstractMesh (0.4.33) took a shape_tuple until 0.5.3, when it became sizes and names.
    StableName(
        "sharding.AbstractMesh",
        (Source("jax.sharding:AbstractMesh", releases=">=0.5.3"),),
        first="0.5.3",
        reason=NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.AbstractDevice",
        (Source("jax.sharding:AbstractDevice"),),
        first="0.7.2",
        reason="an abstract mesh has no abstract device before it",
    ),
    StableName(
        "sharding.use_abstract_mesh",
        (Source("jax.sharding:use_abstract_mesh"),),
        first="0.7.2",
        reason="no public function sets the abstract mesh alone before it",
    ),
    StableName(
        "sharding.ManualAxisType",
        (Source("jax.sharding:ManualAxisType"),),
        first="0.10.0",
        reason="manual mesh axes have no type (varying, unreduced, reduced) before it",
    ),
    StableName(
        "sharding.UnreducedKind",
        (Source("jax.sharding:UnreducedKind"),),
        first="0.11.0",
        reason="unreduced axes have no kind before it",
    ),
    StableName(
        "sharding.no_collectives",
        (Source("jax.sharding:no_collectives"),),
        first="0.12.0",
        reason="JAX has no switch that forbids collectives before it",
    ),
    StableName(
        "sharding.make_single_device_sharding",
        (
            Source("jax.sharding:make_single_device_sharding"),
            Source("jaxcompat._backports.sharding:make_single_device_sharding"),
        ),
    ),
)
