"""Record JAX's public API surface per matrix row, and merge the rows into one data file.

    python tools/api_surface.py --probe --out api-results/0.4.30.json     (in a row's venv)
    python tools/api_surface.py --merge api-results --out jaxcompat/_data/api_surface.json

`--probe` imports the installed JAX and records, for every module in MODULES: whether it
imports (and whether importing it warns), each public name's status (present, warns, raises),
what the name resolves to, and the signature of every public callable. `--merge` joins the
per-row files, in matrix.yml order, into the compact file that `jaxcompat/_surface.py` reads;
its format is described there.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import json
import math
import subprocess
import sys
import types
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _load_surface_module() -> types.ModuleType:
    """jaxcompat/_surface.py (the format, with its signature notation), loaded by path.

    Importing the jaxcompat package would import JAX submodules before the probe has taken
    its snapshot of them; _surface.py itself imports no JAX.
    """
    # find_spec locates the jaxcompat under test (a checkout's or a wheel's) without importing it.
    package = importlib.util.find_spec("jaxcompat")
    assert package is not None, "jaxcompat is not installed"
    assert package.origin is not None
    spec = importlib.util.spec_from_file_location(
        "_api_surface_format", Path(package.origin).parent / "_surface.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_surface = _load_surface_module()
FORMAT: int = _surface.FORMAT

# The modules jaxcompat mirrors (`import jaxcompat.numpy` is `jax.numpy`'s surface).
MIRRORED = (
    "jax",
    "jax.numpy",
    "jax.numpy.fft",
    "jax.numpy.linalg",
    "jax.lax",
    "jax.tree",
    "jax.tree_util",
    "jax.random",
    "jax.sharding",
    "jax.errors",
    "jax.typing",
    "jax.dtypes",
    "jax.nn",
    "jax.custom_derivatives",
    "jax.extend.core",
    "jax.extend.core.primitives",
    "jax.experimental.layout",
)
# Recorded only, so that a static check knows the old locations of moved names.
RECORDED_ONLY = (
    "jax.core",
    "jax.experimental",
    "jax.experimental.shard_map",
    "jax.experimental.pjit",
    "jax.experimental.mesh_utils",
    "jax.extend",
    "jax.interpreters.ad",
    "jax.interpreters.batching",
    "jax.interpreters.mlir",
    "jax.interpreters.partial_eval",
    "jax.interpreters.xla",
    "jax.lib",
    "jax.lib.xla_client",
    "jax.api_util",
    "jax.stages",
    "jax.debug",
    "jax.export",
    "jax.ffi",
    "jax.profiler",
    "jax.nn.initializers",
    "jax.scipy.special",
    "jax.image",
    "jax.lax.linalg",
    "jax.extend.linear_util",
    "jax.linear_util",
)
MODULES = MIRRORED + RECORDED_ONLY

# Methods whose signatures drifted (the generic walk records module-level names only).
METHODS = ("jax.Array.reshape", "jax.Array.astype")

DEPRECATION_CATEGORIES = (DeprecationWarning, FutureWarning)

# Code run in a fresh interpreter: does importing `module` warn, once `jax` is imported?
_IMPORT_CHECK = """
import importlib, json, sys, warnings
import jax
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    try:
        importlib.import_module(sys.argv[1])
    except Exception as error:
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        raise SystemExit(0)
print(json.dumps({"warnings": [f"{w.category.__name__}: {w.message}" for w in seen]}))
"""


# --- Probe (runs in a row's venv) -----------------------------------------------------------


def _deprecation_messages(seen: Iterable[warnings.WarningMessage]) -> list[str]:
    return [
        f"{w.category.__name__}: {w.message}"
        for w in seen
        if issubclass(w.category, DEPRECATION_CATEGORIES)
    ]


def _import(module: str) -> tuple[types.ModuleType | None, list[str], str | None]:
    """Import `module`: the module, the deprecation warnings importing it emitted, the error."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            loaded = importlib.import_module(module)
        except Exception as error:
            return None, [], f"{type(error).__name__}: {error}"
    return loaded, _deprecation_messages(seen), None


def _import_in_fresh_process(module: str) -> list[str]:
    """The deprecation warnings importing `module` emits in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", _IMPORT_CHECK, module], capture_output=True, text=True, check=True
    )
    data = json.loads(result.stdout.strip().splitlines()[-1])
    return [
        m
        for m in data.get("warnings", [])
        if m.split(":")[0] in {"DeprecationWarning", "FutureWarning"}
    ]


def public_names(module: types.ModuleType) -> list[str]:
    """dir() without underscores, plus JAX's `_deprecations` table and `__all__`."""
    names = {name for name in dir(module) if not name.startswith("_")}
    names.update(getattr(module, "_deprecations", None) or ())
    names.update(getattr(module, "__all__", None) or ())
    return sorted(names)


def describe(obj: object) -> str:
    """What a name resolves to: `module.qualname`, `module:<name>` or `value:<type>`."""
    if isinstance(obj, types.ModuleType):
        return f"module:{obj.__name__}"
    if callable(obj):  # functions, classes, and wrappers such as jitted functions
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if isinstance(module, str) and isinstance(qualname, str):
            return f"{module}.{qualname}"
    return f"value:{type(obj).__name__}"


def _signature(obj: object) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            signature: str | None = _surface.signature_string(obj)
            return signature
    except Exception:  # a broken __signature__ or __wrapped__ on some JAX object
        return None


def _literal_defaults(obj: object) -> dict[str, Any]:
    """The defaults of ``obj``'s parameters that JSON keeps as they are (None, a bool, an
    int, a finite float, a str): what passing "the default" of a newest keyword means."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parameters = inspect.signature(obj).parameters  # type: ignore[arg-type]
    except Exception:  # no signature, or a broken one
        return {}
    found: dict[str, Any] = {}
    for parameter in parameters.values():
        value = parameter.default
        if (
            value is None
            or type(value) in (bool, int, str)
            or (type(value) is float and math.isfinite(value))
        ):
            found[parameter.name] = value
    return found


def _access(
    module: types.ModuleType, name: str, initial: frozenset[str]
) -> tuple[str, object, str | None]:
    """One fresh access of `module.name`: its status, the object, and the message if any.

    JAX's deprecated names live in the module's `_deprecations` table and are served by the
    module `__getattr__`, which warns (or raises, once the entry's object is None) on every
    access. A name some code already bound in the module's globals no longer goes through
    `__getattr__`; `initial` (the globals right after import) keeps the answer the same for
    a second probe in the same process.
    """
    deprecations = getattr(module, "_deprecations", None) or {}
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            obj = getattr(module, name)
        except Exception as error:
            return "r", None, f"{type(error).__name__}: {error}"
    messages = _deprecation_messages(seen)
    if messages:
        return "w", obj, messages[0]
    entry = deprecations.get(name)
    if name not in initial and isinstance(entry, tuple) and entry[-1] is not None:
        return "w", obj, str(entry[0])  # served by the deprecation __getattr__
    return "o", obj, None


def probe() -> dict[str, Any]:
    """The surface of the installed JAX: modules, names, statuses, objects, signatures."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        import jax

    # Snapshot first: importing a submodule adds it to its parent's namespace, and reading a
    # name can bind it in a module's globals, so dir() and the globals are read before either.
    loaded_by_jax = {m for m in MODULES if m in sys.modules}
    modules: dict[str, dict[str, Any]] = {}
    snapshots: dict[str, tuple[types.ModuleType, list[str], frozenset[str]]] = {}
    for name in sorted(MODULES, key=lambda m: m.count(".")):
        already = name in sys.modules
        module, import_warnings, error = _import(name)
        if module is not None and already and name not in loaded_by_jax:
            # Loaded as a side effect of an earlier probe (so its import warnings, if any,
            # went there): ask a fresh interpreter.
            import_warnings = _import_in_fresh_process(name)
        entry: dict[str, Any] = {
            "importable": "." if module is None else ("w" if import_warnings else "o")
        }
        if error:
            entry["error"] = error
        if import_warnings:
            entry["import_warnings"] = import_warnings
        modules[name] = entry
        if module is not None:
            snapshots[name] = (module, public_names(module), frozenset(vars(module)))

    signatures: dict[str, str | None] = {}
    defaults: dict[str, dict[str, Any]] = {}
    for name in MODULES:
        if name not in snapshots:
            continue
        module, names, initial = snapshots[name]
        records: dict[str, dict[str, Any]] = {}
        for attribute in names:
            status, obj, message = _access(module, attribute, initial)
            record: dict[str, Any] = {"status": status}
            if status != "r":
                record["object"] = describe(obj)
                if callable(obj) and not isinstance(obj, types.ModuleType):
                    signatures[f"{name}.{attribute}"] = _signature(obj)
                    literal = _literal_defaults(obj)
                    if literal:
                        defaults[f"{name}.{attribute}"] = literal
            if message:
                record["message"] = message
            records[attribute] = record
        modules[name]["names"] = records

    for path in METHODS:
        owner_path, _, method = path.rpartition(".")
        owner_module, _, owner_name = owner_path.rpartition(".")
        owner = getattr(sys.modules[owner_module], owner_name, None)
        signatures[path] = _signature(getattr(owner, method, None))

    return {
        "jax": jax.__version__,
        "python": sys.version.split()[0],
        "modules": modules,
        "signatures": signatures,
        "config_options": sorted(jax.config.values),
        "keyword_defaults": defaults,
    }


# --- Merge (runs anywhere) ------------------------------------------------------------------


def matrix_releases(matrix: Path) -> list[str]:
    import yaml

    return [str(row["jax"]) for row in yaml.safe_load(matrix.read_text())["releases"]]


def _runs(values: list[Any], present: Callable[[int], bool]) -> list[list[Any]]:
    """Run-length list `[[first_row, value], ...]` over the rows where `present(row)`."""
    runs: list[list[Any]] = []
    for index, value in enumerate(values):
        if not present(index):
            continue
        if not runs or runs[-1][1] != value:
            runs.append([index, value])
    return runs


def merge(results: Path, matrix: Path) -> dict[str, Any]:
    """Join the per-row probe files, in matrix.yml order, into the compact data file."""
    rows = matrix_releases(matrix)
    missing = [row for row in rows if not (results / f"{row}.json").is_file()]
    if missing:
        raise SystemExit(
            f"api surface: no probe result for {len(missing)} matrix row(s): "
            f"{', '.join(missing)}. Run `nox -s api_surface` for them "
            f"(they are written to {results}/<jax>.json)."
        )
    probes = [json.loads((results / f"{row}.json").read_text()) for row in rows]
    for row, data in zip(rows, probes, strict=True):
        if data["jax"] != row:
            raise SystemExit(f"api surface: {results}/{row}.json was probed on JAX {data['jax']}")

    modules: dict[str, Any] = {}
    for name in MODULES:
        per_row = [data["modules"].get(name, {}) for data in probes]
        importable = "".join(entry.get("importable", ".") for entry in per_row)
        all_names = sorted({n for entry in per_row for n in entry.get("names", {})})
        names: dict[str, Any] = {}
        for attribute in all_names:
            records = [entry.get("names", {}).get(attribute) for entry in per_row]
            status = "".join(r["status"] if r else "." for r in records)
            objects = [r.get("object") if r else None for r in records]
            names[attribute] = {
                "status": status,
                "object": _runs(objects, lambda i, s=status: s[i] in "ow"),  # type: ignore[misc]
            }
        modules[name] = {"mirrored": name in MIRRORED, "importable": importable, "names": names}

    signatures: dict[str, Any] = {}
    for path in sorted({p for data in probes for p in data["signatures"]}):
        values = [data["signatures"].get(path) for data in probes]
        signatures[path] = _runs(values, lambda i: True)
    options = [frozenset(data["config_options"]) for data in probes]
    config = {
        option: "".join("o" if option in row else "." for row in options)
        for option in sorted(frozenset().union(*options))
    }
    return {
        "format": FORMAT,
        "rows": rows,
        "modules": modules,
        "signatures": signatures,
        "config": config,
    }


def newest_keywords_text(data: dict[str, Any], newest_defaults: dict[str, Any]) -> str:
    """``_data/newest_keywords.json``: the parameters each callable's newest signature added
    (``_surface.added_parameters``), the newest default of each where JSON keeps it as it is
    (from ``newest_defaults``, the newest row's probe), and the options of the newest
    ``jax.config`` that some row lacks, with the first row from which every row has each, so
    that resolving a name reads this small file only."""
    callables = _surface.added_parameters(data)
    defaults = {
        path: {
            parameter: newest_defaults[path][parameter]
            for parameter in sorted(added)
            if parameter in newest_defaults.get(path, {})
        }
        for path, (_, added) in callables.items()
    }
    rows = data["rows"]
    config_options = {
        option: rows[len(present.rstrip("o"))]
        for option, present in data["config"].items()
        if present.endswith("o") and "." in present
    }
    text = json.dumps(
        {
            "format": FORMAT,
            "callables": callables,
            "defaults": {path: found for path, found in defaults.items() if found},
            "config_options": config_options,
        },
        separators=(",", ":"),
        sort_keys=True,
    )
    return text + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--probe", action="store_true", help="record the installed JAX")
    parser.add_argument("--merge", type=Path, metavar="DIR", help="merge DIR/<jax>.json files")
    parser.add_argument("--matrix", type=Path, default=ROOT / "matrix.yml")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.probe == bool(args.merge):
        parser.error("give exactly one of --probe and --merge")
    if args.probe:
        data = probe()
        text = json.dumps(data, indent=1, sort_keys=True)
    else:
        data = merge(args.merge, args.matrix)
        text = json.dumps(data, separators=(",", ":"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    print(f"wrote {args.out} ({len(text) // 1024} KiB)")
    if args.merge:
        keywords = args.out.parent / "newest_keywords.json"
        newest = json.loads((args.merge / f"{data['rows'][-1]}.json").read_text())
        keywords.write_text(newest_keywords_text(data, newest["keyword_defaults"]))
        print(f"wrote {keywords}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
