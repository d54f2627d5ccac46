"""What the module surface data says: JAX's module paths, some modules' names, and the array
type's attributes, per matrix row, as bit masks over ``rows()``.

The data, ``jaxcompat/_data/module_surface.json``, is written by ``tools/module_surface.py``
(`nox -s module_surface`), which describes its format; it is read on first use only.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any

from .._surface import rows

__all__ = [
    "array_attribute",
    "module_mask",
    "module_name",
    "module_unknown",
    "rows_of_runs",
]


@functools.cache
def _data() -> dict[str, Any]:
    text = (resources.files("jaxcompat") / "_data" / "module_surface.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    if tuple(data["rows"]) != rows():
        raise RuntimeError(
            "jaxcompat/_data/module_surface.json and api_surface.json cover different rows; "
            "regenerate it with `nox -s module_surface`."
        )
    return data


@functools.cache  # a few hundred distinct rows strings, read for every use of a module
def _mask(chars: str, present: str) -> int:
    return sum(1 << index for index, char in enumerate(chars) if char in present)


_RUN = re.compile(r"(\D)(\d+)")


def rows_of_runs(runs: str) -> str:
    """A names entry, ``.39o8`` (a character and how many rows have it), one character a row."""
    return "".join(char * int(count) for char, count in _RUN.findall(runs))


def module_mask(path: str) -> tuple[int, int] | None:
    """(rows where module `path` imports, rows where importing it warns); None if no row has
    a module at `path`. A module that fails to import only for want of another package (or
    a GPU) on the machine that recorded the data counts as importing."""
    chars = _data()["modules"].get(path)
    if chars is None:
        return None
    return _mask(chars, "owd"), _mask(chars, "w")


def module_unknown(path: str) -> int:
    """The rows where module `path` is there but did not import on the machine that recorded
    the data (``d``: a package or a GPU it lacked), so its names are not known there."""
    chars = _data()["modules"].get(path)
    return 0 if chars is None else _mask(chars, "d")


def module_name(module: str, name: str) -> tuple[int, int] | None:
    """(rows where `module.name` can be read, rows where reading it warns), for the modules
    whose names the data records; None for other modules."""
    names = _data()["names"].get(module)
    if not names:
        return None
    runs = names.get(name)
    if runs is None:
        return 0, 0
    chars = rows_of_runs(runs)
    return _mask(chars, "ow"), _mask(chars, "w")


def object_rows(path: str) -> int:
    """The rows where the object (or module) at `path` has a name the data records: where a
    public object of ``tools/module_surface.py``'s ``PUBLIC_OBJECTS`` is there; 0 for a path
    whose names the data does not record."""
    found = 0
    for runs in _data()["names"].get(path, {}).values():
        found |= _mask(rows_of_runs(runs), "owr")
    return found


def array_attribute(name: str) -> str | None:
    """One character per row for a JAX array's attribute `name` (``device()``: calling
    ``x.device()``); None if no row has it. See ``tools/module_surface.py``."""
    found: str | None = _data()["array"].get(name)
    return found


def attribute_rows(chars: str) -> tuple[int, int]:
    """(the rows where reading the attribute fails, those where it warns) of an ``array`` or
    ``classes`` entry: ``.`` (absent) and ``r`` (raises) fail, ``M`` and ``P`` warn; ``-`` (the
    row lacks the class, which the class name's own finding says) is neither."""
    return _mask(chars, ".r"), _mask(chars, "MP")


def class_attributes(path: str) -> dict[str, str]:
    """For JAX class `path`, each attribute of its instances that some release lacks or warns
    on: one character per row, as :func:`array_attribute`'s, ``-`` where the row lacks the
    class. Empty for a class the data does not record."""
    found: dict[str, str] = _data().get("classes", {}).get(path, {})
    return found
