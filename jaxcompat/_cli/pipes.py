"""Command-line output to a reader that stops reading early (``| head -c1``).

Standard library only: ``python -m jaxcompat`` uses it where JAX, or ``packaging``, is missing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

__all__ = ["quiet_on_closed_pipe"]


def quiet_on_closed_pipe(command: Callable[[list[str]], int], argv: list[str]) -> int:
    """Run a command; if whoever reads its output stops reading (``| head -c1``), end quietly.

    Python's own recipe: point stdout at /dev/null so the flush at exit cannot fail again.
    """
    try:
        code = command(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as the shell reports a command that SIGPIPE ended
    return code
