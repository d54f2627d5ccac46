"""A release string as an int tuple: the one way jaxcompat reads a release.

``"0.10.2" >= "0.4.31"`` is False as strings, so every comparison of releases is of the int
tuples this gives. It imports nothing but the standard library, so that the command-line
tools, which must not import JAX, read releases the way the runtime does
(``jaxcompat._version`` reads the installed JAX's with it).
"""

from __future__ import annotations

import re

__all__ = ["parse_release"]

# PEP 440 release segment at the start of the string. What may follow is a pre-release
# (``rc1``), a dev build (``.dev20240601``), a post release or a local label (``+cuda12``).
_RELEASE = re.compile(r"\s*v?(?P<release>\d+(?:\.\d+)*)(?P<rest>(?:[.+_-]?[A-Za-z].*)?)\s*\Z")


def parse_release(text: str) -> tuple[int, ...]:
    """Return the release numbers of a PEP 440 version string as a tuple of ints.

    Pre-releases, dev builds and local labels map to the release they lead up to, so
    ``0.5.0rc1``, ``0.4.31.dev20240601`` and ``0.4.30+cuda12`` give ``(0, 5, 0)``,
    ``(0, 4, 31)`` and ``(0, 4, 30)``; a four-part release such as ``0.9.0.1`` keeps all
    four numbers. JAX's dev builds and release candidates carry the behaviour of the
    release they precede, so they select that release's backend.
    """
    match = _RELEASE.match(text)
    if match is None:
        raise ValueError(f"not a PEP 440 version string: {text!r}")
    return tuple(int(part) for part in match.group("release").split("."))
