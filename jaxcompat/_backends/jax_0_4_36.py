"""JAX 0.4.36 up to 0.6.0.

What this range does, and what jaxcompat does about it:

* ``Tracer.__hash__`` is None (the ``tracer-hash`` deprecation completed): ``hash(tracer)``
  raises TypeError. ``tracer_safe_hash`` tries ``hash`` and falls back to hashing by
  structure, with tracers by identity.
* ``jax.lax`` control flow hashes the callables it is given, and so raises for callables that
  hash tracers: jaxcompat passes such callables through a fresh function.
* ``jax.jit`` gains ``compiler_options`` at 0.4.36: passed through.
* ``lower``, ``eval_shape`` and ``trace`` live in the jitted function's instance ``__dict__``
  (until JAX 0.6.0): the jit of a plain function is a :class:`Jitted`. ``trace`` is JAX's
  own.
* ``Compiled.cost_analysis()`` returns a list of dicts up to 0.4.38 and a dict from 0.5.0:
  normalized to the dict (a no-op on 0.5.x).
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
        missing_options=jit_options_before("0.4.36"),
        native_trace=True,
        native_eval_shape=True,
        normalize_lowered=aot.dict_cost_lowered,
        normalize_traced=functools.partial(aot.swap_class, cls=aot.dict_cost_traced_class()),
    )
)
