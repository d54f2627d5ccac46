"""The newest keywords on releases whose function lacks them.

``adapter.py`` wraps a release's function once, on first lookup, by the rules of
``_stable_names/keywords.py``; ``values.py`` holds what its wrappers share (which values are the
default, the clear error, the newest signature shown). Every other module holds the helpers
that honour a keyword, each named by its rule as ``module:function`` under ``jaxcompat``
(``"_keywords.numpy:filled_to_size"``) and imported by ``adapter.helper`` when a wrap needs it.
"""
