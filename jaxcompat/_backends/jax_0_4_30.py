"""JAX 0.4.30 up to 0.4.36.

What this range does, and what jaxcompat does about it:

* ``hash(tracer)`` emits ``FutureWarning: unhashable type ... Attempting to hash a tracer will
  lead to an error in a future JAX release`` before hashing by id (jax-ml/jax#21517; the
  ``tracer-hash`` deprecation). jaxcompat wraps ``Tracer.__hash__``: when the calling
  thread's stack holds ``tracer_safe_hash``, a tracer hashes by identity, quietly; anywhere
  else JAX's own method runs unchanged (warning, or TypeError when the deprecation is
  accelerated).
* ``jax.lax`` control flow hashes the callables it is given, and so warns for callables that
  hash tracers: jaxcompat passes such callables through a fresh function.
* ``jax.jit`` has no ``compiler_options`` (JAX 0.4.36): a TypeError names 0.4.36.
* ``lower``, ``eval_shape`` and ``trace`` live in the jitted function's instance ``__dict__``
  (until JAX 0.6.0): the jit of a plain function is a :class:`Jitted`. ``trace`` is JAX's
  own.
* ``Compiled.cost_analysis()`` returns a list of dicts (a dict from JAX 0.5.0): normalized.
"""

import functools

import jax

from .._keywords.rules.backports import jit_options_before
from .._primitives import aot, hashing, jitting
from .._primitives.arrays import block_if_array as block_if_array
from .._primitives.control_flow import cond as cond
from .._primitives.control_flow import fori_loop as fori_loop
from .._primitives.control_flow import scan as scan
from .._primitives.control_flow import switch as switch
from .._primitives.control_flow import while_loop as while_loop
from .._primitives.hashing import is_tracer as is_tracer

#: Whether ``treedef.flatten_up_to`` raises where a None of the treedef faces a leaf: not up to
#: jaxlib 0.4.33 (measured), so tracer_safe_hash keeps no structure that holds a None. 0.4.34
#: and 0.4.35 do raise; they share this backend and its safe choice.
FLATTEN_UP_TO_CHECKS_NONE = False
tracer_safe_hash = hashing.make_tracer_safe_hash(
    hash, flatten_up_to_checks_none=FLATTEN_UP_TO_CHECKS_NONE
)
hashing.quiet_tracer_hash_inside(jax.core.Tracer, tracer_safe_hash)  # type: ignore[arg-type]

jit, lower, trace = jitting.make_jit(
    jitting.JitTraits(
        missing_options=jit_options_before("0.4.30"),
        native_trace=True,
        native_eval_shape=True,
        normalize_lowered=aot.dict_cost_lowered,
        normalize_traced=functools.partial(aot.swap_class, cls=aot.dict_cost_traced_class()),
    )
)
