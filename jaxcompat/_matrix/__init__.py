"""The JAX releases jaxcompat is tested on, with what installs each: package data.

``jaxcompat/_data/matrix.json`` is generated from the repository's matrix.yml (run this package:
``python -m jaxcompat._matrix matrix.yml > jaxcompat/_data/matrix.json``; tests/test_matrix.py
keeps the two in step), so an installed jaxcompat knows its matrix without the repository and
without PyYAML. Nothing here imports JAX.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from .._backends import backend_floors
from .._releases import parse_release

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet

__all__ = ["FORMAT", "MatrixRow", "backend_of", "backend_ranges", "from_matrix_yml", "rows"]

FORMAT = 1  # bumped when the meaning of a field changes


@dataclass(frozen=True)
class MatrixRow:
    """One tested JAX release and everything needed to install it."""

    jax: str
    jaxlib: str  # not always the same number: jax 0.4.37 installs with jaxlib 0.4.36
    python: str  # the primary Python, which the default test run uses
    pythons: tuple[str, ...]  # every Python with wheels for this release
    pins: tuple[str, ...]  # companion requirements, such as "numpy<2"
    backend: str  # the jaxcompat backend that serves it
    tags: tuple[str, ...] = ()

    @property
    def release(self) -> tuple[int, ...]:
        return parse_release(self.jax)

    @property
    def requirements(self) -> list[str]:
        """What ``pip install`` needs for this row: jax, jaxlib and the companion pins."""
        return [f"jax=={self.jax}", f"jaxlib=={self.jaxlib}", *self.pins]

    def pythons_for(self, requires_python: SpecifierSet | None) -> tuple[str, ...]:
        """The Pythons of this row a library's ``requires-python`` admits: a series counts
        where its first or a late release does (``>=3.11.4`` admits 3.11)."""
        if requires_python is None:
            return self.pythons
        return tuple(
            python
            for python in self.pythons
            if any(requires_python.contains(f"{python}{patch}") for patch in (".0", ".99"))
        )

    def as_dict(self) -> dict[str, Any]:
        """The row as the JSON output gives it (without the internal tags)."""
        data = asdict(self)
        del data["tags"]
        return {
            key: list(value) if isinstance(value, tuple) else value for key, value in data.items()
        }


def backend_of(release: tuple[int, ...]) -> str:
    """The backend that serves ``release``: the one with the highest floor at or below it."""
    chosen = None
    for name, floor in backend_floors().items():
        if floor <= release:
            chosen = name
    if chosen is None:
        raise ValueError(f"JAX {'.'.join(map(str, release))} is older than every backend")
    return chosen


@functools.cache
def rows() -> tuple[MatrixRow, ...]:
    """Every tested release, oldest first, from the package data."""
    text = (resources.files("jaxcompat") / "_data" / "matrix.json").read_text("utf-8")
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise RuntimeError(
            f"jaxcompat/_data/matrix.json has format {data.get('format')!r}, this jaxcompat "
            f"reads format {FORMAT}: reinstall jaxcompat"
        )
    return tuple(
        MatrixRow(
            jax=row["jax"],
            jaxlib=row["jaxlib"],
            python=row["python"],
            pythons=tuple(row["pythons"]),
            pins=tuple(row["pins"]),
            backend=row["backend"],
            tags=tuple(row["tags"]),
        )
        for row in data["rows"]
    )


def backend_ranges() -> list[list[MatrixRow]]:
    """The rows grouped by the backend that serves them, oldest first."""
    ranges: list[list[MatrixRow]] = []
    for row in rows():
        if ranges and ranges[-1][0].backend == row.backend:
            ranges[-1].append(row)
        else:
            ranges.append([row])
    return ranges


def from_matrix_yml(releases: list[dict[str, Any]]) -> dict[str, Any]:
    """The package data for the ``releases`` list of matrix.yml."""
    return {
        "format": FORMAT,
        "rows": [
            {
                "jax": str(row["jax"]),
                "jaxlib": str(row["jaxlib"]),
                "python": str(row["primary"]),
                "pythons": [str(python) for python in row["python"]],
                "pins": [str(pin) for pin in row.get("pins", ())],
                "backend": backend_of(parse_release(str(row["jax"]))),
                "tags": [str(tag) for tag in row.get("tags", ())],
            }
            for row in releases
        ],
    }


def dumps(data: dict[str, Any]) -> str:
    """The package data's text: one row per line, so a new release is a one-line diff."""
    lines = ",\n".join(f"    {json.dumps(row)}" for row in data["rows"])
    return f'{{\n  "format": {data["format"]},\n  "rows": [\n{lines}\n  ]\n}}\n'
