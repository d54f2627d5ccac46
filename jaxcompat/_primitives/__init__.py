"""Implement: the stable primitives, which each ``jax_*`` backend chooses from and configures.

The jit of a plain function and its options (``jitting``, ``jit_object``, ``jit_options``),
its AOT stages (``aot``), cycle screening where jaxlib's flatten segfaults (``cycles``),
tracer-safe hashing (``hashing``), control flow that accepts callables hashing tracers
(``control_flow``) and ``block_if_array`` (``arrays``); what their walks ask of a leaf's
type, once per type, is ``leaf_types``. The method jit, which is the same on every release,
is ``methods``. Nothing here imports a backend at import time: the backends
(``jaxcompat._backends``) import this package, never the other way round.
"""
