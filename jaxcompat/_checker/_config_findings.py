"""JC050: a ``jax.config`` option that some release of the range lacks.

``jax.config.update("jax_array", True)``, ``jax.config.read("jax_spmd_mode")`` and reads
such as ``jax.config.jax_array`` raise ``AttributeError: Unrecognized config option`` on a
release whose config has no such option. The API surface data records, per row, the options
of ``jax.config`` (``_surface.config_option``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from .._surface import config_option, rows
from ._api import first_good_row
from ._codes import CONFIG_OPTION_MISSING
from ._ranges import describe, row_list
from ._uses import Use

__all__ = ["CONFIG_REPLACEMENTS", "config_findings"]

#: Where a config object is reached: ``jax.config``, jaxcompat's (JAX's own object), and
#: the ``config`` name of the old ``jax.config`` module (``from jax.config import config``).
_CONFIG_PATHS = ("jax.config.config.", "jax.config.", "jaxcompat.config.")

#: The methods that take an option's name first.
_BY_NAME = ("update", "read")

#: Options defined by a module JAX does not import by default: the data, recorded after
#: importing a fixed list of modules, cannot tell where they exist.
_DEFINED_ELSEWHERE = ("jax2tf_", "jax_host_callback_", "jax_pallas_", "jax_mosaic_")

#: Options of the newest JAX that ``jaxcompat.config`` honours on every release
#: (``_backports/config.py``: the XLA flag does it before 0.5.0).
_JAXCOMPAT_HONOURS = frozenset({"jax_num_cpu_devices"})

#: What JAX's changelog says replaces an option it removed.
CONFIG_REPLACEMENTS = {
    # 0.4.14 removed both: they could not be disabled since 0.4.7, so they did nothing.
    "jax_array": "it has had no effect since 0.4.7 (jax.Array is the only array type); "
    "drop the call",
    "jax_jit_pjit_api_merge": "it has had no effect since 0.4.7; drop the call",
    # 0.4.16 removed it: the service is always on.
    "jax_coordination_service": "the coordination service is always on; drop the call",
    # 0.4.26 removed it: deprecated long before, and a no-op.
    "jax_parallel_functions_output_gda": "it did nothing; drop the call",
    # 0.4.27 deprecated it for the implementation option; 0.8.0 removed it.
    "jax_cpu_enable_gloo_collectives": "use "
    "`jax.config.update('jax_cpu_collectives_implementation', 'gloo')`",
    # 0.5.0 removed it: its behaviour is the default.
    "jax_enable_memories": "memories are always on; drop the call",
    # 0.6.0 removed both.
    "jax_eager_pmap": "JAX removed it without a replacement; drop the call",
    "jax_data_dependent_tracing_fallback": "JAX removed it without a replacement; drop the call",
    # 0.6.1 removed it, unused by then (JAX's commit says so): setting it did nothing.
    "jax_spmd_mode": "JAX no longer read it when 0.6.1 removed it; drop the call",
    # 0.9.0 removed it: no rank reduction is the only behaviour left.
    "jax_pmap_no_rank_reduction": "no rank reduction is the only behaviour; drop the call",
    # 0.10.0 removed it: jax.pmap always uses the shard_map-based implementation.
    "jax_pmap_shmap_merge": "`jax.pmap` always uses the shard_map implementation; drop the call",
}


def _option(use: Use) -> tuple[str, str] | None:
    """(the option, how the use names it) for an update/read call or an attribute read."""
    for prefix in _CONFIG_PATHS:
        if use.path.startswith(prefix):
            rest = use.path.removeprefix(prefix)
            break
    else:
        return None
    if rest in _BY_NAME and use.call is not None and use.call.first_text is not None:
        option = use.call.first_text
        return option, f'`{use.path}("{option}", ...)`'
    option = rest.split(".")[0]
    if option in _BY_NAME or not use.check_name:
        return None
    return option, f"`{use.path}`"  # a read: `jax.config.jax_enable_x64`


@functools.lru_cache(maxsize=1024)
def _missing(option: str, scope: int) -> int:
    chars = config_option(option)
    if chars is None or option.startswith(_DEFINED_ELSEWHERE):
        return 0  # an option no row has (a plugin's), or one the data cannot tell
    present = sum(1 << index for index, char in enumerate(chars) if char == "o")
    return scope & ~present


def config_findings(use: Use, scope: int) -> Iterator[tuple[int, int, str, str, int]]:
    """(line, col, code, message, rows) for a config option some row of `scope` lacks."""
    found = _option(use)
    if found is None or use.guarded:
        return
    option, shown = found
    if use.path.startswith("jaxcompat.") and option in _JAXCOMPAT_HONOURS:
        return
    absent = _missing(option, scope)
    if not absent:
        return
    floor = first_good_row(absent, scope) if absent & scope & -scope else None
    newest = 1 << (len(rows()) - 1)
    if floor is not None:
        fix = f"JAX has it from {floor}: raise the floor to jax>={floor}"
    else:
        fix = CONFIG_REPLACEMENTS.get(option, "JAX names no replacement; drop the call")
        if not absent & newest:
            fix += f" (or cap the range below {row_list(absent)[0]})"
    message = (
        f"{shown}: JAX has no config option `{option}` on {describe(absent)} (AttributeError: "
        f"Unrecognized config option); {fix}"
    )
    yield use.line, use.col, CONFIG_OPTION_MISSING.code, message, absent
