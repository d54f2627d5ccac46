"""The package indexes of the user's own pip configuration, for uv.

pip reads its configuration (config files, ``PIP_*`` variables) itself; uv does not, so a
session that installs with uv is pointed at the same indexes here. Shared by
``jaxcompat.nox`` and the project's noxfile, which loads this file by its path: it imports
nothing but the standard library.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping

__all__ = ["pip_config", "uv_index_environment", "working_uv"]

#: The uv settings that, when the user has set any, are theirs to keep.
UV_INDEX_VARIABLES = ("UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_FIND_LINKS")


def _config_list(command: list[str]) -> str | None:
    try:
        result = subprocess.run(
            [*command, "config", "list"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout if result.returncode == 0 else None


def pip_config(python: str = sys.executable) -> dict[str, str]:
    """The user's pip settings (config files and PIP_* variables), as ``pip config list``.

    From ``python -m pip``, else the ``pip`` on PATH: an environment made by uv (where nox
    itself may run) has no pip of its own.
    """
    out = _config_list([python, "-m", "pip"])
    if out is None and shutil.which("pip"):
        out = _config_list(["pip"])
    if out is None:
        return {}
    settings = {}
    for line in out.splitlines():
        key, _, value = line.partition("=")
        settings[key.split(".", 1)[-1]] = value.strip().strip("'\"")
    return settings


def uv_index_environment(
    environ: Mapping[str, str] = os.environ, config: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Point uv at the same package indexes as pip, unless UV_* settings already do.

    pip merges all its indexes; uv by default takes a package from the first index that lists
    it, so with extra indexes it needs ``unsafe-best-match`` to see every JAX release.
    ``config`` is pip's (default: :func:`pip_config`).
    """
    if any(key in environ for key in UV_INDEX_VARIABLES):
        return {}
    settings = pip_config() if config is None else config
    env = {}
    if settings.get("index-url"):
        env["UV_INDEX_URL"] = settings["index-url"]
    if settings.get("extra-index-url"):
        env["UV_EXTRA_INDEX_URL"] = settings["extra-index-url"]
    if settings.get("find-links"):
        env["UV_FIND_LINKS"] = settings["find-links"]
    if env and "UV_INDEX_STRATEGY" not in environ:
        env["UV_INDEX_STRATEGY"] = "unsafe-best-match"
    return env


def working_uv() -> str | None:
    """The uv on PATH, else the one installed beside this interpreter (a virtualenv that is
    not activated), where it starts: a version manager's shim can be on PATH and fail."""
    uv = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))
    if uv is None:
        return None
    try:
        probe = subprocess.run([uv, "--version"], capture_output=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return uv if probe.returncode == 0 else None
