"""A package index on disk for the resolver tests: wheels with metadata and nothing else.

jax and jaxlib at every matrix row, the pins the rows take (numpy<2, scipy<1.13), and a few
made-up libraries whose own requirements hold JAX up or cap it. ``environment(folder)`` points
uv and pip at it alone, so no test reads a real index.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from jaxcompat._matrix import rows

#: name -> {version: [Requires-Dist entries]}
LIBRARIES = {
    "numpy": {"1.26.4": [], "2.1.0": []},
    "scipy": {"1.12.0": ["numpy"], "1.14.0": ["numpy"]},
    # Each release of chexlike needs a newer JAX: its lowest, 1.0, needs 0.4.27.
    "chexlike": {"1.0": ["jax>=0.4.27"], "1.1": ["jax>=0.5.0"]},
    "capped": {"1.0": ["jax<0.5"]},
    "numpy2only": {"1.0": ["numpy>=2"]},
    "plain": {"1.0": []},
}


def _wheel(folder: Path, name: str, version: str, requires: list[str]) -> None:
    info = f"{name}-{version}.dist-info"
    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    metadata += [f"Requires-Dist: {entry}" for entry in requires]
    files = {
        f"{info}/METADATA": "\n".join(metadata) + "\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{path},,\n" for path in [*files, f"{info}/RECORD"])
    with zipfile.ZipFile(folder / f"{name}-{version}-py3-none-any.whl", "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)


def build(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for row in rows():
        _wheel(folder, "jax", row.jax, [f"jaxlib>={row.jaxlib}", "numpy"])
    for jaxlib in sorted({row.jaxlib for row in rows()}):
        _wheel(folder, "jaxlib", jaxlib, [])
    for name, releases in LIBRARIES.items():
        for version, requires in releases.items():
            _wheel(folder, name, version, requires)
    return folder


def environment(folder: Path) -> dict[str, str]:
    """uv and pip reading the wheels in `folder` and no index at all: uv's default index is
    an empty folder (its --no-index has no variable), pip reads no configuration file."""
    empty = folder / "empty-index"
    empty.mkdir(exist_ok=True)
    return {
        "UV_DEFAULT_INDEX": empty.as_uri(),
        "UV_FIND_LINKS": str(folder),
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(folder),
    }
