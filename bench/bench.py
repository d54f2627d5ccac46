"""Measure jaxcompat against JAX itself, interleaved in one process, and report ratios.

Every figure times a jaxcompat operation (A) and its JAX counterpart (B) in alternating
rounds (A B A B ...), and reports the median, min and max of the per-round ratios A/B.
Absolute times on a shared machine are noise; the ratios are the result. This is not a test:
nothing here asserts on time. It prints which targets are met.

    python bench/bench.py --out bench-results/0.4.30.json
    python bench/bench.py --table bench-results --markdown BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


@dataclasses.dataclass
class Figure:
    name: str
    compared_with: str
    target: float
    unit: str = "ratio"  # "ratio": A/B; "ms": A - B in milliseconds
    median: float = 0.0
    low: float = 0.0
    high: float = 0.0

    @property
    def met(self) -> bool:
        return self.median <= self.target


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


def bench_jit_call(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    def f(x: Any) -> Any:
        return x + 1

    x = jnp.ones(8)
    ours, theirs = jaxcompat.jit(f), jax.jit(f)
    ratios = interleaved(lambda: ours(x), lambda: theirs(x), 5000, rounds)
    return summarize(Figure("jit: per-call time, trivial function", "jax.jit", 1.05), ratios)


def bench_method_call(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    class Model:
        def __init__(self) -> None:
            for i in range(10):
                setattr(self, f"w{i}", jnp.full(4, float(i)))
            self.scale = 2.0

        def apply(self, x: Any) -> Any:
            return sum(getattr(self, f"w{i}") for i in range(10)) * x * self.scale

    def explicit(arrays: tuple[Any, ...], x: Any) -> Any:
        return sum(arrays) * x * 2.0

    model = Model()
    arrays = tuple(getattr(model, f"w{i}") for i in range(10))
    x = jnp.ones(4)
    ours, theirs = jaxcompat.jit(model.apply), jax.jit(explicit)
    ratios = interleaved(lambda: ours(x), lambda: theirs(arrays, x), 1000, rounds)
    return summarize(
        Figure(
            "jit: per-call time, method on an object with 10 array attributes",
            "jax.jit of a function taking the arrays explicitly",
            1.10,
        ),
        ratios,
    )


def bench_method_nested_config(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    class Optimizer:
        def __init__(self) -> None:
            self.rate = 2.0
            self.betas = (0.9, 0.999)
            self.schedule = {"warmup": 10, "decay": 0.5}

    class Layers:
        def __init__(self) -> None:
            self.sizes = [64, 64, 10]
            self.activation = "relu"
            self.optimizer = Optimizer()

    class Config:
        def __init__(self) -> None:
            self.name = "mlp"
            self.seed = 0
            self.layers = Layers()

    class Model:
        def __init__(self) -> None:
            for i in range(10):
                setattr(self, f"w{i}", jnp.full(4, float(i)))
            self.config = Config()

        def apply(self, x: Any) -> Any:
            scale = self.config.layers.optimizer.rate
            return sum(getattr(self, f"w{i}") for i in range(10)) * x * scale

    def explicit(arrays: tuple[Any, ...], x: Any) -> Any:
        return sum(arrays) * x * 2.0

    model = Model()
    arrays = tuple(getattr(model, f"w{i}") for i in range(10))
    x = jnp.ones(4)
    ours, theirs = jaxcompat.jit(model.apply), jax.jit(explicit)
    ratios = interleaved(lambda: ours(x), lambda: theirs(arrays, x), 1000, rounds)
    return summarize(
        Figure(
            "jit: per-call time, method on an object with 10 array attributes and a "
            "three-level config object",
            "jax.jit of a function taking the arrays explicitly",
            1.25,
        ),
        ratios,
    )


def bench_method_unread_state(rounds: int) -> Figure:
    import io
    import logging
    import tempfile
    import threading

    import jax
    import jax.numpy as jnp

    import jaxcompat

    class Service:
        def __init__(self, directory: str) -> None:
            self.weights = tuple(jnp.full(4, float(i)) for i in range(10))
            self.scale = 2.0
            self.log = logging.getLogger("bench.service")
            self.log.addHandler(logging.StreamHandler(io.StringIO()))
            self.file = open(f"{directory}/out.txt", "w")  # noqa: SIM115
            self.stop = threading.Event()
            self.worker = threading.Thread(target=self.stop.wait, daemon=True)
            self.worker.start()
            self.index = {i: float(i) for i in range(10_000)}

        def apply(self, x: Any) -> Any:
            return sum(self.weights) * x * self.scale

    def explicit(arrays: tuple[Any, ...], x: Any) -> Any:
        return sum(arrays) * x * 2.0

    with tempfile.TemporaryDirectory() as directory:
        service = Service(directory)
        x = jnp.ones(4)
        ours, theirs = jaxcompat.jit(service.apply), jax.jit(explicit)
        try:
            ratios = interleaved(lambda: ours(x), lambda: theirs(service.weights, x), 1000, rounds)
        finally:
            service.stop.set()
            service.worker.join()
            service.file.close()
    return summarize(
        Figure(
            "jit: per-call time, method on an object that also holds a logger, an open file, "
            "a running thread and a 10,000-entry dict it never reads",
            "jax.jit of a function taking the arrays explicitly",
            1.5,
        ),
        ratios,
    )


def bench_forwarded_call(rounds: int) -> Figure:
    # A forwarded name is read from JAX's module on each access (never cached, so patches of
    # JAX's module are seen): the lookup is part of what an eager call costs.
    import jax
    import jax.numpy as jnp

    import jaxcompat

    x = jnp.ones(8)
    ratios = interleaved(
        lambda: jaxcompat.numpy.add(x, 1), lambda: jax.numpy.add(x, 1), 2000, rounds
    )
    figure = Figure("eager jaxcompat.numpy.add, lookup included", "jax.numpy.add", 1.10)
    return summarize(figure, ratios)


def bench_import(rounds: int) -> Figure:
    code = (
        "import time, jax; start = time.perf_counter(); import jaxcompat; "
        "print(time.perf_counter() - start)"
    )
    added = []
    for _ in range(max(5, rounds // 2)):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        added.append(float(out.stdout.strip()) * 1000)
    return summarize(
        Figure("import jaxcompat after import jax", "import jax alone", 10.0, unit="ms"), added
    )


def bench_hash_plain(rounds: int) -> Figure:
    import jaxcompat

    @dataclasses.dataclass(frozen=True)
    class Config:
        name: str
        sizes: tuple[int, ...]
        rate: float

    values = [
        tuple(range(50)),
        ("layer", (3, 4), 0.5, ("nested", (1, 2, (3, 4)))),
        Config("mlp", (64, 64, 10), 1e-3),
        frozenset({"a", "b", "c"}),
        "a string",
        12345,
    ]

    def ours() -> None:
        for value in values:
            jaxcompat.tracer_safe_hash(value)

    def theirs() -> None:
        for value in values:
            hash(value)

    ratios = interleaved(ours, theirs, 2000, rounds)
    return summarize(Figure("tracer_safe_hash: tracer-free hashable values", "hash", 1.3), ratios)


def bench_hash_tracers(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    results: list[list[float]] = []

    def body(x: Any) -> Any:
        tree = {"layers": [(x + i, [x * i, x]) for i in range(333)], "last": x}
        results.append(
            interleaved(
                lambda: jaxcompat.tracer_safe_hash(tree),
                lambda: jax.tree_util.tree_flatten(tree),
                20,
                rounds,
            )
        )
        return x

    jax.make_jaxpr(body)(jnp.float32(1))
    return summarize(
        Figure(
            "tracer_safe_hash: 1,000-leaf pytree holding tracers",
            "jax.tree_util.tree_flatten",
            2.0,
        ),
        results[0],
    )


def bench_block(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    tree = {"arrays": [jnp.ones(4) + i for i in range(900)], "other": list(range(100))}
    jax.block_until_ready(tree)
    ratios = interleaved(
        lambda: jaxcompat.block_if_array(tree), lambda: jax.block_until_ready(tree), 50, rounds
    )
    return summarize(
        Figure("block_if_array: 1,000-leaf pytree", "jax.block_until_ready", 1.1), ratios
    )


def bench_lower(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    def swap(fun: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fun)
        def wrapped(x: Any, y: Any) -> Any:
            return fun(y, x)

        return wrapped

    wrapper = swap(jaxcompat.jit(lambda x, y: jnp.sin(x) * y))
    x, y = jnp.ones(8), jnp.ones(8)
    ratios = interleaved(
        lambda: jaxcompat.lower(wrapper, x, y),
        lambda: jax.jit(wrapper).lower(x, y),
        10,
        rounds,
    )
    return summarize(
        Figure("lower: a wrapped jitted function", "jax.jit(wrapper).lower", 1.1), ratios
    )


BENCHMARKS = [
    bench_jit_call,
    bench_method_call,
    bench_method_nested_config,
    bench_method_unread_state,
    bench_forwarded_call,
    bench_import,
    bench_hash_plain,
    bench_hash_tracers,
    bench_block,
    bench_lower,
]


def run(rounds: int) -> dict[str, Any]:
    import jax
    import jaxlib

    import jaxcompat

    figures = [bench(rounds) for bench in BENCHMARKS]
    return {
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "backend": jaxcompat.BACKEND,
        "python": platform.python_version(),
        "rounds": rounds,
        "figures": [dataclasses.asdict(f) | {"met": f.met} for f in figures],
    }


def _show(value: float, unit: str) -> str:
    return f"{value:.1f} ms" if unit == "ms" else f"{value:.2f}"


def print_result(result: dict[str, Any]) -> None:
    print(f"JAX {result['jax']} (backend {result['backend']}), median of {result['rounds']} rounds")
    for f in result["figures"]:
        verdict = "met" if f["met"] else "MISSED"
        target = f"<= {_show(f['target'], f['unit'])}"
        print(
            f"  {verdict:<6} {f['name']}: {_show(f['median'], f['unit'])} "
            f"(min {_show(f['low'], f['unit'])}, max {_show(f['high'], f['unit'])}; "
            f"target {target}) vs {f['compared_with']}"
        )


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("+")[0].split(".") if p.isdigit())


def write_table(results_dir: Path, markdown: Path) -> None:
    results = [json.loads(p.read_text()) for p in sorted(results_dir.glob("*.json"))]
    results.sort(key=lambda r: _release(r["jax"]))
    if not results:
        return
    names = [f["name"] for f in results[0]["figures"]]
    lines = [
        "# Benchmarks",
        "",
        "jaxcompat against JAX itself, measured interleaved in one process per JAX release by",
        "`nox -s bench` (`bench/bench.py`). Each cell is the median over rounds of",
        "jaxcompat's time divided by JAX's (the import row: milliseconds added), with min-max.",
        "A cell in **bold** misses its target. Regenerated from `bench-results/*.json`.",
        "",
        "| figure | compared with | target |",
        "|---|---|---|",
    ]
    for f in results[0]["figures"]:
        lines.append(f"| {f['name']} | {f['compared_with']} | <= {_show(f['target'], f['unit'])} |")
    lines += ["", "| JAX | backend | " + " | ".join(f"({i + 1})" for i in range(len(names))) + " |"]
    lines.append("|---|---|" + "---|" * len(names))
    for result in results:
        cells = []
        for f in result["figures"]:
            low, high = _show(f["low"], f["unit"]), _show(f["high"], f["unit"])
            cell = f"{_show(f['median'], f['unit'])} ({low}-{high})"
            cells.append(cell if f["met"] else f"**{cell}**")
        lines.append(f"| {result['jax']} | {result['backend']} | " + " | ".join(cells) + " |")
    lines += ["", "Columns: " + "; ".join(f"({i + 1}) {n}" for i, n in enumerate(names)) + "."]
    markdown.write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, help="write this release's results as JSON")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--table", type=Path, help="directory of JSON results to tabulate")
    parser.add_argument("--markdown", type=Path, default=Path("BENCHMARKS.md"))
    args = parser.parse_args()
    if args.out or not args.table:
        result = run(args.rounds)
        print_result(result)
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(result, indent=1) + "\n")
    if args.table:
        write_table(args.table, args.markdown)
        print(f"wrote {args.markdown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
