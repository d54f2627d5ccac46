"""Stable names of ``jax.tree_util`` added after JAX 0.4.13 (the ``jax.tree`` aliases are in
``tree.py``)."""

from __future__ import annotations

from ._schema import Source, StableName

NAMES: tuple[StableName, ...] = (
    # KeyPath and KeyEntry (0.4.33) are the types jax._src.tree_util has always annotated
    # key paths with.
    *(
        StableName(
            f"tree_util.{name}",
            (Source(f"jax.tree_util:{name}"), Source(f"jax._src.tree_util:{name}")),
        )
        for name in ("KeyEntry", "KeyPath")
    ),
    StableName(
        "tree_util.default_registry",
        (
            Source("jax.tree_util:default_registry"),
            Source("jax._src.tree_util:default_registry"),
        ),
        first="0.4.18",
        reason="jax.tree_util has no registry object of its own before it",
    ),
    StableName(
        "tree_util.register_static",
        (
            Source("jax.tree_util:register_static"),
            Source("jaxcompat._backports.tree_util:register_static"),
        ),
    ),
    # register_dataclass arrived in 0.4.27, drop_fields in 0.4.33, field inference in 0.4.36;
    # until 0.11.1 inferred fields kept the drop_fields (and before 0.10.0 drop_fields was
    # read character by character).
    StableName(
        "tree_util.register_dataclass",
        (
            Source("jax.tree_util:register_dataclass", releases=">=0.11.1"),
            Source("jaxcompat._backports.tree_util:register_dataclass"),
        ),
    ),
    StableName(
        "tree_util.is_tree_node",
        (
            Source("jax.tree_util:is_tree_node"),
            Source("jaxcompat._backports.tree_util:is_tree_node"),
        ),
    ),
    # flatten_one_level (public in 0.10.2) is jax._src.tree_util's since 0.4.36; before, its
    # parameter was named pytree, and before 0.4.26 a namedtuple's metadata was None.
    StableName(
        "tree_util.flatten_one_level",
        (
            Source("jax.tree_util:flatten_one_level"),
            Source("jax._src.tree_util:flatten_one_level", releases=">=0.4.36"),
            Source("jaxcompat._backports.tree_util:flatten_one_level"),
        ),
    ),
    # jax._src.tree_util's (0.4.38), public from 0.10.2, gives every child of a namedtuple
    # the key of its first field until 0.11.1.
    StableName(
        "tree_util.flatten_one_level_with_keys",
        (
            Source("jax.tree_util:flatten_one_level_with_keys", releases=">=0.11.1"),
            Source("jaxcompat._backports.tree_util:flatten_one_level_with_keys"),
        ),
    ),
)
