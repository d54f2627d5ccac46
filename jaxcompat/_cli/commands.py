"""``jaxcompat check`` and ``jaxcompat migrate`` without importing JAX.

Both commands read source text only, yet either way of starting them imports this package
first: ``python -m jaxcompat`` imports ``jaxcompat`` before it runs ``__main__``, and the
console script's ``jaxcompat._cli.commands`` is a submodule. Importing JAX took 2.7 s of the 2.8 s
of a check of one file. So the package's ``__init__`` asks ``requested_command`` first, and
when this process is one of those two commands, runs it and exits before anything imports
JAX. In every other process (``import jaxcompat as jax`` above all) it returns None and the
package is built as always, the same objects by ``is``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

__all__ = ["console", "requested_command", "run"]

#: The commands, each with the module that has its ``main(argv) -> int``: the one table of
#: them, which ``python -m jaxcompat`` and the console script read too. None reads JAX.
COMMANDS = {
    "check": "jaxcompat._checker._cli",
    "migrate": "jaxcompat._checker._migrate_cli",
    "matrix": "jaxcompat._matrix.cli",
    "floor": "jaxcompat._matrix.floor",
}

#: What runs without a command: ``python -m jaxcompat``'s report of the installed JAX, which
#: reads JAX (loaded by name, as the commands are, only when it runs).
REPORT = "jaxcompat.__main__"

#: Python's options that take a value in the next argument.
_OPTIONS_WITH_VALUE = frozenset({"-X", "-W", "--check-hash-based-pycs"})


def _module_run_by_python(argv: list[str]) -> tuple[str, list[str]] | None:
    """(module, its arguments) when the interpreter was started with ``-m module``."""
    index = 1
    while index < len(argv):
        argument = argv[index]
        if argument == "-m":
            return (argv[index + 1], argv[index + 2 :]) if index + 1 < len(argv) else None
        if argument.startswith("-m"):
            return argument[2:], argv[index + 1 :]
        if argument in _OPTIONS_WITH_VALUE:
            index += 2
        elif argument.startswith("-") and argument not in ("-", "-c"):
            index += 1
        else:
            return None  # a script, standard input or -c: no -m
    return None


def requested_command() -> str | None:
    """``check`` or ``migrate`` when this process is ``python -m jaxcompat check ...`` (or
    ``migrate``), or the ``jaxcompat`` console script given that command; else None."""
    run_by_python = _module_run_by_python(list(getattr(sys, "orig_argv", [])))
    if run_by_python is not None:
        module, arguments = run_by_python
        if module == "jaxcompat" and arguments[:1] and arguments[0] in COMMANDS:
            return arguments[0]
        return None
    # The console script is the main module, run as a file (on Windows jaxcompat.exe runs
    # jaxcompat-script.py, or a zip of __main__.py, beside it).
    main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    started = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else ""
    scripts = ("jaxcompat", "jaxcompat-script")
    is_script = started in scripts and Path(main_file).stem in (*scripts, "__main__")
    if is_script and sys.argv[1:2] and sys.argv[1] in COMMANDS:
        return sys.argv[1]
    return None


def run(command: str) -> None:
    """Run ``command`` with this process's arguments, then exit with its code."""
    raise SystemExit(_run_command(command, sys.argv[2:]))


def console() -> int:
    """The ``jaxcompat`` console script: a command of ``COMMANDS`` (``jaxcompat check
    ...``), else the report (``python -m jaxcompat``).

    It dispatches before ``jaxcompat.__main__`` is imported, as that module needs JAX.
    """
    if sys.argv[1:2] and sys.argv[1] in COMMANDS:
        return _run_command(sys.argv[1], sys.argv[2:])
    from .pipes import quiet_on_closed_pipe

    report = importlib.import_module(REPORT).main
    return quiet_on_closed_pipe(report, sys.argv[1:])


def _run_command(command: str, arguments: list[str]) -> int:
    from .pipes import quiet_on_closed_pipe

    main = importlib.import_module(COMMANDS[command]).main
    return quiet_on_closed_pipe(main, arguments)
