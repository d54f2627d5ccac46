"""The passed and skipped counts each matrix row's suite must keep (``test_counts.json``).

A row whose run passes fewer tests than its record, or skips more, fails, even when every test
it ran passed: a test that stopped being collected, a skip that spread, or a plugin that skips
what it should run would otherwise leave the row green. ``nox -s tests`` names the row
(``JAXCOMPAT_TEST_COUNTS``) for its whole-suite run; a run with other arguments names none and
is not counted. A change that removes or skips tests on purpose updates the record from a
whole-matrix run's logs: ``python tools/test_counts.py .ci/logs``.
"""

from __future__ import annotations

import json
from pathlib import Path

RECORD = Path(__file__).with_name("test_counts.json")
ROW_VARIABLE = "JAXCOMPAT_TEST_COUNTS"
HOW_TO_RECORD = "after a whole-matrix run (.ci/run), python tools/test_counts.py .ci/logs"


def recorded_counts() -> dict[str, dict[str, int]]:
    """{row: {"passed": n, "skipped": m}} as recorded."""
    rows: dict[str, dict[str, int]] = json.loads(RECORD.read_text())["rows"]
    return rows


def count_problem(
    row: str, passed: int, skipped: int, recorded: dict[str, dict[str, int]]
) -> str | None:
    """Why this row's counts fail its record, or None where they keep it."""
    record = recorded.get(row)
    if record is None:
        return (
            f"no test counts are recorded for JAX {row} in tests/test_counts.json: {HOW_TO_RECORD}"
        )
    problems = []
    if passed < record["passed"]:
        problems.append(f"{passed} passed, fewer than the {record['passed']} recorded")
    if skipped > record["skipped"]:
        problems.append(f"{skipped} skipped, more than the {record['skipped']} recorded")
    if not problems:
        return None
    return (
        f"JAX {row}: {' and '.join(problems)} (tests/test_counts.json); where that is meant, "
        f"record it: {HOW_TO_RECORD}"
    )
