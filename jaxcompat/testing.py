"""A pytest plugin for test suites that run across JAX releases.

Registered through the ``pytest11`` entry point, so installing jaxcompat enables it:

* ``@pytest.mark.jax(">=0.4.36")`` runs a test only where the installed JAX matches the
  PEP 440 specifier, and skips it elsewhere with a reason naming both;
* the ``jax_version`` fixture gives the installed JAX release as a tuple of ints;
* the report header names the JAX and jaxlib releases, the jaxcompat backend and the path of
  the jaxcompat that was imported, or, when JAX cannot be used, what is wrong and the fix;
* with ``JAXCOMPAT_FUTURE=1`` in the environment (``jaxcompat.nox``'s ``future`` row), every
  deprecation the installed JAX has registered is an error, as on a coming release.

JAX is imported only when a hook needs it, and the plugin never stops pytest: with JAX missing
or broken the header says so, the tests that do not need JAX run, and each test that does
fails with the reason.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet

__all__ = ["FUTURE_ENV_VAR", "jax_version", "matches", "simulate_next_release"]

_FUTURE = pytest.StashKey[bool]()
_USAGE = "use @pytest.mark.jax('<PEP 440 specifier>'), e.g. @pytest.mark.jax('>=0.4.36')"


def matches(specifier: str, release: tuple[int, ...] | None = None) -> bool:
    """True if ``release`` (default: the installed JAX) satisfies a PEP 440 ``specifier``."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    if release is None:
        release = _installed_release()
    return SpecifierSet(specifier).contains(Version(".".join(map(str, release))))


def _jax_import_error() -> ImportError | None:
    """Why JAX cannot be used (kept by ``import jaxcompat``), or None when it can."""
    import jaxcompat

    return jaxcompat._JAX_IMPORT_ERROR


def _installed_release() -> tuple[int, ...]:
    error = _jax_import_error()
    if error is not None:
        # Importing jaxcompat._version again would try JAX again (and print numpy's banner
        # again under an old jaxlib): the kept error says what is wrong.
        raise ImportError(str(error)) from error
    from ._version import JAX_VERSION

    return JAX_VERSION


#: Set (by jaxcompat.nox's ``future`` row) to run the tests as on the next JAX release.
FUTURE_ENV_VAR = "JAXCOMPAT_FUTURE"


def simulate_next_release() -> None:
    """Make every deprecation the installed JAX has registered an error, as a coming release
    will: the ids of ``jax._src.deprecations`` (its ``accelerate``) and the deprecated module
    attributes of the imported ``jax`` modules (``accelerate_getattr_deprecation``, which makes
    reading one an AttributeError)."""
    import sys

    import jax  # noqa: F401  (imports the public modules whose attributes are deprecated)
    from jax._src import deprecations

    registered = getattr(deprecations, "_registered_deprecations", {})
    for name in list(registered):
        # JAX 0.4.29 keyed a deprecation by one id; before, by (module, key).
        ids = name if isinstance(name, tuple) else (name,)
        deprecations.accelerate(*ids)  # type: ignore[attr-defined, unused-ignore]
    for module_name, module in list(sys.modules.items()):
        table = getattr(module, "_deprecations", None)
        if not module_name.startswith("jax") or not isinstance(table, dict):
            continue
        for name, entry in list(table.items()):
            if isinstance(entry, tuple) and len(entry) == 2 and entry[1] is not None:
                table[name] = (entry[0], None)  # what accelerate_getattr_deprecation does


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "jax(specifier): run only where the installed JAX matches the PEP 440 specifier, "
        "e.g. @pytest.mark.jax('>=0.4.36'); skip elsewhere",
    )
    if os.environ.get(FUTURE_ENV_VAR) and _jax_import_error() is None:
        simulate_next_release()
        config.stash[_FUTURE] = True


def _header_when_unusable(error: ImportError) -> list[str]:
    import jaxcompat
    from jaxcompat._cli import diagnose as _diagnose

    jax_version, jaxlib_version = _diagnose.installed_jax()
    shown = f"jax {jax_version}, jaxlib {jaxlib_version}" if jax_version else "jax: not found"
    lines = [f"{shown}: JAX cannot be used, so tests that need it fail"]
    for finding in _diagnose.diagnose_import(error):
        lines += [f"problem ({finding.problem}): {finding.finding}", f"fix: {finding.fix}"]
    lines.append(f"jaxcompat {jaxcompat.__version__} imported from {jaxcompat.__file__}")
    return lines


def pytest_report_header(config: pytest.Config) -> list[str]:
    try:
        import jaxcompat

        error = jaxcompat._JAX_IMPORT_ERROR
        if error is not None:
            return _header_when_unusable(error)
        lines = [
            f"jax {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}, "
            f"jaxcompat backend {jaxcompat.BACKEND}",
            f"jaxcompat {jaxcompat.__version__} imported from {jaxcompat.__file__}",
        ]
        if config.stash.get(_FUTURE, False):
            lines.append(
                f"{FUTURE_ENV_VAR} is set: every deprecation this JAX has registered is an "
                "error, as on a coming release"
            )
        return lines
    except Exception as error:  # a header is never a reason to stop the whole run
        return [f"jaxcompat: cannot describe the installed JAX ({type(error).__name__}: {error})"]


def _specifier(item: pytest.Item, marker: pytest.Mark) -> SpecifierSet:
    """The marker's specifier; a usage error naming the test when it is not one."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    if len(marker.args) != 1 or marker.kwargs or not isinstance(marker.args[0], str):
        raise pytest.UsageError(f"{item.nodeid}: {_USAGE}")
    try:
        return SpecifierSet(marker.args[0])
    except InvalidSpecifier:
        raise pytest.UsageError(
            f"{item.nodeid}: @pytest.mark.jax({marker.args[0]!r}): {marker.args[0]!r} is not "
            f"a PEP 440 version specifier; {_USAGE}"
        ) from None


def _skip_reason(item: pytest.Item) -> str | None:
    """Why ``item`` does not run on the installed JAX, or None when it does (or JAX is unusable:
    then the test fails at setup with the reason)."""
    from packaging.version import Version

    specifiers = [_specifier(item, marker) for marker in item.iter_markers(name="jax")]
    if not specifiers or _jax_import_error() is not None:
        return None
    from ._version import JAX_VERSION, JAX_VERSION_STRING

    installed = Version(".".join(map(str, JAX_VERSION)))
    for specifier in specifiers:
        if not specifier.contains(installed):
            return f"needs JAX {specifier}; JAX {JAX_VERSION_STRING} is installed"
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A skip mark, rather than pytest.skip() at setup: pytest reports a mark's skip at the
    # test's own line (in `-ra`), not at the line of this plugin that skipped it.
    for item in items:
        reason = _skip_reason(item)
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item: pytest.Item) -> None:
    markers = list(item.iter_markers(name="jax"))
    if not markers:
        return
    for marker in markers:
        _specifier(item, marker)
    error = _jax_import_error()
    if error is not None:
        pytest.fail(f"@pytest.mark.jax needs the installed JAX: {error}", pytrace=False)


@pytest.fixture
def jax_version() -> tuple[int, ...]:
    """The installed JAX release as a tuple of ints, such as ``(0, 4, 30)``."""
    error = _jax_import_error()
    if error is not None:
        pytest.fail(f"the jax_version fixture needs the installed JAX: {error}", pytrace=False)
    from ._version import JAX_VERSION

    return JAX_VERSION
