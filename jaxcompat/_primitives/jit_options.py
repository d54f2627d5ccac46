"""The options of ``jaxcompat.jit``: one option set, checked the same way on every release."""

from __future__ import annotations

import dataclasses
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .._version import JAX_VERSION_STRING

#: Every option ``jaxcompat.jit`` accepts, on every JAX release.
JIT_OPTIONS = (
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "compiler_options",
)


def newest_jit_signature() -> inspect.Signature:
    """The newest ``jax.jit``'s signature, ``(fun=None, /, *, in_shardings=..., ...)``, which
    ``jaxcompat.jit`` shows on every release: it takes every one of those options (each
    checked by :func:`check_options`). Defaults are the installed ``jax.jit``'s where it has
    the option (its own "unspecified" marker for the shardings), else None (False for the
    flags)."""
    import jax  # the one place here that needs JAX: after the backend is selected

    try:
        installed = inspect.signature(jax.jit).parameters
    except (TypeError, ValueError):
        installed = {}  # type: ignore[assignment]
    parameters = [
        inspect.Parameter("fun", inspect.Parameter.POSITIONAL_ONLY, default=None),
    ]
    for name in JIT_OPTIONS:
        default = installed[name].default if name in installed else None
        if name in ("keep_unused", "inline") and name not in installed:
            default = False
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
    return inspect.Signature(parameters)


_NOT_FORWARDED = {
    "abstracted_axes": "it only works with the experimental jax_dynamic_shapes flag, and "
    "JAX 0.8.2 removed it",
    "fun": "pass the function positionally: jit(f, ...)",
}


@dataclasses.dataclass(frozen=True)
class JitTraits:
    """What a backend's JAX release does, for the jit machinery.

    Attributes:
        missing_options: options this release's ``jax.jit`` lacks, mapped to the first JAX
            release that has them and to the fix to suggest.
        native_trace: ``jax.jit(f).trace`` exists and returns ``jax.stages.Traced``.
        native_eval_shape: ``jax.jit(f).eval_shape`` exists.
        normalize_lowered: applied to every ``Lowered`` handed out.
        normalize_traced: applied to every native ``Traced`` handed out.
        hand_back_jax_jit: ``jax.jit``'s own object already behaves as the newest's for a
            plain function (its ``lower``, ``trace`` and ``eval_shape`` live on its type, JAX
            0.6.0), so ``jaxcompat.jit`` of one is that object.
        flatten_segfaults: jaxlib's C++ flatten segfaults on an argument that contains itself
            or nests deeper than it can recurse (jaxlib 0.4.13): jaxcompat's jitted functions
            and methods, their ``lower``, ``trace`` and ``eval_shape``, and
            ``jaxcompat.lower``/``trace`` refuse such an argument first (``cycles``).
    """

    missing_options: Mapping[str, tuple[str, str]]
    native_trace: bool
    native_eval_shape: bool
    normalize_lowered: Callable[[Any], Any]
    normalize_traced: Callable[[Any], Any] = lambda traced: traced
    hand_back_jax_jit: bool = False
    flatten_segfaults: bool = False


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, (tuple, list, dict, str)) and len(value) == 0)


def check_options(options: Mapping[str, Any], traits: JitTraits) -> dict[str, Any]:
    """Validate ``options`` and return the ones to forward to ``jax.jit``."""
    forwarded = {}
    for name, value in options.items():
        if name not in JIT_OPTIONS:
            why = _NOT_FORWARDED.get(name)
            hint = f" ({why})" if why else f". Valid options: {', '.join(JIT_OPTIONS)}"
            raise TypeError(f"jit() got an unexpected keyword argument {name!r}{hint}")
        if name in traits.missing_options:
            if _is_empty(value):  # the default: asking for nothing is not ignoring anything
                continue
            release, fix = traits.missing_options[name]
            raise TypeError(
                f"jit option {name!r} needs JAX {release} or newer, but JAX "
                f"{JAX_VERSION_STRING} is installed. Upgrade JAX, or {fix}."
            )
        if name in ("static_argnames", "donate_argnames") and value is not None:
            # JAX 0.4.31-0.4.35 match argument names by identity somewhere on the call path:
            # an equal but separate string (one read back by pickle, say) ends the call in
            # "RuntimeError: generator raised StopIteration". Interned names always match.
            value = _intern_names(value)
        forwarded[name] = value
    return forwarded


def _intern_names(value: Any) -> Any:
    if isinstance(value, str):
        return sys.intern(value)
    return tuple(sys.intern(v) if isinstance(v, str) else v for v in value)


def as_tuple(value: int | str | Iterable[Any] | None) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, (int, str)):
        return (value,)
    return tuple(value)


def _parameters(fun: Callable[..., Any]) -> list[inspect.Parameter] | None:
    try:
        return list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return None


_ARGUMENT_OPTIONS = ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames")


def check_against_signature(fun: Callable[..., Any], options: Mapping[str, Any]) -> None:
    """Raise what the newest ``jax.jit`` raises for argument options ``fun`` cannot take.

    JAX 0.4.13 only gives a SyntaxWarning for positions past the last parameter and for
    names that are not parameters (an error from 0.4.14), and words a static/donate overlap
    differently; every release gets the newest ValueError and message.
    """
    if not any(options.get(name) is not None for name in _ARGUMENT_OPTIONS):
        return  # nothing to check (lower/trace of a wrapper): no signature to read
    parameters = _parameters(fun)
    if parameters is None:
        return
    kinds = {p.kind for p in parameters}
    positional = [
        p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    for option in ("static_argnums", "donate_argnums"):
        numbers = as_tuple(options.get(option))
        if inspect.Parameter.VAR_POSITIONAL in kinds or not numbers:
            continue
        count = len(positional)
        if any(not -count <= i < count for i in numbers):
            raise ValueError(
                f"Jitted function has {option}={numbers}, but only accepts {count} positional "
                "arguments."
            )
    named = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    for option in ("static_argnames", "donate_argnames"):
        names = as_tuple(options.get(option))
        invalid = set(names) - named
        if inspect.Parameter.VAR_KEYWORD not in kinds and invalid:
            raise ValueError(
                f"Jitted function has invalid argnames {invalid} in {option}. Function does "
                "not take these args."
            )
    static, donated = (
        set(resolve_argnums_argnames(fun, options.get(f"{kind}_argnums"), options.get(names))[1])
        for kind, names in (("static", "static_argnames"), ("donate", "donate_argnames"))
    )
    if static & donated:
        raise ValueError(
            "static_argnames and donate_argnames cannot intersect. Argument names "
            f"{static & donated} appear in both static_argnames and donate_argnames"
        )


def first_parameter(fun: Callable[..., Any]) -> str | None:
    parameters = _parameters(fun)
    if parameters and parameters[0].kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        return parameters[0].name
    return None


def resolve_argnums_argnames(
    fun: Callable[..., Any], argnums: Any, argnames: Any
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Complete positions from names and names from positions, as ``jax.jit`` does."""
    positions, keywords = as_tuple(argnums), as_tuple(argnames)
    if not positions and not keywords:
        return (), ()  # nothing to complete: no signature to read (lower of a wrapper)
    parameters = _parameters(fun)
    if parameters is None:
        return positions, keywords
    by_position = [
        p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    named = [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    extra_positions = tuple(i for i, name in enumerate(by_position) if name in keywords)
    extra_names = tuple(
        by_position[i] for i in positions if 0 <= i < len(by_position) and by_position[i] in named
    )
    positions = tuple(sorted(set(positions + extra_positions)))
    keywords = tuple(dict.fromkeys(keywords + extra_names))
    return positions, keywords


def static_arguments(
    fun: Callable[..., Any], options: Mapping[str, Any]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The positions and names of ``fun``'s static arguments under ``options``."""
    return resolve_argnums_argnames(
        fun, options.get("static_argnums"), options.get("static_argnames")
    )


def self_is_static(fun: Callable[..., Any], options: Mapping[str, Any]) -> bool:
    """``static_argnums=0`` (or self's name in ``static_argnames``): self is hashed, as in JAX."""
    if 0 in as_tuple(options.get("static_argnums")):
        return True
    first = first_parameter(fun)
    return first is not None and first in as_tuple(options.get("static_argnames"))
