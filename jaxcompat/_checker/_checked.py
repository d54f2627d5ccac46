"""One file's source read for ``check``: parsed and resolved once, its findings on any range
(``# jaxcompat: ignore`` comments kept), for ``check``, ``migrate`` and ``matrix`` alike."""

from __future__ import annotations

import ast
import dataclasses
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from ._files import source_lines
from ._resolve import resolve_file
from ._rules import Finding, findings
from ._uses import Gate, Use

__all__ = ["SUPPRESSION", "CheckedSource", "check_source", "codes", "read_checked", "suppressed"]

#: A ``# jaxcompat: ignore`` comment, with the codes it names (``[JC001,JC01]``) or none.
SUPPRESSION = re.compile(r"#\s*jaxcompat:\s*ignore(?:\[([A-Z0-9,\s]+)\])?")


def codes(text: str | None) -> tuple[str, ...]:
    """``"JC001, jc01"`` as ``("JC001", "JC01")``: codes or their prefixes."""
    return tuple(code.strip().upper() for code in (text or "").split(",") if code.strip())


def suppressed(finding: Finding, lines: list[str]) -> bool:
    if not 0 < finding.line <= len(lines) or "jaxcompat" not in lines[finding.line - 1]:
        return False
    match = SUPPRESSION.search(lines[finding.line - 1])
    if match is None:
        return False
    return match.group(1) is None or finding.code in codes(match.group(1))


@dataclass(frozen=True)
class CheckedSource:
    """One file's source parsed and resolved once: ``migrate`` reads its findings on several
    ranges and removes its gates from the same tree, without parsing it again."""

    source: str
    tree: ast.Module
    lines: list[str]
    uses: list[Use]
    gates: list[Gate]
    annotated: dict[tuple[int, int], str]  # each annotated parameter's annotation's path
    #: Where `source` is a text with emptied lines kept in place of removed ones (the
    #: removal of dead gates, ``_migrate_gates.Removal``): the line of the text as written
    #: that each of its lines is, which the findings are given at.
    renumbered: Sequence[int] | None = None

    def findings(self, scope: int) -> list[Finding]:
        """The findings on the rows `scope`, suppressions kept."""
        found = findings(self.uses, self.gates, scope, self.tree, self.source, self.annotated)
        kept = [f for f in found if not suppressed(f, self.lines)]
        if self.renumbered is None:
            return kept
        lines = self.renumbered
        return [dataclasses.replace(f, line=lines[f.line]) for f in kept]


def read_checked(
    source: str, tree: ast.Module | None = None, renumbered: Sequence[int] | None = None
) -> CheckedSource:
    """`source` parsed (unless its `tree` is given) and resolved (raises SyntaxError)."""
    if tree is None:
        with warnings.catch_warnings():
            # Compiling warns about things such as invalid escape sequences: not our
            # business, and under `-W error` they would turn a valid file into one that
            # "does not parse".
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    # The line ends Python counts: str.splitlines also cuts at form feeds, and a
    # suppression comment after one would be looked for on the wrong line.
    lines = source_lines(source)
    uses, gates, annotated = resolve_file(tree, lines)
    return CheckedSource(source, tree, lines, uses, gates, annotated, renumbered)


def check_source(source: str, scope: int) -> list[Finding]:
    """The findings for one file's source on the rows `scope` (raises SyntaxError)."""
    return read_checked(source).findings(scope)
