"""JAX 0.6.0 and newer.

What this range does, and what jaxcompat does about it:

* ``lower``, ``eval_shape`` and ``trace`` are methods of the jitted function's type (JAX
  0.6.0), so ``functools.wraps`` no longer copies them, and ``Compiled.cost_analysis()``
  returns a dict (since 0.5.0). JAX's own jitted function behaves as the newest's, so
  ``jaxcompat.jit`` of a plain function is ``jax.jit``'s own object (its type, repr, pickling
  and cost). Methods and classmethods keep jaxcompat's method jit
  (``jaxcompat._primitives.methods``);
  ``@jit`` over ``@staticmethod``, and a jitted method's core, are a :class:`Jitted` around
  JAX's own.
* ``Traced.out_info`` holds ``OutInfo`` tuples without a weak type up to 0.6.2 (JAX 0.7.0
  made them ``ShapeDtypeStruct``): ``jaxcompat.trace`` gives the newest's there, and JAX's
  own ``Traced`` from 0.7.0.
* JAX 0.11.2 made ``jax.jit(f, inline=True)`` mean ``jax.Inline.JAX_LATE`` (the call stays
  a nested ``jit`` equation and is inlined when lowering; before, it is inlined while
  tracing). jaxcompat follows the installed JAX, as the newest JAX defines ``inline=True``:
  the option and every ``jax.Inline`` value pass through unchanged, so no backend starts at
  0.11.2.
* ``Tracer.__hash__`` is None: ``tracer_safe_hash`` falls back to hashing by structure.
* ``jax.lax`` control flow raises for callables that hash tracers: such callables are passed
  through a fresh function.
"""

import functools

from .._keywords.rules.backports import jit_options_before
from .._primitives import aot, hashing, jitting
from .._primitives.arrays import block_if_array as block_if_array
from .._primitives.control_flow import cond as cond
from .._primitives.control_flow import fori_loop as fori_loop
from .._primitives.control_flow import scan as scan
from .._primitives.control_flow import switch as switch
from .._primitives.control_flow import while_loop as while_loop
from .._primitives.hashing import is_tracer as is_tracer

#: Whether ``treedef.flatten_up_to`` raises where a None of the treedef faces a leaf (it does
#: from jaxlib 0.4.34).
FLATTEN_UP_TO_CHECKS_NONE = True
tracer_safe_hash = hashing.make_tracer_safe_hash(
    hash, flatten_up_to_checks_none=FLATTEN_UP_TO_CHECKS_NONE
)

jit, lower, trace = jitting.make_jit(
    jitting.JitTraits(
        missing_options=jit_options_before("0.6.0"),
        native_trace=True,
        native_eval_shape=True,
        normalize_lowered=aot.jax_lowered,
        normalize_traced=functools.partial(
            aot.with_newest_out_info, cls=aot.newest_out_info_traced_class()
        ),
        hand_back_jax_jit=True,
    )
)
