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

# XLA's backend optimizations off (see pytest_configure), here for the suite's fresh
# interpreters, which read it when they import JAX.
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Most of the suite's time is XLA compiling small programs (every eager op on a new shape
    # is one), and what the suite checks is what jaxcompat traces, not how fast XLA's code
    # runs: with XLA's backend optimizations off, JAX 0.4.13's suite takes 63 s instead of 99.
    # JAX is imported already (installing jaxcompat loads its pytest plugin, which imports
    # jaxcompat), too early for the variable: the option is set from it, as JAX would read it.
    # JAX_DISABLE_MOST_OPTIMIZATIONS=0 runs the suite with them on.
    import jax

    wanted = os.environ["JAX_DISABLE_MOST_OPTIMIZATIONS"].lower() in ("1", "true", "yes", "on")
    jax.config.update("jax_disable_most_optimizations", wanted)
    config.addinivalue_line(
        "markers", "tracer_hash: also run with JAX's tracer-hash deprecation accelerated"
    )
    # The matrix sets this on rows where JAX can raise its future TypeError early.
    for name in filter(None, os.environ.get("JAXCOMPAT_TEST_ACCELERATE", "").split(",")):
        from jax._src import deprecations

        deprecations.accelerate(name)
