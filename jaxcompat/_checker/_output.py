"""How findings are printed: text (``path:line:col: JCxxx message``), JSON, GitHub annotations,
and the summary line (the ``--explain`` texts are ``_codes``'s)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from ._codes import CODES
from ._ranges import describe, row_list
from ._rules import Finding

__all__ = ["FileFinding", "ParseError", "render"]


@dataclass(frozen=True)
class FileFinding:
    file: str
    finding: Finding


@dataclass(frozen=True)
class ParseError:
    file: str
    line: int
    col: int
    message: str


def _summary(findings: list[FileFinding], files: int, lines: int, errors: int) -> str:
    counts = Counter(item.finding.code for item in findings)
    per_code = ", ".join(f"{code}: {count}" for code, count in sorted(counts.items()))
    text = (
        f"Found {len(findings)} finding{'s' * (len(findings) != 1)}"
        + (f" ({per_code})" if per_code else "")
        + f" in {files} file{'s' * (files != 1)} ({lines} lines)"
    )
    notes = sorted(code for code in counts if not CODES[code].fails_check)
    if notes:
        names = ", ".join(f"{code} ({CODES[code].name})" for code in notes)
        text += f"; {names} findings describe working code and do not fail the check"
    if errors:
        text += f"; {errors} file{'s' * (errors != 1)} could not be checked"
    return text + "."


def render(
    style: str,
    findings: list[FileFinding],
    errors: list[ParseError],
    files: int,
    lines: int,
    ranges: dict[str, int],
) -> str:
    """The whole report in `style` ("text", "json" or "github")."""
    summary = _summary(findings, files, lines, len(errors))
    if style == "json":
        return json.dumps(
            {
                "findings": [
                    {
                        "path": item.file,
                        "line": item.finding.line,
                        "column": item.finding.col,
                        "code": item.finding.code,
                        "message": item.finding.message,
                        "releases": row_list(item.finding.releases),
                    }
                    for item in findings
                ],
                "errors": [
                    {"path": e.file, "line": e.line, "column": e.col, "message": e.message}
                    for e in errors
                ],
                "ranges": {origin: row_list(mask) for origin, mask in ranges.items()},
                "summary": summary,
            },
            indent=2,
        )
    out: list[str] = []
    for error in errors:
        location = f"{error.file}:{error.line}:{error.col}"
        if style == "github":
            out.append(
                f"::error file={error.file},line={error.line},col={error.col},"
                f"title=syntax error::{_escape(error.message)}"
            )
        else:
            out.append(f"{location}: error: {error.message}")
    for item in findings:
        f = item.finding
        if style == "github":
            level = "warning" if CODES[f.code].fails_check else "notice"
            out.append(
                f"::{level} file={item.file},line={f.line},col={f.col},title={f.code}::"
                f"{_escape(f.message)}"
            )
        else:
            out.append(f"{item.file}:{f.line}:{f.col}: {f.code} {f.message}")
    for origin, mask in ranges.items():
        out.append(f"Checked for JAX {describe(mask)} (from {origin}).")
    out.append(summary)
    return "\n".join(out)


def _escape(text: str) -> str:
    # GitHub's workflow commands: %, CR and LF are escaped in the message.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
