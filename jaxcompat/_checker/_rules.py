"""Findings: what each use of a JAX or jaxcompat name does on the rows it runs on.

Each finding carries one of ``_codes``'s codes (``--explain JCxxx`` prints what it means).
JC041 is ``_jaxcompat_calls``'s, JC050 ``_config_findings``'s, JC060 ``_array_findings``'s,
JC061 ``_class_findings``'s; JC001 for modules (``from jax.lib import xla_bridge``) is
``_module_findings``'s.
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Iterator
from dataclasses import dataclass

from .._keywords.rules.classes import ClassKeyword, class_keyword
from .._keywords.rules.kinds import NO_DEFAULT, UNSUPPORTED, KeywordRule
from .._surface import rows
from ._api import (
    JAXCOMPAT_MODULES,
    JAXCOMPAT_OWN,
    LEGACY_POSITIONS_READ_BY_JAX,
    Signature,
    adapted_keyword,
    facts,
    first_good_row,
    is_module,
    rows_before,
    same_object_stable,
    signature_masks,
    split_path,
    stable_first_mask,
    stable_for,
    stable_names,
)
from ._array_findings import array_findings
from ._class_findings import class_findings
from ._codes import (
    DEAD_GATE,
    DEPRECATED_NAME,
    GATE_STILL_NEEDED,
    JAXCOMPAT_KEYWORD_UNAVAILABLE,
    JAXCOMPAT_NAME_UNAVAILABLE,
    JAXCOMPAT_VERSION,
    KEYWORD_DEPRECATED,
    KEYWORD_NOT_ACCEPTED,
    MISSING_ARGUMENT,
    MISSING_NAME,
    POSITIONAL_CALL,
    REMOVED_NAME,
    REPLACEABLE_GATE,
    STRING_VERSION_COMPARISON,
)
from ._config_findings import config_findings
from ._gates import VERSION_PATHS, available_rows
from ._jaxcompat_calls import refused_arguments
from ._module_data import module_mask, module_name
from ._module_findings import module_findings
from ._ranges import describe, row_list
from ._uses import CallInfo, Gate, Use

__all__ = ["Finding", "dead_branch", "findings"]


@dataclass(frozen=True)
class Finding:
    line: int
    col: int
    code: str
    message: str
    releases: int  # the rows it concerns (0 for gates)


def _pretty(signature: Signature) -> str:
    return "(" + signature.text.replace("=!", "").replace("=", "").replace(",", ", ") + ")"


def _newest_signature(path: str) -> Signature | None:
    newest = 1 << (len(rows()) - 1)
    for signature, mask in signature_masks(path):
        if mask & newest:
            return signature
    return None


def _covering_stable(path: str, scope: int) -> tuple[str | None, str | None]:
    """(a stable name that works on every row of `scope`, one that exists but does not)."""
    partial = None
    for stable in stable_for(path):
        if stable_first_mask(stable) & scope == scope:
            return stable, None
        partial = partial or stable
    return None, partial


def _fix(path: str, bad: int, scope: int, signature_path: str | None = None) -> str:
    """What to do about `path` failing on the rows `bad` of `scope`.

    With `signature_path` (a call's keyword or positional problem), the advice is about the
    callable's newest signature rather than its name.
    """
    if path.startswith("jaxcompat."):
        newest = _newest_signature(signature_path or "")
        return f"it takes the newest JAX signature {_pretty(newest)}" if newest else "drop it"
    stable, partial = _covering_stable(path, scope)
    if stable is not None:
        text = f"use `jaxcompat.{stable}`"
        mine, newest = _newest_signature(path), _newest_signature(f"jax.{stable}")
        differs = mine is not None and newest is not None and mine.text != newest.text
        if newest is not None and (differs or signature_path is not None):
            text += f", which takes the newest signature {_pretty(newest)}"
        return text
    if partial is not None:
        entry = stable_names()[partial]
        return (
            f"raise the floor to jax>={entry.first} and use `jaxcompat.{partial}` ({entry.reason})"
        )
    floor = first_good_row(bad, scope)
    if floor is not None:
        return f"raise the floor to jax>={floor}"
    for same in same_object_stable(path):
        if stable_first_mask(same) & scope == scope:
            return f"use `jaxcompat.{same}`, the same function under its newest name"
    oldest = scope & -scope
    if bad & oldest:
        # The range's oldest release has the problem too: a cap below it leaves no release.
        name = facts(path)
        problem = "is deprecated" if name is not None and name.warns & oldest else "fails"
        text = (
            f"no jaxcompat name replaces it, and it {problem} on the oldest release of the "
            "range; move off it"
        )
    else:
        text = (
            f"no jaxcompat name replaces it; move off it or cap the range below {row_list(bad)[0]}"
        )
    newest = _newest_signature(signature_path) if signature_path else None
    if newest is not None:
        text = f"no jaxcompat name replaces it; the newest signature is {_pretty(newest)}"
    return text


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
    message = f"{subject} {', '.join(parts)}; {_fix(jax_path, bad, scope)}"
    return ((code, message, bad),)


def _names_recorded(recorded: str, path: str) -> bool:
    """Whether the module data records the names of the object (not a module) at
    `recorded`, and so the name `path` reads of it."""
    if module_mask(recorded) is not None:
        return False  # a module: this finding speaks for its names, as before
    attribute = path.removeprefix(recorded + ".").partition(".")[0]
    return module_name(recorded, attribute) is not None


def _call_findings(
    use: Use, call: CallInfo, scope: int, shown: str, sig_path: str, fix_path: str
) -> Iterator[Finding]:
    rejected: dict[str, int] = {}
    deprecated: dict[str, int] = {}
    too_many = 0
    limits: dict[int, int] = {}
    meaning: list[dict[str, int]] = [{} for _ in range(call.positional or 0)]
    signatures = [(s, m & scope) for s, m in signature_masks(sig_path) if m & scope]
    missing: dict[str, int] = {}
    for signature, mask in signatures:
        for name in _left_out(signature, call):
            missing[name] = missing.get(name, 0) | mask
        by_name = {p.name: p for p in signature.parameters}
        for keyword, _, _ in call.keywords:
            parameter = by_name.get(keyword)
            if not (parameter is not None and parameter.keyword) and not signature.var_keyword:
                rejected[keyword] = rejected.get(keyword, 0) | mask
            elif parameter is not None and parameter.deprecated:
                deprecated[keyword] = deprecated.get(keyword, 0) | mask
        positional = signature.positional_names
        over = call.positional is not None and call.positional > len(positional)
        if over and not signature.var_positional:
            too_many |= mask
            limits[len(positional)] = limits.get(len(positional), 0) | mask
        for index in range(min(call.positional or 0, len(positional))):
            name = positional[index]
            meaning[index][name] = meaning[index].get(name, 0) | mask
    for keyword, line, col in call.keywords:
        fact = class_keyword(sig_path, keyword)
        if fact is not None:
            # JAX's own class: its data, and the fact's rows (a class whose signature the
            # data cannot read, or one that names the keyword but reads it otherwise).
            bad = (rejected.get(keyword, 0) | rows_before(fact.first)) & scope
            if bad:
                # Where JAX's name had another class (experimental.layout.Layout before
                # 0.7.0), the reason, about the class jaxcompat gives, is left out.
                yield _class_keyword_finding(
                    shown, (keyword, line, col), fact, bad, scope, not _meaning_changed(sig_path)
                )
            continue
        adapted = adapted_keyword(sig_path, keyword) if keyword in rejected else None
        if adapted is not None:
            yield from _adapted_keyword_finding(
                use, call, (keyword, line, col), rejected[keyword], shown, sig_path, adapted
            )
        elif keyword in rejected:
            bad = rejected[keyword]
            message = f"{shown} does not accept the keyword `{keyword}` on {describe(bad)}"
            if keyword in deprecated:
                message += f" (and passing it warns on {describe(deprecated[keyword])})"
                bad |= deprecated[keyword]
            # Told to go by position only where some release names it as a parameter.
            if sig_path in LEGACY_POSITIONS_READ_BY_JAX and any(m & ~bad for _, m in signatures):
                fix = "pass it by position, which every release reads the same"
            else:
                fix = _fix(fix_path, bad, scope, sig_path)
            yield Finding(line, col, KEYWORD_NOT_ACCEPTED.code, f"{message}; {fix}", bad)
        elif keyword in deprecated:
            bad = deprecated[keyword]
            message = f"passing `{keyword}` to {shown} emits a DeprecationWarning on"
            stable, _ = _covering_stable(fix_path, scope)
            newest = _newest_signature(sig_path)
            if stable is not None:
                hint = _fix(fix_path, bad, scope, sig_path)
            else:
                hint = f"the newest signature is {_pretty(newest)}" if newest else "drop it"
            yield Finding(
                line, col, KEYWORD_DEPRECATED.code, f"{message} {describe(bad)}; {hint}", bad
            )
    moved = (
        []
        if sig_path in LEGACY_POSITIONS_READ_BY_JAX
        else _moved_positions(meaning, [s for s, _ in signatures])
    )
    if too_many or moved:
        parts = [
            f"takes at most {limit} positional argument{'s' * (limit != 1)} on {describe(mask)}"
            for limit, mask in sorted(limits.items())
        ]
        parts += moved
        bad = too_many | sum_masks(meaning, moved)
        count = call.positional
        text = f"{shown} called with {count} positional argument{'s' * (count != 1)}: "
        text += "; ".join(parts)
        fix = "pass them by keyword"
        stable, _ = _covering_stable(fix_path, scope)
        if stable is not None and not fix_path.startswith("jaxcompat."):
            fix += f" (or use `jaxcompat.{stable}`)"
        yield Finding(use.line, use.col, POSITIONAL_CALL.code, f"{text}; {fix}", bad)
    # Where a keyword is refused or too many are passed, that finding says why the call fails.
    failing = too_many | functools.reduce(operator.or_, rejected.values(), 0)
    left_out = {name: mask & ~failing for name, mask in missing.items() if mask & ~failing}
    if left_out:
        yield _left_out_finding(use, shown, fix_path, left_out, scope)


def _left_out(signature: Signature, call: CallInfo) -> list[str]:
    """The parameters that `signature` requires and `call` does not pass (none where the
    call unpacks ``*args`` or ``**kwargs``, which may pass anything)."""
    if call.positional is None or call.double_star:
        return []
    by_position = set(signature.positional_names[: call.positional])
    by_keyword = {keyword for keyword, _, _ in call.keywords}
    return [
        p.name
        for p in signature.parameters
        if p.required and p.name not in by_position and p.name not in by_keyword
    ]


def _left_out_finding(
    use: Use, shown: str, fix_path: str, left_out: dict[str, int], scope: int
) -> Finding:
    """JC021: a call without arguments some rows require (``register_dataclass(cls)`` on
    0.4.27-0.4.35, which want ``data_fields`` and ``meta_fields``)."""
    bad = functools.reduce(operator.or_, left_out.values(), 0)
    names = [f"`{name}`" for name in left_out]
    if len(set(left_out.values())) == 1:
        what = f"{' and '.join(names)}, which JAX requires on {describe(bad)}"
    else:
        what = " and ".join(
            f"`{name}` (required on {describe(mask)})" for name, mask in left_out.items()
        )
    them = "them" if len(names) > 1 else "it"
    # The jaxcompat name to use: one that works on the whole range and whose newest
    # signature (jaxcompat's, on every release) requires none of them (jaxcompat.jit).
    newest = _newest_signature(fix_path)
    optional_in_newest = newest is not None and not any(
        p.required and p.name in left_out for p in newest.parameters
    )
    stable, _ = _covering_stable(fix_path, scope)
    own = fix_path.removeprefix("jax.") if fix_path.removeprefix("jax.") in JAXCOMPAT_OWN else None
    replacement = stable or own
    if replacement and optional_in_newest and not fix_path.startswith("jaxcompat."):
        fix = f"pass {them}, or use `jaxcompat.{replacement}`, which takes the newest signature"
    else:
        fix = f"pass {them}"
    return Finding(
        use.line, use.col, MISSING_ARGUMENT.code, f"{shown} called without {what}; {fix}", bad
    )


def sum_masks(meaning: list[dict[str, int]], moved: list[str]) -> int:
    if not moved:
        return 0
    total = 0
    for names in meaning:
        if len(names) > 1:
            for mask in names.values():
                total |= mask
    return total


def _meaning_changed(jax_path: str) -> bool:
    """Whether JAX's object at ``jax_path`` was another class on some releases than the one
    jaxcompat gives under the name (a source at that very path, for some releases only)."""
    entry = stable_names().get(jax_path.removeprefix("jax."))
    module, _, name = jax_path.rpartition(".")
    return entry is not None and any(
        source.where == f"{module}:{name}" and source.releases is not None
        for source in entry.sources
    )


def _class_keyword_finding(
    shown: str,
    where: tuple[str, int, int],
    fact: ClassKeyword,
    bad: int,
    scope: int,
    with_reason: bool = True,
) -> Finding:
    """JC010 for a newest constructor keyword of a class that jaxcompat gives as JAX's own
    (``_keywords/rules/classes.py``): JAX's TypeError on ``bad``, through jaxcompat too."""
    keyword, line, col = where
    floor = first_good_row(bad, scope) or fact.first
    why = f" (JAX before it {fact.reason})" if floor == fact.first and with_reason else ""
    message = (
        f"{shown} does not accept the keyword `{keyword}` on {describe(bad)}; raise the floor "
        f"to jax>={floor}{why}"
    )
    return Finding(line, col, KEYWORD_NOT_ACCEPTED.code, message, bad)


def _adapted_keyword_finding(
    use: Use,
    call: CallInfo,
    where: tuple[str, int, int],
    bad: int,
    shown: str,
    sig_path: str,
    adapted: tuple[str, KeywordRule],
) -> Iterator[Finding]:
    """A keyword that jaxcompat's name takes on every release, and JAX's lacks on ``bad``:
    only its default there (``_keywords/adapter.py``)."""
    keyword, line, col = where
    first, rule = adapted
    # Only an UNSUPPORTED keyword's values other than the default fail through jaxcompat;
    # one the newest requires (no default) fails for every value.
    fails = rule.other_values == UNSUPPORTED and not (
        rule.default is None and keyword in call.none_keywords
    )
    public = f"jaxcompat.{sig_path.removeprefix('jax.')}"
    default = f"`{keyword}={rule.default!r}`"
    if use.path.startswith("jaxcompat"):
        if fails:
            message = (
                f"{shown} takes `{keyword}` on every release, but only {default} on "
                f"{describe(bad)} (JAX there {rule.reason}); raise the floor to "
                f"jax>={first}, or pass {rule.default!r} there"
            )
            yield Finding(line, col, KEYWORD_NOT_ACCEPTED.code, message, bad)
        return
    message = f"{shown} does not accept the keyword `{keyword}` on {describe(bad)}"
    if not fails:
        fix = f"use `{public}`, which takes `{keyword}` on every release"
        if rule.other_values == UNSUPPORTED:
            fix = f"use `{public}`, which takes {default} on every release"
    elif rule.default is NO_DEFAULT:
        fix = f"raise the floor to jax>={first} (JAX before it {rule.reason})"
    else:
        fix = (
            f"raise the floor to jax>={first} (`{public}` takes it on every release, but "
            f"only {default} before {first})"
        )
    yield Finding(line, col, KEYWORD_NOT_ACCEPTED.code, f"{message}; {fix}", bad)


def _moved_positions(meaning: list[dict[str, int]], signatures: list[Signature]) -> list[str]:
    """Positions whose parameter is another one on some rows (a reorder, not a rename)."""
    found = []
    for index, names in enumerate(meaning):
        if len(names) < 2:
            continue
        # A parameter renamed in place keeps its meaning; one found at another position
        # on some row (make_mesh's devices/axis_types at 0.7.0) does not.
        elsewhere = any(
            name in s.positional_names[:index] + s.positional_names[index + 1 :]
            for name in names
            for s in signatures
        )
        if elsewhere:
            means = ", ".join(f"`{name}` on {describe(mask)}" for name, mask in names.items())
            found.append(f"argument {index + 1} is {means}")
    return found


#: The first parts of jaxcompat's own names: most uses are told apart by that part alone.
_OWN_FIRST_PARTS = frozenset(name.partition(".")[0] for name in JAXCOMPAT_OWN)


def _use_findings(use: Use, scope: int) -> Iterator[Finding]:
    if not use.path.startswith("jaxcompat"):
        if use.check_name:
            yield from _name_findings(use, scope, f"`{use.path}`", use.path)
        if use.call is not None:
            yield from _call_findings(use, use.call, scope, f"`{use.path}`", use.path, use.path)
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
            yield from _call_findings(use, use.call, scope, shown, forwarded, forwarded)
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
        for finding in _call_findings(
            use, use.call, newest, f"`{use.path}`", f"jax.{relative}", use.path
        ):
            message = finding.message.replace(describe(newest), "every release")
            yield Finding(finding.line, finding.col, finding.code, message, rows_there)
        where = (use.line, use.col)
        for line, col, message, bad in refused_arguments(relative, use.call, where, rows_there):
            yield Finding(line, col, JAXCOMPAT_KEYWORD_UNAVAILABLE.code, message, bad)
        # Except a newest constructor keyword of JAX's own class, which the classes of the
        # releases before its first lack.
        for keyword, line, col in use.call.keywords:
            fact = class_keyword(f"jax.{relative}", keyword)
            bad = rows_before(fact.first) & rows_there if fact is not None else 0
            if fact is not None and bad:
                yield _class_keyword_finding(
                    f"`{use.path}`", (keyword, line, col), fact, bad, rows_there
                )


def _gate_finding(gate: Gate, scope: int) -> Finding | None:
    if gate.kind == "string":
        wrong = gate.mask & scope
        if not wrong:
            return None
        message = (
            f"`{gate.branches[0][0]}` compares strings, not releases: it is wrong on "
            f"{describe(wrong)}; compare `jax.__version_info__` (or `jaxcompat.JAX_VERSION`) "
            "with a tuple of ints"
        )
        return Finding(gate.line, gate.col, STRING_VERSION_COMPARISON.code, message, wrong)
    if not gate.mask & scope:
        return None
    effective = gate.mask & scope
    return (
        _replaceable_gate(gate, scope)
        or _branch_jaxcompat_gives(gate, effective)
        or _dead_or_needed_gate(gate, effective)
    )


_WHAT = {
    "version": "this version gate",
    "hasattr": "this hasattr gate",
    "try": "this try/except import gate",
}


def _replaceable_gate(gate: Gate, scope: int) -> Finding | None:
    """JC030: every branch is a location of one stable jaxcompat name."""
    if not gate.branches or not all(gate.branches):
        return None
    common: set[str] | None = None
    preferred: list[str] = []
    every = {path for branch in gate.branches for path in branch}
    for branch in gate.branches:
        for path in branch:
            if any(other.startswith(f"{path}.") for other in every):
                continue  # `hasattr(jax, "tree")` around `jax.tree.map`: the use decides
            split = split_path(path) if path.startswith("jax.") else None
            if split is not None and split[1] is None:
                continue  # importing a module decides nothing
            candidates = set(stable_for(path))
            common = candidates if common is None else common & candidates
            relative = path.removeprefix("jaxcompat.").removeprefix("jax.")
            preferred.append(relative)
    if not common:
        return None
    stable = next((p for p in preferred if p in common), sorted(common)[0])
    message = (
        f"{_WHAT[gate.kind]} can become `jaxcompat.{stable}`: every branch is a location of it"
    )
    first = stable_names()[stable].first
    if first is not None and scope & ~stable_first_mask(stable):
        message += f" (before {first} it raises AttributeError, which `hasattr` reads as False)"
    return Finding(gate.line, gate.col, REPLACEABLE_GATE.code, message, 0)


def _branch_jaxcompat_gives(gate: Gate, effective: int) -> Finding | None:
    """JC030 too: a branch whose names jaxcompat gives on every release of the range, one of
    them a name JAX lacks on some (the rest of the gate, a fallback written by hand included,
    is then not needed). Where JAX has every name of the branch on every release, the gate
    chooses between behaviours, not names: no jaxcompat name replaces it."""
    found = _jaxcompat_branch(gate, effective)
    if found is None:
        return None
    distinct = list(dict.fromkeys(found[1]))
    shown = ", ".join(f"`jaxcompat.{name}`" for name in distinct)
    message = (
        f"{_WHAT[gate.kind]} can become {shown}: jaxcompat gives "
        f"{'it' if len(distinct) == 1 else 'them'} on every release of the range "
        f"({describe(effective)}), so the gate is not needed"
    )
    return Finding(gate.line, gate.col, REPLACEABLE_GATE.code, message, 0)


def _jaxcompat_branch(gate: Gate, effective: int) -> tuple[int, list[str]] | None:
    """The first branch (its index, and its names) that ``_branch_jaxcompat_gives`` asks for."""
    if gate.kind == "string" or dead_branch(gate, effective) is not None:
        return None  # one branch runs alone: JC033 says which
    newest = _newest_branch(gate)
    for index, branch in enumerate(gate.branches):
        if newest is not None and index != newest:
            # An older release's branch: jaxcompat giving its names on every release says
            # nothing of what it does there (flax's `if jax.__version_info__ <= (0, 4, 33):`
            # reads the trace level that JAX 0.4.34's stackless tracing replaced).
            continue
        names = _names_jaxcompat_gives(branch, effective)
        if names and any(effective & ~(available_rows(f"jax.{n}") or 0) for n in names):
            return index, names  # not a gate on behaviour: JAX lacks one of them
    return None


def _newest_branch(gate: Gate) -> int | None:
    """The index of the branch that runs on the newest release (0: the ``if`` or ``try``
    body, 1: what runs where it does not), where the checker can tell. Not for a hasattr
    gate: its tested name counts as its first branch's, whichever branch reads it, and
    jaxcompat giving that name everywhere is what makes such a gate moot."""
    if gate.truth is None or gate.kind == "hasattr":
        return None
    return 0 if gate.truth >> (len(rows()) - 1) & 1 else 1


def _names_jaxcompat_gives(branch: list[str], effective: int) -> list[str]:
    """The names (past ``jax.``) a branch reads, if jaxcompat gives every one of them on the
    rows `effective` and the branch reads nothing else; else []."""
    leaves = [p for p in branch if not any(o.startswith(f"{p}.") for o in branch)]
    names = [p.partition(".")[2] for p in leaves if not is_module(p)]
    if any(not p.startswith(("jax.", "jaxcompat.")) or p in VERSION_PATHS for p in leaves):
        return []  # reading the version is a gate of its own (an `elif`), not a name to use
    if all(effective & ~(available_rows(f"jaxcompat.{name}") or 0) == 0 for name in names):
        return names
    return []


def replacing_branch(gate: Gate, scope: int) -> str | None:
    """For ``jaxcompat migrate``: the branch ("first": the ``if``/``try`` body; "else") that
    replaces a gate ``check`` reports as JC030, the one whose names jaxcompat gives on every
    release of the range; None for any other gate."""
    effective = gate.mask & scope
    if gate.kind not in _WHAT or not effective or gate.node is None:
        return None
    found = _jaxcompat_branch(gate, effective)
    if found is None and _replaceable_gate(gate, scope) is not None:
        # Every branch is a location of one name: the first that jaxcompat gives.
        found = next(
            ((i, b) for i, b in enumerate(gate.branches) if _names_jaxcompat_gives(b, effective)),
            None,
        )
    if found is None or found[0] > 1:
        return None
    return "first" if found[0] == 0 else "else"


def _dead_from(truth: int) -> str:
    """The oldest release from which `truth` no longer changes: a floor that makes the gate
    dead."""
    names = rows()
    newest = truth >> (len(names) - 1) & 1
    first = len(names) - 1
    while first > 0 and (truth >> (first - 1) & 1) == newest:
        first -= 1
    return names[first]


def dead_branch(gate: Gate, scope: int) -> str | None:
    """The branch of a gate that is the only one to run on the rows `scope` ("first": the
    ``if`` or ``try`` body; "else": the ``else``, ``elif`` or nothing); None when both run
    or the checker cannot tell."""
    effective = gate.mask & scope
    if not effective or gate.kind == "string" or gate.truth is None:
        return None
    true_rows = gate.truth & effective
    if true_rows == effective:
        return "first"
    return "else" if not true_rows else None


def _dead_or_needed_gate(gate: Gate, effective: int) -> Finding:
    """JC033 when one branch never runs on the rows `effective`, else JC034."""
    what = _WHAT[gate.kind].replace("this ", "this `elif` ") if gate.is_elif else _WHAT[gate.kind]
    every = "every release of the range that reaches it" if gate.is_elif else "every release of it"
    test = gate.test if gate.kind == "try" else f"`{gate.test}`"
    holds = "works" if gate.kind == "try" else "is true"
    fails = "fails" if gate.kind == "try" else "is false"
    if gate.truth is None:
        message = (
            f"{what} is still needed: {test} is not something jaxcompat's data can evaluate "
            "on each release (a private or unknown name, or a behaviour); keep it"
        )
        return Finding(gate.line, gate.col, GATE_STILL_NEEDED.code, message, 0)
    true_rows = gate.truth & effective
    other = "`except`" if gate.kind == "try" else "`else`"
    if true_rows == effective:
        dead = f"its {other} branch never runs" if gate.has_else else "its test always holds"
        message = (
            f"{what} is dead on the declared range: {test} {holds} on {every} "
            f"({describe(effective)}), so {dead}; keep only its first branch"
        )
        return Finding(gate.line, gate.col, DEAD_GATE.code, message, 0)
    if not true_rows:
        rest = f"keep only its {other} branch" if gate.has_else else "remove it"
        message = (
            f"{what} is dead on the declared range: {test} {fails} on {every} "
            f"({describe(effective)}), so its first branch never runs; {rest}"
        )
        return Finding(gate.line, gate.col, DEAD_GATE.code, message, 0)
    message = (
        f"{what} is still needed: {test} {holds} on {describe(true_rows)} and "
        f"{fails} on {describe(effective & ~true_rows)}; "
        f"a floor of jax>={_dead_from(gate.truth)} makes it dead"
    )
    return Finding(gate.line, gate.col, GATE_STILL_NEEDED.code, message, 0)


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
        finding = _gate_finding(gate, scope)
        if finding is not None:
            found.append(finding)
    return sorted(found, key=lambda f: (f.line, f.col, f.code))
