"""``jaxcompat.config``: the newest JAX's options, on every release that can honour them."""

import pytest

from ._helpers import run_python

NUM_CPU_DEVICES = """
import jaxcompat as jax
jax.config.update("jax_num_cpu_devices", 3)  # as a newest conftest does, before any operation
print(jax.config.jax_num_cpu_devices, jax.device_count())
jax.config.update("jax_enable_x64", True)  # every other option is JAX's own
print(jax.config.jax_enable_x64, jax.numpy.ones(1).dtype)
"""


@pytest.mark.subprocess
def test_num_cpu_devices_before_the_backend_starts():
    # One fresh interpreter with no XLA flags: the option alone decides the device count.
    result = run_python(NUM_CPU_DEVICES, env={"XLA_FLAGS": ""})
    assert result.stdout.splitlines() == ["3 3", "True float64"], result.stderr
