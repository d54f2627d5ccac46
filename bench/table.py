"""Print one row's results, and write BENCHMARKS.md from every row's (``bench.py --table``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _show(value: float, unit: str) -> str:
    return f"{value:.1f} ms" if unit == "ms" else f"{value:.2f}"


def _target(f: dict[str, Any]) -> str:
    if f.get("target_text"):
        return f"<= {f['target_text']}"
    if f["target"] is None:
        return "none (a peer)"
    return f"<= {_show(f['target'], f['unit'])}"


def _cell(f: dict[str, Any]) -> str:
    """A figure's cell: median (min-max), its note, in bold where it misses its target."""
    if f["median"] is None:
        return f.get("note") or "not measured"
    if f.get("note") == "JAX's own object":
        cell = "1.00 (JAX's own object)"
    else:
        low, high = _show(f["low"], f["unit"]), _show(f["high"], f["unit"])
        cell = f"{_show(f['median'], f['unit'])} ({low}-{high})"
        if f.get("note"):
            cell += f", {f['note']}"
    return cell if f["met"] else f"**{cell}**"


def print_result(result: dict[str, Any]) -> None:
    print(f"JAX {result['jax']} (backend {result['backend']}), median of {result['rounds']} rounds")
    for f in result["figures"]:
        verdict = "met" if f["met"] else "MISSED"
        print(
            f"  {verdict:<6} {f['name']}: {_cell(f)}; target {_target(f)} vs {f['compared_with']}"
        )


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("+")[0].split(".") if p.isdigit())


def write_table(results_dir: Path, markdown: Path) -> None:
    results = [json.loads(p.read_text()) for p in sorted(results_dir.glob("*.json"))]
    results.sort(key=lambda r: _release(r["jax"]))
    if not results:
        return
    # Every figure any row has, in the order of the newest row's results (a figure added
    # later is an empty cell on a row measured before it).
    described: dict[str, dict[str, Any]] = {}
    for result in reversed(results):
        for f in result["figures"]:
            described.setdefault(f["name"], f)
    names = list(described)
    lines = [
        "# Benchmarks",
        "",
        "jaxcompat against JAX itself, measured interleaved in one process per JAX release by",
        "`nox -s bench` (`bench/bench.py`). Each cell is the median over rounds of",
        "jaxcompat's time divided by JAX's (the import row: milliseconds added), with min-max.",
        "Where jaxcompat's name is JAX's own object the cell is 1.00 by identity. The peers",
        "columns time the same model's method in equinox and flax.nnx (the `bench` dependency",
        "group), each against the explicit `jax.jit`; jaxcompat's is bold where a peer is faster.",
        "A cell in **bold** misses its target. Regenerated from `bench-results/*.json`.",
        "",
        "| | figure | compared with | target |",
        "|---|---|---|---|",
    ]
    for i, name in enumerate(names):
        f = described[name]
        lines.append(f"| ({i + 1}) | {name} | {f['compared_with']} | {_target(f)} |")
    lines += ["", "| JAX | backend | " + " | ".join(f"({i + 1})" for i in range(len(names))) + " |"]
    lines.append("|---|---|" + "---|" * len(names))
    for result in results:
        found = {f["name"]: f for f in result["figures"]}
        cells = [_cell(found[name]) if name in found else "" for name in names]
        lines.append(f"| {result['jax']} | {result['backend']} | " + " | ".join(cells) + " |")
    # The notes on why a figure is what it is are kept by hand in bench/NOTES.md.
    note = Path(__file__).with_name("NOTES.md")
    if note.is_file():
        lines += ["", note.read_text().strip()]
    markdown.write_text("\n".join(lines) + "\n")
