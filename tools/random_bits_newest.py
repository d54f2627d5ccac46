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
# nested lists, passed as float32 arrays (other numbers as Python scalars); the keyword
# "dtype" is a dtype name.
#
# Each sampler compiles once per key kind, parameter shapes and dtypes, shape and dtype, so a
# case adds a program only where it adds one of those: the cases vary them together (raw
# keys with broadcasting arrays, 16-bit floats with Python scalars), and the tests reuse the
# cases' argument shapes (lognormal-1's (3,), triangular-1's (64,), binomial-1's (9,) and
# multinomial-1's n (2,) with p (2, 3)) where they draw more samples.
#
# lognormal's float32 samples, exp(sigma * z), are rounded differently by some XLA releases
# for some z (they fuse the product into exp): its cases keep draws that every release
# rounds alike. Complex samples differ more often, and are not recorded.
CASES: list[tuple[str, int, bool, list[Any], dict[str, Any]]] = [
    # Every default: shape () and float32.
    ("lognormal", 0, False, [], {}),
    ("lognormal", 1, False, [0.5, [3]], {}),
    ("lognormal", 2, True, [[0.1, 1.0, 3.0]], {}),
    ("lognormal", 3, False, [2.0, [2, 3]], {"dtype": "float16"}),
    ("lognormal", 4, False, [1.0, [6]], {"dtype": "bfloat16"}),
    ("triangular", 0, False, [-1.0, 0.25, 2.0], {}),
    ("triangular", 1, False, [0.0, 0.5, 1.0, [64]], {}),
    # Parameters of two shapes and a scalar broadcast together.
    ("triangular", 2, True, [[[0.0], [-3.0]], [0.0, 1.0, 2.5], 4.0], {}),
    ("triangular", 3, False, [0.0, 1.0, 1.0, [5]], {"dtype": "float16"}),
    ("triangular", 4, False, [-2.0, 0.0, 3.0, [6]], {"dtype": "bfloat16"}),
    # Inversion (n p <= 10) and BTRS, p above 1/2, no trials; then n < 0, p < 0, n = inf and
    # p = nan, which give nan, nan, inf and nan.
    (
        "binomial",
        1,
        False,
        [
            [3.0, 50.0, 1000.0, 7.0, 0.0, -1.0, 5.0, np.inf, 5.0],
            [0.2, 0.7, 0.4, 0.9, 0.5, 0.5, -0.1, 0.3, np.nan],
        ],
        {},
    ),
    # An integer n (a Python scalar) broadcast with p, both algorithms in float16.
    ("binomial", 4, False, [30, [0.5, 0.05], [2]], {"dtype": "float16"}),
    ("multinomial", 1, False, [[5.0, 300.0], [[0.2, 0.3, 0.5], [0.7, 0.0, 0.3]]], {}),
    # shape= adds batch axes to p's.
    ("multinomial", 2, True, [12.0, [0.25, 0.25, 0.5]], {"shape": [4], "dtype": "float16"}),
    # An integer n and integer counts; p's rows need not sum to one.
    ("multinomial", 3, False, [3, [[0.25, 0.25, 0.25], [0.1, 0.6, 0.3]]], {"dtype": "int32"}),
    # Newest keywords (jaxcompat's keyword helpers before the release that names each):
    # gumbel's and bernoulli's mode=, categorical's replace= and mode=, choice's mode=.
    # gumbel's float16 "low" samples (every release's own gumbel) are rounded differently by
    # some XLA releases, and are not recorded.
    ("gumbel", 1, False, [], {"shape": [6], "mode": "high"}),
    ("gumbel", 2, True, [], {"shape": [2, 3], "mode": "highest"}),
    ("gumbel", 3, False, [], {"shape": [4], "dtype": "float16", "mode": "high"}),
    ("bernoulli", 1, False, [[0.1, 0.5, 0.9, 1e-7, 0.999999]], {"mode": "high"}),
    ("bernoulli", 2, True, [0.3], {"shape": [2, 4], "mode": "high"}),
    (
        "categorical",
        1,
        False,
        [[[-2.3, -1.6, -1.2, -0.9], [0.0, 0.0, 0.0, 0.0]]],
        {"shape": [3, 2], "replace": False},
    ),
    ("categorical", 2, True, [[-2.3, -1.6, -1.2, -0.9]], {"shape": [5, 1], "mode": "high"}),
    (
        "categorical",
        3,
        False,
        [[-2.3, -1.6, -1.2, -0.9]],
        {"shape": [4], "replace": False, "mode": "highest"},
    ),
    (
        "choice",
        1,
        False,
        [10, [4], False, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]],
        {"mode": "high"},
    ),
    # method="approximate" of gamma, loggamma, beta, chisquare and poisson (the newest's
    # loop-free samplers): shapes from near zero to large, in both regimes of poisson (the
    # truncated cdf below a mean of 7, Peizer-Pratt above) and at the split. Seed 1 cases are
    # drawn under vmap too: gamma's and poisson's, the two algorithms.
    ("gamma", 1, False, [[0.01, 0.5, 1.0, 3.0, 50.0, 1e4]], {"method": "approximate"}),
    ("gamma", 2, True, [2.5], {"shape": [7], "method": "approximate"}),
    (
        "gamma",
        3,
        False,
        [[0.3, 4.0]],
        {"shape": [3, 2], "dtype": "float16", "method": "approximate"},
    ),
    ("loggamma", 2, False, [[0.01, 0.5, 3.0, 50.0]], {"method": "approximate"}),
    ("beta", 2, False, [[0.2, 1.0, 5.0], [[0.5], [3.0]]], {"method": "approximate"}),
    ("chisquare", 2, True, [[0.5, 1.0, 4.0, 100.0]], {"method": "approximate"}),
    (
        "poisson",
        1,
        False,
        [[0.0, 0.5, 3.0, 6.9, 7.0, 20.0, 1e3, 1e6]],
        {"method": "approximate"},
    ),
    ("poisson", 2, True, [[2.0, 30.0]], {"shape": [5, 2], "method": "approximate"}),
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
    return {"lognormal": 1, "triangular": 3, "binomial": 2, "choice": 1}.get(name, -1)


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
