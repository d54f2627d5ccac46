"""The docs' keyword tables against the runtime, on this row.

For every newest keyword that the generated tables (tools/gen_docs.py) list, the claim they
make for the installed release is what a call through jaxcompat does: the refusal naming the
release they name where they say so (or the newest JAX's NotImplementedError); no refusal
and no "unexpected keyword" where they say a function takes it (JAX's own, one under an older
name, jaxcompat's backport) or jaxcompat honours it; the keyword taken by name where an
adapter serves the name; and no refusal where the release's own function gets it as it is.
The call passes the keyword alone, with a value no default is: a refusal comes before anything
else is looked at, and a function that takes the keyword fails later, on what is missing.
"""

from __future__ import annotations

import importlib
import json
import re
import warnings

import pytest

import jaxcompat
from jaxcompat._keywords.rules.classes import CLASS_PATHS
from jaxcompat._keywords.rules.functions import rule_for
from jaxcompat._namespace import MIRRORED

from ._helpers import PACKAGE, load_docs_generator

#: tools/gen_docs.py, loaded once for the claims of this row.
GENERATOR = load_docs_generator()


def _claims() -> list[tuple[str, str, str]]:
    """(jax path, keyword, the table's claim for this row's release), for the callables of
    the mirrored modules (on a row that lacks one, the claim is that there is no such name)."""
    gen = GENERATOR
    surface = gen.load_surface()
    rows = surface.rows
    if jaxcompat.JAX_VERSION_STRING not in rows:
        return []  # a release with no row (the future session): the tables say nothing of it
    row = rows.index(jaxcompat.JAX_VERSION_STRING)
    data = json.loads((PACKAGE / "_data" / "newest_keywords.json").read_text())
    modules = {jax_module for jax_module, _ in MIRRORED.values()}
    claims = []
    for jax_path, (_, firsts) in sorted(data["callables"].items()):
        if jax_path in CLASS_PATHS or jax_path.rpartition(".")[0] not in modules:
            continue
        defaults = data["defaults"].get(jax_path, {})
        handed = gen.handed_out(jax_path, surface)
        for parameter, first in sorted(firsts.items()):
            first = gen.class_keyword_first(jax_path, parameter) or first
            rule = rule_for(jax_path, parameter, defaults)
            labels = gen.keyword_labels(rule, jax_path, parameter, first, surface.versions, handed)
            claims.append((jax_path, parameter, labels[row]))
    return claims


def _jaxcompat_object(jax_path: str):
    module, _, name = jax_path.rpartition(".")
    public = next(p for p, (jax_module, _) in MIRRORED.items() if jax_module == module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a name deprecated on this row: its claim still holds
        return getattr(importlib.import_module(public), name, None)


def _outcome(function, parameter: str) -> BaseException | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # passing a deprecated keyword warns: not a refusal
        try:
            function(**{parameter: object()})
        except Exception as error:  # whatever the function raises on what is missing
            return error
    return None


CLAIMS = _claims()

#: The claims the tables make, and what each means for a call with another value.
TAKEN = (
    "JAX's own function, which takes it",
    "JAX's function under an older name, which takes it",
    "jaxcompat's backport, which takes it",
    "honoured",
)
NAMED_BY_ADAPTER = re.compile(r"^jaxcompat's adapter `[^`]+` of JAX's function, which names it$")
AS_THE_RELEASE_HAS_IT = (
    "JAX's own function, as the release has it (no rule)",
    "JAX's own function, as the release has it (no signature to adapt)",
    "JAX's own function, whose **kwargs takes it as the release does",
)
REFUSED = re.compile(r"(?:not adapted yet|a TypeError for any value|another value is a TypeError)")
NAMED = re.compile(r"naming JAX ([0-9.]+[0-9])")
NEWEST_REFUSES = "another value is the newest JAX's NotImplementedError"


def test_the_rows_claims_are_of_the_kinds_this_test_reads():
    if not CLAIMS:  # only a release with no row has none
        assert jaxcompat.JAX_VERSION_STRING not in GENERATOR.load_surface().rows
    unknown = [
        claim
        for *_, claim in CLAIMS
        if not (
            claim.startswith(TAKEN)
            or NAMED_BY_ADAPTER.match(claim)
            or claim in AS_THE_RELEASE_HAS_IT
            or REFUSED.search(claim)
            or NEWEST_REFUSES in claim
            or claim == GENERATOR.NO_SUCH_NAME
        )
    ]
    assert unknown == []


@pytest.mark.parametrize(("jax_path", "parameter", "claim"), CLAIMS)
def test_the_table_says_what_the_call_does(jax_path, parameter, claim):
    handed = _jaxcompat_object(jax_path)
    assert (handed is None) == (claim == GENERATOR.NO_SUCH_NAME), (claim, handed)
    if handed is None:
        return  # the claim is the AttributeError, which getattr met
    raised = _outcome(handed, parameter)
    message = str(raised)
    refused = isinstance(raised, TypeError) and f"({parameter}=...) needs JAX " in message
    unexpected = isinstance(raised, TypeError) and "unexpected keyword argument" in message
    if REFUSED.search(claim):
        named = NAMED.search(claim)
        assert named is not None, claim
        assert refused and f"needs JAX {named.group(1)} or newer" in message, (claim, raised)
    elif NEWEST_REFUSES in claim:
        assert isinstance(raised, NotImplementedError), (claim, raised)
        assert "as in the newest JAX" in message, (claim, raised)
    elif claim.startswith(TAKEN):
        assert not refused and not (unexpected and f"'{parameter}'" in message), (claim, raised)
    elif NAMED_BY_ADAPTER.match(claim):  # its values are the adapter's: named, not unexpected
        assert not (unexpected and f"'{parameter}'" in message), (claim, raised)
    else:  # the release's own function as it is: jaxcompat refuses nothing
        assert claim in AS_THE_RELEASE_HAS_IT, claim
        assert not refused, (claim, raised)


# --- the names tables ----------------------------------------------------------------------


def _name_claims() -> list[tuple[str, str, str | None]]:
    """(stable name, what the names table says ``jaxcompat.<name>`` is on this row, the
    adapter of the source it names, if any)."""
    gen = GENERATOR
    surface = gen.load_surface()
    if jaxcompat.JAX_VERSION_STRING not in surface.rows:
        return []
    row = surface.rows.index(jaxcompat.JAX_VERSION_STRING)
    claims = []
    for entry in gen.STABLE_NAMES:
        source = gen.chosen_sources(entry, surface)[row]
        adapter = source.adapter if source is not None else None
        claims.append((entry.path, gen.resolution(entry, surface)[row], adapter))
    return claims


NAME_CLAIMS = _name_claims()
SHOWN = re.compile(r"`([^`]+)`")


def _object_at(dotted: str):
    """The object a table names, ``jax.numpy.clip`` or ``jaxcompat._backports.numpy.top_k``:
    the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # JAX's deprecated older name: still the object
            for attribute in parts[cut:]:
                found = getattr(found, attribute)
        return found
    raise AssertionError(f"nothing imports for {dotted}")


@pytest.mark.parametrize(("path", "claim", "adapter"), NAME_CLAIMS)
def test_the_names_table_says_what_jaxcompat_hands_out(path, claim, adapter):
    module, _, name = f"jaxcompat.{path}".rpartition(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a name JAX deprecates on this row: its claim holds
        try:
            handed = getattr(importlib.import_module(module), name)
        except AttributeError as error:
            handed = error
    if claim.startswith("an AttributeError: it needs JAX "):
        first = claim.removeprefix("an AttributeError: it needs JAX ").split()[0]
        assert isinstance(handed, AttributeError), claim
        assert f"JAX {first}" in str(handed), (claim, str(handed))
        return
    assert not isinstance(handed, AttributeError), (claim, str(handed))
    source = _object_at(SHOWN.search(claim).group(1))
    if claim.endswith(", given the newest signature where it lacks it"):
        # The stable name's adapter of it: a new object where the release lacks the newest
        # signature, the object itself where it has it.
        module_name, _, function = adapter.partition(":")  # in jaxcompat._backports
        backports = importlib.import_module(f"jaxcompat._backports.{module_name}")
        expected = getattr(backports, function)(source)
        assert type(handed) is type(expected), claim
        assert (handed is source) == (expected is source), claim
        return
    # JAX's own, one under an older name, or jaxcompat's backport: that very object, or (the
    # pages say so) the wrapper that gives it the newest keywords this release lacks.
    assert claim.startswith(("JAX's own `", "jaxcompat's backport `", "JAX's `")), claim
    assert handed is source or getattr(handed, "__wrapped__", None) is source, claim


def test_the_names_tables_cover_this_row():
    if jaxcompat.JAX_VERSION_STRING in GENERATOR.load_surface().rows:
        assert len(NAME_CLAIMS) > 300
