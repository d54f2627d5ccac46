"""Record each matrix row's passed and skipped counts from a whole-matrix run's logs.

    python tools/test_counts.py .ci/logs

Reads every ``tests(jax='X.Y.Z')`` session log that ``.ci/run`` (``.ci/sessions.py --logs``)
wrote, takes the summary of the session's whole-suite pytest run (its first), and writes
``tests/test_counts.json``, which each row's run must then keep (``tests/_test_counts.py``).
Run it after a change that removes or skips tests on purpose, or adds a row.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "test_counts.json"
SESSION = re.compile(r"^nox > Running session tests\(jax='([0-9.]+)'\)$", re.MULTILINE)
SUMMARY = re.compile(r"^=+ (\d+ passed[^=]*) in [0-9.]+s", re.MULTILINE)


def counts_of(log: str) -> tuple[str, dict[str, int]] | None:
    """(row, {"passed": n, "skipped": m}) of a row's session log, or None for another log."""
    session = SESSION.search(log)
    summary = SUMMARY.search(log)
    if session is None or summary is None:
        return None
    found = dict((kind, int(n)) for n, kind in re.findall(r"(\d+) (passed|skipped)", summary[1]))
    return session[1], {"passed": found["passed"], "skipped": found.get("skipped", 0)}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(__doc__.strip().splitlines()[0], "\nusage: python tools/test_counts.py LOG_DIRECTORY")
        return 2
    rows = dict(filter(None, (counts_of(path.read_text()) for path in Path(argv[0]).glob("*.log"))))
    if not rows:
        print(f"no tests(jax=...) session log in {argv[0]}", file=sys.stderr)
        return 1
    ordered = dict(sorted(rows.items(), key=lambda item: tuple(map(int, item[0].split(".")))))
    lines = ",\n".join(f'  "{row}": {json.dumps(counts)}' for row, counts in ordered.items())
    RECORD.write_text(f'{{"recorded_by": "tools/test_counts.py", "rows": {{\n{lines}\n}}}}\n')
    print(f"recorded {len(rows)} rows in {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
