"""The method jit: a jitted method reads ``self``'s current state on every call.

Its rules, which users rely on, are written out in ``help(jaxcompat.jit)`` (the
``Methods:`` part of ``jaxcompat._contract.jit``); in short:

* What makes a method is how Python binds it, never its name (``method_binding``).
* The state is what the method can read of ``self``, found in its code before it runs
  (``method_reads``) and followed on each call (``read_paths``).
* Arrays anywhere in that state are traced arguments; everything else is one static key
  compared with ``==`` on every call (``state_walk``, ``instance_state``), so results never
  go stale and equal state shares compiled code, across instances too. While the last
  split's objects are still the very same, the split is reused (``state_guard``).
* While JAX traces, the method runs on a shadow of ``self`` holding tracers (``shadow``);
  state with no value to compare is a stand-in that refuses to be read (``unreadable``);
  what the trace assigns lands on the real objects, and a method whose trace wrote to
  ``self`` is traced once per instance (``trace_writes``).

None of it depends on the JAX release: nothing here is gated on a version. What differs
between releases (how a plain function is jitted, its options, where jaxlib's flatten
segfaults) comes from the backend's ``JitTraits`` and the modules beside this package
(``jaxcompat._primitives``).
"""
