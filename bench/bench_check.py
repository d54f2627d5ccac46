"""Time `jaxcompat check` and `jaxcompat migrate` on a generated 50,000-line source tree, on a
large published tree from the package index, and `check` on this repository.

The target: 50,000 lines in at most 2 s on one core, for each command (`migrate --check`
computes every rewrite and writes nothing). The generated tree is written to a temporary
directory: modules that import JAX in every form the checker resolves, call drifted APIs,
gate on the version and define classes and nested functions, in the proportions of real JAX
libraries (most lines are ordinary Python). The commands run in this process, after one
warm-up run that loads the data files; the best of `--repeats` runs counts. Nothing here
asserts on time.

The large tree (`--large`, default TensorFlow Probability 0.25.0, about 590,000 lines, whose
JAX substrate is generated code) is fetched with `pip download --no-deps` (an sdist where
the index has one, else the wheel) and unpacked to a temporary directory; both commands run
once on it. `--large ''` leaves it out.

    python bench/bench_check.py
    python bench/bench_check.py --markdown BENCHMARKS.md   # (re)writes its own section
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jaxcompat._checker import main  # noqa: E402
from jaxcompat._checker._migrate_cli import main as migrate  # noqa: E402

#: A published tree of more than 100,000 lines: a JAX library whose source tree is large.
LARGE_TREE = "tensorflow-probability==0.25.0"

TARGET_SECONDS = 2.0
TARGET_LINES = 50_000
SECTION = "## jaxcompat check and migrate"

HEADER = '''"""Generated module {index}: numerical utilities for the benchmark."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
from jax import lax, tree_util as jtu
from jax.experimental.shard_map import shard_map
from jax.sharding import PartitionSpec as P

if TYPE_CHECKING:
    from jax.extend.core import Primitive

try:
    from jax.extend.core import Primitive as _Primitive
except ImportError:
    from jax.core import Primitive as _Primitive

if jax.__version_info__ >= (0, 5, 3):
    typeof = jax.typeof
else:
    typeof = jax.core.get_aval
'''

BLOCK = '''

class Layer{index}:
    """A dense layer with a clipped activation."""

    def __init__(self, width: int, scale: float = 1.0) -> None:
        self.width = width
        self.scale = scale
        self.cache: dict[str, Any] = {{}}

    def init(self, key: Any) -> dict[str, Any]:
        k1, k2 = jax.random.split(key)
        weights = jax.random.normal(k1, (self.width, self.width)) * self.scale
        bias = jnp.zeros((self.width,))
        return {{"w": weights, "b": bias, "k": k2}}

    def __call__(self, params: dict[str, Any], x: Any) -> Any:
        y = jnp.dot(x, params["w"]) + params["b"]
        y = jnp.clip(y, a_min=-6.0, a_max=6.0)
        return jax.nn.relu(y) * self.scale


def loss_{index}(params: Any, batch: tuple[Any, Any]) -> Any:
    inputs, targets = batch
    predictions = jax.vmap(lambda row: jnp.tanh(row))(inputs)
    error = predictions - targets
    total = 0.0
    for power in range(1, 4):
        total = total + jnp.mean(jnp.abs(error) ** power) / math.factorial(power)
    return total + 1e-4 * sum(jnp.sum(p**2) for p in jtu.tree_leaves(params))


@functools.partial(jax.jit, static_argnames=("steps",))
def train_{index}(params: Any, batch: Any, steps: int = 10) -> Any:
    grad = jax.grad(loss_{index})

    def body(i: Any, state: Any) -> Any:
        updates = grad(state, batch)
        return jax.tree.map(lambda p, u: p - 0.01 * u, state, updates)

    params = lax.fori_loop(0, steps, body, params)
    flat = jnp.reshape(jnp.concatenate(jax.tree_util.tree_leaves(params)), newshape=(-1,))
    return params, jnp.linalg.norm(flat)


def sharded_{index}(x: Any, mesh: Any) -> Any:
    def local(block: Any) -> Any:
        return jnp.mean(block, keepdims=True)

    fn = shard_map(local, mesh, in_specs=P("data"), out_specs=P())
    return fn(x)


def describe_{index}(x: Any) -> str:
    aval = typeof(x)
    names = [str(d) for d in aval.shape]
    if not names:
        return f"scalar {{aval.dtype}}"
    return "x".join(names) + f" {{aval.dtype}}"
'''


def generate(directory: Path, lines: int) -> int:
    """Write modules until `lines` lines; return the number written."""
    written = index = 0
    package = directory / "genlib"
    package.mkdir()
    (package / "__init__.py").write_text('"""Generated."""\n')
    written += 1
    while written < lines:
        parts = [HEADER.format(index=index)]
        for block in range(10):
            parts.append(BLOCK.format(index=f"{index}_{block}"))
        text = "".join(parts)
        (package / f"module_{index:03d}.py").write_text(text)
        written += text.count("\n")
        index += 1
    return written


def fetch(requirement: str, directory: Path) -> Path | None:
    """Download `requirement` (no dependencies) into `directory` and unpack it; return the
    unpacked tree, or None (said why) where no pip can download it."""
    if importlib.util.find_spec("pip") is not None:
        pip = [sys.executable, "-m", "pip"]
    elif shutil.which("pip") is not None:
        pip = ["pip"]  # a virtualenv made without pip: the one on PATH
    else:
        print(f"no pip to download {requirement}: its rows are left out", file=sys.stderr)
        return None
    download = directory / "download"
    command = [*pip, "download", "--quiet", "--no-deps", "--dest", str(download), requirement]
    if subprocess.run(command, check=False).returncode != 0:
        print(f"pip could not download {requirement}: its rows are left out", file=sys.stderr)
        return None
    (archive,) = download.iterdir()
    tree = directory / "tree"
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as opened:
            opened.extractall(tree)
    else:
        with tarfile.open(archive) as opened:
            opened.extractall(tree, filter="data")
    return tree


def time_check(paths: list[str], repeats: int) -> tuple[float, int, str]:
    """Best wall time of `jaxcompat check paths`, the lines read and the summary line."""
    best, summary = _best(main, [*paths, "--jax", ">=0.4.13"], repeats)
    match = re.search(r"\((\d+) lines\)", summary)
    return best, int(match.group(1)) if match else 0, summary


def time_migrate(paths: list[str], repeats: int) -> tuple[float, str]:
    """Best wall time of `jaxcompat migrate --check paths` for a floor that makes the
    generated gates dead, and the summary line."""
    return _best(migrate, [*paths, "--check", "--jax", ">=0.5.3"], repeats)


def _best(command: Any, argv: list[str], repeats: int) -> tuple[float, str]:
    best, summary = float("inf"), ""
    for _ in range(repeats):
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out):
            command(argv)
        best = min(best, time.perf_counter() - start)
        summary = out.getvalue().splitlines()[-1]
    return best, summary


def markdown(results: list[tuple[str, float, int, str]]) -> str:
    rows = "\n".join(
        f"| {name} | {lines:,} | {seconds:.2f} s | {lines / seconds:,.0f} | {summary} |"
        for name, seconds, lines, summary in results
    )
    generated = [r for r in results if "generated" in r[0]]
    met = all(
        seconds * TARGET_LINES / max(lines, 1) <= TARGET_SECONDS
        for _, seconds, lines, _ in generated
    )
    return (
        f"{SECTION}\n\n"
        "`python bench/bench_check.py`: the static checker and the port, in one process on one "
        f"core (best of the runs), on a generated tree and on this repository. Target: "
        f"{TARGET_LINES:,} lines in at most {TARGET_SECONDS:.0f} s for each command "
        f"({'met' if met else '**missed**'}). Python {platform.python_version()}, "
        f"{platform.machine()}.\n\n"
        "| source | lines | time | lines/s | summary |\n|---|---|---|---|---|\n"
        f"{rows}\n"
    )


def write_section(path: Path, section: str) -> None:
    """Replace this script's section of `path` (or append it), leaving the rest alone."""
    text = path.read_text() if path.exists() else ""
    start = text.find(f"\n{SECTION}\n")
    if start == -1:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + 1)
        text = text[: start + 1] + section + (text[end:] if end != -1 else "")
    path.write_text(text)


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=TARGET_LINES)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--markdown", type=Path, help="write the result into this file")
    parser.add_argument(
        "--large", default=LARGE_TREE, help="a requirement to fetch and time ('' for none)"
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    time_check([str(ROOT / "examples" / "pinned")], 1)  # warm-up: loads the data files
    results = []
    with tempfile.TemporaryDirectory() as directory:
        lines = generate(Path(directory), args.lines)
        seconds, read, summary = time_check([directory], args.repeats)
        results.append((f"check, generated tree ({lines:,} lines)", seconds, read, summary))
        seconds, summary = time_migrate([directory], args.repeats)
        results.append(
            (f"migrate --check, generated tree ({lines:,} lines)", seconds, lines, summary)
        )
    if args.large:
        with tempfile.TemporaryDirectory() as directory:
            tree = fetch(args.large, Path(directory))
            if tree is not None:
                seconds, read, summary = time_check([str(tree)], 1)
                results.append((f"check, {args.large} ({read:,} lines)", seconds, read, summary))
                seconds, summary = time_migrate([str(tree)], 1)
                results.append((f"migrate --check, {args.large}", seconds, read, summary))
    repository = [str(ROOT / name) for name in ("jaxcompat", "tests", "examples", "bench", "tools")]
    seconds, read, summary = time_check([p for p in repository if Path(p).exists()], args.repeats)
    results.append(("check, this repository", seconds, read, summary))
    for name, seconds, read, summary in results:
        print(f"{name}: {read:,} lines in {seconds:.2f} s = {read / seconds:,.0f} lines/s")
        print(f"  {summary}")
    if args.markdown:
        write_section(args.markdown, markdown(results))


if __name__ == "__main__":
    main_bench()
