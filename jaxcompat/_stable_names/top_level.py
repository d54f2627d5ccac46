"""Stable names of the top-level ``jax`` module."""

from __future__ import annotations

from ._schema import NO_EXPLICIT_SHARDING, NO_REFS, SET_MESH_FALLBACKS, Source, StableName

NAMES: tuple[StableName, ...] = (
    # --- top-level jax ------------------------------------------------------------------
    # jax.typeof arrived in 0.5.3 as an alias of jax.core.get_aval (which warns from 0.9.0).
    # Before 0.4.36 (which removed ConcreteArray), get_aval of a concrete value is a
    # ConcreteArray: the newest typeof gives its ShapedArray.
    StableName(
        "typeof",
        (
            Source("jax:typeof"),
            Source("jax.core:get_aval", releases=">=0.4.36"),
            Source("jax.core:get_aval", adapter="core:typeof_from_get_aval"),
        ),
    ),
    StableName(
        "make_mesh",
        (
            # The first parameter was axis_shapes until 0.11.1, and devices/axis_types
            # swapped positions at 0.7.0: older releases get the newest signature.
            Source("jax:make_mesh", releases=">=0.11.1"),
            Source("jax:make_mesh", adapter="sharding:make_mesh_from_jax"),
            Source(
                "jax.experimental.mesh_utils:create_device_mesh",
                adapter="sharding:make_mesh_from_device_mesh",
            ),
        ),
    ),
    StableName("P", (Source("jax:P"), Source("jax.sharding:PartitionSpec"))),
    # jax.config's newest options: JAX's own config where the release has them all; else
    # the missing ones are honoured (jax_num_cpu_devices: readable from 0.5.1, 0.5.0 only
    # sets it, before 0.5.0 the XLA flag it replaced) or a clear error (the adapter says how).
    StableName("config", (Source("jax:config", adapter="config:with_newest_options"),)),
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
            *SET_MESH_FALLBACKS,
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
    # JAX 0.11.1: custom_gradient's fun is optional (a decorator factory with keywords).
    StableName(
        "custom_gradient",
        (
            Source("jax:custom_gradient", releases=">=0.11.1"),
            Source("jax:custom_gradient", adapter="custom_derivatives:with_optional_fun"),
        ),
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
    # --- top-level jax: names added from 0.4.18 on ----------------------------------------
    # jax.NamedSharding (0.4.27) is jax.sharding.NamedSharding.
    StableName(
        "NamedSharding", (Source("jax:NamedSharding"), Source("jax.sharding:NamedSharding"))
    ),
    *(
        StableName(name, (Source(f"jax:{name}"), Source(f"jaxcompat._backports.top_level:{name}")))
        for name in (
            "copy_to_host_async",  # 0.5.3
            "process_indices",  # 0.4.33
        )
    ),
    # jax.fwd_and_bwd arrived in 0.6.1; 0.10.2-0.11.2 drop fwd's keyword arguments.
    StableName(
        "fwd_and_bwd",
        (
            Source("jax:fwd_and_bwd", releases="<0.10.2"),
            Source("jax:fwd_and_bwd", releases=">=0.12.0"),
            Source("jaxcompat._backports.top_level:fwd_and_bwd"),
        ),
    ),
    # jax.use_abstract_mesh (0.11.1) is jax.sharding.use_abstract_mesh (0.7.2).
    StableName(
        "use_abstract_mesh",
        (Source("jax:use_abstract_mesh"), Source("jax.sharding:use_abstract_mesh")),
        first="0.7.2",
        reason="no public function sets the abstract mesh alone before it",
    ),
    # Config states: the context managers of JAX's config options. Where JAX defines the
    # option but does not export the state yet, it is the same object in jax._src.config.
    StableName(
        "threefry_partitionable",
        (Source("jax:threefry_partitionable"),),
        first="0.4.20",
        reason="entering its context manager raises a ValueError (a JAX bug) before it",
    ),
    StableName(
        "explain_cache_misses",
        (
            Source("jax:explain_cache_misses"),
            Source("jax._src.config:explain_cache_misses"),
        ),
        first="0.4.24",
        reason="JAX does not explain its cache misses before it",
    ),
    StableName(
        "array_garbage_collection_guard",
        (
            Source("jax:array_garbage_collection_guard"),
            # 0.4.33-0.4.35 define a function that raises with their jaxlib.
            Source("jax._src.config:array_garbage_collection_guard", releases=">=0.4.36"),
        ),
        first="0.4.36",
        reason="JAX has no garbage-collection guard for arrays before it",
    ),
    *(
        StableName(name, (Source(f"jax:{name}"),), first=first, reason=reason)
        for name, first, reason in (
            (
                "legacy_prng_key",
                "0.4.18",
                "JAX has no check of raw (legacy) PRNG keys before it",
            ),
            ("debug_key_reuse", "0.4.26", "JAX has no stable key-reuse checker before it"),
            ("no_tracing", "0.4.33", "JAX has no switch that forbids tracing before it"),
            ("no_execution", "0.7.2", "JAX has no switch that forbids execution before it"),
            (
                "make_user_context",
                "0.7.2",
                "JAX's caches cannot be keyed on a user context before it",
            ),
            (
                "thread_guard",
                "0.9.0",
                "JAX has no check of the thread that runs a multi-process operation before it",
            ),
            (
                "allow_f16_reductions",
                "0.9.1",
                "reduce_sum always accepts float16 and bfloat16 inputs before it",
            ),
            ("remove_size_one_mesh_axis_from_type", "0.7.2", NO_EXPLICIT_SHARDING),
            (
                "auto_pcast",
                "0.10.1",
                "JAX does not track varying manual axes (pvary) in types before it",
            ),
            ("smap", "0.7.0", NO_EXPLICIT_SHARDING),
            ("Inline", "0.11.0", "jax.jit's inline option takes only a bool before it"),
            (
                "CompilerEffortLevel",
                "0.11.1",
                "JAX has no public compiler effort levels before it",
            ),
            ("memory", "0.7.1", "memory spaces have no public API before it"),
            ("ref", "0.7.1", "array references have no public module before it"),
            (
                "empty_ref",
                "0.9.1",
                "array references cannot be created uninitialized or freed before it",
            ),
            (
                "free_ref",
                "0.9.1",
                "array references cannot be created uninitialized or freed before it",
            ),
            ("ds", "0.9.1", "jax.numpy indexing does not take a dynamic slice before it"),
            (
                "ffi",
                "0.5.0",
                "the jax.ffi module does not exist before it (jax.extend.ffi's ffi_call has "
                "a different signature)",
            ),
        )
    ),
    # jax.export (0.4.30) imports absl, which JAX does not depend on, until 0.6.2; before
    # 0.4.30 it is jax.experimental.export, with another API.
    StableName(
        "export",
        (Source("jax:export", releases=">=0.6.2"),),
        first="0.6.2",
        reason=(
            "importing jax.export needs absl-py, which JAX does not install, before it (and "
            "before 0.4.30 it is jax.experimental.export, with another API)"
        ),
    ),
    StableName(
        "make_array_from_process_local_data",
        (Source("jax:make_array_from_process_local_data"),),
        first="0.4.29",
        reason=(
            "JAX cannot build a global array from each process's local data and a sharding "
            "before it"
        ),
    ),
)
