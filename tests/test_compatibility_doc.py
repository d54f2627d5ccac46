"""COMPATIBILITY.md is current: every matrix row, with the backend dispatch chooses, all PASS."""

import re

import yaml

from jaxcompat import __main__ as report
from jaxcompat._dispatch import backend_floors, select_backend
from jaxcompat._stable_names.keywords import KEYWORD_RULES
from jaxcompat._version import parse_release

from ._helpers import ROOT


def test_compatibility_md_is_current():
    text = (ROOT / "COMPATIBILITY.md").read_text()
    rows = {}
    for line in text.split("## What raw JAX does")[0].splitlines():
        match = re.match(r"\| (\d[\d.]*) \| (jax_[\d_]+) \| (.*) \|$", line)
        if match:
            rows[match.group(1)] = (match.group(2), match.group(3).split(" | "))
    releases = [
        str(r["jax"]) for r in yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]
    ]
    assert sorted(rows, key=parse_release) == releases, "regenerate with nox -s report"
    header = next(line for line in text.splitlines() if line.startswith("| JAX | backend |"))
    assert header.split(" | ")[2:] and all(name in header for name in report.CHECKS)
    for release, (backend, cells) in rows.items():
        assert backend == select_backend(parse_release(release), backend_floors()), release
        assert cells == ["PASS"] * len(report.CHECKS), release


def test_compatibility_md_covers_the_namespace_on_every_row():
    from jaxcompat._stable_names import STABLE_NAMES

    text = (ROOT / "COMPATIBILITY.md").read_text()
    section = text.split("## `import jaxcompat as jax`")[1].split("## Stable names")[0]
    covered = re.findall(r"^\| (\d[\d.]*) \| (\d+) \| (\d+) \| (\d+) \|", section, flags=re.M)
    releases = [
        str(r["jax"]) for r in yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]
    ]
    assert [row[0] for row in covered] == releases, "regenerate with nox -s report"
    for release, newest, raw, through_jaxcompat in covered:
        # jaxcompat gives at least every name raw JAX gives without a warning.
        assert int(raw) <= int(through_jaxcompat) <= int(newest), release
    stable = text.split("## Stable names")[1]
    for entry in STABLE_NAMES:
        assert f"| `jaxcompat.{entry.path}` |" in stable, entry.path


def test_compatibility_md_counts_the_newest_keywords_on_every_row():
    text = (ROOT / "COMPATIBILITY.md").read_text()
    section = text.split("## The newest JAX's keywords on each release")[1].split("\n### ")[0]
    counts = r" \| (\d+)" * 5  # honoured, default only, refused, clear error, not accepted
    counted = re.findall(
        r"^\| (\d[\d.]*) \| (\d+) / (\d+) \| (\d+)" + counts + r" \|$", section, flags=re.M
    )
    releases = [
        str(r["jax"]) for r in yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]
    ]
    assert [row[0] for row in counted] == releases, "regenerate with nox -s report"
    for release, accepting, callables, lacking, *kinds in counted:
        assert int(accepting) <= int(callables), release
        assert sum(int(kind) for kind in kinds) == int(lacking), release
    newest = counted[-1]
    # The newest JAX takes its own keywords; the pairs it lacks are those its own function
    # gets wrong (KeywordRule.broken_from, with no fixed_again_in), each honoured by jaxcompat.
    broken = sum(
        len(rule.paths or ())
        for rule in KEYWORD_RULES
        if rule.broken_from and not rule.fixed_again_in
    )
    assert newest[1] == newest[2] and newest[3] == newest[4] == str(broken)
