"""The generated pages of the docs site (tools/gen_docs.py, written into a temporary folder):
every stable name, every newest keyword that has a rule and every `check` code has its entry,
and every page is in the site's navigation."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from jaxcompat._checker._codes import CODES
from jaxcompat._keywords.rules.functions import KEYWORD_RULES, rule_for
from jaxcompat._stable_names import STABLE_NAMES

from ._helpers import PACKAGE, ROOT, load_docs_generator


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("docs")
    load_docs_generator().write(out)
    return {path.relative_to(out).as_posix(): path.read_text() for path in out.rglob("*.md")}


def _sections(pages: dict[str, str]) -> dict[str, str]:
    """Each ``### heading`` of the reference pages, with its text up to the next heading."""
    sections = {}
    for name, text in pages.items():
        if name.startswith("reference/"):
            for match in re.finditer(r"^### (.+?)\n(.*?)(?=^#|\Z)", text, re.M | re.S):
                assert match.group(1) not in sections, match.group(1)
                sections[match.group(1)] = match.group(2)
    return sections


def test_every_stable_name_has_its_entry(generated):
    sections = _sections(generated)
    for entry in STABLE_NAMES:
        text = sections[f"`jaxcompat.{entry.path}`"]
        rows = re.findall(r"^\| ([\d.]+(?:-[\d.]+)?) \| (.+) \|$", text, re.M)
        assert rows, entry.path
        # Newest first: the newest row is the newest JAX's object or jaxcompat's own.
        assert rows[0][0].endswith("0.12.0.1"), entry.path
        if entry.first is not None:
            assert rows[-1][1] == (
                f"an AttributeError: it needs JAX {entry.first} or newer, because {entry.reason}"
            )


def test_typeof_is_the_older_get_aval_before_jax_0_5_3(generated):
    assert _sections(generated)["`jaxcompat.typeof`"] == (
        "\nFirst in JAX 0.5.3 as `jax.typeof`.\n\n"
        "| JAX releases | `jaxcompat.typeof` is |\n"
        "|---|---|\n"
        "| 0.5.3-0.12.0.1 | JAX's own `jax.typeof` |\n"
        "| 0.4.36-0.5.2 | JAX's `jax.core.get_aval`, the same job under an older name |\n"
        "| 0.4.13-0.4.35 | JAX's `jax.core.get_aval`, given the newest signature where it "
        "lacks it |\n\n"
    )


def test_every_adapted_keyword_has_its_entry(generated):
    sections = _sections(generated)
    data = json.loads((PACKAGE / "_data" / "newest_keywords.json").read_text())
    adapted = 0
    for jax_path, (_, firsts) in data["callables"].items():
        text = sections["`jaxcompat" + jax_path.removeprefix("jax") + "` keywords"]
        for parameter in firsts:
            # Every newest keyword is listed; those with a rule say what the rule gives.
            assert f"\n| `{parameter}=` | " in text, (jax_path, parameter)
            rule = rule_for(jax_path, parameter, data["defaults"].get(jax_path))
            if rule is not None:
                adapted += 1
    assert adapted > 0


def test_every_newest_value_rule_has_its_entry(generated):
    sections = _sections(generated)
    values_rules = [rule for rule in KEYWORD_RULES if rule.new_values is not None]
    assert values_rules
    for rule in values_rules:
        for jax_path in rule.paths or ():
            text = sections["`jaxcompat" + jax_path.removeprefix("jax") + "` keyword values"]
            values = ", ".join(f"`{rule.parameter}={value!r}`" for value in rule.new_values)
            assert f"\n| {values} | {rule.fixed_in} | " in text, jax_path


def test_a_keyword_entry_says_what_each_range_gives(generated):
    text = _sections(generated)["`jaxcompat.numpy.sort` keywords"]
    assert "| `stable=` | 0.4.24 | 0.4.24-0.12.0.1 | JAX's own function, which takes it |" in text
    assert "|  |  | 0.4.13-0.4.23 | honoured (sorted as asked; default `True`) |" in text


def test_a_keyword_entry_names_the_keywords_older_releases_had(generated):
    # A search for an old keyword (`a_min`) finds the entry that says what replaced it.
    text = _sections(generated)["`jaxcompat.numpy.clip` keywords"]
    assert (
        "Keywords of older releases that the newest signature lacks: `a=` on 0.4.13-0.9.2; "
        "`a_min=` on 0.4.13-0.9.2; `a_max=` on 0.4.13-0.9.2; `out=` on 0.4.13-0.4.26."
    ) in text


def test_every_check_code_has_its_section(generated):
    page = generated["check-codes.md"]
    for code, unit in CODES.items():
        text = unit.explanation
        shown = re.search(rf"\n## {code}: {unit.name}\n\n(.*?)\n(?=\n## |\Z)", page, re.S)
        assert shown is not None, code
        # Outside code spans, Markdown's special characters are escaped, so the text shows as
        # `--explain` prints it.
        unescaped = re.sub(r"\\([\\*_\[\]])", r"\1", shown.group(1)).replace("&lt;", "<")
        assert unescaped == text


def test_the_copied_documents_link_to_the_repository(generated):
    front_matter = "---\nhide:\n  - navigation\n---\n\n"
    compatibility = (ROOT / "COMPATIBILITY.md").read_text()
    assert generated["compatibility.md"].startswith(front_matter + compatibility[:200])
    assert "](THIRD_PARTY.md)" not in generated["compatibility.md"]
    assert "blob/main/THIRD_PARTY.md)" in generated["compatibility.md"]
    assert generated["changelog.md"].startswith("# Changelog")


def _nav_pages(nav: object) -> set[str]:
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, list):
        return set().union(*(_nav_pages(item) for item in nav))
    if isinstance(nav, dict):
        return set().union(*(_nav_pages(value) for value in nav.values()))
    return set()


def test_each_reference_page_has_its_title_in_the_navigation(generated):
    # The sidebar names a module page as the page's own title does: jaxcompat.numpy.
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    section = next(
        item["Names and keywords"] for item in config["nav"] if "Names and keywords" in item
    )
    labelled = [entry for entry in section if isinstance(entry, dict)]
    assert labelled, section
    for entry in labelled:
        ((label, page),) = entry.items()
        title = generated[page].split("\n# ", 1)[-1].split("\n", 1)[0]
        assert title.removeprefix("# ").strip("`") == label, (page, title)


def test_every_page_is_in_the_navigation(generated):
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    docs = ROOT / "docs"
    hand_written = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md")} - set(generated)
    assert _nav_pages(config["nav"]) == set(generated) | hand_written
