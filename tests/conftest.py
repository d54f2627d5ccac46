"""Test configuration shared by every matrix row.

The report header (JAX, jaxlib, backend, and the path of the jaxcompat under test) comes from
jaxcompat's own pytest plugin, ``jaxcompat.testing``.
"""

import gc
import os

# Before JAX starts its backend: CPU only, and 8 host devices for the sharding tests.
os.environ.setdefault("JAX_PLATFORMS", "cpu")
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
    ).strip()

import pytest

#: Test files whose outcome does not depend on the installed JAX: the checker, migrate,
#: matrix, nox helpers and the generated docs read jaxcompat's data files and the tree, not
#: JAX. Their tests are marked ``one_row``: nox runs them on the oldest and the newest row
#: and on each other Python's oldest cell (the checker reads Python's own syntax trees), and
#: leaves them out of the other sessions, where they would test the same thing again. A test
#: in these files that runs ported code on the installed JAX is marked ``every_row``.
ONE_ROW_FILES = frozenset(
    {
        "test_check.py",
        "test_check_cli.py",
        "test_check_jaxcompat_calls.py",
        "test_check_modules.py",
        "test_check_public_api.py",
        "test_compatibility_doc.py",
        "test_docs_reference.py",
        "test_downstream_project.py",
        "test_floor.py",
        "test_matrix.py",
        "test_matrix_cli.py",
        "test_migrate.py",
        "test_migrate_pyproject.py",
        "test_nox_helpers.py",
        "test_retree.py",
        "test_third_party.py",
    }
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "tracer_hash: also run with JAX's tracer-hash deprecation accelerated"
    )
    config.addinivalue_line(
        "markers", "one_row: the outcome does not depend on the installed JAX (conftest.py)"
    )
    config.addinivalue_line(
        "markers", "every_row: runs on every row though its file's other tests are one_row"
    )
    _require_pinned_release()
    # The matrix sets this on rows where JAX can raise its future TypeError early.
    for name in filter(None, os.environ.get("JAXCOMPAT_TEST_ACCELERATE", "").split(",")):
        from jax._src import deprecations

        deprecations.accelerate(name)


def _require_pinned_release() -> None:
    """Stop a matrix row whose installed JAX reports another release than the row pins
    (nox sets JAXCOMPAT_TEST_PINS): its tests would pass as a release it is not (a
    jax/version.py edited in a package cache does that)."""
    pins = os.environ.get("JAXCOMPAT_TEST_PINS")
    if not pins:
        return
    import jax
    import jaxlib

    jax_pin, jaxlib_pin = pins.split()
    if (jax.__version__, jaxlib.__version__) != (jax_pin, jaxlib_pin):
        pytest.exit(
            f"jax=={jax_pin} and jaxlib=={jaxlib_pin} were installed, but they report jax"
            f" {jax.__version__} and jaxlib {jaxlib.__version__}: a changed copy is in the"
            " package cache. Clear it (`uv cache clean jax`) and rerun this row.",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


@pytest.fixture(scope="session")
def fresh_jaxcompat():
    """jaxcompat imported from nothing in one fresh interpreter, shared by the tests that need
    one (tests/_fresh_interpreter.py says what runs there)."""
    from tests._fresh_interpreter import run_fresh_interpreter

    return run_fresh_interpreter()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Every object alive after collection (JAX, jaxcompat, the collected tests) is kept out of
    the garbage collector's full passes, which otherwise walk it again each time: a row's
    collections took 6.3 s, 4.9 s after this."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in ONE_ROW_FILES and item.get_closest_marker("every_row") is None:
            item.add_marker(pytest.mark.one_row)


@pytest.fixture(scope="session")
def fake_index(tmp_path_factory):
    """A package index on disk (tests/_fake_index.py); its environment for uv and pip."""
    from tests._fake_index import build, environment

    return environment(build(tmp_path_factory.mktemp("fake-index")))


@pytest.fixture
def resolver_on_fake_index(fake_index, monkeypatch):
    """`jaxcompat migrate`'s resolver reads the fake index alone, never a real one."""
    for name, value in fake_index.items():
        monkeypatch.setenv(name, value)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A row's whole-suite run fails where it passes fewer tests, or skips more, than its
    record (``tests/_test_counts.py``): nox names the row for that run only."""
    row = os.environ.get("JAXCOMPAT_TEST_COUNTS")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if not row or exitstatus != pytest.ExitCode.OK or reporter is None:
        return
    from tests._test_counts import count_problem, recorded_counts

    passed = len(reporter.stats.get("passed", ()))
    skipped = len(reporter.stats.get("skipped", ()))
    problem = count_problem(row, passed, skipped, recorded_counts())
    if problem is not None:
        reporter.write("\n")  # after the progress line's [100%]
        reporter.write_line(problem, red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
