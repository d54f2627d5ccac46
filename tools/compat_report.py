"""Build COMPATIBILITY.md: per JAX release, jaxcompat's self-check and what raw JAX does.

    python tools/compat_report.py --probe --out report-results/0.4.30.json   (in a row's venv)
    python tools/compat_report.py --table report-results --markdown COMPATIBILITY.md

The raw-JAX columns are measured live on each release by the probes below, against the same
seed cases the self-check runs through jaxcompat.
"""

from __future__ import annotations

import argparse
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


def _source_label(source: Any) -> str:
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
        sources[entry.path] = None if selected is None else _source_label(selected[0])
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


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("+")[0].split(".") if p.isdigit())


#: The block that tools/third_party.py writes into COMPATIBILITY.md; regenerating the rest
#: keeps it as it is.
KEPT_BLOCK = ("<!-- third-party: generated by", "<!-- third-party: end -->")


def _kept_block(markdown: Path) -> list[str]:
    text = markdown.read_text() if markdown.is_file() else ""
    start, end = KEPT_BLOCK
    if start not in text or end not in text:
        return []
    block = start + text.split(start, 1)[1].split(end, 1)[0] + end
    return ["", *block.splitlines()]


def table(results_dir: Path, markdown: Path) -> None:
    results = [json.loads(p.read_text()) for p in results_dir.glob("*.json")]
    results.sort(key=lambda r: _release(r["jax"]))
    checks = list(results[0]["checks"])
    raws = list(results[0]["raw_jax"])
    lines = [
        "# Compatibility",
        "",
        "Generated by `nox -s report` (`tools/compat_report.py`) from one run per matrix.yml",
        "release. The jaxcompat columns are `python -m jaxcompat`'s self-checks on that release;",
        "the raw JAX columns are the same seed cases written against plain `jax`, measured on",
        "that release (`ok`, the value returned, or the exception raised; `+ Warning` means it",
        "also warned).",
        "",
        "| JAX | backend | " + " | ".join(checks) + " |",
        "|---|---|" + "---|" * len(checks),
    ]
    for r in results:
        cells = ["PASS" if r["checks"][c] else "**FAIL**" for c in checks]
        lines.append(f"| {r['jax']} | {r['backend']} | " + " | ".join(cells) + " |")
    lines += ["", "## What raw JAX does", "", "| JAX | " + " | ".join(raws) + " |"]
    lines.append("|---|" + "---|" * len(raws))
    for r in results:
        lines.append(f"| {r['jax']} | " + " | ".join(r["raw_jax"][k] for k in raws) + " |")
    lines += namespace_sections(results)
    lines += keyword_sections(results)
    lines += _kept_block(markdown)
    markdown.write_text("\n".join(lines) + "\n")
    print(f"wrote {markdown} ({len(results)} releases)")


def _ranges(releases: list[str], present: list[bool]) -> list[str]:
    """``["0.4.13-0.4.24", "0.5.3"]``: the runs of releases where ``present`` holds."""
    runs: list[list[str]] = []
    previous = False
    for release, here in zip(releases, present, strict=True):
        if here and previous:
            runs[-1][1] = release
        elif here:
            runs.append([release, release])
        previous = here
    return [first if first == last else f"{first}-{last}" for first, last in runs]


def namespace_sections(results: list[dict[str, Any]]) -> list[str]:
    """Coverage per release, the stable names' sources, and the names that cannot be had."""
    from jaxcompat._stable_names import STABLE_NAMES

    releases = [r["jax"] for r in results]
    spaces = [r["namespace"] for r in results]
    table_paths = {entry.path for entry in STABLE_NAMES}
    lines = [
        "",
        "## `import jaxcompat as jax`: the newest JAX's names on each release",
        "",
        "Of the public names that the newest row's JAX has in the mirrored modules (`jax`,",
        "`jax.numpy`, `jax.lax`, `jax.tree`, `jax.tree_util`, `jax.random`, `jax.sharding`,",
        "`jax.errors`, `jax.typing`, `jax.dtypes`, `jax.nn`, `jax.custom_derivatives`,",
        "`jax.extend`, `jax.extend.core`, `jax.extend.core.primitives`, `jax.experimental`,",
        "`jax.experimental.layout`), how many work without a warning on each release through",
        "raw JAX and through jaxcompat; of the rest, how many the release cannot have (listed",
        "with their reasons below) and how many jaxcompat does not backport yet.",
        "",
        "| JAX | newest names | raw JAX | jaxcompat | cannot be had | not backported yet |",
        "|---|---|---|---|---|---|",
    ]
    impossible: dict[str, tuple[str, list[bool]]] = {}
    for index, (release, space) in enumerate(zip(releases, spaces, strict=True)):
        cannot = 0
        for name in space["missing"]:
            path = name.removeprefix("jax.")
            if path in table_paths:
                cannot += 1
                reason = space["missing"][name].split(", because ", 1)[-1].split(". ")[0]
                entry = impossible.setdefault(path, (reason, [False] * len(spaces)))
                entry[1][index] = True
        not_yet = len(space["missing"]) - cannot
        lines.append(
            f"| {release} | {space['newest']} | {space['raw']} | {space['jaxcompat']} | "
            f"{cannot} | {not_yet} |"
        )
    lines += [
        "",
        "## Names that cannot be had, and why",
        "",
        "Accessing one of these on a release shown raises an AttributeError that names the",
        "first JAX release with it and this reason; `hasattr` feature checks keep working.",
        "",
        "| name | missing on | why |",
        "|---|---|---|",
    ]
    for path in sorted(impossible):
        reason, missing_on = impossible[path]
        lines.append(f"| `{path}` | {', '.join(_ranges(releases, missing_on))} | {reason} |")
    lines += [
        "",
        "## Stable names: what each resolves to, by release",
        "",
        "Generated from `jaxcompat/_stable_names/` as resolved on each release. A source in",
        "`jaxcompat._backports` is jaxcompat's own code; `(adapted)` marks JAX's object given",
        "the newest signature.",
        "",
        "| stable name | resolves to |",
        "|---|---|",
    ]
    for entry in STABLE_NAMES:
        cells = []
        for source in entry.sources:
            label = _source_label(source)
            used = [space["sources"].get(entry.path) == label for space in spaces]
            spans = _ranges(releases, used)
            if spans:
                cells.append(f"`{label}` {', '.join(spans)}")
        unavailable = _ranges(
            releases, [space["sources"].get(entry.path) is None for space in spaces]
        )
        if unavailable:
            cells.append(f"AttributeError {', '.join(unavailable)}")
        lines.append(f"| `jaxcompat.{entry.path}` | {'; '.join(cells)} |")
    not_yet: dict[str, list[bool]] = {}
    for index, space in enumerate(spaces):
        for name in space["missing"]:
            if name.removeprefix("jax.") not in table_paths:
                not_yet.setdefault(name, [False] * len(spaces))[index] = True
    lines += [
        "",
        "## Names of the newest JAX not yet backported",
        "",
        "Names the newest JAX has that jaxcompat does not give yet on the releases shown.",
        "",
        "| name | missing on |",
        "|---|---|",
    ]
    for name in sorted(not_yet):
        lines.append(f"| `{name}` | {', '.join(_ranges(releases, not_yet[name]))} |")
    return lines


KEYWORD_KINDS = ("honoured", "default only", "refused as the newest does", "clear error")


def keyword_sections(results: list[dict[str, Any]]) -> list[str]:
    """The newest JAX's keywords on each release, and the pairs that are not honoured."""
    releases = [r["jax"] for r in results]
    probes = [r["keywords"] for r in results]
    lines = [
        "",
        "## The newest JAX's keywords on each release",
        "",
        "Of the callables that jaxcompat gives in the modules above (`jax.numpy.linalg` and",
        "`jax.numpy.fft` too), how many accept every keyword parameter of their newest",
        "signature by name; and, of the (callable, keyword) pairs whose keyword the release's",
        "own function lacks, how many jaxcompat honours (composed from the release's own",
        "operations, or by its own function), accepts only as its default and refuses",
        "otherwise with a clear error naming the",
        "first release that takes it (`out_sharding=None` before sharding in types), refuses",
        "for any other value as the newest JAX does itself (`out=` and `where=` of the",
        "ufuncs), or refuses for any value with such a clear error; the rest are not accepted",
        "at all (listed below). Rules: `jaxcompat/_keywords/rules/functions.py`.",
        "",
        "| JAX | callables accepting every newest keyword | pairs the release lacks | "
        + " | ".join(KEYWORD_KINDS)
        + " | not accepted |",
        "|---|---|---|" + "---|" * (len(KEYWORD_KINDS) + 1),
    ]
    for release, found in zip(releases, probes, strict=True):
        kinds = list(found["pairs"].values())
        counts = [str(kinds.count(kind)) for kind in (*KEYWORD_KINDS, "not accepted")]
        lines.append(
            f"| {release} | {found['accepting']} / {found['callables']} | {len(kinds)} | "
            + " | ".join(counts)
            + " |"
        )
    for kind, heading, why in (
        (
            "clear error",
            "Newest keywords that are a clear error",
            "A call that passes one of these (other than its default) raises a TypeError that "
            "names the function, the keyword, the installed release and the first release "
            "that takes it: jaxcompat does not compose it from older releases' operations "
            "yet, or (a parameter the newest requires, such as `AbstractDevice`'s `platform`) "
            "the release cannot make what it asks for.",
        ),
        (
            "not accepted",
            "Newest keywords not accepted",
            "jaxcompat gives JAX's own class wherever JAX has one under the name (code "
            "compares classes by type, dispatches and registers on them), whose constructor "
            "takes what the release's takes: a newest keyword it lacks is JAX's own "
            "TypeError. The list below gives the first release that takes each.",
        ),
    ):
        shown: dict[str, list[bool]] = {}
        for index, found in enumerate(probes):
            for pair, found_kind in found["pairs"].items():
                if found_kind == kind:
                    shown.setdefault(pair, [False] * len(probes))[index] = True
        lines += ["", f"### {heading}", "", why, "", "| call | on |", "|---|---|"]
        for pair in sorted(shown):
            lines.append(f"| `{pair}` | {', '.join(_ranges(releases, shown[pair]))} |")
    return lines + class_keyword_lines() + _value_rules()


def class_keyword_lines() -> list[str]:
    """The newest constructor keywords of the classes jaxcompat gives as JAX's own, and the
    first release that takes each (``_keywords/rules/classes.py``)."""
    from jaxcompat._keywords.rules.classes import CLASS_KEYWORDS

    lines = [
        "",
        "### Newest constructor keywords of JAX's classes",
        "",
        "jaxcompat gives JAX's own class under each of these names, so a call that passes the",
        "keyword before the release given is JAX's own TypeError (or, `unreduced=` on 0.6.1,",
        "JAX's own reading of it), and `jaxcompat check` reports it (JC010). From the package's",
        "data (`jaxcompat/_keywords/rules/classes.py`).",
        "",
        "| class | keyword | first release that takes it |",
        "|---|---|---|",
    ]
    for fact in CLASS_KEYWORDS:
        names = ", ".join(f"`jaxcompat.{path.removeprefix('jax.')}`" for path in sorted(fact.paths))
        lines.append(f"| {names} | `{fact.parameter}` | {fact.first} |")
    return lines


def _value_rules() -> list[str]:
    """The rules for newest values of keywords that older releases' functions name."""
    from jaxcompat._keywords.rules.functions import KEYWORD_RULES

    lines = [
        "",
        "### Newest values of keywords the release names",
        "",
        "The release's function takes the keyword, but not these values of it: jaxcompat "
        "honours them on the releases before the one given, and passes every other value to "
        "the release's function as it is. One value of an honoured keyword stays a clear "
        "error: `jax.lax.all_gather(to='reduced')` before 0.8.2, which needs that release's "
        "reduced axes (`to='invarying'` is honoured).",
        "",
        "| call | before |",
        "|---|---|",
    ]
    for rule in KEYWORD_RULES:
        if rule.new_values is None or rule.paths is None:
            continue
        for path in sorted(rule.paths):
            for value in rule.new_values:
                lines.append(f"| `{path}({rule.parameter}={value!r})` | {rule.fixed_in} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--probe", action="store_true")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--table", type=Path)
    parser.add_argument("--markdown", type=Path, default=Path("COMPATIBILITY.md"))
    args = parser.parse_args()
    if args.probe:
        probe(args.out or Path("report-results") / "this.json")
    if args.table:
        table(args.table, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
