"""Detect: the installed JAX and jaxlib releases, read once at import.

This is the only module that reads JAX's version. Everything else uses the int tuples below,
never version strings (``"0.10.2" >= "0.4.31"`` is False).
"""

from __future__ import annotations

import re

__all__ = ["JAXLIB_VERSION", "JAXLIB_VERSION_STRING", "JAX_VERSION", "JAX_VERSION_STRING"]

# PEP 440 release segment at the start of the string. What may follow is a pre-release
# (``rc1``), a dev build (``.dev20240601``), a post release or a local label (``+cuda12``).
_RELEASE = re.compile(r"\s*v?(?P<release>\d+(?:\.\d+)*)(?P<rest>(?:[.+_-]?[A-Za-z].*)?)\s*\Z")

_PINS_HINT = (
    "JAX releases up to 0.4.25 need 'numpy<2' (and up to 0.4.23 also 'scipy<1.13'); "
    "see matrix.yml in the jaxcompat repository for the pins each release needs."
)


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


def _read_installed() -> tuple[str, str]:
    from ._held_stderr import stderr_held_until_success

    try:
        with stderr_held_until_success():  # no NumPy 2 banner before jaxcompat's diagnosis
            import jax
    except ImportError as error:
        if getattr(error, "name", None) in ("jax", "jaxlib"):
            raise ImportError(
                "jaxcompat needs JAX, which is not installed. Install it with "
                "`pip install jax` (or `pip install 'jax>=0.4.13'` for an older release)."
            ) from error
        raise ImportError(
            f"JAX is installed but failed to import: {error}. {_PINS_HINT}"
        ) from error
    except Exception as error:  # a broken install, e.g. an old jaxlib under numpy 2
        raise ImportError(
            f"JAX is installed but failed to import ({type(error).__name__}: {error}). {_PINS_HINT}"
        ) from error
    import jaxlib

    return jax.__version__, getattr(jaxlib, "__version__", "unknown")


JAX_VERSION_STRING, JAXLIB_VERSION_STRING = _read_installed()
try:
    JAX_VERSION: tuple[int, ...] = parse_release(JAX_VERSION_STRING)
except ValueError as _error:
    raise ImportError(
        f"jaxcompat cannot read the installed JAX release {JAX_VERSION_STRING!r}: {_error}. "
        "Reinstall JAX from a release or a nightly wheel."
    ) from None
try:
    JAXLIB_VERSION: tuple[int, ...] = parse_release(JAXLIB_VERSION_STRING)
except ValueError:
    JAXLIB_VERSION = ()
