"""Diagnose the environment for ``python -m jaxcompat``: what is wrong, and the fix.

Nothing here imports JAX or the modules that read it. ``import jaxcompat`` has already tried
JAX once and kept the ImportError in ``jaxcompat._JAX_IMPORT_ERROR``; this module explains that
error from what the attempt left behind (the error's cause, which modules did import), and says
whether a working JAX is a release that matrix.yml tests (the package carries its rows as
jaxcompat/_data/matrix.json).
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from dataclasses import asdict, dataclass
from typing import Any

from jaxcompat._backends import backend_floors
from jaxcompat._releases import parse_release

__all__ = [
    "BACKEND_ENV_VAR",
    "Finding",
    "diagnose_import",
    "installed_jax",
    "matrix_rows",
    "newer_than_every_row",
    "tested_finding",
]

#: The variable that forces a backend (read by jaxcompat._dispatch, which needs JAX).
BACKEND_ENV_VAR = "JAXCOMPAT_BACKEND"

_PINS_RULE = (
    "JAX releases up to 0.4.25 need 'numpy<2', and up to 0.4.23 also 'scipy<1.13'"
    " (matrix.yml lists the pins of each release)"
)


@dataclass(frozen=True)
class Finding:
    """One problem: a stable code, what was found, and how to fix it."""

    problem: str  # jax-missing, jax-broken, jax-too-old, bad-backend, untested, jax-unusable
    finding: str
    fix: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def _pip(*requirements: str) -> str:
    return "pip install " + " ".join(f"'{r}'" if "<" in r or ">" in r else r for r in requirements)


def matrix_rows() -> tuple[list[dict[str, Any]] | None, str]:
    """The tested rows (jax, jaxlib, pins), from the package's copy of matrix.yml."""
    from jaxcompat import _matrix

    rows = [{"jax": r.jax, "jaxlib": r.jaxlib, "pins": list(r.pins)} for r in _matrix.rows()]
    return rows, "jaxcompat/_data/matrix.json"


def newer_than_every_row(installed: tuple[int, ...], rows: list[dict[str, Any]]) -> bool:
    """True when JAX ``installed`` is newer than every tested release: untested, but served by
    the newest backend, so a passing self-check makes it a warning rather than a problem."""
    return installed > max(parse_release(str(row["jax"])) for row in rows)


def _row_requirements(row: dict[str, Any]) -> list[str]:
    return [f"jax=={row['jax']}", f"jaxlib=={row['jaxlib']}", *row.get("pins", ())]


def installed_jax() -> tuple[str | None, str | None]:
    """The JAX and jaxlib versions, from the imported modules or else the installed metadata."""
    found: list[str | None] = []
    for name in ("jax", "jaxlib"):
        module = sys.modules.get(name)
        version = getattr(module, "__version__", None) if module is not None else None
        if version is None:
            try:
                version = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                version = None
        found.append(str(version) if version is not None else None)
    return found[0], found[1]


def _bad_backend(environ: dict[str, str] | os._Environ[str]) -> Finding | None:
    forced = environ.get(BACKEND_ENV_VAR)
    floors = backend_floors()
    if not forced or forced in floors:
        return None
    return Finding(
        "bad-backend",
        f"{BACKEND_ENV_VAR}={forced!r} names no jaxcompat backend.",
        f"Unset {BACKEND_ENV_VAR} to select the backend by the installed JAX, or set it to one "
        f"of: {', '.join(floors)}.",
    )


def _broken_fix(jax_version: str | None) -> str:
    rows, _ = matrix_rows()
    row = next((r for r in rows or () if str(r["jax"]) == jax_version), None)
    if row is not None and row.get("pins"):
        return f"Install the companions JAX {jax_version} needs: {_pip(*row.get('pins', ()))}."
    return f"Reinstall JAX with the companion releases it needs: {_PINS_RULE}."


def diagnose_import(
    error: ImportError, environ: dict[str, str] | os._Environ[str] = os.environ
) -> list[Finding]:
    """Explain the ImportError that ``import jaxcompat`` kept: one or two findings."""
    findings = []
    bad_backend = _bad_backend(environ)
    cause = error.__cause__
    jax_version, _ = installed_jax()
    oldest = min(backend_floors().values())
    oldest_text = ".".join(map(str, oldest))
    if isinstance(cause, ModuleNotFoundError) and cause.name in ("jax", "jaxlib"):
        findings.append(
            Finding(
                "jax-missing",
                f"{cause.name} is not installed, and jaxcompat needs JAX {oldest_text} or newer.",
                f"Install JAX: pip install -U jax jaxlib (or {_pip(f'jax>={oldest_text}')}).",
            )
        )
    elif "jaxcompat._version" not in sys.modules and "jax" not in sys.modules:
        # JAX is installed but its import raised (for example an old jaxlib under numpy 2).
        reason = f"{type(cause).__name__}: {cause}" if cause is not None else str(error)
        shown = f"JAX {jax_version}" if jax_version else "JAX"
        findings.append(
            Finding(
                "jax-broken",
                f"{shown} is installed but fails to import: {reason}",
                _broken_fix(jax_version),
            )
        )
    elif bad_backend is not None:
        return [bad_backend]
    else:
        # JAX imported and its version was read (jaxcompat._version is loaded), so the
        # backend selection refused it.
        version_module = sys.modules.get("jaxcompat._version")
        release = getattr(version_module, "JAX_VERSION", None)
        if release is not None and release < oldest:
            findings.append(
                Finding(
                    "jax-too-old",
                    f"JAX {jax_version} is installed; jaxcompat supports JAX {oldest_text} "
                    "and newer.",
                    f"Upgrade JAX: {_pip('-U', f'jax>={oldest_text}', f'jaxlib>={oldest_text}')}.",
                )
            )
        else:
            findings.append(
                Finding(
                    "jax-unusable",
                    str(error),
                    "Reinstall JAX from a release: pip install -U --force-reinstall jax jaxlib.",
                )
            )
    if bad_backend is not None:
        findings.append(bad_backend)
    return findings


def tested_finding(
    installed: tuple[int, ...], shown: str, rows: list[dict[str, Any]]
) -> Finding | None:
    """None if JAX ``installed`` is a row of ``rows`` (matrix.yml); else why not, and the fix."""
    by_release = {parse_release(str(row["jax"])): row for row in rows}
    if installed in by_release:
        return None
    newest = max(by_release)
    if installed > newest:
        row = by_release[newest]
        return Finding(
            "untested",
            f"JAX {shown} is newer than every release this jaxcompat is tested on (newest "
            f"tested: {row['jax']}); it runs on the newest backend, untested.",
            "Upgrade jaxcompat (pip install -U jaxcompat) to a release that tests it, or "
            f"install the newest tested JAX: {_pip(*_row_requirements(row))}.",
        )
    below = max((r for r in by_release if r < installed), default=newest)
    row = by_release[below]
    return Finding(
        "untested",
        f"JAX {shown} is not a release this jaxcompat is tested on (not a row of matrix.yml).",
        f"Install the nearest tested release: {_pip(*_row_requirements(row))}.",
    )
