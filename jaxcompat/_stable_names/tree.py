"""Stable names of ``jax.tree``: every name of the newest module, on every release."""

from __future__ import annotations

from ._schema import Source, StableName


def _tree(name: str, tree_util_name: str) -> StableName:
    # jax.tree arrived in 0.4.25 and gained names until 0.7.0; jax.tree_util has had the same
    # functions, with the same parameters, since before 0.4.13.
    return StableName(
        f"tree.{name}", (Source(f"jax.tree:{name}"), Source(f"jax.tree_util:{tree_util_name}"))
    )


NAMES: tuple[StableName, ...] = (
    # --- jax.tree: every name of the newest module on every release ---------------------
    # tree.all's is_leaf keyword arrived in 0.4.30 (jax.tree.all of 0.4.25-0.4.29 lacks it).
    StableName(
        "tree.all",
        (
            Source("jax.tree:all", releases=">=0.4.30"),
            Source("jaxcompat._backports.tree:tree_all"),
        ),
    ),
    StableName(
        "tree.broadcast",
        (Source("jax.tree:broadcast"), Source("jaxcompat._backports.tree:tree_broadcast")),
    ),
    _tree("flatten", "tree_flatten"),
    _tree("flatten_with_path", "tree_flatten_with_path"),
    _tree("leaves", "tree_leaves"),
    _tree("leaves_with_path", "tree_leaves_with_path"),
    _tree("map", "tree_map"),
    _tree("map_with_path", "tree_map_with_path"),
    _tree("reduce", "tree_reduce"),
    StableName(
        "tree.reduce_associative",
        (
            Source("jax.tree:reduce_associative"),
            Source("jaxcompat._backports.tree:tree_reduce_associative"),
        ),
    ),
    # jax.tree.static (0.9.1) marks a dataclass field static for register_dataclass's field
    # inference, which jaxcompat.tree_util.register_dataclass has on every release.
    StableName(
        "tree.static",
        (Source("jax.tree:static"), Source("jaxcompat._backports.tree:static")),
    ),
    _tree("structure", "tree_structure"),
    # transpose's inner_treedef may be None (inferred) from 0.4.25.
    StableName(
        "tree.transpose",
        (
            Source("jax.tree:transpose"),
            Source("jax.tree_util:tree_transpose", releases=">=0.4.25"),
            Source("jaxcompat._backports.tree:tree_transpose"),
        ),
    ),
    _tree("unflatten", "tree_unflatten"),
    StableName(
        "tree_util.tree_all",
        (
            Source("jax.tree_util:tree_all", releases=">=0.4.30"),
            Source("jaxcompat._backports.tree:tree_all"),
        ),
    ),
    StableName(
        "tree_util.tree_broadcast",
        (
            Source("jax.tree_util:tree_broadcast"),
            Source("jaxcompat._backports.tree:tree_broadcast"),
        ),
    ),
    StableName(
        "tree_util.tree_reduce_associative",
        (
            Source("jax.tree_util:tree_reduce_associative"),
            Source("jaxcompat._backports.tree:tree_reduce_associative"),
        ),
    ),
    StableName(
        "tree_util.tree_transpose",
        (
            Source("jax.tree_util:tree_transpose", releases=">=0.4.25"),
            Source("jaxcompat._backports.tree:tree_transpose"),
        ),
    ),
)
