"""``jax.api_util.debug_info`` (public from JAX 0.5.1) on the releases before it.

A tracing debug record says what a traced function is (its source location) and names its
arguments, for JAX's error messages; ``jax.extend.linear_util.wrap_init(f, debug_info=...)``
attaches it to a wrapped function. Every release builds one with a private helper of
``jax._src.api_util`` named ``debug_info``, in the release's own class (``TracingDebugInfo``,
whose fields are the newest ``DebugInfo``'s: ``traced_for``, ``func_src_info``, ``arg_names``,
and ``result_paths``, named ``result_paths_thunk`` in 0.5.0). The backport calls that helper
in the release's arity (two: up to 0.4.24 it takes the function, from 0.4.25 its source
and signature) and returns its record, which that release's ``wrap_init`` takes.

Where the release cannot name the arguments (the signature does not bind them) or find the
source, its helper returns None, and so does this: JAX's own tracing then carries no record,
and ``wrap_init(f, debug_info=None)`` is a wrapped function without one, as on that release.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from .._dispatch import installed_release_in

__all__ = ["debug_info"]

#: Up to JAX 0.4.24 the private helper reads the source and the signature from the function
#: itself; from 0.4.25 it takes them.
_HELPER_READS_THE_FUNCTION = installed_release_in("<0.4.25")


def _private() -> Any:
    """``jax._src.api_util``, whose helpers' arities differ by release (typed as the newest's)."""
    return importlib.import_module("jax._src.api_util")


def debug_info(
    traced_for: str,
    fun: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    *,
    static_argnums: Sequence[int] = (),
    static_argnames: Sequence[str] = (),
    result_paths_thunk: Callable[[], tuple[str, ...]] | None = None,
    sourceinfo: str | None = None,
    signature: inspect.Signature | None = None,
) -> Any:
    """``jax.api_util.debug_info`` (JAX 0.5.1) before 0.5.1: the release's own record."""
    api_util = _private()
    source = sourceinfo if sourceinfo is not None else api_util.fun_sourceinfo(fun)
    arguments = (tuple(args), kwargs, tuple(static_argnums), tuple(static_argnames))
    if _HELPER_READS_THE_FUNCTION:
        named = fun if signature is None else _signed(signature)
        record = api_util.debug_info(traced_for, named, *arguments)
        if record is not None:  # the helper read the source of `named`: give the function's
            record = None if source is None else record._replace(func_src_info=source)
    else:
        if signature is None:
            signature = api_util.fun_signature(fun)
        record = api_util.debug_info(traced_for, source, signature, *arguments)
    if record is None or result_paths_thunk is None:
        return record
    # The thunk goes in the last field, as JAX's own tracing stores it (``result_paths``,
    # named ``result_paths_thunk`` in JAX 0.5.0).
    return record._replace(**{record._fields[-1]: result_paths_thunk})


def _signed(signature: inspect.Signature) -> Callable[..., Any]:
    """A callable whose ``inspect.signature`` is `signature` (it honours ``__signature__``):
    what the helper of JAX 0.4.24 and before reads the argument names from."""

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("only its signature is read")

    stand_in.__signature__ = signature  # type: ignore[attr-defined]
    return stand_in
