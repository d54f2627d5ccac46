"""``jax.config`` with the newest options that a release lacks but can honour.

One such option today: ``jax_num_cpu_devices``, the newest JAX's way to ask for several CPU
devices (``jax.config.update("jax_num_cpu_devices", 8)`` in a test suite's conftest). JAX
0.5.0 has it as a flag that ``update`` sets but ``jax.config.jax_num_cpu_devices`` cannot
read (0.5.1 made it a readable option). Before 0.5.0, the XLA flag it replaces,
``--xla_force_host_platform_device_count``, does the same: the CPU backend reads ``XLA_FLAGS``
once, when it starts.
"""

from __future__ import annotations

import os
import re
from typing import Any

from jax._src import xla_bridge

from .._version import JAX_VERSION_STRING

NUM_CPU_DEVICES = "jax_num_cpu_devices"
_DEVICE_COUNT_FLAG = re.compile(r"\s*--xla_force_host_platform_device_count=\S*")


class ConfigWithNewestOptions:
    """JAX's own config object, and ``jax_num_cpu_devices`` through ``XLA_FLAGS``.

    Everything else (``update`` of any other option, reads, ``define_*``, the flags) is JAX's
    own config: only the newest option's name is intercepted.
    """

    def __init__(self, config: Any) -> None:
        object.__setattr__(self, "_jax_config", config)
        object.__setattr__(self, "_num_cpu_devices", -1)
        # JAX 0.5.0's own flag: JAX sets it, and it is read here.
        object.__setattr__(self, "_jax_flag", getattr(xla_bridge, "NUM_CPU_DEVICES", None))

    def update(self, name: str, value: Any) -> None:
        if name != NUM_CPU_DEVICES or self._jax_flag is not None:
            self._jax_config.update(name, value)
            return
        if type(value) is not int:  # as the newest int option checks
            raise TypeError(f"Value {value!r} is not an int for option {NUM_CPU_DEVICES}")
        if value == self._num_cpu_devices:
            return
        if xla_bridge._backends:  # the newest JAX refuses this too, with this message
            raise RuntimeError(
                f"{NUM_CPU_DEVICES} config should be updated before backends are initialized "
                "i.e. before any JAX operation is executed. You should initialize this config "
                f"immediately after `import jax` (JAX {JAX_VERSION_STRING} reads it as the XLA "
                "flag --xla_force_host_platform_device_count when its CPU backend starts)."
            )
        flags = _DEVICE_COUNT_FLAG.sub("", os.environ.get("XLA_FLAGS", "")).strip()
        if value >= 0:  # -1, the default: the XLA flag decides, as it did before
            flags = f"{flags} --xla_force_host_platform_device_count={value}".strip()
        os.environ["XLA_FLAGS"] = flags
        object.__setattr__(self, "_num_cpu_devices", value)

    def __getattr__(self, name: str) -> Any:
        if name == NUM_CPU_DEVICES:
            flag = self._jax_flag
            return self._num_cpu_devices if flag is None else flag.value
        return getattr(self._jax_config, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._jax_config, name, value)

    def __repr__(self) -> str:
        return repr(self._jax_config)


def with_num_cpu_devices(config: Any) -> ConfigWithNewestOptions:
    """``jax.config`` before JAX 0.5.1, which cannot read ``jax_num_cpu_devices``."""
    return ConfigWithNewestOptions(config)
