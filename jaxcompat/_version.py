"""Detect: the installed JAX and jaxlib releases, read once at import.

This is the only module that reads JAX's version. Everything else uses the int tuples below,
never version strings (``"0.10.2" >= "0.4.31"`` is False); ``_releases.parse_release`` makes
them.
"""

from __future__ import annotations

from ._releases import parse_release

__all__ = ["JAXLIB_VERSION", "JAXLIB_VERSION_STRING", "JAX_VERSION", "JAX_VERSION_STRING"]

_PINS_HINT = (
    "JAX releases up to 0.4.25 need 'numpy<2' (and up to 0.4.23 also 'scipy<1.13'); "
    "see matrix.yml in the jaxcompat repository for the pins each release needs."
)


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
