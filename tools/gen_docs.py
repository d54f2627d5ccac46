"""The generated pages of the docs site, made from the package's own data on every build.

``mkdocs build`` adds them to the site in memory (``tools/mkdocs_hooks.py``); to read them as
files, ``python tools/gen_docs.py OUT`` writes them under OUT (not under ``docs/``, where they
would clash with the hook's).

- ``reference/``: one page per JAX module, with each stable name of that module
  (``jaxcompat/_stable_names/``) and what ``jaxcompat`` gives under it on each range of
  releases, computed from the API surface data of every matrix row
  (``jaxcompat/_data/api_surface.json``); and each callable's newest keywords
  (``jaxcompat/_data/newest_keywords.json``) with what the keyword rule
  (``_keywords/rules/functions.py``) makes of each before the first release that takes it.
- ``check-codes.md``: one section per ``jaxcompat check`` code, from the texts that
  ``jaxcompat check --explain CODE`` prints.
- ``compatibility.md``, ``benchmarks.md``, ``changelog.md``: the repository's generated
  documents and changelog, their links made to work from the site.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import Version

import jaxcompat
from jaxcompat import _surface
from jaxcompat._checker._codes import CODES
from jaxcompat._keywords.rules.classes import CLASS_KEYWORDS, CLASS_PATHS
from jaxcompat._keywords.rules.functions import KEYWORD_RULES, rule_for
from jaxcompat._keywords.rules.kinds import (
    NO_DEFAULT,
    NOT_ADAPTED_YET,
    REFUSED_BY_NEWEST,
    UNSUPPORTED,
    KeywordRule,
    helper_name,
)
from jaxcompat._namespace import MIRRORED
from jaxcompat._stable_names import STABLE_NAMES, StableName

ROOT = Path(__file__).resolve().parent.parent
# The data of the jaxcompat that is imported: the checkout's, or an installed wheel's.
DATA = Path(jaxcompat.__file__).resolve().parent / "_data"
REPOSITORY = "https://github.com/jaxcompat/jaxcompat/blob/main/"

#: The documents of the repository that the site shows as they are, by page.
COPIED = {
    "compatibility.md": "COMPATIBILITY.md",
    "benchmarks.md": "BENCHMARKS.md",
    "changelog.md": "CHANGELOG.md",
}

#: The pages whose tables need the whole width.
WIDE = ("compatibility.md", "benchmarks.md")


@dataclass(frozen=True)
class Surface:
    """The API surface data: the matrix rows and, per module, each name's status per row."""

    rows: tuple[str, ...]
    modules: dict[str, Any]
    versions: tuple[Version, ...]  # the rows, parsed once: the tables compare them often

    def has(self, where: str, row: int, last: bool) -> bool:
        """Whether the source ``module:attribute`` can be had on the row.

        jaxcompat's backports exist on every row. A module the data does not probe (JAX's
        private modules, jaxlib's), or a submodule the data saw only as an attribute and that
        is the entry's ``last`` source, is taken to have it wherever no earlier source
        answered: the entry's ``first`` bounds it.
        """
        module, attribute = where.split(":")
        if module.startswith("jaxcompat."):
            return True
        submodule = self.modules.get(f"{module}.{attribute}")
        if submodule is not None:
            return bool(submodule["importable"][row] == "o")
        probed = self.modules.get(module)
        if probed is None:
            return True
        name = probed["names"].get(attribute)
        is_module = name is not None and all(
            str(o).startswith("module:") for _, o in name["object"]
        )
        if is_module and last:
            # A submodule is an attribute only once imported, and jaxcompat imports it: where
            # no fallback follows, the entry's ``first`` says from which release.
            return True
        # "o": there; "w": there, with a deprecation warning; "r": raises; ".": absent.
        return name is not None and name["status"][row] in "ow"


def load_surface() -> Surface:
    data = json.loads((DATA / "api_surface.json").read_text())
    rows = tuple(data["rows"])
    return Surface(rows, data["modules"], tuple(map(Version, rows)))


def module_of(jax_path: str, modules: Iterable[str]) -> str:
    """The JAX module a path such as ``jax.numpy.linalg.norm`` is documented under."""
    known = set(modules) | {"jax"}
    parts = jax_path.split(".")
    for end in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return "jax"


def page_name(module: str) -> str:
    return f"{module}.md"


def ranges(rows: tuple[str, ...], labels: list[str]) -> list[tuple[str, str, str]]:
    """Consecutive rows with the same label, newest first: (first row, last row, label)."""
    spans: list[tuple[str, str, str]] = []
    start = 0
    for index in range(1, len(rows) + 1):
        if index == len(rows) or labels[index] != labels[start]:
            spans.append((rows[start], rows[index - 1], labels[start]))
            start = index
    return spans[::-1]


def span_text(first: str, last: str) -> str:
    return first if first == last else f"{first}-{last}"


def describe_source(entry: StableName, where: str, adapter: str | None) -> str:
    module, attribute = where.split(":")
    shown = f"`{module}.{attribute}`"
    if module.startswith("jaxcompat._backports"):
        return f"jaxcompat's backport {shown}"
    if adapter is not None:
        return f"JAX's {shown}, given the newest signature where it lacks it"
    if f"{module}.{attribute}" == f"jax.{entry.path}":
        return f"JAX's own {shown}"
    return f"JAX's {shown}, the same job under an older name"


def chosen_sources(entry: StableName, surface: Surface) -> list[Any]:
    """The source the resolver picks for ``jaxcompat.<path>`` on each row: the first that
    exists and whose ``releases`` holds the row; None where there is none."""
    floor = Version(entry.first) if entry.first else None
    releases = [None if s.releases is None else SpecifierSet(s.releases) for s in entry.sources]
    chosen = []
    for row, version in enumerate(surface.versions):
        found = None
        if floor is None or version >= floor:
            for number, source in enumerate(entry.sources, start=1):
                held = releases[number - 1]
                if held is not None and version not in held:
                    continue
                if surface.has(source.where, row, last=number == len(entry.sources)):
                    found = source
                    break
        chosen.append(found)
    return chosen


def resolution(entry: StableName, surface: Surface) -> list[str]:
    """What ``jaxcompat.<path>`` is on each row, as the resolver picks it (else the
    AttributeError)."""
    missing = f"an AttributeError: it needs JAX {entry.first} or newer, because {entry.reason}"
    return [
        missing if source is None else describe_source(entry, source.where, source.adapter)
        for source in chosen_sources(entry, surface)
    ]


def handed_out(jax_path: str, surface: Surface) -> list[tuple[str, str | None]]:
    """Per row, what ``jaxcompat`` hands out for the callable at ``jax_path`` before the
    newest keywords are added, as the resolver picks it: ``("jax", signature)``, JAX's
    function (its own, or the stable name's older one); ``("backport", signature)``,
    jaxcompat's own function; ``("adapter", name)``, an adapter of JAX's function;
    ``("absent", None)``, nothing: a stable name with no source there, or a name JAX's module
    lacks (or raises on) there. A signature is in the data's notation (``a,/,b=,**kwargs``),
    None where it cannot be read. A name jaxcompat defines itself (the loop-safe
    ``lax.scan``) is a backport on every row."""
    module, _, name = jax_path.rpartition(".")
    public = next((p for p, (jax_module, _) in MIRRORED.items() if jax_module == module), None)
    if public is not None and name in getattr(importlib.import_module(public), "__all__", ()):
        own = _surface.signature_string(getattr(importlib.import_module(public), name))
        return [("backport", own)] * len(surface.rows)
    entry = next((e for e in STABLE_NAMES if f"jax.{e.path}" == jax_path), None)
    if entry is None:
        probed = surface.modules.get(module, {"names": {}})["names"].get(name)
        marks = probed["status"] if probed is not None else "o" * len(surface.rows)
        return [
            ("jax", _surface.signature_at(jax_path, release)) if mark in "ow" else ("absent", None)
            for release, mark in zip(surface.rows, marks, strict=True)
        ]
    found: list[tuple[str, str | None]] = []
    for release, source in zip(surface.rows, chosen_sources(entry, surface), strict=True):
        if source is None:
            found.append(("absent", None))
        elif source.adapter is not None:
            found.append(("adapter", source.adapter))
        elif source.where.startswith("jaxcompat."):
            module, attribute = source.where.split(":")
            backport = getattr(importlib.import_module(module), attribute)
            found.append(("backport", _surface.signature_string(backport)))
        else:
            path = source.where.replace(":", ".")
            found.append(("jax", _surface.signature_at(path, release)))
    return found


def first_in_jax(jax_path: str, surface: Surface) -> str | None:
    module, _, attribute = jax_path.rpartition(".")
    probed = surface.modules.get(module)
    if probed is None or attribute not in probed["names"]:
        return None
    status = probed["names"][attribute]["status"]
    for row, mark in enumerate(status):
        if mark in "ow":
            return surface.rows[row]
    return None


def name_section(entry: StableName, surface: Surface) -> list[str]:
    jax_path = f"jax.{entry.path}"
    first = first_in_jax(jax_path, surface)
    lines = [f"### `jaxcompat.{entry.path}`", ""]
    if first is None:
        lines.append(f"`{jax_path}` is in the newest JAX; the API data does not list it.")
    elif first == surface.rows[0]:
        lines.append(f"`{jax_path}` is in every supported release, with a drifted meaning.")
    else:
        lines.append(f"First in JAX {first} as `{jax_path}`.")
    lines += ["", f"| JAX releases | `jaxcompat.{entry.path}` is |", "|---|---|"]
    for start, end, label in ranges(surface.rows, resolution(entry, surface)):
        lines.append(f"| {span_text(start, end)} | {label} |")
    return [*lines, ""]


def _value(value: Any) -> str:
    return "no default" if value is NO_DEFAULT else f"`{value!r}`"


def honoured_as(rule: KeywordRule) -> str:
    """What the helper that honours ``rule`` does, in words: its function's name
    (``_keywords.newest_keyword_helpers:sorted_as_asked``: "sorted as asked")."""
    return str(helper_name(rule)).rpartition(":")[2].replace("_", " ")


def keyword_before(rule: KeywordRule | None, jax_path: str, first: str) -> str:
    """What passing the keyword is on a release before ``first``."""
    if jax_path in CLASS_PATHS:
        return "JAX's own class, whose TypeError it is (`jaxcompat check` reports it, JC010)"
    if rule is None:
        return "JAX's own function, as the release has it (no rule)"
    default = _value(rule.default)
    kind = rule.other_values
    reason = f": {rule.reason}" if rule.reason else ""
    if kind == UNSUPPORTED:
        if rule.default is NO_DEFAULT:
            return f"a TypeError for any value, naming JAX {first}{reason}"
        return (
            f"its default {default} only; another value is a TypeError naming JAX {first}{reason}"
        )
    if kind == REFUSED_BY_NEWEST:
        return (
            f"its default {default}; another value is the newest JAX's NotImplementedError{reason}"
        )
    if kind == NOT_ADAPTED_YET:
        if rule.default is NO_DEFAULT:
            return f"not adapted yet: a TypeError for any value, naming JAX {first}"
        return (
            f"not adapted yet: its default {default} is the same as leaving it out; another"
            f" value is a TypeError naming JAX {first}"
        )
    return f"honoured ({honoured_as(rule)}; default {default}){reason}"


def keyword_labels(
    rule: KeywordRule | None,
    jax_path: str,
    parameter: str,
    first: str,
    versions: tuple[Version, ...],
    handed: list[tuple[str, str | None]],
) -> list[str]:
    """Per row, what a call through jaxcompat with ``parameter=`` does, as the keyword
    wrapper (``_keywords/adapter.py``) decides it from what is handed out there
    (:func:`handed_out`): the release's own function takes it; a function that names it
    takes it; an adapter takes it by name; a function with no signature to read, or whose
    ``**kwargs`` takes any keyword that no rule adapts, gets it as the release would; else
    the rule's outcome; where nothing is handed out, there is no name to call."""
    own = "JAX's own function, which takes it"
    if jax_path in CLASS_PATHS:
        own = "JAX's own class, which takes it"
    applies_until = Version(rule.fixed_in if rule and rule.fixed_in else first)
    # A rule that reads the keyword otherwise than the release that names it.
    ruled_past_first = rule is not None and (rule.fixed_in or rule.broken_from)
    broken_from = None if rule is None or rule.broken_from is None else Version(rule.broken_from)
    again = None if rule is None or rule.fixed_again_in is None else Version(rule.fixed_again_in)
    labels = []
    for version, (kind, detail) in zip(versions, handed, strict=True):
        if kind == "absent":
            labels.append(NO_SUCH_NAME)
            continue
        applies = version < applies_until
        if (
            broken_from is not None
            and version >= broken_from
            and (again is None or version < again)
        ):
            applies = True
        if jax_path in CLASS_PATHS:
            labels.append(keyword_before(rule, jax_path, first) if applies else own)
        elif kind == "adapter":  # on any row it serves, whatever the release's function takes
            labels.append(f"jaxcompat's adapter `{detail}` of JAX's function, which names it")
        elif kind == "backport" and parameter in _surface.keyword_names(detail or ""):
            labels.append("jaxcompat's backport, which takes it")
        elif not applies:
            labels.append(own)
        elif rule is None:
            labels.append(keyword_before(rule, jax_path, first))
        elif detail is None:
            labels.append("JAX's own function, as the release has it (no signature to adapt)")
        elif parameter in _surface.keyword_names(detail) and not ruled_past_first:
            labels.append("JAX's function under an older name, which takes it")
        elif "**" in detail and rule.other_values == NOT_ADAPTED_YET:
            labels.append("JAX's own function, whose **kwargs takes it as the release does")
        else:
            labels.append(keyword_before(rule, jax_path, first))
    return labels


def class_keyword_first(jax_path: str, parameter: str) -> str | None:
    for keyword in CLASS_KEYWORDS:
        if jax_path in keyword.paths and keyword.parameter == parameter:
            return keyword.first
    return None


#: A keyword's label on a row where jaxcompat has no object under the name at all.
NO_SUCH_NAME = "no such name: an AttributeError (the release lacks it)"


def keyword_section(
    jax_path: str,
    signature: str,
    firsts: dict[str, str],
    defaults: dict[str, Any],
    surface: Surface,
) -> list[str]:
    rows = surface.rows
    handed = handed_out(jax_path, surface)
    shown = "jaxcompat" + jax_path.removeprefix("jax")
    lines = [
        f"### `{shown}` keywords",
        "",
        f"Newest signature: `({signature.replace(',', ', ')})`.",
        "",
        "| keyword | first in JAX | JAX releases | `" + shown + "` with it is |",
        "|---|---|---|---|",
    ]
    for parameter, first in sorted(firsts.items()):
        first = class_keyword_first(jax_path, parameter) or first
        rule = rule_for(jax_path, parameter, defaults)
        labels = keyword_labels(rule, jax_path, parameter, first, surface.versions, handed)
        spans = ranges(rows, labels)
        for index, (start, end, label) in enumerate(spans):
            name = f"`{parameter}=`" if index == 0 else ""
            since = first if index == 0 else ""
            lines.append(f"| {name} | {since} | {span_text(start, end)} | {label} |")
    older = older_keywords(jax_path, signature)
    if older:
        named = "; ".join(
            f"`{keyword}=` on {', '.join(span_text(*span) for span in spans)}"
            for keyword, spans in older.items()
        )
        lines += ["", f"Keywords of older releases that the newest signature lacks: {named}."]
    return [*lines, ""]


def older_keywords(jax_path: str, newest: str) -> dict[str, list[tuple[str, str]]]:
    """The keywords that some row's signature of ``jax_path`` names and the newest lacks
    (``clip``'s ``a_min``), with the spans of rows that name them: a search for an old
    keyword finds the entry that says what the newest takes instead."""
    newest_names = set(_surface.parameter_names(newest))
    rows_naming: dict[str, list[str]] = {}
    for release in _surface.rows():
        found = _surface.signature_at(jax_path, release)
        for keyword in _surface.keyword_names(found or ""):
            if keyword not in newest_names:
                rows_naming.setdefault(keyword, []).append(release)
    older = {}
    for keyword, releases in rows_naming.items():
        named = ["named" if release in releases else "" for release in _surface.rows()]
        spans = [(a, b) for a, b, label in ranges(_surface.rows(), named) if label]
        older[keyword] = spans[::-1]  # oldest first
    return older


def value_sections(module: str, rows: tuple[str, ...]) -> list[str]:
    """The rules for newest values of a keyword the release's function already names
    (``new_values``: quantile's ``method="inverted_cdf"``), for the callables of ``module``."""
    lines: list[str] = []
    for rule in KEYWORD_RULES:
        if rule.new_values is None or rule.fixed_in is None:
            continue
        for jax_path in sorted(rule.paths or ()):
            if jax_path.rpartition(".")[0] != module:
                continue
            shown = "jaxcompat" + jax_path.removeprefix("jax")
            values = ", ".join(f"`{rule.parameter}={value!r}`" for value in rule.new_values)
            fixed = Version(rule.fixed_in)
            labels = [
                "JAX's own function, which takes it"
                if Version(release) >= fixed
                else f"honoured ({honoured_as(rule)}); another value is the release's own call"
                for release in rows
            ]
            lines += [
                f"### `{shown}` keyword values",
                "",
                f"| value | first in JAX | JAX releases | `{shown}` with it is |",
                "|---|---|---|---|",
            ]
            for index, (start, end, label) in enumerate(ranges(rows, labels)):
                lines.append(
                    f"| {values if index == 0 else ''} | {rule.fixed_in if index == 0 else ''} |"
                    f" {span_text(start, end)} | {label} |"
                )
            lines.append("")
    return lines


def reference_pages(surface: Surface) -> dict[str, str]:
    keywords = json.loads((DATA / "newest_keywords.json").read_text())
    names: dict[str, list[StableName]] = {}
    for entry in STABLE_NAMES:
        names.setdefault(module_of(f"jax.{entry.path}", surface.modules), []).append(entry)
    callables: dict[str, list[str]] = {}
    for jax_path in keywords["callables"]:
        callables.setdefault(module_of(jax_path, surface.modules), []).append(jax_path)
    pages: dict[str, str] = {}
    index = [
        "# Names and keywords",
        "",
        "Generated from the stable-name table (`jaxcompat/_stable_names/`), the API surface",
        "of every matrix row (`jaxcompat/_data/api_surface.json`) and the newest keywords",
        "(`jaxcompat/_data/newest_keywords.json`, with the rules of",
        "`jaxcompat/_keywords/rules/functions.py`). A name or keyword that is not listed is",
        "JAX's own object on every release that has it. Type any name or keyword in the",
        "search box.",
        "",
        "| module | stable names | callables with newer keywords |",
        "|---|---|---|",
    ]
    for module in sorted(set(names) | set(callables), key=lambda m: (m != "jax", m)):
        shown = "jaxcompat" + module.removeprefix("jax")
        lines = [
            f"# `{shown}`",
            "",
            f"What `{shown}` gives for each name of the newest `{module}` that moved or changed,",
            "and for each keyword of the newest signatures, on each range of JAX releases.",
            "Where a release's function lacks one of its newest keywords, jaxcompat hands out a",
            "wrapper of the object the Names table names, which takes the keyword as its",
            "keyword table says (the wrapper's `__wrapped__` is that object).",
            "",
        ]
        if module in names:
            lines += ["## Names", ""]
            for entry in sorted(names[module], key=lambda e: e.path):
                lines += name_section(entry, surface)
        if module in callables:
            lines += ["## Newest keywords", ""]
            for jax_path in sorted(callables[module]):
                signature, firsts = keywords["callables"][jax_path]
                defaults = keywords["defaults"].get(jax_path, {})
                lines += keyword_section(jax_path, signature, firsts, defaults, surface)
        values = value_sections(module, surface.rows)
        if values:
            lines += ["## Newest values of keywords the release names", "", *values]
        pages[f"reference/{page_name(module)}"] = "\n".join(lines)
        index.append(
            f"| [`{shown}`]({page_name(module)}) | {len(names.get(module, []))} |"
            f" {len(callables.get(module, []))} |"
        )
    pages["reference/index.md"] = "\n".join([*index, ""])
    return pages


_CODE_SPAN = re.compile(r"(`[^`]*`)")
_MARKDOWN = re.compile(r"([\\*_\[\]])")


def plain_text(text: str) -> str:
    """``text`` as Markdown that shows it as it is: its code spans stay code, and elsewhere
    ``jax.__version__`` is not bold and ``<`` opens no tag."""
    parts = _CODE_SPAN.split(text)
    return "".join(
        part if index % 2 else _MARKDOWN.sub(r"\\\1", part).replace("<", "&lt;")
        for index, part in enumerate(parts)
    )


def check_codes_page() -> str:
    lines = [
        "# `jaxcompat check` codes",
        "",
        "One section per code, the text `jaxcompat check --explain CODE` prints. How to run",
        "`check` and `migrate`: [Porting a library](porting.md).",
        "",
    ]
    for code, unit in CODES.items():
        lines += [f"## {code}: {unit.name}", "", plain_text(unit.explanation), ""]
    return "\n".join(lines)


_LINK = re.compile(r"\]\((?!https?://|#|mailto:)([^)]+)\)")


def site_copy(text: str) -> str:
    """A repository document with its relative links pointing at the repository."""
    return _LINK.sub(lambda match: f"]({REPOSITORY}{match.group(1)})", text)


def pages() -> dict[str, str]:
    found = reference_pages(load_surface())
    found["check-codes.md"] = check_codes_page()
    for page, document in COPIED.items():
        found[page] = site_copy((ROOT / document).read_text())
    for page in WIDE:
        # Their tables have a column per primitive or per peer: the page takes the width of
        # the site's navigation.
        found[page] = "---\nhide:\n  - navigation\n---\n\n" + found[page]
    return found


def write(out: Path) -> list[Path]:
    written = []
    for relative, text in pages().items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1 or Path(argv[0]).resolve() == ROOT / "docs":
        print("usage: python tools/gen_docs.py OUT (a folder other than docs/)", file=sys.stderr)
        return 2
    written = write(Path(argv[0]))
    print(f"gen_docs: {len(written)} pages written under {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
