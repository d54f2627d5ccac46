"""``jax.config`` with the options of the newest JAX: honoured where the release can, and a
clear error where it cannot.

One option a release lacks can be honoured today: ``jax_num_cpu_devices``, the newest JAX's
way to ask for several CPU devices (``jax.config.update("jax_num_cpu_devices", 8)`` in a test
suite's conftest). JAX 0.5.0 has it as a flag that ``update`` sets but
``jax.config.jax_num_cpu_devices`` cannot read (0.5.1 made it a readable option). Before
0.5.0, the XLA flag it replaces, ``--xla_force_host_platform_device_count``, does the same:
the CPU backend reads ``XLA_FLAGS`` once, when it starts.

Every other option of the newest JAX that the release lacks (``_data/newest_keywords.json``
lists each with the first release from which every release has it) is an AttributeError, as
JAX's own "Unrecognized config option" is, that names the option and that release.

Where that data says the release has every option, ``jaxcompat.config`` is ``jax.config``
itself. Some options of the newest JAX are flags that its config sets but cannot read as an
attribute (``jax_check_proxy_envs``, ``jax_mock_gpu_topology``, ...): the newest cannot read
them either, so they are not missing.
"""

from __future__ import annotations

import os
import re
from typing import Any

from jax._src import xla_bridge

from .._dispatch import installed_release_in
from .._keywords.adapter import newest_data
from .._version import JAX_VERSION_STRING

NUM_CPU_DEVICES = "jax_num_cpu_devices"
_DEVICE_COUNT_FLAG = re.compile(r"\s*--xla_force_host_platform_device_count=\S*")


def _missing_option(name: str, first: str) -> AttributeError:
    return AttributeError(
        f"jaxcompat.config option {name!r} needs JAX {first} or newer: JAX "
        f"{JAX_VERSION_STRING}'s jax.config has no such option, and jaxcompat cannot provide "
        "it there. Leave it unset on older releases (compare jaxcompat.JAX_VERSION), or "
        "upgrade JAX."
    )


class ConfigWithNewestOptions:
    """JAX's own config object, taking the newest options the release lacks.

    Everything else (``update`` of the release's own options, reads, ``define_*``, the
    flags) is JAX's own config: only the names of newest options are intercepted.
    """

    def __init__(self, config: Any, missing: dict[str, str]) -> None:
        object.__setattr__(self, "_jax_config", config)
        # The newest options this release's config lacks, with the first release having each.
        object.__setattr__(self, "_missing", missing)
        object.__setattr__(self, "_num_cpu_devices", -1)
        # JAX 0.5.0's own flag: JAX sets it, and it is read here.
        object.__setattr__(self, "_jax_flag", getattr(xla_bridge, "NUM_CPU_DEVICES", None))

    def update(self, name: str, value: Any) -> None:
        if name not in self._missing or (name == NUM_CPU_DEVICES and self._jax_flag is not None):
            self._jax_config.update(name, value)
            return
        if name != NUM_CPU_DEVICES:
            raise _missing_option(name, self._missing[name])
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
        if name not in self._missing:
            return getattr(self._jax_config, name)
        if name == NUM_CPU_DEVICES:
            flag = self._jax_flag
            return self._num_cpu_devices if flag is None else flag.value
        raise _missing_option(name, self._missing[name])

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._jax_config, name, value)

    def __repr__(self) -> str:
        return repr(self._jax_config)


#: Options the newest JAX reads as an attribute, by the first release whose config does,
#: where that is later than the first that has the option: JAX 0.5.0's jax_num_cpu_devices is
#: a flag that ``update`` sets but ``jax.config.jax_num_cpu_devices`` cannot read.
READABLE_FROM = {NUM_CPU_DEVICES: "0.5.1"}


def missing_options() -> dict[str, str]:
    """The options of the newest ``jax.config`` that the installed release lacks, or cannot
    read as the newest does, with the first release that has each as the newest does."""
    newest: dict[str, str] = newest_data()["config_options"]
    found = {name: READABLE_FROM.get(name, first) for name, first in newest.items()}
    return {name: first for name, first in found.items() if not installed_release_in(f">={first}")}


def with_newest_options(config: Any) -> Any:
    """``jax.config`` itself where it has every option of the newest JAX; else a view of it
    that takes them (see the module docstring)."""
    missing = missing_options()
    return ConfigWithNewestOptions(config, missing) if missing else config
