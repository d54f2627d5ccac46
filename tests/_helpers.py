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


def run_in_threads(worker, count: int) -> list[BaseException]:
    """Run ``worker(i)`` on ``count`` threads started together; return what they raised."""
    import threading

    errors: list[BaseException] = []
    barrier = threading.Barrier(count)

    def run(i):
        try:
            barrier.wait()
            worker(i)
        except BaseException as error:  # reported on the main thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors
