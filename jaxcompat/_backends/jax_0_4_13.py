"""JAX 0.4.13, the oldest supported release, up to 0.4.18.

What this release does, and what jaxcompat does about it:

* ``jax.jit`` has no ``donate_argnames`` (JAX 0.4.18 added it), and 0.4.13 never donates an
  argument passed by keyword, so translating names to positions would silently skip some
  donations. ``jaxcompat.jit`` raises a TypeError naming 0.4.18 instead.
* ``jax.jit`` has no ``compiler_options`` (JAX 0.4.36): a TypeError names 0.4.36 and points to
  ``lower(...).compile(compiler_options)``, which this release supports.
* ``lower`` lives in the jitted function's instance ``__dict__`` (until JAX 0.6.0), so
  ``functools.wraps`` copies it: the jit of a plain function is a :class:`Jitted`.
* The jit has no ``eval_shape`` (0.4.24) nor ``trace`` (0.4.29): both are backported.
* jaxlib's C++ flatten of a jitted call's arguments segfaults on an argument that contains
  itself (a list, a dict, a registered pytree node) and on 100,000 levels of nesting (2,000
  levels, past the recursion limit, raise RecursionError); ``lower`` raises RecursionError
  on all of them. Later releases never segfault: measured each probe in its own interpreter,
  a jitted call, ``lower``, ``trace`` and ``eval_shape`` raise RecursionError (0.4.18, 0.4.30)
  or SystemError (0.5.3, 0.6.0, 0.8.0, 0.12.0.1) for a cyclic list and for deep nesting, and
  for a cyclic dict or node the jitted call ends the interpreter (exit status 1) while the
  stages raise RecursionError and leave it broken (0.5.3-0.8.0) or end it too (0.12.0.1).
  Here only, every jitted function and method, its ``lower``, ``trace`` and ``eval_shape``,
  and ``jaxcompat.lower``/``trace`` refuse such an argument first (``flatten_segfaults``):
  a ValueError naming where the cycle closes, a RecursionError past the recursion limit.
* ``Compiled.cost_analysis()`` returns a list of dicts (a dict from JAX 0.5.0): normalized.
* ``hash(tracer)`` is silent and id-based (it warns from 0.4.30), so ``jax.lax``'s own
  control flow already accepts callables that hash tracers, and is handed back as is
  (``fori_loop`` and ``scan`` with their newest signatures).
"""

# Hashing a tracer is silent here, so jax.lax's own control flow is handed back as is, with
# the newest signatures of fori_loop and scan (unroll=, JAX 0.4.22; xs=None, 0.4.27).
from jax.lax import cond as cond
from jax.lax import switch as switch
from jax.lax import while_loop as while_loop

from .._keywords.rules.backports import jit_options_before
from .._primitives import aot, control_flow, hashing, jitting
from .._primitives.arrays import block_if_array as block_if_array
from .._primitives.hashing import is_tracer as is_tracer

fori_loop = control_flow.newest_fori_loop
scan = control_flow.newest_scan

#: Whether ``treedef.flatten_up_to`` raises where a None of the treedef faces a leaf: not up to
#: jaxlib 0.4.33 (measured), so tracer_safe_hash keeps no structure that holds a None.
FLATTEN_UP_TO_CHECKS_NONE = False
tracer_safe_hash = hashing.make_tracer_safe_hash(
    hash, flatten_up_to_checks_none=FLATTEN_UP_TO_CHECKS_NONE
)

jit, lower, trace = jitting.make_jit(
    jitting.JitTraits(
        missing_options=jit_options_before("0.4.13"),
        native_trace=False,
        native_eval_shape=False,
        normalize_lowered=aot.dict_cost_lowered,
        flatten_segfaults=True,
    )
)
