"""Which of JAX's modules jaxcompat mirrors: plain data, read without importing JAX.

``_namespace`` builds the mirrors from it; ``jaxcompat check`` and ``migrate`` read it to know
which imports ``import jaxcompat as jax`` serves (they must not import JAX).
"""

from __future__ import annotations

__all__ = ["MIRRORED"]

#: The mirrored modules: jaxcompat path -> (JAX module, mirrored submodules).
MIRRORED: dict[str, tuple[str, tuple[str, ...]]] = {
    "jaxcompat": (
        "jax",
        (
            "api_util",
            "custom_derivatives",
            "dtypes",
            "errors",
            "experimental",
            "extend",
            "lax",
            "nn",
            "numpy",
            "random",
            "sharding",
            "tree",
            "tree_util",
            "typing",
        ),
    ),
    "jaxcompat.api_util": ("jax.api_util", ()),
    "jaxcompat.custom_derivatives": ("jax.custom_derivatives", ()),
    "jaxcompat.dtypes": ("jax.dtypes", ()),
    "jaxcompat.errors": ("jax.errors", ()),
    "jaxcompat.experimental": ("jax.experimental", ("layout",)),
    "jaxcompat.experimental.layout": ("jax.experimental.layout", ()),
    "jaxcompat.extend": ("jax.extend", ("core", "linear_util")),
    "jaxcompat.extend.core": ("jax.extend.core", ("primitives",)),
    "jaxcompat.extend.core.primitives": ("jax.extend.core.primitives", ()),
    "jaxcompat.extend.linear_util": ("jax.extend.linear_util", ()),
    "jaxcompat.lax": ("jax.lax", ("linalg",)),
    "jaxcompat.lax.linalg": ("jax.lax.linalg", ()),
    "jaxcompat.nn": ("jax.nn", ()),
    "jaxcompat.numpy": ("jax.numpy", ("fft", "linalg")),
    "jaxcompat.numpy.fft": ("jax.numpy.fft", ()),
    "jaxcompat.numpy.linalg": ("jax.numpy.linalg", ()),
    "jaxcompat.random": ("jax.random", ()),
    "jaxcompat.sharding": ("jax.sharding", ()),
    "jaxcompat.tree": ("jax.tree", ()),
    "jaxcompat.tree_util": ("jax.tree_util", ()),
    "jaxcompat.typing": ("jax.typing", ()),
}
