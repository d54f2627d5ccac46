"""The measurements of one JAX release for COMPATIBILITY.md, run in that row's virtualenv
(``python tools/compat_report.py --probe``): jaxcompat's self-check, what raw JAX does on the
self-check's seed cases, and which names and keywords jaxcompat gives there.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _outcome(probe: Callable[[], Any]) -> str:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            result = probe()
        except Exception as error:
            return f"{type(error).__name__}"
    categories = sorted({w.category.__name__ for w in seen})
    return f"{result} + {', '.join(categories)}" if categories else str(result)


def raw_jax_probes() -> dict[str, str]:
    import jax

    def hash_tracer() -> str:
        jax.jit(lambda x: (hash(x), x)[1])(1.0)
        return "ok"

    class Below:
        def __init__(self, bound: Any) -> None:
            self.bound = bound

        def __call__(self, v: Any) -> Any:
            return v < self.bound

        def __hash__(self) -> int:
            return hash(self.bound)

    def while_loop() -> float:
        return float(jax.jit(lambda y: jax.lax.while_loop(Below(y), lambda v: v + 1.0, 0.0))(3.0))

    def wrapped_lower() -> str:
        def swap(fun: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(fun)
            def wrapped(x: Any, y: Any) -> Any:
                return fun(y, x)

            return wrapped

        my_fun = swap(jax.jit(lambda x, y: x))
        value = int(my_fun.lower(0, 1).compile()(0, 1))  # type: ignore[attr-defined]
        return "ok" if value == 1 else "skips the wrapper"

    def method_stale() -> str:
        class C:
            def __init__(self) -> None:
                self.mul = 2.0

            def calc(self, x: Any) -> Any:
                return x * self.mul

        c = C()
        jitted = jax.jit(c.calc)
        jitted(1.0)
        c.mul = 3.0
        return "ok" if float(jitted(1.0)) == 3.0 else "stale"

    def cost() -> str:
        return type(jax.jit(lambda x: x + 1).lower(1.0).compile().cost_analysis()).__name__

    def factory() -> str:
        jax.jit(static_argnums=0)  # type: ignore[call-overload]
        return "ok"

    def block_int() -> str:
        (1).block_until_ready()  # type: ignore[attr-defined]
        return "ok"

    return {
        "hash(tracer)": _outcome(hash_tracer),
        "lax.while_loop, cond hashing a tracer": _outcome(while_loop),
        "wraps(jit(f)).lower()": _outcome(wrapped_lower),
        "jit(obj.method) after a change": _outcome(method_stale),
        "Compiled.cost_analysis()": _outcome(cost),
        "@jit(static_argnums=...)": _outcome(factory),
        "constant-folded int .block_until_ready()": _outcome(block_int),
    }


def _warning_free(module_name: str, name: str) -> str | None:
    """None if ``module_name.name`` is there without a warning, else why not."""
    import importlib

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            getattr(importlib.import_module(module_name), name)
        except Exception as error:
            return f"{type(error).__name__}: {error}"
    return None


def source_label(source: Any) -> str:
    """How the report shows a stable name's source: JAX's location, marked if adapted."""
    return source.where.replace(":", ".") + (" (adapted)" if source.adapter else "")


def namespace_probe() -> dict[str, Any]:
    """The newest JAX's names in the mirrored modules: which work here, raw and via jaxcompat."""
    from jaxcompat import _namespace, _surface
    from jaxcompat._stable_names import STABLE_NAMES

    names = [
        (jax_module, name)
        for public, (jax_module, _) in sorted(_namespace.MIRRORED.items())
        for name in _surface.newest_names(jax_module)
        # A name the newest JAX deprecates (it warns there) is not part of its API to write for.
        if _surface.status(jax_module, name)[-1] == "o"
    ]
    raw = jaxcompat = 0
    missing = {}
    for jax_module, name in names:
        raw += _warning_free(jax_module, name) is None
        public = "jaxcompat" + jax_module.removeprefix("jax")
        why = _warning_free(public, name)
        if why is None:
            jaxcompat += 1
        else:
            missing[f"{jax_module}.{name}"] = why
    sources = {}
    for entry in STABLE_NAMES:
        selected = _namespace.select_source(entry.path)
        sources[entry.path] = None if selected is None else source_label(selected[0])
    return {
        "newest": len(names),
        "raw": raw,
        "jaxcompat": jaxcompat,
        "missing": missing,
        "sources": sources,
    }


#: The modules whose callables the newest-keyword figures count: the user-facing modules of the
#: newest JAX that jaxcompat gives (``jax.scipy`` stays JAX's own module).
KEYWORD_MODULES = (
    "jax",
    "jax.numpy",
    "jax.numpy.linalg",
    "jax.numpy.fft",
    "jax.lax",
    "jax.random",
    "jax.nn",
    "jax.tree",
    "jax.tree_util",
    "jax.sharding",
    "jax.custom_derivatives",
    "jax.dtypes",
    "jax.errors",
    "jax.typing",
    "jax.experimental.layout",
)


def _signature_parameters(function: Any) -> dict[str, Any] | None:
    import inspect

    try:
        return dict(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return None


def _accepts_by_name(parameters: dict[str, Any], name: str) -> bool:
    found = parameters.get(name)
    return found is not None and found.kind not in (found.POSITIONAL_ONLY, found.VAR_POSITIONAL)


def _is_keyword_wrapper(function: Any) -> bool:
    """Whether ``function`` is the shared newest-keyword wrapper of
    ``jaxcompat/_keywords/adapter.py``: its rules then say what each keyword becomes. (A
    class is JAX's own, never wrapped.)"""
    code = getattr(function, "__code__", None)
    return (
        code is not None
        and code.co_name == "adapted"
        and Path(code.co_filename).parts[-2:] == ("_backports", "keywords.py")
    )


def keyword_probe() -> dict[str, Any]:
    """The newest JAX's keywords on this release: how many callables accept every keyword of
    their newest signature by name, and what each keyword the release's own function lacks
    becomes through jaxcompat (``honoured``, ``default only``, ``refused as the newest does``,
    ``clear error``, or ``not accepted``, with the rule's reason)."""
    import importlib

    from jaxcompat import _surface
    from jaxcompat._keywords.rules.functions import rule_for
    from jaxcompat._keywords.rules.kinds import (
        NO_DEFAULT,
        NOT_ADAPTED_YET,
        REFUSED_BY_NEWEST,
        UNSUPPORTED,
    )
    from jaxcompat._releases import parse_release
    from jaxcompat._version import JAX_VERSION

    newest = _surface.added_parameters()
    callables = accepting = 0
    pairs: dict[str, str] = {}
    for jax_module in KEYWORD_MODULES:
        public = "jaxcompat" + jax_module.removeprefix("jax")
        try:
            module = importlib.import_module(public)
        except ImportError:
            continue
        for name in sorted(_surface.newest_names(jax_module)):
            path = f"{jax_module}.{name}"
            runs = _surface.signature_runs(path)
            signature = runs[-1][1] if runs else None
            if name.startswith("_") or signature is None:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    found = getattr(module, name)
                except AttributeError:
                    continue  # a name this release cannot have
            parameters = _signature_parameters(found)
            if parameters is None or not callable(found):
                continue
            callables += 1
            wanted = _surface.keyword_names(signature)
            missing = [p for p in wanted if not _accepts_by_name(parameters, p)]
            accepting += not missing
            adapting = _is_keyword_wrapper(found)
            # What the function under the wrapper takes itself (a stable name's source).
            wrapped = _signature_parameters(found.__wrapped__) if adapting else None
            for parameter, first in newest.get(path, ("", {}))[1].items():
                rule = rule_for(path, parameter)
                # The release's own function takes it (and is right: see KeywordRule.fixed_in).
                fixed_in = rule.fixed_in if rule is not None and rule.fixed_in else first
                rule_fixed_later = fixed_in != first or (
                    rule is not None and rule.broken_from is not None
                )
                broken_again = (
                    rule is not None
                    and rule.broken_from is not None
                    and parse_release(rule.broken_from) <= JAX_VERSION
                    and (
                        rule.fixed_again_in is None
                        or parse_release(rule.fixed_again_in) > JAX_VERSION
                    )
                )
                if (
                    parse_release(max(first, fixed_in, key=parse_release)) <= JAX_VERSION
                    and not broken_again
                ):
                    continue
                if parameter in missing:
                    kind = "not accepted"
                elif wrapped is not None and parameter in wrapped and not rule_fixed_later:
                    kind = "honoured"  # the wrapped function takes it itself
                elif not adapting or rule is None:
                    kind = "honoured"  # jaxcompat's own function or adapter takes it
                elif rule.other_values == UNSUPPORTED:
                    kind = "clear error" if rule.default is NO_DEFAULT else "default only"
                elif rule.other_values == REFUSED_BY_NEWEST:
                    kind = "refused as the newest does"
                elif rule.other_values == NOT_ADAPTED_YET:
                    kind = "clear error"
                else:
                    kind = "honoured"
                pairs[f"{path}({parameter}=)"] = kind
    return {"callables": callables, "accepting": accepting, "pairs": pairs}


def probe(out: Path) -> None:
    report = subprocess.run(
        [sys.executable, "-m", "jaxcompat", "--json"], capture_output=True, text=True
    )
    data = json.loads(report.stdout)
    data["raw_jax"] = raw_jax_probes()
    data["namespace"] = namespace_probe()
    data["keywords"] = keyword_probe()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(data, indent=1))
