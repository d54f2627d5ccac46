"""Record, per matrix row, JAX's module paths and the attributes of its array type.

    python tools/module_surface.py --probe --out api-results/modules/0.4.30.json  (row's venv)
    python tools/module_surface.py --merge api-results/modules \
        --out jaxcompat/_data/module_surface.json

The API surface data (`tools/api_surface.py`) records the names of a fixed list of modules;
`jaxcompat check` also needs every public module path JAX ships (to see an import of one that
a release lacks: ``jax.lib.xla_bridge``, ``jax.experimental.maps``) and the methods and
properties of ``jax.Array`` (``x.device_buffer``). Both are quick to record, so this probe
runs apart from the slower API one.

`--probe` walks the installed ``jax`` package's files (every module path without a private
component), imports each, and reads every public attribute of an array. `--merge` joins the
rows, in matrix.yml order, into the file ``jaxcompat/_checker/_module_data.py`` reads:

- ``rows``: the releases, oldest first;
- ``modules[path]``: one character per row: ``o`` imports, ``w`` importing it emits a
  DeprecationWarning or FutureWarning, ``r`` the file is there but importing it raises, saying
  it was removed or deprecated (a removed module's stub), ``d`` the file is there but
  importing it fails otherwise (a package or a GPU this machine lacks: present, for the
  checker), ``.`` no such module;
- ``array[name]``: one character per row for ``jax.numpy.zeros((2, 2)).<name>``: ``m`` a method,
  ``M`` a method whose access warns, ``p`` another attribute, ``P`` one whose access warns,
  ``r`` listed but reading it raises, ``.`` absent;
  ``array["device()"]``: calling ``x.device()`` works (``m``), warns (``M``) or raises (``r``);
- ``classes[path][name]``: for each class of ``CLASS_EXAMPLES``, one character per row for
  an attribute of an instance, as ``array``'s, ``-`` where the row lacks the class; only the
  attributes some row lacks or warns on;
- ``names[module][name]``: for every public module that imports on some row and whose names
  the API surface data does not record in detail, one character per row: ``o``, ``w``
  reading it warns, ``r`` listed but reading it raises, ``.`` absent (a module the row
  lacks, too); written as runs, each a character and its count (``.39o8``). The public
  objects of ``PUBLIC_OBJECTS`` are recorded there too, as modules are: their methods are
  API that code reads through them.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEPRECATIONS = (DeprecationWarning, FutureWarning)

# Does importing the module warn in a fresh interpreter, once `jax` is imported?
_FRESH_IMPORT = """
import importlib, sys, warnings
import jax
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    try:
        importlib.import_module(sys.argv[1])
    except Exception:
        pass
print(any(issubclass(w.category, (DeprecationWarning, FutureWarning)) for w in seen))
"""


def module_paths(package: Path) -> list[str]:
    """Every public module path under the ``jax`` package directory, parents first."""
    found = set()
    for file in package.rglob("*.py"):
        parts = list(file.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(part.startswith("_") or part == "tests" for part in parts):
            continue
        found.add(".".join(parts))
    return sorted(found, key=lambda path: (path.count("."), path))


def _import_status(path: str) -> str:
    already = path in sys.modules
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as error:
            missing = (error.name or "").split(".")[0]
            return "r" if missing in ("jax", "jaxlib", "") else "d"
        except Exception as error:
            # A removed module's stub says so; anything else (a GPU library, TensorFlow) is
            # this machine's lack, not the release's.
            said = str(error).lower()
            return "r" if any(w in said for w in ("remov", "deprecat", "no longer")) else "d"
    if any(issubclass(w.category, DEPRECATIONS) for w in seen):
        return "w"
    source = Path(getattr(module, "__file__", "") or "")
    if already and source.is_file() and "warn" in source.read_text("utf-8", "replace"):
        # Loaded as a side effect of an earlier import, so its warning went there.
        fresh = subprocess.run(
            [sys.executable, "-c", _FRESH_IMPORT, path], capture_output=True, text=True
        )
        if fresh.stdout.strip().endswith("True"):
            return "w"
    return "o"


def _attribute_status(array: Any, name: str) -> str:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            value = getattr(array, name)
        except Exception:
            return "r"
    warned = any(issubclass(w.category, DEPRECATIONS) for w in seen)
    kind = "m" if callable(value) else "p"
    return kind.upper() if warned else kind


def _device_call_status(array: Any) -> str:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            array.device()
        except Exception:
            return "r"
    return "M" if any(issubclass(w.category, DEPRECATIONS) for w in seen) else "m"


#: The modules whose names the API surface data records in detail (objects, signatures):
#: every other public module gets its names recorded here, so that `check` sees
#: ``jax.lax.linalg.ormqr`` or ``jax.extend.backend.get_backend`` on the rows that lack them.
API_SURFACE = ROOT / "jaxcompat" / "_data" / "api_surface.json"


def _detailed_modules() -> frozenset[str]:
    return frozenset(json.loads(API_SURFACE.read_text("utf-8"))["modules"])


#: Objects of JAX's public modules whose methods code calls through them:
#: ``jax.tree_util.default_registry.flatten_one_level`` first exists in jaxlib 0.4.26 (a
#: library declaring ``jax>=0.4.25`` fails there).
PUBLIC_OBJECTS = ("jax.tree_util.default_registry",)


def _object_at(path: str) -> Any:
    """The object at `path` (a module's attribute), or None where the release lacks it."""
    module, _, name = path.rpartition(".")
    return getattr(sys.modules.get(module), name, None)


def _names_of(path: str) -> dict[str, str]:
    """Each public name of module (or ``PUBLIC_OBJECTS`` object) `path`: ``o``, ``w``
    (reading it warns), ``r`` (raises)."""
    module = sys.modules.get(path) if path not in PUBLIC_OBJECTS else _object_at(path)
    if module is None:
        return {}
    names = {n for n in dir(module) if not n.startswith("_")}
    deprecations = getattr(module, "_deprecations", None)
    if isinstance(deprecations, dict):  # some releases bind the deprecations module there
        names |= set(deprecations)
    found = {}
    for name in sorted(names):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                getattr(module, name)
            except Exception:
                found[name] = "r"
                continue
        found[name] = "w" if any(issubclass(w.category, DEPRECATIONS) for w in seen) else "o"
    return found


#: JAX's public classes whose instances code builds by calling the class (or a factory
#: ``check`` knows: ``jax.make_mesh``, ``jax.typeof``), each with how the probe builds one. Their
#: attributes are recorded per row: ``ShapeDtypeStruct(...).sharding`` raises on 0.4.13,
#: ``Mesh(...).axis_types`` first exists in 0.4.36.
CLASS_EXAMPLES: dict[str, Callable[[Any, Any], Any]] = {
    "jax.ShapeDtypeStruct": lambda jax, np: jax.ShapeDtypeStruct((2,), np.float32),
    "jax.sharding.Mesh": lambda jax, np: _one_device_mesh(jax, np),
    "jax.sharding.NamedSharding": lambda jax, np: jax.sharding.NamedSharding(
        _one_device_mesh(jax, np), jax.sharding.PartitionSpec()
    ),
    "jax.sharding.PartitionSpec": lambda jax, np: jax.sharding.PartitionSpec("x", None),
    "jax.sharding.SingleDeviceSharding": lambda jax, np: jax.sharding.SingleDeviceSharding(
        jax.devices()[0]
    ),
    # What jax.typeof (jax.core.get_aval before 0.5.3) returns for an array.
    "jax.core.ShapedArray": lambda jax, np: (getattr(jax, "typeof", None) or jax.core.get_aval)(
        jax.numpy.zeros(2, np.float32)
    ),
}


def _one_device_mesh(jax: Any, np: Any) -> Any:
    return jax.sharding.Mesh(np.array(jax.devices()[:1]), ("x",))


def _class_attributes(path: str, example: Callable[[Any, Any], Any]) -> dict[str, str]:
    """Each public attribute of an instance of class `path` (and of the class), with
    ``_attribute_status``'s character; {} where the release lacks the class."""
    import jax
    import numpy as np

    module, _, name = path.rpartition(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            cls = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            return {}
        instance = example(jax, np)
    public = {n for n in [*dir(cls), *dir(instance)] if not n.startswith("_")}
    return {n: _attribute_status(instance, n) for n in sorted(public)}


def probe() -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import jax
        import jax.numpy as jnp

        array = jnp.zeros((2, 2))
    public = {n for n in dir(type(array)) if not n.startswith("_")}
    public |= {n for n in dir(jax.Array) if not n.startswith("_")}
    attributes = {name: _attribute_status(array, name) for name in sorted(public)}
    attributes["device()"] = _device_call_status(jnp.zeros(2))
    package = Path(jax.__file__).parent
    modules = {path: _import_status(path) for path in module_paths(package)}
    detailed = _detailed_modules()
    names = {
        path: _names_of(path)
        for path, status in modules.items()
        if status in "ow" and path not in detailed
    }
    names.update({path: _names_of(path) for path in PUBLIC_OBJECTS})
    classes = {path: _class_attributes(path, example) for path, example in CLASS_EXAMPLES.items()}
    return {
        "jax": jax.__version__,
        "modules": modules,
        "array": attributes,
        "names": names,
        "classes": classes,
    }


def run_lengths(chars: str) -> str:
    """``....ooo`` as ``.4o3``: most names keep one state over a run of rows."""
    return "".join(f"{char}{len(list(run))}" for char, run in itertools.groupby(chars))


def merge(results: Path, matrix: Path) -> dict[str, Any]:
    import yaml

    rows = [str(row["jax"]) for row in yaml.safe_load(matrix.read_text())["releases"]]
    missing = [row for row in rows if not (results / f"{row}.json").is_file()]
    if missing:
        raise SystemExit(f"module surface: no probe result for {', '.join(missing)}")
    probes = [json.loads((results / f"{row}.json").read_text()) for row in rows]
    for row, data in zip(rows, probes, strict=True):
        if data["jax"] != row:
            raise SystemExit(f"module surface: {results}/{row}.json was probed on {data['jax']}")

    def per_row(key: str) -> dict[str, str]:
        every = sorted({name for data in probes for name in data[key]})
        return {name: "".join(data[key].get(name, ".") for data in probes) for name in every}

    names = {}
    for path in sorted({path for data in probes for path in data["names"]}):
        every = sorted({name for data in probes for name in data["names"].get(path, {})})
        names[path] = {
            name: run_lengths(
                "".join(data["names"].get(path, {}).get(name, ".") for data in probes)
            )
            for name in every
        }
    return {
        "rows": rows,
        "modules": per_row("modules"),
        "array": per_row("array"),
        "names": names,
        "classes": merge_classes(probes),
    }


def merge_classes(probes: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """``classes[path][name]``: one character per row for an attribute of an instance of the
    class, as ``array``'s, and ``-`` where the row lacks the class (its name's own finding
    says so). Only attributes some row that has the class lacks, or warns on, are kept."""
    merged: dict[str, dict[str, str]] = {}
    for path in CLASS_EXAMPLES:
        seen = [data["classes"].get(path, {}) for data in probes]
        every = sorted({name for attributes in seen for name in attributes})
        changing = {}
        for name in every:
            chars = "".join(a.get(name, ".") if a else "-" for a in seen)
            if set(chars.replace("-", "")) - set("mp"):
                changing[name] = chars
        merged[path] = changing
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--probe", action="store_true", help="record the installed JAX")
    parser.add_argument("--merge", type=Path, metavar="DIR", help="merge DIR/<jax>.json files")
    parser.add_argument("--matrix", type=Path, default=ROOT / "matrix.yml")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.probe == bool(args.merge):
        parser.error("give exactly one of --probe and --merge")
    data = probe() if args.probe else merge(args.merge, args.matrix)
    text = json.dumps(data, indent=None if args.merge else 1, separators=(",", ":"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    print(f"wrote {args.out} ({len(text) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
