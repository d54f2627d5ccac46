"""What to do about a finding: the fix that a finding's message ends with.

Use the stable jaxcompat name that works on every row of the range (and say where it takes
the newest signature), raise the floor to the first release that has the name or keyword, or,
where neither helps, say that no jaxcompat name replaces it.
"""

from __future__ import annotations

from .._surface import rows
from ._api import (
    Signature,
    facts,
    first_good_row,
    same_object_stable,
    signature_masks,
    stable_first_mask,
    stable_for,
    stable_names,
)
from ._ranges import row_list

__all__ = ["covering_stable", "fix_for", "newest_signature", "pretty"]


def pretty(signature: Signature) -> str:
    return "(" + signature.text.replace("=!", "").replace("=", "").replace(",", ", ") + ")"


def newest_signature(path: str) -> Signature | None:
    newest = 1 << (len(rows()) - 1)
    for signature, mask in signature_masks(path):
        if mask & newest:
            return signature
    return None


def covering_stable(path: str, scope: int) -> tuple[str | None, str | None]:
    """(a stable name that works on every row of `scope`, one that exists but does not)."""
    partial = None
    for stable in stable_for(path):
        if stable_first_mask(stable) & scope == scope:
            return stable, None
        partial = partial or stable
    return None, partial


def fix_for(path: str, bad: int, scope: int, signature_path: str | None = None) -> str:
    """What to do about `path` failing on the rows `bad` of `scope`.

    With `signature_path` (a call's keyword or positional problem), the advice is about the
    callable's newest signature rather than its name.
    """
    if path.startswith("jaxcompat."):
        newest = newest_signature(signature_path or "")
        return f"it takes the newest JAX signature {pretty(newest)}" if newest else "drop it"
    stable, partial = covering_stable(path, scope)
    if stable is not None:
        text = f"use `jaxcompat.{stable}`"
        mine, newest = newest_signature(path), newest_signature(f"jax.{stable}")
        differs = mine is not None and newest is not None and mine.text != newest.text
        if newest is not None and (differs or signature_path is not None):
            text += f", which takes the newest signature {pretty(newest)}"
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
    newest = newest_signature(signature_path) if signature_path else None
    if newest is not None:
        text = f"no jaxcompat name replaces it; the newest signature is {pretty(newest)}"
    return text
