"""JC010, JC011, JC020 and JC021: what a call to a JAX name passes that some release of the
range does not take.

A keyword the release's signature lacks (JC010; a keyword jaxcompat's name adapts is told
apart, and a newest constructor keyword of JAX's own class), a keyword it deprecates (JC011),
positional arguments past its parameters or at a position whose parameter moved (JC020), and
a parameter it requires that the call leaves out (JC021). Signatures come from the API data,
one per run of rows.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator

from .._keywords.rules.classes import ClassKeyword, class_keyword
from .._keywords.rules.kinds import NO_DEFAULT, UNSUPPORTED, KeywordRule
from ._api import (
    JAXCOMPAT_OWN,
    LEGACY_POSITIONS_READ_BY_JAX,
    Signature,
    adapted_keyword,
    first_good_row,
    rows_before,
    signature_masks,
    stable_names,
)
from ._codes import (
    KEYWORD_DEPRECATED,
    KEYWORD_NOT_ACCEPTED,
    MISSING_ARGUMENT,
    POSITIONAL_CALL,
)
from ._fixes import covering_stable, fix_for, newest_signature, pretty
from ._ranges import describe
from ._uses import CallInfo, Use

__all__ = ["call_findings", "class_keyword_finding"]

#: (line, col, code, message, rows): a finding, as the other ``_*_findings`` modules give it.
FoundTuple = tuple[int, int, str, str, int]


def call_findings(
    use: Use, call: CallInfo, scope: int, shown: str, sig_path: str, fix_path: str
) -> Iterator[FoundTuple]:
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
                yield class_keyword_finding(
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
                fix = fix_for(fix_path, bad, scope, sig_path)
            yield (line, col, KEYWORD_NOT_ACCEPTED.code, f"{message}; {fix}", bad)
        elif keyword in deprecated:
            bad = deprecated[keyword]
            message = f"passing `{keyword}` to {shown} emits a DeprecationWarning on"
            stable, _ = covering_stable(fix_path, scope)
            newest = newest_signature(sig_path)
            if stable is not None:
                hint = fix_for(fix_path, bad, scope, sig_path)
            else:
                hint = f"the newest signature is {pretty(newest)}" if newest else "drop it"
            yield (line, col, KEYWORD_DEPRECATED.code, f"{message} {describe(bad)}; {hint}", bad)
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
        stable, _ = covering_stable(fix_path, scope)
        if stable is not None and not fix_path.startswith("jaxcompat."):
            fix += f" (or use `jaxcompat.{stable}`)"
        yield (use.line, use.col, POSITIONAL_CALL.code, f"{text}; {fix}", bad)
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
) -> FoundTuple:
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
    newest = newest_signature(fix_path)
    optional_in_newest = newest is not None and not any(
        p.required and p.name in left_out for p in newest.parameters
    )
    stable, _ = covering_stable(fix_path, scope)
    own = fix_path.removeprefix("jax.") if fix_path.removeprefix("jax.") in JAXCOMPAT_OWN else None
    replacement = stable or own
    if replacement and optional_in_newest and not fix_path.startswith("jaxcompat."):
        fix = f"pass {them}, or use `jaxcompat.{replacement}`, which takes the newest signature"
    else:
        fix = f"pass {them}"
    return (use.line, use.col, MISSING_ARGUMENT.code, f"{shown} called without {what}; {fix}", bad)


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


def class_keyword_finding(
    shown: str,
    where: tuple[str, int, int],
    fact: ClassKeyword,
    bad: int,
    scope: int,
    with_reason: bool = True,
) -> FoundTuple:
    """JC010 for a newest constructor keyword of a class that jaxcompat gives as JAX's own
    (``_keywords/rules/classes.py``): JAX's TypeError on ``bad``, through jaxcompat too."""
    keyword, line, col = where
    floor = first_good_row(bad, scope) or fact.first
    why = f" (JAX before it {fact.reason})" if floor == fact.first and with_reason else ""
    message = (
        f"{shown} does not accept the keyword `{keyword}` on {describe(bad)}; raise the floor "
        f"to jax>={floor}{why}"
    )
    return (line, col, KEYWORD_NOT_ACCEPTED.code, message, bad)


def _adapted_keyword_finding(
    use: Use,
    call: CallInfo,
    where: tuple[str, int, int],
    bad: int,
    shown: str,
    sig_path: str,
    adapted: tuple[str, KeywordRule],
) -> Iterator[FoundTuple]:
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
            yield (line, col, KEYWORD_NOT_ACCEPTED.code, message, bad)
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
    yield (line, col, KEYWORD_NOT_ACCEPTED.code, f"{message}; {fix}", bad)


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
