"""Test configuration shared by every matrix row.

The report header (JAX, jaxlib, backend, and the path of the jaxcompat under test) comes from
jaxcompat's own pytest plugin, ``jaxcompat.testing``.
"""

import os

# Before JAX starts its backend: CPU only, and 8 host devices for the sharding tests.
os.environ.setdefault("JAX_PLATFORMS", "cpu")
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
    ).strip()

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "tracer_hash: also run with JAX's tracer-hash deprecation accelerated"
    )
    # The matrix sets this on rows where JAX can raise its future TypeError early.
    for name in filter(None, os.environ.get("JAXCOMPAT_TEST_ACCELERATE", "").split(",")):
        from jax._src import deprecations

        deprecations.accelerate(name)


@pytest.fixture(scope="session")
def fresh_jaxcompat():
    """jaxcompat imported from nothing in one fresh interpreter, shared by the tests that need
    one (tests/_fresh_interpreter.py says what runs there)."""
    from tests._fresh_interpreter import run_fresh_interpreter

    return run_fresh_interpreter()
