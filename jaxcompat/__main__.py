"""``python -m jaxcompat`` (or the ``jaxcompat`` console script): the environment report.

Prints the JAX and jaxlib releases, the selected backend, whether ``jax.random`` draws the
newest JAX's bits, whether the release is a tested row of matrix.yml, and one PASS/FAIL line
per primitive, checked against the installed JAX. When JAX is missing, broken, too old or
untested, or JAXCOMPAT_BACKEND is bad, it says what it found and how to fix it. Exits 1 on
any problem or failed check; a JAX newer than every tested row is a warning, not a problem.
``--json`` prints the same as one JSON object.

With a command as its first argument (``SUBCOMMANDS``) it runs that command instead.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import json
import sys
import textwrap
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jaxcompat
from jaxcompat._cli import diagnose as _diagnose
from jaxcompat._cli.commands import COMMANDS
from jaxcompat._cli.diagnose import Finding
from jaxcompat._cli.program import parse_arguments, program_name

#: Verbs dispatched before anything reads JAX: verb -> module with ``main(argv) -> int``
#: (the one table, in ``jaxcompat._cli.commands``).
SUBCOMMANDS = COMMANDS

#: One line per command in the report's help (its "commands:" section).
COMMAND_HELP = {
    "check": "report what in a library breaks on which JAX releases",
    "migrate": "port a library: point its JAX imports at jaxcompat",
    "matrix": "the JAX releases to test a library on, and how to install each",
    "floor": "the lowest JAX release on which a library's own tests pass",
}

_DESCRIPTION = (
    "Report the installed JAX and jaxlib, the jaxcompat backend that serves them, whether "
    "the release is one jaxcompat is tested on, and a self-check of jaxcompat's primitives. "
    "Exits 1 on a problem or a failed check; a JAX newer than every tested release is a "
    "warning."
)


def tested_status() -> tuple[str, str, Finding | None]:
    """Return (status, explanation, finding): status is "yes", "no" or "unknown".

    For "no", the finding says why the installed JAX is untested and which release to install.
    """
    rows, where = _diagnose.matrix_rows()
    if rows is None:
        return "unknown", where, None
    finding = _diagnose.tested_finding(jaxcompat.JAX_VERSION, jaxcompat.JAX_VERSION_STRING, rows)
    if finding is None:
        return "yes", "a row of matrix.yml", None
    return "no", "untested", finding


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

    class Agent:  # a method jitted with self static, then jitted again bound, as JAX takes
        @functools.partial(jaxcompat.jit, static_argnames=("self",))
        def act(self, x: Any) -> Any:
            return x * 2

    agent = Agent()
    assert float(jaxcompat.jit(agent.act)(1.0)) == 2.0
    assert float(jaxcompat.jit(jaxcompat.jit(agent.act))(2.0)) == 4.0

    # Options for a bound method count from the argument after self, as JAX counts them.
    on_one_device = jaxcompat.sharding.SingleDeviceSharding(jaxcompat.devices()[0])
    placed = jaxcompat.jit(scale.apply, in_shardings=(on_one_device,))
    assert float(placed(jnp.ones(3))[0]) == 3.0


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


def _print_findings(findings: list[Finding], kind: str = "problem") -> None:
    for finding in findings:
        print(f"{kind} ({finding.problem}): {finding.finding}")
        print(f"fix: {finding.fix}")


def _report_unusable(error: ImportError, as_json: bool) -> int:
    """JAX cannot be used: say why and how to fix it, without running any check."""
    findings = _diagnose.diagnose_import(error)
    jax_version, jaxlib_version = _diagnose.installed_jax()
    if as_json:
        print(
            json.dumps(
                {
                    "jaxcompat": jaxcompat.__version__,
                    "jax": jax_version,
                    "jaxlib": jaxlib_version,
                    "backend": None,
                    "tested": "unknown",
                    "checks": {},
                    "errors": {},
                    "problems": [finding.as_dict() for finding in findings],
                    "warnings": [],
                }
            )
        )
        return 1
    print(f"jaxcompat {jaxcompat.__version__} ({Path(jaxcompat.__file__).parent})")
    shown = f"JAX {jax_version}, jaxlib {jaxlib_version}" if jax_version else "JAX: not found"
    print(shown)
    _print_findings(findings)
    return 1


def _source_tree_here() -> bool:
    """Whether the jaxcompat imported is the checkout in the current directory (Python puts
    it first on the path for ``python -m``), not the installed package."""
    package = Path(jaxcompat.__file__).resolve().parent
    return package.parent == Path.cwd().resolve() and (package.parent / "pyproject.toml").is_file()


def newest_random_bits() -> bool:
    """Whether jax.random draws the newest JAX's bits here: its key splits and random bits
    follow jax_threefry_partitionable, True by default from JAX 0.5.0 and False before."""
    import jax

    # Read by name: JAX's typing of its config lists the option on some releases only.
    return bool(getattr(jax.config, "jax_threefry_partitionable"))  # noqa: B009


def random_bits_line(newest: bool) -> str:
    if newest:
        return "random bits: the newest JAX's for the same key (jax_threefry_partitionable)"
    return (
        "random bits: not the newest JAX's for the same key: jax_threefry_partitionable is "
        "False, the default before JAX 0.5.0; "
        'jax.config.update("jax_threefry_partitionable", True) gives the newest\'s bits'
    )


def report(argv: list[str]) -> int:
    """The environment report and self-check (the default verb)."""
    prog = program_name()
    width = max(map(len, COMMAND_HELP))
    parser = argparse.ArgumentParser(
        prog=prog,
        usage=f"{prog} [--json] | {prog} COMMAND ...",
        description=textwrap.fill(_DESCRIPTION, 88),
        epilog="commands:\n"
        + "".join(f"  {name:<{width}}  {text}\n" for name, text in COMMAND_HELP.items())
        + f"\nEach command's own help: {prog} COMMAND --help",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parse_arguments(parser, argv)
    if isinstance(args, int):  # --help (0) or a usage error, which argparse has printed
        return args
    if jaxcompat._JAX_IMPORT_ERROR is not None:
        return _report_unusable(jaxcompat._JAX_IMPORT_ERROR, args.json)
    status, explanation, untested = tested_status()
    results = run_checks()
    failed = sum(error is not None for error in results.values())
    # A JAX newer than every row runs on the newest backend: when every self-check passes
    # there, it is a warning (a library's CI that runs this must not be pushed to pin JAX).
    newer = untested is not None and _diagnose.newer_than_every_row(
        jaxcompat.JAX_VERSION, _diagnose.matrix_rows()[0] or []
    )
    warned = [untested] if untested is not None and newer and not failed else []
    findings = [untested] if untested is not None and not warned else []
    code = 1 if failed or findings else 0
    if args.json:
        print(
            json.dumps(
                {
                    "jaxcompat": jaxcompat.__version__,
                    "jax": jaxcompat.JAX_VERSION_STRING,
                    "jaxlib": jaxcompat.JAXLIB_VERSION_STRING,
                    "backend": jaxcompat.BACKEND,
                    "tested": status,
                    "newest_random_bits": newest_random_bits(),
                    "checks": {name: error is None for name, error in results.items()},
                    "errors": {name: error for name, error in results.items() if error},
                    "problems": [finding.as_dict() for finding in findings],
                    "warnings": [finding.as_dict() for finding in warned],
                }
            )
        )
        return code
    print(f"jaxcompat {jaxcompat.__version__} ({Path(jaxcompat.__file__).parent})")
    if _source_tree_here():
        print(
            "note: this is the source tree in the current directory, not an installed "
            "jaxcompat: run it from another directory to report on the installed one"
        )
    print(f"JAX {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}")
    print(f"backend: {jaxcompat.BACKEND}")
    print(random_bits_line(newest_random_bits()))
    print(f"tested release: {status} ({explanation})")
    _print_findings(findings)
    _print_findings(warned, "warning")
    width = max(map(len, results))
    for name, error in results.items():
        line = f"{'PASS' if error is None else 'FAIL'}  {name:<{width}}  {error or ''}"
        print(line.rstrip())
    print(f"{len(results) - failed} passed, {failed} failed")
    return code


def main(argv: list[str] | None = None) -> int:
    """Dispatch a verb (SUBCOMMANDS) if the first argument names one; else the report."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in SUBCOMMANDS:
        module_name = SUBCOMMANDS[argv[0]]
        if importlib.util.find_spec(module_name) is None:
            print(f"{program_name()}: this jaxcompat has no {argv[0]!r} command", file=sys.stderr)
            return 2
        command: Callable[[list[str]], int] = importlib.import_module(module_name).main
        return command(argv[1:])
    if argv and not argv[0].startswith("-"):  # the report takes options only
        verbs = ", ".join(SUBCOMMANDS)
        prog = program_name()
        print(
            f"{prog}: unknown command {argv[0]!r}; the commands are: {verbs} "
            f"(and, with no command, the report: {prog} --help)",
            file=sys.stderr,
        )
        return 2
    return report(argv)


if __name__ == "__main__":
    from jaxcompat._cli.pipes import quiet_on_closed_pipe

    sys.exit(quiet_on_closed_pipe(main, sys.argv[1:]))
