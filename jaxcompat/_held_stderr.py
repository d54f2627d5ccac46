"""Hold what importing JAX writes to ``sys.stderr`` until the import is known to succeed.

Under NumPy 2, importing a jaxlib built against NumPy 1 (JAX 0.4.25 and older) makes NumPy
write a banner and a stack trace to ``sys.stderr`` before the import fails. jaxcompat keeps
that failure and explains it with the fix (``python -m jaxcompat``, the pytest header), so the
banner only buries the explanation: it is dropped when the import fails, and written out
unchanged when it succeeds.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["stderr_held_until_success"]


class _HeldStream:
    """Stands in for ``sys.stderr``: collects writes, then passes them to the real stream.

    A logging handler made during the import keeps this object; once released it writes
    straight through, as the stream it replaced would.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._held: list[str] | None = []

    def write(self, text: str) -> int:
        if self._held is None:
            return self._stream.write(text)
        self._held.append(text)
        return len(text)

    def flush(self) -> None:
        if self._held is None:
            self._stream.flush()

    def release(self, *, replay: bool) -> None:
        held, self._held = self._held or [], None
        if replay and held:
            self._stream.write("".join(held))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def stderr_held_until_success() -> Iterator[None]:
    """Hold writes to ``sys.stderr`` in the block; drop them if it raises, else write them."""
    original = sys.stderr
    if original is None:  # no stderr at all (pythonw): nothing to hold
        yield
        return
    held = _HeldStream(original)
    sys.stderr = held
    try:
        yield
    except BaseException:
        held.release(replay=False)
        raise
    else:
        held.release(replay=True)
    finally:
        if sys.stderr is held:
            sys.stderr = original
