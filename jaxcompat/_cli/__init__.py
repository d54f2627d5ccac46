"""The command line: which command a process runs, what it calls itself, and how it ends.

* ``commands``: the one table of commands (``check``, ``migrate``, ``matrix``, ``floor``),
  each with the module that has its ``main(argv) -> int``, and how ``import jaxcompat`` runs
  one of them before anything imports JAX;
* ``program``: the name the command line calls itself (``jaxcompat`` or ``python -m
  jaxcompat``) and how every command reads its arguments;
* ``pipes``: output to a reader that stops reading early (``| head``);
* ``diagnose``: what is wrong with the installed JAX, and the fix, for the report
  (``python -m jaxcompat``, whose entry point is ``jaxcompat/__main__.py``) and the pytest
  plugin's header.

Each command's own module sits with what it runs: ``jaxcompat._checker._cli`` (``check``),
``jaxcompat._checker._migrate_cli`` (``migrate``), ``jaxcompat._matrix.cli`` (``matrix``) and
``jaxcompat._matrix.floor`` (``floor``). Nothing here imports JAX.
"""
