"""A pytest plugin for test suites that run across JAX releases.

Registered through the ``pytest11`` entry point, so installing jaxcompat enables it:

* ``@pytest.mark.jax(">=0.4.36")`` runs a test only where the installed JAX matches the
  PEP 440 specifier, and skips it elsewhere with a reason naming both;
* the ``jax_version`` fixture gives the installed JAX release as a tuple of ints;
* the report header names the JAX and jaxlib releases, the jaxcompat backend and the path of
  the jaxcompat that was imported.

JAX is imported only when a hook needs it.
"""

from __future__ import annotations

import pytest

__all__ = ["jax_version", "matches"]


def matches(specifier: str, release: tuple[int, ...] | None = None) -> bool:
    """True if ``release`` (default: the installed JAX) satisfies a PEP 440 ``specifier``."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    if release is None:
        from ._version import JAX_VERSION

        release = JAX_VERSION
    return SpecifierSet(specifier).contains(Version(".".join(map(str, release))))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "jax(specifier): run only where the installed JAX matches the PEP 440 specifier, "
        "e.g. @pytest.mark.jax('>=0.4.36'); skip elsewhere",
    )


def pytest_report_header(config: pytest.Config) -> list[str]:
    try:
        import jaxcompat
    except ImportError as error:
        return [f"jaxcompat: not importable ({error})"]
    return [
        f"jax {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}, "
        f"jaxcompat backend {jaxcompat.BACKEND}",
        f"jaxcompat {jaxcompat.__version__} imported from {jaxcompat.__file__}",
    ]


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers(name="jax"):
        if len(marker.args) != 1 or not isinstance(marker.args[0], str):
            raise pytest.UsageError(
                f"{item.nodeid}: use @pytest.mark.jax('<PEP 440 specifier>'), e.g. '>=0.4.36'"
            )
        specifier = marker.args[0]
        if not matches(specifier):
            from ._version import JAX_VERSION_STRING

            pytest.skip(f"needs JAX {specifier}; JAX {JAX_VERSION_STRING} is installed")


@pytest.fixture
def jax_version() -> tuple[int, ...]:
    """The installed JAX release as a tuple of ints, such as ``(0, 4, 30)``."""
    from ._version import JAX_VERSION

    return JAX_VERSION
