"""``jaxcompat check``: a static checker for what in a library breaks on which JAX release.

It reads a library's source (nothing is imported or run, and the installed JAX does not
matter), resolves every use of a JAX or jaxcompat name, and reports each use that fails,
warns, or changes meaning on a JAX release in the range the library claims, with the
jaxcompat name that fixes it. The modules, in the order the data flows:

- ``_ranges``: the releases under test (``--jax``, the nearest pyproject.toml, or all);
- ``_api``: what the API surface data and the stable-name table say about a name;
- ``_gates``, ``_resolve`` and ``_uses``: imports, attribute chains, calls, and version
  gates, and the uses and gates they find;
- ``_rules``: the findings and their codes; ``_module_findings``, ``_config_findings`` and
  ``_array_findings`` those on modules, ``jax.config`` options and array attributes, from
  ``_module_data`` (the module surface data);
- ``_output`` and ``_cli``: printing and the command line;
- ``_files``: which files both commands read, and how.

``jaxcompat migrate`` is here too: ``_migrate`` rewrites one file's source to import
jaxcompat, ``_migrate_cli`` is its command line.
"""

from __future__ import annotations

from ._cli import main

__all__ = ["main"]
