"""Measure jaxcompat against JAX itself, interleaved in one process, and report ratios.

Every figure times a jaxcompat operation (A) and its JAX counterpart (B) in alternating
rounds (A B A B ...), and reports the median, min and max of the per-round ratios A/B
(``harness.py``). Absolute times on a shared machine are noise; the ratios are the result.
Where jaxcompat's name is JAX's own object the figure is 1.00 by identity, not timed. The
peer libraries' figures are in ``peers.py``. This is not a test: nothing here asserts on
time. It prints which targets are met.

    python bench/bench.py --out bench-results/0.4.30.json
    python bench/bench.py --table bench-results --markdown BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import Figure, by_identity, interleaved, summarize
from peers import peer_figures
from table import print_result, write_table


def bench_jit_call(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    def f(x: Any) -> Any:
        return x + 1

    x = jnp.ones(8)
    ours, theirs = jaxcompat.jit(f), jax.jit(f)
    # From JAX 0.6.0 jax.jit's own object has the newest behaviour (lower and trace on its
    # type), so jaxcompat.jit of a function is that object: 1.00 by identity.
    from_0_6_0 = jaxcompat.JAX_VERSION >= (0, 6, 0)
    figure = Figure(
        "jit: per-call time, trivial function",
        "jax.jit",
        1.0 if from_0_6_0 else 1.05,
        target_text="1.00 from JAX 0.6.0 (JAX's own object), 1.05 before",
    )
    if type(ours) is type(theirs) and from_0_6_0:
        return by_identity(figure)
    return summarize(figure, interleaved(lambda: ours(x), lambda: theirs(x), 5000, rounds))


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
            1.25,
        ),
        ratios,
    )


def bench_static_self_method_call(rounds: int) -> Figure:
    import jax
    import jax.numpy as jnp

    import jaxcompat

    # A method jitted with `self` static (hashed, as JAX's documentation shows), called on an
    # instance. Before JAX 0.6.0 jaxcompat's jit of it binds through a WithInstance (a Python
    # frame); from 0.6.0 it is JAX's own jitted function, which binds itself.
    class Ours:
        @functools.partial(jaxcompat.jit, static_argnames=("self",))
        def apply(self, x: Any) -> Any:
            return x * 2.0

    class Theirs:
        @functools.partial(jax.jit, static_argnames=("self",))
        def apply(self, x: Any) -> Any:
            return x * 2.0

    ours, theirs, x = Ours(), Theirs(), jnp.ones(4)
    figure = Figure(
        "jit: per-call time, a method jitted with static self, called on an instance",
        "the same method under jax.jit",
        1.0 if jaxcompat.JAX_VERSION >= (0, 6, 0) else 1.25,
        target_text="1.00 from JAX 0.6.0 (JAX's own object), 1.25 before",
    )
    if type(Ours.__dict__["apply"]) is type(Theirs.__dict__["apply"]):
        return by_identity(figure)
    ratios = interleaved(lambda: ours.apply(x), lambda: theirs.apply(x), 5000, rounds)
    return summarize(figure, ratios)


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
            1.40,
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


def _adapter_figure(
    name: str, call: str, make_args: Callable[[], tuple[Any, ...]], calls: int, rounds: int
) -> Figure:
    # A function whose release lacks a newest keyword (device=, stable=/descending=, ...) is
    # jaxcompat's adapter; called without any newest keyword it must cost what JAX's does.
    # Both names are read once: the lookup is the forwarded-call figure's.
    import jax

    import jaxcompat

    ours, theirs = getattr(jaxcompat.numpy, name), getattr(jax.numpy, name)
    args = make_args()
    figure = Figure(
        f"keyword adapter called without a newest keyword: eager {call}",
        f"jax.numpy.{name}",
        1.05,
    )
    if ours is theirs:
        return by_identity(figure)
    ratios = interleaved(lambda: ours(*args), lambda: theirs(*args), calls, rounds)
    return summarize(figure, ratios)


def bench_adapter_zeros(rounds: int) -> Figure:
    return _adapter_figure("zeros", "jnp.zeros(3)", lambda: (3,), 200, rounds)


def bench_adapter_argsort(rounds: int) -> Figure:
    import jax.numpy as jnp

    # A few microseconds a call: enough calls per round that a round outlasts a time slice.
    x = jnp.arange(8.0)[::-1]
    return _adapter_figure("argsort", "jnp.argsort(x)", lambda: (x,), 5000, rounds)


def bench_issubdtype(rounds: int) -> Figure:
    # Before JAX 0.4.17 jaxcompat.numpy.issubdtype is an adapter (a custom dtype is under
    # np.generic); from 0.4.17 JAX's own object. Dtype checks run eagerly, in Python, often.
    # One Python call around JAX's own Python function, as a forwarded name's lookup is: the
    # same target as that figure.
    import jax
    import jax.numpy as jnp

    import jaxcompat

    ours, theirs = jaxcompat.numpy.issubdtype, jax.numpy.issubdtype
    figure = Figure(
        "dtype adapter (JAX <0.4.17): jnp.issubdtype(bfloat16, np.floating)",
        "jax.numpy.issubdtype",
        1.10,
    )
    if ours is theirs:
        return by_identity(figure)
    ratios = interleaved(
        lambda: ours(jnp.bfloat16, jnp.floating),
        lambda: theirs(jnp.bfloat16, jnp.floating),
        5000,
        rounds,
    )
    return summarize(figure, ratios)


def bench_import(rounds: int) -> Figure:
    code = (
        "import time, jax; start = time.perf_counter(); import jaxcompat; "
        "print(time.perf_counter() - start)"
    )
    added = []
    with tempfile.TemporaryDirectory() as cache:
        # From bytecode, as an installed package imports: compiled once, into a cache of its
        # own (the source tree may be read-only, or PYTHONDONTWRITEBYTECODE set), before any
        # round. A round that compiles jaxcompat's modules from source takes 40-70 ms more:
        # the 74 ms once measured on JAX 0.4.30, against 8-12 ms on every other row.
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([sys.executable, "-c", "import jax, jaxcompat"], env=env, check=True)
        for _ in range(max(5, rounds // 2)):
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
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

    # Called by name, as ``hash`` is: ``jaxcompat.tracer_safe_hash`` read on each call adds
    # the lookup of an attribute of a module with a ``__getattr__``, which CPython does not
    # specialise (4-5x a plain module's lookup), to a call that is itself ~50 ns.
    tracer_safe_hash = jaxcompat.tracer_safe_hash

    def ours() -> None:
        for value in values:
            tracer_safe_hash(value)

    def theirs() -> None:
        for value in values:
            hash(value)

    ratios = interleaved(ours, theirs, 2000, rounds)
    return summarize(
        Figure("tracer_safe_hash: tracer-free hashable values, called by name", "hash", 1.5),
        ratios,
    )


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
    bench_static_self_method_call,
    bench_method_nested_config,
    bench_method_unread_state,
    bench_forwarded_call,
    bench_adapter_zeros,
    bench_adapter_argsort,
    bench_issubdtype,
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

    figures = [bench(rounds) for bench in BENCHMARKS] + peer_figures(rounds)
    return {
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "backend": jaxcompat.BACKEND,
        "python": platform.python_version(),
        "rounds": rounds,
        "figures": [dataclasses.asdict(f) | {"met": f.met} for f in figures],
    }


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
