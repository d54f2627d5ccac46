"""JAX's public API on every matrix row, as recorded by `nox -s api_surface`: the only reader.

The data file, ``jaxcompat/_data/api_surface.json``, is written by ``tools/api_surface.py``
(one probe per matrix.yml row, then a merge) and ships in the wheel. Nothing here imports
JAX, so the data can be read where JAX is missing. The format (``"format": 1``):

- ``rows``: the matrix.yml releases, oldest first. Every per-row string and every run index
  refers to this list; the last row is the newest.
- ``modules[module]``:
  - ``mirrored``: True for the modules jaxcompat mirrors, False for those recorded only so
    that the old locations of moved names are known.
  - ``importable``: one character per row: ``o`` imports silently, ``w`` importing it emits a
    DeprecationWarning or FutureWarning (in a fresh interpreter, after ``import jax``), ``.``
    does not import.
  - ``names[name]["status"]``: one character per row: ``.`` absent (or the module does not
    import), ``o`` present and reading it does not warn, ``w`` reading it emits a
    DeprecationWarning or FutureWarning, ``r`` listed (in ``dir()``, ``__all__`` or JAX's
    ``_deprecations`` table) but reading it raises.
  - ``names[name]["object"]``: what the name resolves to, ``[[first_row, target], ...]`` over
    the rows where it is ``o`` or ``w``: ``"module.qualname"`` for functions and classes,
    ``"module:<name>"`` for modules, ``"value:<type name>"`` for other values.
- ``signatures[path]``: ``[[first_row, signature], ...]`` from row 0, keyed by
  ``module.name`` (or ``jax.Array.reshape`` for a method); None where the callable is absent
  or has no signature. A signature is its parameters, comma separated: ``name`` (no default),
  ``name=`` (a default), ``name=!`` (JAX's deprecated-argument sentinel: passing it warns),
  ``/`` after the positional-only ones, ``*`` before keyword-only ones when there is no
  ``*args``, and ``*args``/``**kwargs``. See `signature_string`.
- ``config[option]``: one character per row: ``o`` where ``jax.config`` has the option
  (a key of ``jax.config.values``), ``.`` where it does not.

Keys this module does not know (for example ``coverage``) are ignored.
"""

from __future__ import annotations

import functools
import inspect
import json
from importlib import resources
from typing import Any, TypedDict, cast

__all__ = [
    "FORMAT",
    "added_parameters",
    "config_option",
    "first_row_with_status",
    "importable",
    "modules",
    "names",
    "newest_names",
    "object_at",
    "object_runs",
    "rows",
    "signature_at",
    "signature_runs",
    "signature_string",
    "status",
]

FORMAT = 1


class _Name(TypedDict):
    status: str
    object: list[tuple[int, str]]


class _Module(TypedDict):
    mirrored: bool
    importable: str
    names: dict[str, _Name]


class _Surface(TypedDict):
    format: int
    rows: list[str]
    modules: dict[str, _Module]
    signatures: dict[str, list[tuple[int, str | None]]]
    config: dict[str, str]


@functools.cache
def _data() -> _Surface:
    text = (resources.files("jaxcompat") / "_data" / "api_surface.json").read_text("utf-8")
    data = cast(_Surface, json.loads(text))
    if data.get("format") != FORMAT:
        raise RuntimeError(
            f"jaxcompat/_data/api_surface.json has format {data.get('format')!r}, this "
            f"jaxcompat reads format {FORMAT}. Regenerate it with `nox -s api_surface`."
        )
    return data


def _module(module: str) -> _Module:
    try:
        return _data()["modules"][module]
    except KeyError:
        raise KeyError(f"{module!r} is not a module recorded in the API surface data") from None


def _runs(runs: list[tuple[int, Any]]) -> tuple[tuple[str, Any], ...]:
    releases = rows()
    return tuple((releases[index], value) for index, value in runs)


def _row_index(release: str) -> int:
    try:
        return rows().index(release)
    except ValueError:
        raise ValueError(
            f"JAX {release} is not a matrix.yml row recorded in the API surface data"
        ) from None


def _at(runs: list[tuple[int, Any]], release: str) -> Any:
    index = _row_index(release)
    value = None
    for first, run_value in runs:
        if first > index:
            break
        value = run_value
    return value


def rows() -> tuple[str, ...]:
    """The matrix.yml releases the data covers, oldest first."""
    return tuple(_data()["rows"])


def modules(*, mirrored: bool | None = None) -> tuple[str, ...]:
    """The recorded modules: all, or only the mirrored (True) or recorded-only (False) ones."""
    return tuple(
        name
        for name, entry in _data()["modules"].items()
        if mirrored is None or entry["mirrored"] == mirrored
    )


def importable(module: str) -> str:
    """One character per row: ``o`` imports, ``w`` importing warns, ``.`` does not import."""
    return _module(module)["importable"]


def names(module: str) -> tuple[str, ...]:
    """Every public name `module` has on some row, sorted."""
    return tuple(_module(module)["names"])


def newest_names(module: str) -> tuple[str, ...]:
    """The public names that work (``o`` or ``w``) on the newest row, sorted."""
    return tuple(n for n, entry in _module(module)["names"].items() if entry["status"][-1] in "ow")


def status(module: str, name: str) -> str:
    """One status character per row (``.``, ``o``, ``w``, ``r``); all ``.`` for unknown names."""
    entry = _module(module)["names"].get(name)
    return entry["status"] if entry is not None else "." * len(rows())


def first_row_with_status(module: str, name: str, statuses: str = "o") -> str | None:
    """The first release on which `module.name`'s status is one of `statuses`, or None."""
    for release, char in zip(rows(), status(module, name), strict=True):
        if char in statuses:
            return release
    return None


def object_runs(module: str, name: str) -> tuple[tuple[str, str], ...]:
    """``((first_release, target), ...)``: what the name resolves to where it works."""
    entry = _module(module)["names"].get(name)
    return _runs(entry["object"]) if entry is not None else ()


def object_at(module: str, name: str, release: str) -> str | None:
    """What `module.name` resolves to on `release`, or None where it does not work."""
    if status(module, name)[_row_index(release)] not in "ow":
        return None
    return cast("str | None", _at(_module(module)["names"][name]["object"], release))


def config_option(option: str) -> str | None:
    """One character per row for a ``jax.config`` option (``o`` present, ``.`` absent), or
    None where no row has it."""
    return _data().get("config", {}).get(option)


def signature_runs(path: str) -> tuple[tuple[str, str | None], ...]:
    """``((first_release, signature or None), ...)`` for a callable such as ``jax.jit``."""
    return _runs(_data()["signatures"].get(path, []))


def signature_at(path: str, release: str) -> str | None:
    """The signature string of the callable at `path` on `release`, or None."""
    return cast("str | None", _at(_data()["signatures"].get(path, []), release))


def parameter_names(signature: str) -> list[str]:
    """The parameter names in a signature string, ``*args``/``**kwargs`` and markers left out."""
    return [part.partition("=")[0] for part in signature.split(",") if part and part[0] not in "*/"]


def keyword_names(signature: str) -> list[str]:
    """The parameters of a signature string that can be passed by keyword."""
    parts = signature.split(",")
    after_positional_only = parts[parts.index("/") + 1 :] if "/" in parts else parts
    return parameter_names(",".join(after_positional_only))


def added_parameters(data: Any = None) -> dict[str, tuple[str, dict[str, str]]]:
    """Per callable whose newest signature has keyword parameters some older row lacks:
    ``(newest signature, {parameter: first release whose signature names it})``.

    A parameter counts only where the signature names it: an old ``**kwargs`` may route a
    keyword elsewhere. This is what ``_data/newest_keywords.json`` holds (`nox -s
    api_surface` writes both), so that resolving a name need not read this file. ``data``:
    the surface data to read (by default the packaged file).
    """
    surface = data if data is not None else _data()
    releases = surface["rows"]
    found: dict[str, tuple[str, dict[str, str]]] = {}
    for path, runs in surface["signatures"].items():
        newest = runs[-1][1]
        if newest is None or len(runs) == 1:  # one signature on every row
            continue
        added: dict[str, str] = {}
        for name in keyword_names(newest):  # a positional-only one has no name to pass
            first = None
            for index, signature in runs:  # the first run of the last stretch that names it
                if signature is not None and name in parameter_names(signature):
                    first = first if first is not None else index
                else:
                    first = None
            if first:  # 0: every row names it
                added[name] = releases[first]
        if added:
            found[path] = (newest, added)
    return found


def signature_string(obj: object) -> str | None:
    """`obj`'s parameter list in the data's notation, e.g. ``x=,/,min=,max=,*,a=!``.

    None when `obj` is not callable or ``inspect.signature`` cannot read it.
    """
    if not callable(obj):
        return None
    try:
        parameters = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in parameters]
    parts: list[str] = []
    for index, parameter in enumerate(parameters):
        kind = parameter.kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            parts.append(f"*{parameter.name}")
        elif kind is inspect.Parameter.VAR_KEYWORD:
            parts.append(f"**{parameter.name}")
        else:
            starts_keyword_only = kind is inspect.Parameter.KEYWORD_ONLY and (
                index == 0 or kinds[index - 1] is not inspect.Parameter.KEYWORD_ONLY
            )
            if starts_keyword_only and inspect.Parameter.VAR_POSITIONAL not in kinds:
                parts.append("*")
            text = parameter.name
            if parameter.default is not inspect.Parameter.empty:
                # JAX marks a deprecated argument with a sentinel default whose repr says so.
                text += "=!" if "Deprecated" in _repr(parameter.default) else "="
            parts.append(text)
        last_positional_only = kind is inspect.Parameter.POSITIONAL_ONLY and (
            index + 1 == len(kinds) or kinds[index + 1] is not inspect.Parameter.POSITIONAL_ONLY
        )
        if last_positional_only:
            parts.append("/")
    return ",".join(parts)


def _repr(value: object) -> str:
    try:
        return repr(value)
    except Exception:
        return type(value).__name__
