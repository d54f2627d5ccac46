"""What every figure of ``bench.py`` shares: the figure, and timing two calls interleaved.

Every figure times a jaxcompat operation (A) and its counterpart (B) in alternating rounds
(A B A B ...), and reports the median, min and max of the per-round ratios A/B.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import Any


@dataclasses.dataclass
class Figure:
    name: str
    compared_with: str
    target: float | None  # None: no target of its own (a peer library, shown beside ours)
    unit: str = "ratio"  # "ratio": A/B; "ms": A - B in milliseconds
    median: float | None = None  # None: not measured on this row (``note`` says why)
    low: float | None = None
    high: float | None = None
    note: str = ""  # "JAX's own object" (1.00 by identity), "not installed: ...", a miss
    target_text: str = ""  # the target as the table shows it, where it depends on the row

    @property
    def met(self) -> bool:
        if self.median is None or self.target is None:
            return True
        return self.median <= self.target and not self.note.startswith("slower than")


def _per_call(fn: Callable[[], Any], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def interleaved(a: Callable[[], Any], b: Callable[[], Any], calls: int, rounds: int) -> list[float]:
    """Per-round ratios of the mean time per call of ``a`` over ``b``, alternating order."""
    for _ in range(3):  # warm up both
        a()
        b()
    ratios = []
    for index in range(rounds):
        if index % 2:
            tb, ta = _per_call(b, calls), _per_call(a, calls)
        else:
            ta, tb = _per_call(a, calls), _per_call(b, calls)
        ratios.append(ta / tb)
    return ratios


def summarize(figure: Figure, values: list[float]) -> Figure:
    figure.median = statistics.median(values)
    figure.low, figure.high = min(values), max(values)
    return figure


def by_identity(figure: Figure) -> Figure:
    """``figure`` for a name that is JAX's own object here: 1.00, nothing to time."""
    figure.median = figure.low = figure.high = 1.0
    figure.note = "JAX's own object"
    return figure


def not_measured(figure: Figure, why: str) -> Figure:
    figure.note = why
    return figure
