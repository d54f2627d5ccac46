"""Version gates: the one place pinnedlib looks at JAX's version."""

import jax

__all__ = ["Primitive", "shard_map", "typeof"]

if jax.__version_info__ >= (0, 5, 3):
    typeof = jax.typeof
else:
    typeof = jax.core.get_aval

try:
    from jax.extend.core import Primitive
except ImportError:
    from jax.core import Primitive

if hasattr(jax, "shard_map"):
    shard_map = jax.shard_map
else:
    from jax.experimental.shard_map import shard_map
