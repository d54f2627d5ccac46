"""Record the newest JAX's samples for the jax.random backport tests.

Run with the newest JAX installed (CPU is enough):

    JAX_PLATFORMS=cpu python tools/random_bits_newest.py

It writes ``tests/random_bits_newest.json``: for each case, the function, its arguments and
the samples' bits, which ``tests/test_backports_random.py`` asserts on every matrix row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jax
import numpy as np

OUTPUT = Path(__file__).resolve().parents[1] / "tests" / "random_bits_newest.json"

# (function, seed, raw key?, positional arguments, keyword arguments). Array arguments are
# nested lists, passed as float32 arrays; the keyword "dtype" is a dtype name.
CASES: list[tuple[str, int, bool, list[Any], dict[str, Any]]] = [
    ("lognormal", 0, False, [], {}),
    ("lognormal", 1, False, [0.5, [7]], {}),
    ("lognormal", 2, True, [[0.1, 1.0, 3.0]], {}),
    ("lognormal", 3, False, [2.0, [2, 3]], {"dtype": "float16"}),
    ("lognormal", 4, False, [1.0, [6]], {"dtype": "bfloat16"}),
    ("triangular", 0, False, [-1.0, 0.25, 2.0], {}),
    ("triangular", 1, False, [0.0, 0.5, 1.0, [8]], {}),
    ("triangular", 2, True, [[0.0, -3.0], [1.0, 0.0], [4.0, 1.0]], {}),
    ("triangular", 3, False, [0.0, 1.0, 1.0, [5]], {"dtype": "float16"}),
    ("triangular", 4, False, [-2.0, 0.0, 3.0, [6]], {"dtype": "bfloat16"}),
    ("binomial", 1, False, [[3.0, 50.0, 1000.0, 7.0, 0.0], [0.2, 0.7, 0.4, 0.9, 0.5]], {}),
    ("binomial", 3, False, [[-1.0, 5.0, np.inf, 5.0], [0.5, -0.1, 0.3, np.nan]], {}),
    ("binomial", 4, False, [[30.0, 200.0], [0.5, 0.25]], {"dtype": "float16"}),
    ("multinomial", 1, False, [[5.0, 300.0], [[0.2, 0.3, 0.5], [0.7, 0.0, 0.3]]], {}),
    ("multinomial", 2, True, [12.0, [0.25, 0.25, 0.5]], {"shape": [4], "dtype": "float16"}),
]


def argument(value: Any) -> Any:
    return np.asarray(value, np.float32) if isinstance(value, list) else value


def run(case: tuple[str, int, bool, list[Any], dict[str, Any]], random: Any) -> Any:
    """The samples of one case, from ``random`` (``jax.random`` or ``jaxcompat.random``)."""
    name, seed, raw, args, kwargs = case
    key = random.PRNGKey(seed) if raw else random.key(seed)
    function = getattr(random, name)
    shaped = [tuple(a) if i == shape_index(name) else argument(a) for i, a in enumerate(args)]
    options = dict(kwargs)
    if "shape" in options:
        options["shape"] = tuple(options["shape"])
    return function(key, *shaped, **options)


def shape_index(name: str) -> int:
    """The position of ``shape`` among the arguments after the key."""
    return {"lognormal": 1, "triangular": 3, "binomial": 2, "multinomial": -1}[name]


def bits(samples: Any) -> list[int]:
    array = np.asarray(samples)
    unsigned = np.dtype(f"uint{8 * array.dtype.itemsize}")
    return [int(b) for b in array.view(unsigned).ravel()]


def main() -> None:
    records = []
    for case in CASES:
        samples = run(case, jax.random)
        name, seed, raw, args, kwargs = case
        records.append(
            {
                "function": name,
                "seed": seed,
                "raw_key": raw,
                "args": args,
                "kwargs": kwargs,
                "dtype": str(samples.dtype),
                "shape": list(samples.shape),
                "bits": bits(samples),
            }
        )
    # One case a line: small diffs when a case is added.
    lines = ",\n  ".join(json.dumps(record) for record in records)
    OUTPUT.write_text(f'{{"jax": "{jax.__version__}", "cases": [\n  {lines}\n]}}\n')


if __name__ == "__main__":
    main()
