"""pinnedlib: parameter utilities and a sharded loss, on JAX 0.4.20 to 0.6."""

from pinnedlib._compat import Primitive, typeof
from pinnedlib.ops import clip_grads, flat_norm, sharded_loss

__all__ = ["Primitive", "clip_grads", "flat_norm", "sharded_loss", "typeof"]
