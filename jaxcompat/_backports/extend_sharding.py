"""``jax.extend.sharding`` (JAX 0.7.0) for the releases before it.

The module gives the GSPMD sharding class and three conversions between serialized
``OpSharding`` protos and jaxlib's ``HloSharding``. Every release has the class (in
``jax._src.sharding_impls``) and jaxlib's proto and sharding types; the conversions are one
or two calls of jaxlib's own API.
"""

from __future__ import annotations

import importlib
from typing import Any

from jax._src import sharding_impls as jax_sharding_impls

__all__ = [
    "GSPMDSharding",
    "get_hlo_sharding_from_serialized_proto",
    "get_op_sharding_from_serialized_proto",
    "get_serialized_proto_from_hlo_sharding",
]

# Private on every release; the typed jaxlib stubs do not export it.
xla_client: Any = importlib.import_module("jax._src.lib").xla_client

GSPMDSharding: Any = jax_sharding_impls.GSPMDSharding


def get_op_sharding_from_serialized_proto(sharding: bytes) -> Any:
    """The ``xla_client.OpSharding`` that ``sharding`` serializes."""
    proto = xla_client.OpSharding()
    proto.ParseFromString(sharding)
    return proto


def get_hlo_sharding_from_serialized_proto(sharding: bytes) -> Any:
    """The ``xla_client.HloSharding`` that ``sharding`` serializes."""
    return xla_client.HloSharding.from_proto(get_op_sharding_from_serialized_proto(sharding))


def get_serialized_proto_from_hlo_sharding(sharding: Any) -> bytes:
    """``sharding`` (an ``xla_client.HloSharding``) as a serialized ``OpSharding``."""
    serialized: bytes = sharding.to_proto().SerializeToString()
    return serialized
