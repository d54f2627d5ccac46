"""JC001 for JAX modules that went away or moved: ``from jax.lib import xla_bridge``,
``import jax.experimental.maps``, ``from jax.config import config``.

The API surface data records the names of a fixed list of modules; a name whose value is a
module is not judged there (``_api.facts``). The module surface data (``_module_data``)
records every module path JAX ships on every row, and the names of a few modules libraries
read (``jax.interpreters.pxla``): a use that imports a module, or reaches one by attribute,
on a row that lacks it fails there with ImportError or AttributeError.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from .._surface import rows
from ._api import (
    JAXCOMPAT_MODULES,
    JAXCOMPAT_OWN,
    facts,
    first_good_row,
    is_module,
    split_path,
    stable_names,
)
from ._codes import DEPRECATED_NAME, MISSING_NAME
from ._module_data import module_mask, module_name, module_unknown, object_rows
from ._ranges import describe, row_list
from ._uses import Use

__all__ = ["MODULE_REPLACEMENTS", "module_findings"]

#: What JAX's changelog names in place of a module it removed (the release it went away in
#: is in the data).
MODULE_REPLACEMENTS = {
    # 0.4.29 removed the submodule (deprecated in 0.4.20) for the config object.
    "jax.config": "use the `jax.config` object: `import jax`, then `jax.config` (or "
    "`from jax import config`)",
    # 0.4.16 deprecated it for jax.extend.linear_util.
    "jax.linear_util": "use `jax.extend.linear_util`",
    # 0.4.14 deprecated it, 0.4.16 removed it; its names live in jax.core.
    "jax.abstract_arrays": "use `jax.core.ShapedArray` (its names are in `jax.core`)",
    # 0.4.26 deprecated maps and xmap, 0.4.31 deleted xmap.
    "jax.experimental.maps": "xmap is gone: use `jax.shard_map` (or `jax.vmap` with "
    "`spmd_axis_name`); `Mesh` is `jax.sharding.Mesh`",
    # 0.4.26 deprecated it; 0.7.0 made importing it warn, 0.8.0 removed it.
    "jax.experimental.host_callback": "use JAX's external callbacks: `jax.pure_callback`, "
    "`jax.experimental.io_callback` or `jax.debug.callback`",
    # 0.4.32 moved its functions to jax.extend.backend; 0.8.0 removed it.
    "jax.lib.xla_bridge": "its functions are in `jax.extend.backend` (`get_backend`, "
    "`default_backend`, `clear_backends`); `jax.devices()` and `jax.default_backend()` "
    "for the common uses",
    "jax.lib.xla_extension": "its public names are elsewhere: `jax.Device`, "
    "`jax.errors.JaxRuntimeError` for XlaRuntimeError, `jax.extend` for the rest",
}

#: Names of removed modules whose replacement JAX named one by one.
NAME_REPLACEMENTS = {
    "jax.interpreters.pxla.ShardedDeviceArray": "use `jax.Array`",
    "jax.interpreters.pxla.Mesh": "use `jax.sharding.Mesh`",
    "jax.interpreters.pxla.PartitionSpec": "use `jax.sharding.PartitionSpec`",
    "jax.interpreters.pxla.device_put": "use `jax.device_put`",
    "jax.interpreters.pxla.make_sharded_device_array": "use "
    "`jax.make_array_from_single_device_arrays`",
    "jax.experimental.maps.Mesh": "use `jax.sharding.Mesh`",
    "jax.lib.xla_bridge.get_backend": "use `jax.extend.backend.get_backend`",
    "jax.lib.xla_bridge.default_backend": "use `jax.default_backend`",
    "jax.lib.xla_bridge.xla_client": "use `jax.lib.xla_client` (or `jax.extend`)",
    "jax.abstract_arrays.ShapedArray": "use `jax.core.ShapedArray`",
}


def _jax_path(use: Use) -> str | None:
    """The JAX path a use reads: its own, or the JAX name a jaxcompat name forwards to."""
    if use.path.startswith("jax."):
        return use.path
    relative = use.path.removeprefix("jaxcompat.")
    if relative == use.path:
        return None
    parts = relative.split(".")
    for end in range(1, len(parts) + 1):
        prefix = ".".join(parts[:end])
        if prefix in JAXCOMPAT_OWN or prefix in stable_names():
            return None  # jaxcompat's own name: not JAX's
    if relative in JAXCOMPAT_MODULES:
        return None
    # Anything else a jaxcompat module forwards to JAX's (`from jaxcompat.experimental
    # import host_callback` is JAX's module, where JAX has it).
    return f"jax.{relative}"


def _is_attribute_module(path: str) -> bool:
    """Whether reading `path` by attribute gives a module: its parent's data records it as one,
    or does not record it (an attribute once imported). ``jax.config`` is JAX's Config object
    by attribute, though ``import jax.config`` was a module."""
    parent, _, name = path.rpartition(".")
    if split_path(path) != (parent, name):
        return True
    found = facts(path)
    return found is None or not found.known


def _judged(path: str) -> bool:
    """Whether the API data judges the name or module at `path` itself (``facts`` of a path
    past its recorded modules is the facts of the first name on it)."""
    parent, _, name = path.rpartition(".")
    if split_path(path) not in ((parent, name), (path, None)):
        return False
    found = facts(path)
    return found is not None and found.known


@functools.lru_cache(maxsize=4096)
def _missing(path: str, kind: str, bound: str, scope: int) -> tuple[str, int, int] | None:
    """(the deepest module on `path` that some row of `scope` lacks or warns on, the rows
    that lack a module on `path`, the rows where importing one warns); None if there is none.
    A submodule can come later than its package (``jax.experimental.pallas.triton`` in
    0.4.35, ``jax.experimental.pallas`` in 0.4.18): the deepest one names the floor."""
    parts = path.split(".")
    # An import names modules from the first part; an attribute chain reaches the modules
    # past its bound name.
    first = len(bound.split(".")) + 1 if bound else 2
    found: tuple[str, int, int] | None = None
    for end in range(first, len(parts) + 1):
        module = ".".join(parts[:end])
        leaf = end == len(parts)
        if not kind and not _is_attribute_module(module):
            break  # an object, not a module: the API data judges its names
        # A module the API data records is judged there (its names, and itself where it
        # is imported); so is the name `from a import b` reads (`from jax import config`),
        # though `import jax.config` imports a module.
        if leaf and (kind != "import" or is_module(module)) and _judged(module):
            break
        if is_module(module) and not leaf:
            continue
        surface = module_mask(module)
        if surface is None:
            break  # never a module: a name, judged elsewhere
        present, warns = surface
        absent, warned = scope & ~present, scope & warns
        if absent or warned:
            before = found or ("", 0, 0)
            found = (module, before[1] | absent, before[2] | warned)
    return found


def _name_missing(path: str, scope: int) -> tuple[str, int, int] | None:
    """(the name, rows lacking it, rows warning) for the name a path reads of a module whose
    names the data records: ``jax.lib.xla_bridge.get_backend`` of ``...get_backend.cache_clear``."""
    parts = path.split(".")
    for end in range(len(parts) - 1, 1, -1):
        module, name = ".".join(parts[:end]), parts[end]
        found = module_name(module, name)
        if found is None:
            continue  # not a module whose names the data records: a shorter path may be
        if not found[0] | found[1]:
            return None  # a name no row has (a submodule, an attribute set at run time)
        readable, warns = found
        # Where the module is gone the name is too; where it did not import on the machine
        # that recorded the data, its names are not known.
        named = f"{module}.{name}"
        return named, scope & ~readable & ~module_unknown(module), scope & warns
    return None


def _jax_object_read(use: Use) -> tuple[str, int] | None:
    """(the JAX path, the rows where JAX's public object is there) for a name read of a
    jaxcompat stable name that is JAX's own object wherever JAX has it, and whose names the
    module data records: ``jaxcompat.tree_util.default_registry.flatten_one_level`` reads
    JAX's registry, ``jaxcompat.extend.backend.get_backend`` JAX's module (first in 0.4.33).
    On the rows before JAX made the object public jaxcompat gives another (a private one, a
    backport) whose names the data does not know, so only the rows where it is public are
    judged."""
    relative = use.path.removeprefix("jaxcompat.")
    parts = relative.split(".")
    if relative == use.path or len(parts) < 2:
        return None
    for end in range(1, len(parts)):
        prefix = ".".join(parts[:end])
        entry = stable_names().get(prefix)
        if entry is None:
            continue
        module, _, attribute = entry.sources[0].where.partition(":")
        if f"{module}.{attribute}" != f"jax.{prefix}" or entry.sources[0].adapter is not None:
            return None  # jaxcompat's own object where JAX has one (`config`'s adapter)
        there = object_rows(f"jax.{prefix}")
        return (f"jax.{relative}", there) if there else None
    return None


def module_findings(use: Use, scope: int) -> Iterator[tuple[int, int, str, str, int]]:
    """(line, col, code, message, rows) for a use of a module some row of `scope` lacks."""
    if use.guarded or not use.check_name:
        return
    path = _jax_path(use)
    if path is None:
        object_read = _jax_object_read(use)
        if object_read is not None:
            object_scope = scope & object_read[1]
            name = _name_missing(object_read[0], object_scope)
            if name is not None and name[1] | name[2]:
                yield _name_finding(use, *name, object_scope)
        return
    found = _missing(path, use.imported, use.bound or "", scope)
    name = _name_missing(path, scope) if path.count(".") > 1 else None
    module_rows = found[1] | found[2] if found is not None else 0
    # A name can come later than its module (jax.extend.backend in 0.4.26, its
    # get_backend in 0.4.33): the name speaks for both where it fails on more rows.
    if name is not None and (name[1] | name[2]) & ~module_rows:
        absent = name[1] | (found[1] if found else 0)
        yield _name_finding(use, name[0], absent, name[2], scope)
        return
    if found is not None:
        module, absent, warns = found
        verb = "cannot be imported" if use.imported else "does not exist"
        parts = [f"{verb} on {describe(absent)}"] if absent else []
        if warns:
            parts.append(f"importing it emits a DeprecationWarning on {describe(warns)}")
        fix = MODULE_REPLACEMENTS.get(module) or _floor_or_move(absent | warns, scope)
        yield _finding(use, f"module `{module}` {', '.join(parts)}; {fix}", absent, warns)


def _name_finding(
    use: Use, named: str, absent: int, warns: int, scope: int
) -> tuple[int, int, str, str, int]:
    """The finding for a name (of a module or a public object) that `absent` rows lack and
    `warns` rows warn on."""
    parts = [f"fails on {describe(absent)}"] if absent else []
    if warns:
        parts.append(f"emits a DeprecationWarning on {describe(warns)}")
    fix = (
        NAME_REPLACEMENTS.get(named)
        or MODULE_REPLACEMENTS.get(named.rpartition(".")[0])
        or _floor_or_move(absent | warns, scope)
    )
    return _finding(use, f"`{named}` {', '.join(parts)}; {fix}", absent, warns)


def _floor_or_move(bad: int, scope: int) -> str:
    """A module or name that came later: the floor to raise; one that went away: move off it
    (or cap the range, where the newest release of the range still has it)."""
    floor = first_good_row(bad, scope) if bad & scope & -scope else None
    if floor is not None:
        return f"raise the floor to jax>={floor}"
    newest = 1 << (len(rows()) - 1)
    if bad & newest or not bad:
        return "no jaxcompat name replaces it; move off it"
    return f"no jaxcompat name replaces it; move off it or cap the range below {row_list(bad)[0]}"


def _finding(use: Use, message: str, absent: int, warns: int) -> tuple[int, int, str, str, int]:
    """JC001 where some rows lack it, else JC002 (it only warns there)."""
    code = MISSING_NAME.code if absent else DEPRECATED_NAME.code
    return use.line, use.col, code, message, absent | warns
