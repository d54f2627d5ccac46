"""Stable names of the top-level ``jax`` module."""

from __future__ import annotations

from ._schema import NO_EXPLICIT_SHARDING, NO_REFS, Source, StableName

NAMES: tuple[StableName, ...] = (
    # --- top-level jax ------------------------------------------------------------------
    # jax.typeof arrived in 0.5.3 as an alias of jax.core.get_aval (which warns from 0.9.0).
    StableName("typeof", (Source("jax:typeof"), Source("jax.core:get_aval"))),
    StableName(
        "make_mesh",
        (
            # The first parameter was axis_shapes until 0.11.2, and devices/axis_types
            # swapped positions at 0.7.0: older releases get the newest signature.
            Source("jax:make_mesh", releases=">=0.11.2"),
            Source("jax:make_mesh", adapter="sharding:make_mesh_from_jax"),
            Source(
                "jax.experimental.mesh_utils:create_device_mesh",
                adapter="sharding:make_mesh_from_device_mesh",
            ),
        ),
    ),
    StableName("P", (Source("jax:P"), Source("jax.sharding:PartitionSpec"))),
    StableName(
        "shard_map",
        (
            Source("jax:shard_map"),
            Source(
                "jax.experimental.shard_map:shard_map",
                adapter="sharding:shard_map_from_experimental",
            ),
        ),
    ),
    # jax.sharding.set_mesh of 0.6.0-0.7.0 returns None: only the top-level name (0.7.1) is
    # the newest context manager and global setter.
    StableName(
        "set_mesh",
        (
            Source("jax:set_mesh"),
            # use_mesh of 0.5.0 sets only the abstract mesh.
            Source(
                "jax.sharding:use_mesh",
                adapter="sharding:set_mesh_from_use_mesh",
                releases=">=0.5.1",
            ),
            Source("jax.sharding:Mesh", adapter="sharding:set_mesh_from_mesh_context"),
        ),
    ),
    StableName(
        "get_mesh",
        (Source("jax:get_mesh"), Source("jax.sharding:get_mesh")),
        first="0.8.1",
        reason="no public function reads the mesh set by set_mesh before it",
    ),
    StableName(
        "get_abstract_mesh",
        (Source("jax:get_abstract_mesh"), Source("jax.sharding:get_abstract_mesh")),
        first="0.5.3",
        reason="there is no abstract mesh before it",
    ),
    StableName(
        "reshard",
        (Source("jax:reshard"), Source("jax.sharding:reshard")),
        first="0.7.0",
        reason=NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "Ref",
        (Source("jax:Ref"), Source("jax:ArrayRef"), Source("jax.experimental:MutableArray")),
        first="0.6.1",
        reason=NO_REFS,
    ),
    StableName(
        "new_ref",
        (
            Source("jax:new_ref"),
            Source("jax:array_ref"),
            Source("jax.experimental:mutable_array"),
        ),
        first="0.6.1",
        reason=NO_REFS,
    ),
    StableName(
        "freeze",
        (Source("jax:freeze"),),
        first="0.8.0",
        reason="there is no public way to read a mutable array reference out before it",
    ),
    # jax.enable_x64 arrived in 0.8.0; jax.experimental.enable_x64, the same context manager
    # (`with enable_x64(True):`), warns from 0.8.0 and is gone in 0.10.
    StableName(
        "enable_x64",
        (
            Source("jax:enable_x64"),
            Source("jax.experimental:enable_x64"),
        ),
    ),
    # jax.ad was the deprecated alias of the jax.interpreters.ad module until 0.4.x; from
    # 0.10.0 it is a new namespace (DontWant, DidntWant, GradRef, GradValue).
    StableName(
        "ad",
        (Source("jax:ad", releases=">=0.10.0"),),
        first="0.10.0",
        reason="jax.ad is a different API before it (the old jax.interpreters.ad alias)",
    ),
)
