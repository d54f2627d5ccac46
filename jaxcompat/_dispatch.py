"""Select: choose the backend for the installed JAX and import it alone.

A backend is a module ``jaxcompat/_backends/jax_X_Y_Z.py``. Its name is its floor: it serves
JAX ``X.Y.Z`` up to, not including, the next floor. Backends are discovered from the file
names, so supporting a new behaviour breakpoint means adding one file.

The installed release is read in two ways, both here: the backend, chosen once for the
primitives (``BACKEND``); and ``installed_release_in``, which the data-driven layers (the
stable-name table's sources, the keyword rules, the config options) ask of a release range
per name. Elsewhere releases are compared only as int tuples of ``_version``: a rule's own
releases against each other, or the pytest plugin's markers against the installed one.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from . import _backends
from ._backends import backend_floors
from ._releases import parse_release
from ._version import JAX_VERSION, JAX_VERSION_STRING

__all__ = [
    "BACKEND",
    "ENV_VAR",
    "backend",
    "backend_floors",
    "format_release",
    "installed_release_in",
    "select_backend",
]

#: Set to a backend name (e.g. ``jax_0_4_30``) to force that backend, for debugging.
ENV_VAR = "JAXCOMPAT_BACKEND"


def format_release(release: tuple[int, ...]) -> str:
    return ".".join(map(str, release))


def select_backend(
    version: tuple[int, ...],
    floors: dict[str, tuple[int, ...]],
    forced: str | None = None,
    version_string: str | None = None,
) -> str:
    """Return the name of the backend that serves JAX ``version``.

    The newest floor at or below ``version`` wins. A release newer than every floor gets the
    newest backend, silently: new releases are expected to keep the newest behaviour, and the
    report (``python -m jaxcompat``) says when a release is not a tested matrix row.
    """
    if forced:
        if forced not in floors:
            raise ImportError(
                f"{ENV_VAR}={forced!r} names no jaxcompat backend. Valid names: "
                f"{', '.join(floors)}. Unset {ENV_VAR} to select by the installed JAX."
            )
        return forced
    shown = version_string or format_release(version)
    eligible = [name for name, floor in floors.items() if floor <= version]
    if not eligible:
        oldest = format_release(min(floors.values()))
        raise ImportError(
            f"jaxcompat supports JAX {oldest} and newer, but JAX {shown} is installed. "
            f"Upgrade it with `pip install -U 'jax>={oldest}' 'jaxlib>={oldest}'`."
        )
    return eligible[-1]


BACKEND: str = select_backend(
    JAX_VERSION, backend_floors(), os.environ.get(ENV_VAR) or None, JAX_VERSION_STRING
)
backend: ModuleType = importlib.import_module(f"{_backends.__name__}.{BACKEND}")


def installed_release_in(releases: str) -> bool:
    """Whether the installed JAX is in ``releases``, e.g. ``">=0.4.30,<0.6.2"``.

    The stable-name table (``_stable_names/``) gives each source its releases this way.
    """
    for clause in releases.split(","):
        clause = clause.strip()
        operator = clause.rstrip("0123456789.")
        bound = parse_release(clause[len(operator) :])
        if operator == ">=" and not bound <= JAX_VERSION:
            return False
        if operator == "<" and not bound > JAX_VERSION:
            return False
        if operator not in (">=", "<"):
            raise ValueError(f"unsupported release clause {clause!r}")
    return True
