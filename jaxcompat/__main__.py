"""``python -m jaxcompat``: what is installed, which backend serves it, and a self-check.

Prints the JAX and jaxlib releases, the selected backend, whether the release is a tested
row of matrix.yml, and one PASS/FAIL line per primitive, checked against the installed JAX.
Exits 1 if any check fails. ``--json`` prints the same as one JSON object.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and sys.argv[1:2] == ["check"]:
    # `python -m jaxcompat check` is static and needs no JAX: run it before the imports below.
    from jaxcompat._checker import main as _check

    sys.exit(_check(sys.argv[2:]))

import argparse
import functools
import json
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jaxcompat
from jaxcompat._dispatch import format_release
from jaxcompat._version import parse_release


def _matrix_path() -> Path | None:
    package = Path(jaxcompat.__file__).parent
    for candidate in (package / "matrix.yml", package.parent / "matrix.yml"):
        if candidate.is_file():
            return candidate
    return None


def tested_status() -> tuple[str, str]:
    """Return (status, explanation): status is "yes", "no" or "unknown"."""
    path = _matrix_path()
    if path is None:
        return "unknown", "matrix.yml is not installed with this copy of jaxcompat"
    try:
        import yaml
    except ImportError:
        return "unknown", "reading matrix.yml needs PyYAML: pip install 'jaxcompat[report]'"
    releases = [
        parse_release(str(row["jax"])) for row in yaml.safe_load(path.read_text())["releases"]
    ]
    installed = jaxcompat.JAX_VERSION
    if installed in releases:
        return "yes", "a row of matrix.yml"
    if installed > max(releases):
        newest = format_release(max(releases))
        return "no", f"newer than every matrix.yml row (newest tested: {newest}); untested"
    return "no", "not a row of matrix.yml; untested"


# --- Self-checks: each returns normally or raises ----------------------------------------


def _check_jit() -> None:
    import jax.numpy as jnp

    @jaxcompat.jit(static_argnames="n")
    def power(x: Any, n: int) -> Any:
        return x**n

    assert float(power(jnp.float32(3.0), n=2)) == 9.0
    assert power.__name__ == "power"


def _check_methods() -> None:
    import jax.numpy as jnp

    class Scale:
        def __init__(self) -> None:
            self.weights = jnp.ones(3)
            self.factor = 2.0

        def apply(self, x: Any) -> Any:
            return self.weights * x * self.factor

    scale = Scale()
    jitted = jaxcompat.jit(scale.apply)
    assert float(jitted(1.0)[0]) == 2.0
    scale.factor = 3.0  # plain jax.jit would keep returning 2.0
    assert float(jitted(1.0)[0]) == 3.0


def _swap_args(fun: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fun)
    def swapped(x: Any, y: Any) -> Any:
        return fun(y, x)

    return swapped


def _check_lower() -> None:
    @_swap_args
    @jaxcompat.jit
    def first(x: Any, y: Any) -> Any:
        return x

    assert not hasattr(first, "lower")
    compiled = jaxcompat.lower(first, 0, 1).compile()
    assert int(compiled(0, 1)) == int(first(0, 1)) == 1
    assert isinstance(compiled.cost_analysis(), dict)
    assert isinstance(compiled.as_text(), str)


def _check_trace() -> None:
    import jax.numpy as jnp

    traced = jaxcompat.trace(_swap_args(jaxcompat.jit(lambda x, y: x - y)), jnp.ones(2), 1.0)
    assert traced.out_info.shape == (2,)
    assert len(traced.jaxpr.jaxpr.invars) == 2
    assert float(traced.lower().compile()(jnp.ones(2), 1.0)[0]) == 0.0


def _check_tracer_safe_hash() -> None:
    import jax

    class HashesBound:
        def __init__(self, bound: Any) -> None:
            self.bound = bound

        def __hash__(self) -> int:
            return hash(self.bound)

    def body(x: Any) -> Any:
        holder = HashesBound(x)
        assert jaxcompat.tracer_safe_hash(holder) == jaxcompat.tracer_safe_hash(holder)
        assert jaxcompat.tracer_safe_hash((x, [x])) == jaxcompat.tracer_safe_hash((x, [x]))
        return x

    jax.jit(body)(1.0)
    assert jaxcompat.tracer_safe_hash((1, "a")) == hash((1, "a"))


def _check_is_tracer() -> None:
    import jax
    import jax.numpy as jnp

    seen: list[bool] = []

    def record(x: Any) -> Any:
        seen.append(jaxcompat.is_tracer(x))
        return x

    jax.jit(record)(1.0)
    assert seen == [True]
    assert not jaxcompat.is_tracer(jnp.ones(1))


def _check_block_if_array() -> None:
    import jax.numpy as jnp
    import numpy as np

    @jaxcompat.jit(inline=True)
    def inner(x: Any) -> Any:
        return x + 1, 0

    result = jaxcompat.jit(lambda x: inner(x))(jnp.ones(2))
    tree = {"result": result, "marker": inner(jnp.ones(2))[1], "host": np.ones(2), "n": None}
    assert jaxcompat.block_if_array(tree) is tree


def _check_control_flow() -> None:
    import jax

    class Below:
        def __init__(self, bound: Any) -> None:
            self.bound = bound

        def __call__(self, value: Any) -> Any:
            return value < self.bound

        def __hash__(self) -> int:
            return hash(self.bound)

    @jax.jit
    def count_to(bound: Any) -> Any:
        return jaxcompat.lax.while_loop(Below(bound), lambda v: v + 1.0, 0.0)

    assert float(count_to(5.0)) == 5.0


CHECKS: dict[str, Callable[[], None]] = {
    "jit": _check_jit,
    "jit (methods)": _check_methods,
    "lower": _check_lower,
    "trace": _check_trace,
    "tracer_safe_hash": _check_tracer_safe_hash,
    "is_tracer": _check_is_tracer,
    "block_if_array": _check_block_if_array,
    "lax (loop-safe control flow)": _check_control_flow,
}


def run_checks() -> dict[str, str | None]:
    """Run every self-check with warnings as errors; map name to None or the failure."""
    results: dict[str, str | None] = {}
    for name, check in CHECKS.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                check()
        except Exception as error:
            frame = traceback.extract_tb(error.__traceback__)[-1]
            results[name] = f"{type(error).__name__}: {error} (line {frame.lineno})"
        else:
            results[name] = None
    return results


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["check"]:  # the static checker: needs no JAX
        from jaxcompat._checker import main as check

        return check(arguments[1:])
    parser = argparse.ArgumentParser(prog="python -m jaxcompat", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    status, explanation = tested_status()
    results = run_checks()
    failed = sum(error is not None for error in results.values())
    if args.json:
        print(
            json.dumps(
                {
                    "jaxcompat": jaxcompat.__version__,
                    "jax": jaxcompat.JAX_VERSION_STRING,
                    "jaxlib": jaxcompat.JAXLIB_VERSION_STRING,
                    "backend": jaxcompat.BACKEND,
                    "tested": status,
                    "checks": {name: error is None for name, error in results.items()},
                    "errors": {name: error for name, error in results.items() if error},
                }
            )
        )
        return 1 if failed else 0
    print(f"jaxcompat {jaxcompat.__version__} ({Path(jaxcompat.__file__).parent})")
    print(f"JAX {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}")
    print(f"backend: {jaxcompat.BACKEND}")
    print(f"tested release: {status} ({explanation})")
    width = max(map(len, results))
    for name, error in results.items():
        line = f"{'PASS' if error is None else 'FAIL'}  {name:<{width}}  {error or ''}"
        print(line.rstrip())
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
