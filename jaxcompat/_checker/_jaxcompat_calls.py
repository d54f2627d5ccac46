"""JC041: an argument of a call through a jaxcompat name that jaxcompat refuses on some
releases of the range.

A jaxcompat name takes the newest JAX's signature on every release, so a call through it is
read against that signature alone: each argument, positional or keyword, lands on one newest
parameter. Some newest parameters jaxcompat can take only from a given release (the keyword
rules of ``_keywords/rules/functions.py``, and its own backports' limits in
``_keywords/rules/backports.py``); a call that passes one fails before that release,
and a positional argument written for an older signature may land on one without the
caller meaning it (``jax.make_mesh(shape, names, devices)`` ported to jaxcompat: the newest
third parameter is ``axis_types``).

The keyword rules are read here alone in the checker, through ``rule_for`` and the kinds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .._keywords.rules.backports import backport_keyword
from .._keywords.rules.functions import rule_for
from .._keywords.rules.kinds import (
    NO_DEFAULT,
    NOT_ADAPTED_YET,
    REFUSED_BY_NEWEST,
    UNSUPPORTED,
)
from .._releases import parse_release
from .._surface import added_parameters, modules, rows
from ._api import Signature, first_good_row, rows_before, signature_masks, stable_names
from ._ranges import describe
from ._uses import CallInfo

__all__ = ["Refusal", "refused_arguments"]


@dataclass(frozen=True)
class Refusal:
    """Where jaxcompat refuses a value other than ``default`` for a newest parameter."""

    #: The first release that takes it; None: refused on every release (as the newest JAX).
    first: str | None
    reason: str
    default: object


def _refusal(jax_path: str, parameter: str, jax_own: bool) -> Refusal | None:
    fact = backport_keyword(jax_path, parameter)
    if fact is not None:
        return Refusal(fact.first, fact.reason, fact.default)
    if not jax_own:
        # A backport, or JAX's object at another path, gives the name on older releases:
        # the keyword rules, about JAX's callable at this path, do not say what it takes.
        return None
    rule = rule_for(jax_path, parameter)
    if rule is None:
        return None
    if rule.other_values == REFUSED_BY_NEWEST:
        return Refusal(None, rule.reason, rule.default)
    if rule.other_values not in (UNSUPPORTED, NOT_ADAPTED_YET):
        return None  # honoured on every release
    added = added_parameters().get(jax_path)
    if added is None or parameter not in added[1]:
        return None
    if jax_path.rpartition(".")[0] not in modules(mirrored=True):
        return None
    first = added[1][parameter]
    if rule.fixed_in is not None and parse_release(rule.fixed_in) > parse_release(first):
        first = rule.fixed_in
    if not rows_before(first) & _rows_with_signature(jax_path):
        return None  # the callable came with it: JC040 says where the name is missing
    reason = rule.reason or "does not take it"
    default = rule.default if rule.other_values == UNSUPPORTED else NO_DEFAULT
    return Refusal(first, reason, default)


def _rows_with_signature(jax_path: str) -> int:
    found = 0
    for _, mask in signature_masks(jax_path):
        found |= mask
    return found


def _newest(jax_path: str) -> Signature | None:
    newest = 1 << (len(rows()) - 1)
    return next((s for s, m in signature_masks(jax_path) if m & newest), None)


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    return f"{number}{suffix or 'th'}"


def refused_arguments(
    stable: str, call: CallInfo, where: tuple[int, int], rows_there: int
) -> Iterator[tuple[int, int, str, int]]:
    """(line, column, message, rows) for each argument of a call of ``jaxcompat.<stable>``
    at ``where`` that jaxcompat refuses on some of the rows ``rows_there``."""
    jax_path = f"jax.{stable}"
    signature = _newest(jax_path)
    if signature is None:
        return
    entry = stable_names().get(stable)
    module, _, name = jax_path.rpartition(".")
    jax_own = entry is not None and all(
        s.where == f"{module}:{name}" and s.adapter is None and s.releases is None
        for s in entry.sources
    )
    shown = f"`jaxcompat.{stable}`"
    positional = signature.positional_names
    passed = {keyword for keyword, _, _ in call.keywords}
    for index in range(min(call.positional or 0, len(positional))):
        parameter = positional[index]
        refusal = _refusal(jax_path, parameter, jax_own)
        bad = _bad_rows(refusal, rows_there)
        if refusal is None or not bad:
            continue
        # What the caller may have meant: a newest parameter taken by keyword only.
        meant = [
            p.name
            for p in signature.parameters
            if p.keyword and not p.positional and p.name not in passed
        ]
        hint = "".join(f"; if it is the {name}, pass `{name}=`" for name in meant[:1])
        takes, floor = _takes(refusal, bad, rows_there)
        message = (
            f"the {_ordinal(index + 1)} positional argument of {shown} is `{parameter}` in the "
            f"newest signature, which {takes}{hint}"
            + (f"; else raise the floor to jax>={floor}" if floor else "")
        )
        yield where[0], where[1], message, bad
    for keyword, line, column in call.keywords:
        refusal = _refusal(jax_path, keyword, jax_own)
        bad = _bad_rows(refusal, rows_there)
        if refusal is None or not bad:
            continue
        if refusal.default is None and keyword in call.none_keywords:
            continue  # the default, the same as leaving it out
        takes, floor = _takes(refusal, bad, rows_there)
        message = f"{shown} is passed `{keyword}`, which {takes}"
        message += f"; raise the floor to jax>={floor}" if floor else ""
        yield line, column, message, bad


def _bad_rows(refusal: Refusal | None, rows_there: int) -> int:
    if refusal is None:
        return 0
    if refusal.first is None:
        return rows_there
    return rows_before(refusal.first) & rows_there


def _takes(refusal: Refusal, bad: int, rows_there: int) -> tuple[str, str | None]:
    """What jaxcompat does with the parameter, and the floor that avoids it, if one does."""
    if refusal.first is None:
        text = (
            f"jaxcompat refuses on every release other than its default "
            f"{refusal.default!r}, as the newest JAX does ({refusal.reason})"
        )
        return text, None
    only = "only at its default" if refusal.default is not NO_DEFAULT else "not at all"
    text = (
        f"jaxcompat takes only on {refusal.first} and newer ({only} on {describe(bad)}: "
        f"JAX before it {refusal.reason})"
    )
    return text, first_good_row(bad, rows_there)
