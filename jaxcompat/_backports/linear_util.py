"""``jax.extend.linear_util.wrap_init`` with ``debug_info=`` (JAX 0.5.0) on older releases."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["wrap_init_taking_debug_info"]


def wrap_init_taking_debug_info(jax_wrap_init: Callable[..., Any]) -> Callable[..., Any]:
    """``wrap_init(f, params=None, *, debug_info=None)``: JAX 0.5.0 added ``debug_info``.

    Before, a wrapped function gets its tracing debug record from ``add_debug_info``, which
    JAX's own tracing calls after ``wrap_init``: the same record on the same field
    (``WrappedFun.debug_info``). The record is the release's own (``jaxcompat.api_util.
    debug_info`` gives one). Without one the wrapped function carries None, as on that
    release, where the newest JAX puts a placeholder record (``traced_for`` is
    ``"missing_debug_info"``).
    """
    # Gone from the newest JAX's jax._src.linear_util, which the type checker reads.
    add_debug_info = importlib.import_module("jax._src.linear_util").add_debug_info

    def wrap_init(f: Callable[..., Any], params: Any = None, *, debug_info: Any = None) -> Any:
        wrapped = jax_wrap_init(f, params)
        return wrapped if debug_info is None else add_debug_info(wrapped, debug_info)

    return wrap_init
