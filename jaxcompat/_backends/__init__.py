"""Implement: one module per JAX behaviour breakpoint, named by its floor.

``jax_X_Y_Z.py`` serves JAX ``X.Y.Z`` up to the next floor. Each one provides every name in
``jaxcompat._contract.BACKEND_NAMES`` and never imports another ``jax_*`` module, so dropping
support for old JAX releases deletes whole files. Version-agnostic machinery lives in
``_common``; a backend chooses and configures it, and its docstring names the JAX changes that
force its floor.
"""
