"""The newest keywords on releases whose function lacks them: the rules, and what honours them.

``rules/`` is plain data that imports nothing from JAX (``jaxcompat check`` and the docs read
it without JAX): ``rules/functions.py`` says what each newest keyword of a function becomes
before the first release that takes it, as a typed outcome of ``rules/kinds.py`` (a
``Refusal``, or a ``Helper`` that honours it); ``rules/classes.py`` lists the newest keywords
of JAX's classes (jaxcompat gives JAX's own class, so none is adapted); ``rules/backports.py``
the newest parameters jaxcompat's own backports cannot honour before a release.

``adapter.py`` wraps a release's function once, on first lookup, by those rules; ``values.py``
holds what its wrappers share (which values are the default, the clear error, the newest
signature shown). Every other module holds the helpers that honour a keyword, each named by
its rule as ``module:function`` under ``jaxcompat`` (``"_keywords.numpy:filled_to_size"``)
and imported by ``adapter.helper`` when a wrap needs it.
"""
