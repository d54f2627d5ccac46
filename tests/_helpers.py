"""Helpers shared by the tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, *, env: dict[str, str] | None = None, path: list[str] | None = None):
    """Run ``code`` in a fresh interpreter that imports the jaxcompat under test."""
    environment = {**os.environ, **(env or {})}
    entries = [*(path or []), str(ROOT)]
    environment["PYTHONPATH"] = os.pathsep.join(entries)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
