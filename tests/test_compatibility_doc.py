"""COMPATIBILITY.md is current: every matrix row, with the backend dispatch chooses, all PASS."""

import importlib
import re
import sys

import yaml

from jaxcompat import __main__ as report
from jaxcompat._dispatch import backend_floors, select_backend
from jaxcompat._keywords.rules.functions import KEYWORD_RULES
from jaxcompat._releases import parse_release

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


def _compat_report():
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    return importlib.import_module("compat_report")


def test_compatibility_md_lists_the_newest_constructor_keywords_of_jax_classes():
    text = (ROOT / "COMPATIBILITY.md").read_text()
    heading = "\n### Newest constructor keywords of JAX's classes\n"
    section = heading + text.split(heading)[1].split("\n### ")[0]
    assert section.strip("\n").splitlines() == (
        "\n".join(_compat_report().class_keyword_lines()).strip("\n").splitlines()
    ), "regenerate with nox -s report"


def test_each_class_keyword_is_in_the_newest_signature_and_no_earlier_than_the_data_says():
    from jaxcompat._keywords.adapter import newest_data
    from jaxcompat._keywords.rules.classes import CLASS_KEYWORDS

    callables = newest_data()["callables"]
    for fact in CLASS_KEYWORDS:
        for path in fact.paths:
            signature, firsts = callables[path]
            assert fact.parameter in signature.replace("=", ",").split(","), (path, fact)
            # The data names a keyword from the first row whose class's signature has it; a
            # fact may be earlier only where the data cannot read the class (PartitionSpec,
            # built in C++ on 0.6.2-0.10.0) or the name had another class (layout.Layout).
            earlier = path in (
                "jax.P",
                "jax.sharding.PartitionSpec",
                "jax.experimental.layout.Layout",
            )
            if earlier:
                assert parse_release(fact.first) <= parse_release(firsts[fact.parameter])
            else:
                assert fact.first == firsts[fact.parameter], (path, fact)
