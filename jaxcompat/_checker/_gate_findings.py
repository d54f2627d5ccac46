"""JC030, JC031, JC033 and JC034: what a version gate, a ``hasattr`` gate or a ``try``/
``except`` import gate does on the rows of the range.

A gate is replaceable (JC030) where every branch is a location of one stable jaxcompat name,
or where jaxcompat gives a branch's names on every release of the range; dead (JC033) where
one branch alone runs there; still needed (JC034) where both run, with the floor that makes
it dead, or where its test is not something the data can evaluate. A comparison of the
version with a string (JC031) is wrong where characters order releases otherwise than their
numbers. ``jaxcompat migrate`` removes gates through ``dead_branch`` and ``replacing_branch``.
"""

from __future__ import annotations

from .._surface import rows
from ._api import is_module, split_path, stable_first_mask, stable_for, stable_names
from ._codes import DEAD_GATE, GATE_STILL_NEEDED, REPLACEABLE_GATE, STRING_VERSION_COMPARISON
from ._gates import VERSION_PATHS, available_rows
from ._ranges import describe
from ._uses import Gate

__all__ = ["dead_branch", "gate_finding", "replacing_branch"]

#: (line, col, code, message, rows): a finding, as the other ``_*_findings`` modules give it.
FoundTuple = tuple[int, int, str, str, int]


def gate_finding(gate: Gate, scope: int) -> FoundTuple | None:
    if gate.kind == "string":
        wrong = gate.mask & scope
        if not wrong:
            return None
        message = (
            f"`{gate.branches[0][0]}` compares strings, not releases: it is wrong on "
            f"{describe(wrong)}; compare `jax.__version_info__` (or `jaxcompat.JAX_VERSION`) "
            "with a tuple of ints"
        )
        return (gate.line, gate.col, STRING_VERSION_COMPARISON.code, message, wrong)
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


def _replaceable_gate(gate: Gate, scope: int) -> FoundTuple | None:
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
    return (gate.line, gate.col, REPLACEABLE_GATE.code, message, 0)


def _branch_jaxcompat_gives(gate: Gate, effective: int) -> FoundTuple | None:
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
    return (gate.line, gate.col, REPLACEABLE_GATE.code, message, 0)


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


def _dead_or_needed_gate(gate: Gate, effective: int) -> FoundTuple:
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
        return (gate.line, gate.col, GATE_STILL_NEEDED.code, message, 0)
    true_rows = gate.truth & effective
    other = "`except`" if gate.kind == "try" else "`else`"
    if true_rows == effective:
        dead = f"its {other} branch never runs" if gate.has_else else "its test always holds"
        message = (
            f"{what} is dead on the declared range: {test} {holds} on {every} "
            f"({describe(effective)}), so {dead}; keep only its first branch"
        )
        return (gate.line, gate.col, DEAD_GATE.code, message, 0)
    if not true_rows:
        rest = f"keep only its {other} branch" if gate.has_else else "remove it"
        message = (
            f"{what} is dead on the declared range: {test} {fails} on {every} "
            f"({describe(effective)}), so its first branch never runs; {rest}"
        )
        return (gate.line, gate.col, DEAD_GATE.code, message, 0)
    message = (
        f"{what} is still needed: {test} {holds} on {describe(true_rows)} and "
        f"{fails} on {describe(effective & ~true_rows)}; "
        f"a floor of jax>={_dead_from(gate.truth)} makes it dead"
    )
    return (gate.line, gate.col, GATE_STILL_NEEDED.code, message, 0)
