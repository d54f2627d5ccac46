"""Record the newest JAX's results for the differential test.

    nox -s newest_results   (runs it on the newest row, as JAX_PLATFORMS=cpu)

It writes ``tests/differential_newest.json``: for each call of ``tests/_differential_cases.py``
and each mode (eager, jit, vmap), the result's pytree structure and each leaf's dtype, shape
and values, or the exception's type. ``tests/test_differential.py`` makes the same calls on
every row and compares.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402

from tests._differential_cases import CASES, outcome  # noqa: E402

OUTPUT = ROOT / "tests" / "differential_newest.json"


def main() -> None:
    recorded = {case.id: {mode: outcome(case, mode) for mode in case.modes} for case in CASES}
    lines = ",\n".join(
        f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in recorded.items()
    )
    OUTPUT.write_text(f'{{"jax": "{jax.__version__}", "cases": {{\n{lines}\n}}}}\n')
    print(f"{OUTPUT}: {len(recorded)} calls on JAX {jax.__version__}")


if __name__ == "__main__":
    main()
