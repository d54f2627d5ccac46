"""Backports and adapters of names: the newest JAX API built from an older release's own operations.

Each module serves one JAX module, or one part of one (``numpy_linalg.py``: ``jax.numpy.linalg``;
``nn_attention.py``: ``jax.nn.dot_product_attention``). A *backport* is a function the
stable-name table names as a source (``jaxcompat._backports.tree:tree_broadcast``); an
*adapter* takes the object JAX has under an old name or signature and returns it with the
newest call signature (``Source.adapter``). Both are only imported when the installed JAX needs
them, and both match the newest JAX's results, or raise a TypeError that names the JAX release
the call needs. The newest keywords of a release's own functions are ``_keywords/``.
"""
