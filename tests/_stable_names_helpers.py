"""Helpers for tests of stable names: is a name available on this release, and its object."""

from __future__ import annotations

from typing import Any

import pytest

import jaxcompat
from jaxcompat._releases import parse_release
from jaxcompat._stable_names import by_path

TABLE = by_path()


def available(path: str) -> bool:
    """Whether the stable-name table says this release has ``jaxcompat.<path>``."""
    first = TABLE[path].first
    return first is None or parse_release(first) <= jaxcompat.JAX_VERSION


def lookup(path: str) -> Any:
    """``jaxcompat.<path>``, attribute by attribute."""
    found: Any = jaxcompat
    for part in path.split("."):
        found = getattr(found, part)
    return found


def needs(path: str) -> Any:
    """The name, or a skip where the table says the release cannot have it (the namespace
    tests check that it then raises the table's AttributeError)."""
    if not available(path):
        pytest.skip(f"jaxcompat.{path} needs JAX {TABLE[path].first}")
    return lookup(path)
