"""JAX 0.4.18 up to 0.4.30.

What this range does, and what jaxcompat does about it:

* ``jax.jit`` gains ``donate_argnames`` at 0.4.18, so the option is passed through.
* ``jax.jit`` has no ``compiler_options`` (JAX 0.4.36): a TypeError names 0.4.36 and points to
  ``lower(...).compile(compiler_options)``, which this range supports.
* ``lower`` (and ``eval_shape`` from 0.4.24, ``trace`` from 0.4.29) live in the jitted
  function's instance ``__dict__`` (until JAX 0.6.0), so ``functools.wraps`` copies them onto
  wrappers, which then silently skip the wrapper: the jit of a plain function is a
  :class:`Jitted`.
* ``eval_shape`` and ``trace`` are backported for the whole range, so 0.4.18-0.4.28, which
  lack them, behave exactly like 0.4.29, which has them.
* ``Compiled.cost_analysis()`` returns a list of dicts (a dict from JAX 0.5.0): normalized.
* jaxlib's flatten no longer segfaults on an argument that contains itself or nests too
  deeply (it raises, or for a cyclic dict ends the interpreter, as under ``jax.jit``): the
  arguments of a jitted call reach JAX unscreened.
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
        missing_options=jit_options_before("0.4.18"),
        native_trace=False,
        native_eval_shape=False,
        normalize_lowered=aot.dict_cost_lowered,
    )
)
