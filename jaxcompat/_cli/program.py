"""What every command shares: the name the command line calls itself (``jaxcompat`` or
``python -m jaxcompat``), and how it reads its arguments.

Each command's help and messages name it as it was started, so that a command copied from
them runs: the console script installs ``jaxcompat``, and ``python -m jaxcompat`` works
where the scripts folder is not on PATH.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["parse_arguments", "program_name"]


def parse_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """`argv` parsed, or the exit code where argparse stopped: 0 after ``--help``, 2 after a
    usage error it has printed. A command returns the code rather than raising SystemExit,
    so that its caller (a test, ``quiet_on_closed_pipe``) sees no traceback."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exit:
        return 0 if exit.code == 0 else 2


def program_name(argv0: str | None = None) -> str:
    """``jaxcompat`` when started as the console script (``argv[0]`` is the script), else
    ``python -m jaxcompat`` (``argv[0]`` is ``jaxcompat/__main__.py``, or Python's ``-c``)."""
    started = sys.argv[0] if argv0 is None else argv0
    # On Windows the script is jaxcompat.exe, or jaxcompat-script.py beside it.
    return (
        "jaxcompat"
        if Path(started).stem in ("jaxcompat", "jaxcompat-script")
        else ("python -m jaxcompat")
    )
