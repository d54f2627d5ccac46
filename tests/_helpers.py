"""Helpers shared by the tests."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The jaxcompat under test, found without importing it: the checkout's package, or the
# installed wheel's when the suite runs from a copy of the tests (JAXCOMPAT_WHEEL).
_FOUND = importlib.util.find_spec("jaxcompat")
assert _FOUND is not None and _FOUND.origin is not None, "jaxcompat is not installed"
PACKAGE = Path(_FOUND.origin).resolve().parent


@dataclass(frozen=True)
class NoxParam:
    """What ``nox.param`` records, for a stand-in nox module that loads a noxfile."""

    args: tuple[Any, ...]
    id: str | None
    tags: tuple[str, ...]


def load_docs_generator() -> Any:
    """tools/gen_docs.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered first: its dataclasses look their module up while being built.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def nox_param(*args: Any, arg_names: Any = None, id: str | None = None, tags: Any = None):
    """``nox.param``'s signature, giving a :class:`NoxParam`."""
    assert arg_names is None
    return NoxParam(args, id, tuple(tags or ()))


def run_python(code: str, *, env: dict[str, str] | None = None, path: list[str] | None = None):
    """Run ``code`` in a fresh interpreter that imports the jaxcompat under test.

    JAX deprecations that the matrix accelerates (``JAXCOMPAT_TEST_ACCELERATE``, read by
    conftest.py) are accelerated in the fresh interpreter too, before ``code`` runs.
    """
    environment = {**os.environ, **(env or {})}
    accelerate = [n for n in environment.get("JAXCOMPAT_TEST_ACCELERATE", "").split(",") if n]
    if accelerate:
        code = (
            "try:\n"
            "    from jax._src import deprecations\n"
            "except ImportError:\n"  # no JAX, or a stand-in that only carries a version
            "    pass\n"
            "else:\n"
            f"    for name in {accelerate!r}:\n"
            "        deprecations.accelerate(name)\n"
        ) + code
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


def stub_jax(directory: Path, version: str) -> list[str]:
    """Write ``jax`` and ``jaxlib`` packages that only carry ``version``; return the path.

    For the checks jaxcompat makes before it needs JAX itself: a fresh interpreter on this
    path starts in milliseconds instead of importing the real JAX.
    """
    for name in ("jax", "jaxlib"):
        (directory / name).mkdir()
        (directory / name / "__init__.py").write_text(f"__version__ = {version!r}\n")
    return [str(directory)]


def aligned_host_array(size: int) -> Any:
    """A float32 array of 0..size-1 whose buffer starts on a 64-byte boundary, which DLPack
    may hand over without a copy (an unaligned one is always copied)."""
    import numpy as np  # here, not above: the packaging session installs no NumPy

    raw = np.empty(size + 16, np.float32)
    start = (-raw.ctypes.data % 64) // raw.itemsize
    array = raw[start : start + size]
    array[:] = np.arange(size)
    return array
