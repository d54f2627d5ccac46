"""Findings: what each use of a JAX or jaxcompat name does on the rows it runs on.

Each finding carries one of ``_codes``'s codes (``--explain JCxxx`` prints what it means).
JC010, JC011, JC020 and JC021 (a call's arguments) are ``_call_findings``'s, JC030, JC031, JC033
and JC034 (gates) ``_gate_findings``'s, JC041 ``_jaxcompat_calls``'s,
JC050 ``_config_findings``'s, JC060 ``_array_findings``'s, JC061 ``_class_findings``'s; JC001
for modules (``from jax.lib import xla_bridge``) is ``_module_findings``'s.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass

from .._keywords.rules.classes import class_keyword
from .._surface import rows
from ._api import (
    JAXCOMPAT_MODULES,
    JAXCOMPAT_OWN,
    facts,
    rows_before,
    split_path,
    stable_first_mask,
    stable_names,
)
from ._array_findings import array_findings
from ._call_findings import call_findings, class_keyword_finding
from ._class_findings import class_findings
from ._codes import (
    DEPRECATED_NAME,
    JAXCOMPAT_KEYWORD_UNAVAILABLE,
    JAXCOMPAT_NAME_UNAVAILABLE,
    JAXCOMPAT_VERSION,
    MISSING_NAME,
    REMOVED_NAME,
)
from ._config_findings import config_findings
from ._fixes import fix_for
from ._gate_findings import gate_finding
from ._jaxcompat_calls import refused_arguments
from ._module_data import module_mask, module_name
from ._module_findings import module_findings
from ._ranges import describe
from ._uses import Gate, Use

__all__ = ["Finding", "findings"]


@dataclass(frozen=True)
class Finding:
    line: int
    col: int
    code: str
    message: str
    releases: int  # the rows it concerns (0 for gates)


def _name_findings(use: Use, scope: int, shown: str, jax_path: str) -> Iterator[Finding]:
    for code, message, bad in _name_problems(scope, shown, jax_path, use.guarded):
        yield Finding(use.line, use.col, code, message, bad)


@functools.lru_cache(maxsize=4096)
def _name_problems(
    scope: int, shown: str, jax_path: str, guarded: bool
) -> tuple[tuple[str, str, int], ...]:
    """(code, message, rows) for reading `jax_path` on `scope`; cached, as names repeat."""
    name = facts(jax_path)
    if name is None or not name.known:
        return ()
    if name.path != jax_path and _names_recorded(name.path, jax_path):
        # A method of a public object (`jax.tree_util.default_registry.flatten_one_level`):
        # the module data records the object's own names, and its finding (module_findings)
        # speaks for the object too, where it is absent.
        return ()
    absent, raises = name.absent & scope, name.raises & scope
    if guarded:
        absent = raises = 0  # the except clause handles it
    is_module = split_path(jax_path) == (name.path, None)
    parts = []
    code = None
    # One finding per use: the code is the worst of what happens, the message says it all.
    for this_code, bad, verb in (
        (DEPRECATED_NAME.code, name.warns & scope, "emits a DeprecationWarning"),
        (REMOVED_NAME.code, raises, "raises AttributeError (deprecated, then removed)"),
        (MISSING_NAME.code, absent, "cannot be imported" if is_module else "does not exist"),
    ):
        if bad:
            parts.append(f"{verb} on {describe(bad)}")
            code = this_code
    if code is None:
        return ()
    bad = name.warns & scope | raises | absent
    subject = f"module {shown}" if is_module else shown
    message = f"{subject} {', '.join(parts)}; {fix_for(jax_path, bad, scope)}"
    return ((code, message, bad),)


def _names_recorded(recorded: str, path: str) -> bool:
    """Whether the module data records the names of the object (not a module) at
    `recorded`, and so the name `path` reads of it."""
    if module_mask(recorded) is not None:
        return False  # a module: this finding speaks for its names, as before
    attribute = path.removeprefix(recorded + ".").partition(".")[0]
    return module_name(recorded, attribute) is not None


#: The first parts of jaxcompat's own names: most uses are told apart by that part alone.
_OWN_FIRST_PARTS = frozenset(name.partition(".")[0] for name in JAXCOMPAT_OWN)


def _use_findings(use: Use, scope: int) -> Iterator[Finding]:
    if not use.path.startswith("jaxcompat"):
        if use.check_name:
            yield from _name_findings(use, scope, f"`{use.path}`", use.path)
        if use.call is not None:
            shown = f"`{use.path}`"
            found = call_findings(use, use.call, scope, shown, use.path, use.path)
            yield from (Finding(*f) for f in found)
        return
    relative = use.path.removeprefix("jaxcompat").removeprefix(".")
    if relative in ("__version__", "__version_info__") and use.check_name:
        message = (
            f"`{use.path}` is jaxcompat's own version, not JAX's (the trap of "
            "`import jaxcompat as jax`); use `jaxcompat.JAX_VERSION` (an int tuple) or "
            "`jaxcompat.JAX_VERSION_STRING`"
        )
        yield Finding(use.line, use.col, JAXCOMPAT_VERSION.code, message, scope)
        return
    parts = relative.split(".")
    own = parts[0] in _OWN_FIRST_PARTS and any(
        ".".join(parts[:end]) in JAXCOMPAT_OWN for end in range(1, 4)
    )
    if not relative or own:
        if relative in JAXCOMPAT_OWN and use.call is not None:
            # jaxcompat's own primitives (jit) take the newest options; a few only from the
            # release whose JAX has them (_keywords/rules/backports.py).
            where = (use.line, use.col)
            for line, col, message, bad in refused_arguments(relative, use.call, where, scope):
                yield Finding(line, col, JAXCOMPAT_KEYWORD_UNAVAILABLE.code, message, bad)
        return
    if relative in JAXCOMPAT_MODULES:
        return
    entry = stable_names().get(relative)
    if entry is None:
        if any(".".join(parts[:end]) in stable_names() for end in range(1, len(parts))):
            return  # an attribute of a stable name's object
        forwarded = f"jax.{relative}"
        shown = f"`{use.path}` (JAX's `{forwarded}`)"
        if use.check_name:
            yield from _name_findings(use, scope, shown, forwarded)
        if use.call is not None:
            found = call_findings(use, use.call, scope, shown, forwarded, forwarded)
            yield from (Finding(*f) for f in found)
        return
    missing = scope & ~stable_first_mask(relative)
    if use.check_name and missing and not use.guarded:
        message = (
            f"`{use.path}` raises AttributeError on {describe(missing)}: JAX has it from "
            f"{entry.first} ({entry.reason}); raise the floor to jax>={entry.first}"
        )
        yield Finding(use.line, use.col, JAXCOMPAT_NAME_UNAVAILABLE.code, message, missing)
    if use.call is not None:
        newest = 1 << (len(rows()) - 1)
        # A stable name takes the newest JAX's signature on every row it exists on.
        rows_there = scope & stable_first_mask(relative)
        for line, col, code, message, _ in call_findings(
            use, use.call, newest, f"`{use.path}`", f"jax.{relative}", use.path
        ):
            message = message.replace(describe(newest), "every release")
            yield Finding(line, col, code, message, rows_there)
        where = (use.line, use.col)
        for line, col, message, bad in refused_arguments(relative, use.call, where, rows_there):
            yield Finding(line, col, JAXCOMPAT_KEYWORD_UNAVAILABLE.code, message, bad)
        # Except a newest constructor keyword of JAX's own class, which the classes of the
        # releases before its first lack.
        for keyword, line, col in use.call.keywords:
            fact = class_keyword(f"jax.{relative}", keyword)
            bad = rows_before(fact.first) & rows_there if fact is not None else 0
            if fact is not None and bad:
                yield Finding(
                    *class_keyword_finding(
                        f"`{use.path}`", (keyword, line, col), fact, bad, rows_there
                    )
                )


def findings(
    uses: list[Use],
    gates: list[Gate],
    scope: int,
    tree: ast.Module | None = None,
    source: str = "",
    annotated: dict[tuple[int, int], str] | None = None,
) -> list[Finding]:
    """Every finding for one file's uses and gates, checked on the rows `scope`; with the
    file's `tree` and `source`, its array attributes (JC060) and JAX class instances'
    attributes (JC061) too."""
    found: list[Finding] = []
    for use in uses:
        effective = use.mask & scope
        if effective:
            found.extend(_use_findings(use, effective))
            found.extend(Finding(*f) for f in module_findings(use, effective))
            found.extend(Finding(*f) for f in config_findings(use, effective))
    if tree is not None:
        found.extend(Finding(*f) for f in array_findings(tree, source, gates, scope))
        found.extend(
            Finding(*f) for f in class_findings(tree, source, uses, gates, scope, annotated or {})
        )
    for gate in gates:
        finding = gate_finding(gate, scope)
        if finding is not None:
            found.append(Finding(*finding))
    return sorted(found, key=lambda f: (f.line, f.col, f.code))
