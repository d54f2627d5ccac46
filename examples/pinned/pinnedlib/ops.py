"""Gradient clipping, norms and a sharded loss."""

from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental.shard_map import shard_map
from jax.sharding import PartitionSpec as P


def clip_grads(grads, limit):
    """Clip every leaf of a gradient pytree to [-limit, limit]."""
    return jax.tree_map(lambda g: jnp.clip(g, a_min=-limit, a_max=limit), grads)


def flat_norm(tree):
    """The global L2 norm of a pytree."""
    leaves = jax.tree.leaves(tree)
    return jnp.sqrt(sum(jnp.sum(jnp.reshape(x, newshape=(-1,)) ** 2) for x in leaves))


@partial(jax.jit, static_argnums=(1,))
def sharded_loss(x, mesh):
    """Mean squared value of `x`, computed per shard over the mesh's 'data' axis."""
    per_shard = shard_map(
        lambda block: jnp.mean(block**2, keepdims=True), mesh, in_specs=P("data"), out_specs=P()
    )
    return jnp.mean(per_shard(x))


def make_data_mesh(devices):
    return jax.make_mesh((len(devices),), ("data",), devices)
