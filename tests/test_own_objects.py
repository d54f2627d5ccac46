"""`import jaxcompat as jax` hands back JAX's own object wherever the installed JAX already
behaves as the newest does.

Contract tests: the same assertions on every matrix row. For each module jaxcompat mirrors
and each public name the installed JAX has there, jaxcompat's object is JAX's own unless the
package's own data says why not on this release:

* one of jaxcompat's primitives (``_contract.BACKEND_NAMES``: ``jit``, ``lax.scan``, ...);
* a mirrored submodule (``_namespace.MIRRORED``), itself checked name by name;
* a stable name (``_stable_names/``) whose source selected on this release has an adapter,
  lives elsewhere (a backport, another JAX location), or is none at all;
* a newest keyword whose rule applies on this release (``_keywords/rules/functions.py``).

The exceptions are read from that data, never listed here, so the next drift fails a test
by itself. A second test holds the exceptions to what the data says the release lacks of
the newest JAX (a newest keyword, config option or name, by release), so that where it lacks
nothing, as the newest release does, only the primitives differ; and the data itself says
that the newest release, the last row of the API surface data, lacks nothing.
"""

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import jaxcompat
from jaxcompat import _contract, _namespace, _surface
from jaxcompat._backports import config as config_backport
from jaxcompat._dispatch import installed_release_in
from jaxcompat._keywords.adapter import keywords_to_adapt, newest_data
from jaxcompat._keywords.rules.functions import KEYWORD_RULES
from jaxcompat._releases import parse_release
from jaxcompat._stable_names import STABLE_NAMES, by_path
from jaxcompat.testing import matches

TABLE = by_path()


def _primitives() -> set[tuple[str, str]]:
    """jaxcompat's own primitives, as (jaxcompat module, name)."""
    control_flow = set(_contract.CONTROL_FLOW_NAMES)
    return {
        ("jaxcompat.lax" if name in control_flow else "jaxcompat", name)
        for name in _contract.BACKEND_NAMES
    }


def _mirrored_names() -> Iterator[tuple[str, str, str, Any]]:
    """(jaxcompat module, JAX module, name, JAX's object) for each public name of each
    mirrored JAX module that the installed release has (deprecated names, which JAX keeps
    outside its module's namespace and warns on, are not among them)."""
    for public, (jax_module_name, submodules) in _namespace.MIRRORED.items():
        try:
            jax_module = importlib.import_module(jax_module_name)
        except ImportError:
            continue  # a module the release lacks (jax.tree before 0.4.25)
        for name, found in sorted(vars(jax_module).items()):
            if name.startswith("_") or name in submodules:
                continue  # private, or mirrored by a jaxcompat module checked on its own
            yield public, jax_module_name, name, found


def _data_reason(public: str, jax_module: str, name: str) -> str | None:
    """Why the package's data lets ``public.name`` differ from JAX's own on this release."""
    if (public, name) in _primitives():
        return "a primitive"
    prefix = public.removeprefix("jaxcompat").lstrip(".")
    path = f"{prefix}.{name}" if prefix else name
    jax_path = f"{jax_module}.{name}"
    if path in TABLE:
        selected = _namespace.select_source(path)
        if selected is None:
            return "a stable name with no source on this release"
        source, _ = selected
        if source.adapter is not None:
            return f"a stable name adapted by {source.adapter}"
        if source.where != f"{jax_module}:{name}":
            return f"a stable name from {source.where}"
    if keywords_to_adapt(jax_path):
        return f"keyword rules for {sorted(keywords_to_adapt(jax_path))}"
    return None


def _resolved(module: ModuleType, name: str) -> Any:
    try:
        return getattr(module, name)
    except AttributeError as error:
        return error


def _describe(found: Any) -> str:
    kind = type(found)
    return f"{found!r} (a {kind.__module__}.{kind.__qualname__})"


def _differing() -> list[tuple[str, str, str, Any]]:
    """(jaxcompat module, JAX module, name, jaxcompat's object) where it is not JAX's own."""
    found = []
    for public, jax_module, name, own in _mirrored_names():
        ours = _resolved(importlib.import_module(public), name)
        if ours is not own:
            found.append((public, jax_module, name, ours))
    return found


def test_every_name_jax_has_is_jax_own_unless_the_data_says_why_not():
    drifts = [
        f"{public}.{name} resolved to {_describe(ours)}, not JAX's own {jax_module}.{name}, "
        "and no primitive, stable-name source or keyword rule of this release says why"
        for public, jax_module, name, ours in _differing()
        if _data_reason(public, jax_module, name) is None
    ]
    assert drifts == []


def _lacks_the_newest(public: str, jax_module: str, name: str) -> str | None:
    """What the package's data says the installed release lacks of the newest JAX's
    ``public.name``, by release rather than by the mechanism that makes up for it: a newest
    keyword whose rule applies here (a first or fixed release later than this one, or a
    release that gets it wrong); a newest config option; a stable name whose first release is
    later, or whose JAX object has the newest meaning only on releases other than this one."""
    prefix = public.removeprefix("jaxcompat").lstrip(".")
    path = f"{prefix}.{name}" if prefix else name
    jax_path = f"{jax_module}.{name}"
    if keywords_to_adapt(jax_path):
        return f"keywords {sorted(keywords_to_adapt(jax_path))}"
    if path == "config" and config_backport.missing_options():
        return f"config options {sorted(config_backport.missing_options())}"
    entry = TABLE.get(path)
    if entry is None:
        return None
    if entry.first is not None and not installed_release_in(f">={entry.first}"):
        return f"the name, from JAX {entry.first}"
    own_ranges = [
        source.releases
        for source in entry.sources
        if source.where == f"{jax_module}:{name}" and source.adapter is None
    ]
    if own_ranges and not any(r is None or installed_release_in(r) for r in own_ranges):
        return f"JAX's own object with the newest meaning (releases {' or '.join(own_ranges)})"
    return None


def test_only_the_primitives_differ_where_the_release_lacks_nothing_newest():
    # The newest release lacks nothing of the newest JAX, so there only the primitives
    # differ; on an older one, every other difference is a name the data says it lacks.
    unexplained = [
        f"{public}.{name} resolved to {_describe(ours)}, not JAX's own {jax_module}.{name}, "
        "though the data says this release lacks nothing of the newest one"
        for public, jax_module, name, ours in _differing()
        if (public, name) not in _primitives()
        and _lacks_the_newest(public, jax_module, name) is None
    ]
    assert unexplained == []


def test_the_primitives_are_jaxcompat_own_names():
    # Each primitive is a name jaxcompat decides itself, a module global of its module, never
    # JAX's object read through the namespace: the exception the tests above grant it.
    for public, name in sorted(_primitives()):
        module = importlib.import_module(public)
        assert name in vars(module), f"{public}.{name} is not jaxcompat's own"


def test_no_keyword_rule_says_the_newest_jax_gets_its_own_keyword_wrong():
    # The newest JAX's behaviour is the reference: a rule for a release that gets a keyword
    # wrong again (broken_from) ends where JAX is right again (fixed_again_in).
    open_ended = [
        f"{rule.parameter} of {sorted(rule.paths or ())}: broken from {rule.broken_from}"
        for rule in KEYWORD_RULES
        if rule.broken_from is not None and rule.fixed_again_in is None
    ]
    assert open_ended == []


def test_the_data_says_the_newest_release_lacks_nothing():
    # The newest row of the API surface data is the reference, so no datum may make up for
    # something there: a stable name's first release, a range of releases on which JAX's own
    # object has the newest meaning, a keyword rule's fixed release, a config option.
    newest = _surface.rows()[-1]
    release = parse_release(newest)
    lacked = [
        f"config option {option} from {first}"
        for option, first in newest_data()["config_options"].items()
        if parse_release(first) > release
    ]
    lacked += [
        f"{rule.parameter} of {sorted(rule.paths or ())} fixed in {rule.fixed_in}"
        for rule in KEYWORD_RULES
        if rule.fixed_in is not None and parse_release(rule.fixed_in) > release
    ]
    for entry in STABLE_NAMES:
        module, _, name = f"jax.{entry.path}".rpartition(".")
        if entry.first is not None and parse_release(entry.first) > release:
            lacked.append(f"stable name {entry.path} from {entry.first}")
        own_ranges = [
            source.releases
            for source in entry.sources
            if source.where == f"{module}:{name}" and source.adapter is None
        ]
        if own_ranges and not any(r is None or matches(r, release) for r in own_ranges):
            lacked.append(f"stable name {entry.path}: JAX's own on {' or '.join(own_ranges)}")
    assert lacked == [], f"JAX {newest}"


def test_config_is_jax_own_where_the_data_lacks_no_option():
    import jax

    assert (jaxcompat.config is jax.config) == (config_backport.missing_options() == {})
