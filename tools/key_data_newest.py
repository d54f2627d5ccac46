"""Record the newest JAX's keys of each PRNG implementation for the key(impl=) tests.

Run with the newest JAX installed (CPU is enough):

    JAX_PLATFORMS=cpu python tools/key_data_newest.py

It writes ``tests/key_data_newest.json``: for each implementation name and seed, the data of
``jax.random.key(seed, impl=...)``, of ``jax.random.PRNGKey(seed, impl=...)``, of that key
split in two and folded with 7, and its first random bits, which
``tests/test_keywords_random.py`` asserts on every matrix row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jax
import numpy as np

OUTPUT = Path(__file__).resolve().parents[1] / "tests" / "key_data_newest.json"

#: The implementations every release with typed keys names, and seeds that are small,
#: negative and wider than 32 bits (the seed's high word, folded in without x64).
IMPLEMENTATIONS = ("threefry2x32", "rbg", "unsafe_rbg")
SEEDS = (0, 3, -1, 2**40 + 5)


def record(random: Any, impl: str, seed: int) -> dict[str, Any]:
    """One case, from ``random`` (``jax.random`` or ``jaxcompat.random``)."""
    key = random.key(seed, impl=impl)
    return {
        "impl": impl,
        "seed": seed,
        "key": _data(random.key_data(key)),
        "PRNGKey": _data(random.PRNGKey(seed, impl=impl)),
        "split": _data(random.key_data(random.split(key))),
        "fold_in": _data(random.key_data(random.fold_in(key, 7))),
        "bits": _data(random.bits(key, (4,))),
    }


def _data(array: Any) -> list[int]:
    return [int(word) for word in np.asarray(array, np.uint32).ravel()]


def main() -> None:
    records = [record(jax.random, impl, seed) for impl in IMPLEMENTATIONS for seed in SEEDS]
    # One case a line: small diffs when a case is added.
    lines = ",\n  ".join(json.dumps(case) for case in records)
    OUTPUT.write_text(f'{{"jax": "{jax.__version__}", "cases": [\n  {lines}\n]}}\n')


if __name__ == "__main__":
    main()
