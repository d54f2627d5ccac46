"""``jax.api_util.debug_info`` (public from JAX 0.5.1) on the releases before it.

A tracing debug record says what a traced function is (its source location) and names its
arguments, for JAX's error messages; ``jax.extend.linear_util.wrap_init(f, debug_info=...)``
attaches it to a wrapped function. Every release builds one with a private helper of
``jax._src.api_util`` named ``debug_info``, in the release's own class (``TracingDebugInfo``,
whose fields are the newest ``DebugInfo``'s: ``traced_for``, ``func_src_info``, ``arg_names``,
and ``result_paths``, named ``result_paths_thunk`` in 0.5.0). The backports call that helper
in the release's arity and return its record, which that release's ``wrap_init`` takes.

Where the release cannot name the arguments (the signature does not bind them) or find the
source, its helper returns None, and so do these: JAX's own tracing then carries no record,
and ``wrap_init(f, debug_info=None)`` is a wrapped function without one, as on that release.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["debug_info_from_function", "debug_info_from_signature"]


def _private() -> Any:
    """``jax._src.api_util``, whose helpers' arities differ by release (typed as the newest's)."""
    return importlib.import_module("jax._src.api_util")


def debug_info_from_signature(
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
    """``jax.api_util.debug_info`` on JAX 0.4.25-0.5.0, whose helper takes the function's
    source and signature rather than the function."""
    api_util = _private()
    source = sourceinfo if sourceinfo is not None else api_util.fun_sourceinfo(fun)
    if signature is None:
        signature = api_util.fun_signature(fun)
    record = api_util.debug_info(
        traced_for,
        source,
        signature,
        tuple(args),
        kwargs,
        tuple(static_argnums),
        tuple(static_argnames),
    )
    return _with_result_paths(record, result_paths_thunk)


def debug_info_from_function(
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
    """``jax.api_util.debug_info`` on JAX 0.4.13-0.4.24, whose helper reads the source and
    the signature from the function itself."""
    api_util = _private()
    named = fun if signature is None else _signed(signature)
    record = api_util.debug_info(
        traced_for, named, tuple(args), kwargs, tuple(static_argnums), tuple(static_argnames)
    )
    if record is not None and (sourceinfo is not None or named is not fun):
        # The helper read the source of the stand-in: the function's own, or the one given.
        source = sourceinfo if sourceinfo is not None else api_util.fun_sourceinfo(fun)
        record = None if source is None else record._replace(func_src_info=source)
    return _with_result_paths(record, result_paths_thunk)


def _signed(signature: inspect.Signature) -> Callable[..., Any]:
    """A callable whose ``inspect.signature`` is `signature` (it honours ``__signature__``):
    what the helper of JAX 0.4.24 and before reads the argument names from."""

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("only its signature is read")

    stand_in.__signature__ = signature  # type: ignore[attr-defined]
    return stand_in


def _with_result_paths(record: Any, thunk: Callable[[], tuple[str, ...]] | None) -> Any:
    """`record` with the result paths' thunk in its last field (``result_paths``, named
    ``result_paths_thunk`` in JAX 0.5.0), as JAX's own tracing stores it."""
    if record is None or thunk is None:
        return record
    return record._replace(**{record._fields[-1]: thunk})
