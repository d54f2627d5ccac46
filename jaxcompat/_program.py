"""The name the command line calls itself: ``jaxcompat`` or ``python -m jaxcompat``.

Each command's help and messages name it as it was started, so that a command copied from
them runs: the console script installs ``jaxcompat``, and ``python -m jaxcompat`` works
where the scripts folder is not on PATH.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["program_name"]


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
