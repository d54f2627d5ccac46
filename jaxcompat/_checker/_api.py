"""What the checker knows about JAX's API: the surface data and the stable-name table.

Everything is read from ``jaxcompat._surface`` (JAX's public names and signatures on every
matrix row) and ``jaxcompat._stable_names`` (where jaxcompat keeps each drifted name), both
plain data: nothing here imports JAX. Per-row facts are bit masks over ``rows()``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .._keywords.rules.functions import rule_for
from .._keywords.rules.kinds import NOT_ADAPTED_YET, KeywordRule
from .._mirrored import MIRRORED
from .._releases import parse_release
from .._stable_names import STABLE_NAMES, StableName
from .._surface import (
    added_parameters,
    importable,
    modules,
    names,
    object_runs,
    rows,
    signature_runs,
    status,
)
from ._ranges import every_row_mask, release_tuples

__all__ = [
    "JAXCOMPAT_MODULES",
    "JAXCOMPAT_OWN",
    "LEGACY_POSITIONS_READ_BY_JAX",
    "NameFacts",
    "Parameter",
    "Signature",
    "adapted_keyword",
    "facts",
    "first_good_row",
    "is_module",
    "parse_signature",
    "same_object_stable",
    "signature_masks",
    "split_path",
    "stable_first_mask",
    "stable_for",
    "stable_names",
]

#: jaxcompat's own names (not forwarded to JAX): the same on every release.
JAXCOMPAT_OWN = frozenset(
    {
        "jit",
        "lower",
        "trace",
        "tracer_safe_hash",
        "is_tracer",
        "block_if_array",
        "JAX_VERSION",
        "JAX_VERSION_STRING",
        "JAXLIB_VERSION",
        "JAXLIB_VERSION_STRING",
        "BACKEND",
        "testing",
        "nox",
        "lax.while_loop",
        "lax.fori_loop",
        "lax.scan",
        "lax.cond",
        "lax.switch",
    }
)


#: Callables whose signature data shows a positional parameter moved, but whose newer
#: releases still read the older call by position themselves: a positional call means the
#: same on every release, so it is no JC020 finding.
LEGACY_POSITIONS_READ_BY_JAX = frozenset(
    {
        # JAX 0.11.0 made ClosedJaxpr an alias of Jaxpr, whose constructor reads the legacy
        # ClosedJaxpr(jaxpr, consts) call (a Jaxpr first) as before; by keyword, `jaxpr=` is
        # refused there.
        "jax.extend.core.ClosedJaxpr",
    }
)


@dataclass(frozen=True)
class NameFacts:
    """One JAX name's status per row, as masks: where it works, warns, raises, is absent."""

    path: str
    ok: int
    warns: int
    raises: int

    @property
    def absent(self) -> int:
        return every_row_mask() & ~(self.ok | self.warns | self.raises)

    @property
    def known(self) -> bool:
        """Whether some row has the name at all (names never seen are not judged)."""
        return bool(self.ok | self.warns | self.raises)


def _masks(chars: str) -> tuple[int, int, int]:
    ok = warns = raises = 0
    for index, char in enumerate(chars):
        bit = 1 << index
        if char == "o":
            ok |= bit
        elif char == "w":
            warns |= bit
        elif char == "r":
            raises |= bit
    return ok, warns, raises


@functools.cache
def _module_set() -> frozenset[str]:
    return frozenset(modules())


def is_module(path: str) -> bool:
    """Whether `path` is a module: of JAX (as recorded on some row) or of jaxcompat."""
    if path == "jaxcompat" or path.startswith("jaxcompat."):
        return path == "jaxcompat" or path.removeprefix("jaxcompat.") in JAXCOMPAT_MODULES
    return path in _module_set()


@functools.cache
def _name_set(module: str) -> frozenset[str]:
    return frozenset(names(module))


def split_path(path: str) -> tuple[str, str | None] | None:
    """``jax.tree.map`` as ``("jax.tree", "map")``; ``jax.tree`` as ``("jax", "tree")``.

    The module is the longest recorded module that `path` starts with; a path that is a
    module itself is looked up as a name of its parent when the parent lists it, else as a
    module (name None). None for paths outside the recorded modules.
    """
    parts = path.split(".")
    known = _module_set()
    for end in range(len(parts), 0, -1):
        module = ".".join(parts[:end])
        if module not in known:
            continue
        if end == len(parts):
            parent = ".".join(parts[:-1])
            if parent in known and parts[-1] in _name_set(parent):
                return parent, parts[-1]
            return module, None
        return module, parts[end]
    return None


@functools.cache
def facts(path: str) -> NameFacts | None:
    """The per-row status of the JAX name or module at `path`, or None if not recorded."""
    split = split_path(path)
    if split is None:
        return None
    module, name = split
    if name is None:
        ok, warns, raises = _masks(importable(module))
        return NameFacts(module, ok, warns, raises)
    if name.startswith("_"):
        return None
    runs = object_runs(module, name)
    if runs and all(target.startswith("module:") for _, target in runs):
        # A submodule the data does not record: whether it is an attribute of its parent
        # depends on what else was imported, and `import` finds it regardless.
        return None
    ok, warns, raises = _masks(status(module, name))
    return NameFacts(f"{module}.{name}", ok, warns, raises)


@dataclass(frozen=True)
class Parameter:
    name: str
    positional: bool  # can be passed by position
    keyword: bool  # can be passed by keyword
    deprecated: bool  # JAX's deprecated-argument sentinel: passing it warns
    required: bool = False  # no default: a call that leaves it out is a TypeError


@dataclass(frozen=True)
class Signature:
    text: str
    parameters: tuple[Parameter, ...]
    var_positional: bool
    var_keyword: bool

    @functools.cached_property  # read for every call, on each of its signatures
    def positional_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parameters if p.positional)


@functools.cache
def parse_signature(text: str) -> Signature:
    """Parse the data file's notation: ``x=,/,min=,max=,*,a=!``."""
    items = text.split(",") if text else []
    slash = items.index("/") if "/" in items else -1
    parameters: list[Parameter] = []
    var_positional = var_keyword = keyword_only = False
    for index, item in enumerate(items):
        if item == "/":
            continue
        if item == "*":
            keyword_only = True
        elif item.startswith("**"):
            var_keyword = True
        elif item.startswith("*"):
            var_positional = keyword_only = True
        else:
            name = item.split("=")[0]
            parameters.append(
                Parameter(
                    name,
                    positional=not keyword_only,
                    keyword=index > slash,
                    deprecated=item.endswith("=!"),
                    required="=" not in item,
                )
            )
    return Signature(text, tuple(parameters), var_positional, var_keyword)


@functools.cache
def signature_masks(path: str) -> tuple[tuple[Signature, int], ...]:
    """Each distinct signature of the callable at `path` with the rows that have it."""
    runs = signature_runs(path)
    index_of = {row: index for index, row in enumerate(rows())}
    result: dict[str, int] = {}
    for position, (first, text) in enumerate(runs):
        start = index_of[first]
        stop = index_of[runs[position + 1][0]] if position + 1 < len(runs) else len(rows())
        if text is not None:
            result[text] = result.get(text, 0) | ((1 << stop) - 1) & ~((1 << start) - 1)
    return tuple((parse_signature(text), mask) for text, mask in result.items())


@functools.cache
def stable_names() -> dict[str, StableName]:
    return {entry.path: entry for entry in STABLE_NAMES}


@functools.cache
def _by_jax_path() -> dict[str, tuple[str, ...]]:
    """JAX path (``jax.tree_util.tree_map``) -> the stable names it is a source of."""
    found: dict[str, list[str]] = {}
    for entry in STABLE_NAMES:
        found.setdefault(f"jax.{entry.path}", []).append(entry.path)
        for source in entry.sources:
            module, _, attribute = source.where.partition(":")
            if module.startswith("jax.") or module == "jax":
                found.setdefault(f"{module}.{attribute}", []).append(entry.path)
    return {path: tuple(dict.fromkeys(stable)) for path, stable in found.items()}


def stable_for(path: str) -> tuple[str, ...]:
    """The stable names (``tree.map``) that replace the JAX or jaxcompat name at `path`."""
    if path.startswith("jaxcompat."):
        relative = path.removeprefix("jaxcompat.")
        return (relative,) if relative in stable_names() else ()
    return _by_jax_path().get(path, ())


def _objects(path: str) -> set[str]:
    split = split_path(path)
    if split is None:
        return set()
    module, name = split
    if name is None:
        return set()
    return {target for _, target in object_runs(module, name) if not target.startswith("value:")}


@functools.cache
def _by_object() -> dict[str, tuple[str, ...]]:
    """JAX object (``jax._src.tree_util.tree_map``) -> the stable names that give it."""
    found: dict[str, list[str]] = {}
    for path, stable in _by_jax_path().items():
        for target in _objects(path):
            found.setdefault(target, []).extend(stable)
    return {target: tuple(dict.fromkeys(stable)) for target, stable in found.items()}


def same_object_stable(path: str) -> tuple[str, ...]:
    """Stable names whose sources are, on some row, the very object `path` names.

    ``jax.tree_map`` is not in the stable-name table, but it is the object that
    ``jax.tree_util.tree_map`` (a source of ``tree.map``) is: the data file says so.
    """
    found: list[str] = []
    for target in sorted(_objects(path)):
        found.extend(_by_object().get(target, ()))
    return tuple(dict.fromkeys(found))


def stable_first_mask(stable: str) -> int:
    """The rows on which jaxcompat can give the stable name (from its ``first``)."""
    first = stable_names()[stable].first
    everything = every_row_mask()
    if first is None:
        return everything
    return everything & ~rows_before(first)


@functools.cache
def rows_before(release: str) -> int:
    """The rows older than ``release``."""
    floor = parse_release(release)
    mask = 0
    for index, found in enumerate(release_tuples()):
        if found < floor:
            mask |= 1 << index
    return mask


def first_good_row(bad: int, scope: int) -> str | None:
    """The first row of `scope` after which no row of `scope` is in `bad`; None if the
    bad rows are not all at the start of the range (raising the floor would not help)."""
    names = rows()
    last_bad = max(index for index in range(len(names)) if bad >> index & 1)
    later = [i for i in range(last_bad + 1, len(names)) if scope >> i & 1]
    return names[later[0]] if later else None


#: jaxcompat's own modules: importing them works on every release. The mirrors of JAX's, and
#: two of its own.
JAXCOMPAT_MODULES = frozenset(
    {public.removeprefix("jaxcompat.") for public in MIRRORED if public != "jaxcompat"}
    | {"testing", "nox"}
)


@functools.cache
def adapted_keyword(path: str, keyword: str) -> tuple[str, KeywordRule] | None:
    """(first release whose ``path`` names ``keyword``, its rule) where jaxcompat's name for
    ``path`` takes the keyword on every release (``_keywords/adapter.py``); else None."""
    module, _, _ = path.rpartition(".")
    rule = rule_for(path, keyword)
    added = added_parameters().get(path)
    if rule is None or rule.other_values == NOT_ADAPTED_YET:
        return None  # the call fails before the first release, through jaxcompat too
    if added is None or keyword not in added[1]:
        return None
    if module not in modules(mirrored=True):
        return None
    # The first release that takes it as the newest does: where the release names it but
    # reads it otherwise, the rule's fixed_in.
    first = added[1][keyword]
    if rule.fixed_in is not None and parse_release(rule.fixed_in) > parse_release(first):
        first = rule.fixed_in
    return first, rule
