"""What the newest-keyword wrappers (``adapter.py`` and its helpers) share: which
values are the same as leaving a keyword out, the clear error for one the release cannot
take, and the newest signature they show."""

from __future__ import annotations

import inspect
from typing import Any

from .._releases import parse_release
from .._version import JAX_VERSION_STRING
from .rules.kinds import (
    NO_DEFAULT,
    NOT_ADAPTED_YET,
    REFUSED_BY_NEWEST,
    KeywordRule,
)

__all__ = [
    "EMPTY_AS",
    "is_default",
    "is_new_value",
    "places_nothing",
    "positional_names",
    "refusal",
    "with_newest_parameters",
]


def is_new_value(value: Any, new_values: tuple[Any, ...]) -> bool:
    """Whether ``value`` is one of a parameter's newest values (plain values: a str, ...)."""
    return any(type(value) is type(new) and value == new for new in new_values)


#: The empty collections the newest JAX reads as an empty default of each type: its
#: PartitionSpec turns a set into a frozenset (``unreduced=set()``); a tuple stays a tuple.
EMPTY_AS: dict[type, tuple[type, ...]] = {frozenset: (frozenset, set), tuple: (tuple,)}


def is_default(value: Any, default: Any) -> bool:
    """Whether ``value`` is the newest default: the very object, a plain value (an int, a
    str, ...) of the same type equal to it (never an array's elementwise ``==``), or, for an
    empty frozenset or tuple default, an empty collection the newest reads as it."""
    if value is default:
        return True
    if type(default) in EMPTY_AS and not default:
        return type(value) in EMPTY_AS[type(default)] and not value
    return (
        type(value) is type(default) and type(value) in (bool, int, float, str) and value == default
    )


def places_nothing(name: str, value: Any) -> bool:
    """Whether ``out_sharding=value`` asks for no placement at all: a sharding over a mesh
    with no axes, which is what ``jax.typeof(x).sharding`` is for an array outside any mesh
    (JAX 0.5.1 on). A library that reads the newest signature passes it on (optax's
    ``tree_random_like``: ``out_sharding=jax.typeof(leaf).sharding``); the newest JAX then
    places the result as it does without it."""
    mesh = getattr(value, "mesh", None)
    return name == "out_sharding" and mesh is not None and not getattr(mesh, "axis_names", 1)


def refusal(
    public_path: str,
    jax_path: str,
    name: str,
    first: str,
    rule: KeywordRule,
    named_by_release: bool = False,
) -> Exception:
    """The clear error for ``name=`` (another value than its default) on this release;
    ``named_by_release``: the release's function names the parameter, but reads it otherwise
    (before the rule's ``fixed_in``)."""
    if rule.other_values == REFUSED_BY_NEWEST:
        return NotImplementedError(
            f"jaxcompat.{public_path}({name}=...) takes only {name}={rule.default!r}, as in "
            f"the newest JAX, which raises NotImplementedError for any other value: "
            f"{rule.reason}. Pass {name}={rule.default!r} or leave it out."
        )
    if rule.other_values == NOT_ADAPTED_YET:
        return TypeError(
            f"jaxcompat.{public_path}({name}=...) needs JAX {first} or newer: JAX "
            f"{JAX_VERSION_STRING}'s {jax_path} has no {name} parameter, and jaxcompat does not "
            f"provide it there yet. Leave {name} out, or upgrade JAX."
        )
    if rule.fixed_in is not None and parse_release(rule.fixed_in) > parse_release(first):
        first = rule.fixed_in  # the first release that reads it as the newest does
    # UNSUPPORTED, or a name the release's class does not have under another name either
    if rule.default is NO_DEFAULT:  # a parameter the newest requires
        way_out = f"Upgrade JAX, or call it as JAX {JAX_VERSION_STRING}'s own is called."
    else:
        way_out = f"Pass {name}={rule.default!r}, the default, or leave it out; or upgrade JAX."
    lacks = "reads it otherwise" if named_by_release else f"has no {name} parameter"
    return TypeError(
        f"jaxcompat.{public_path}({name}=...) needs JAX {first} or newer: JAX "
        f"{JAX_VERSION_STRING} {rule.reason} (its {jax_path} {lacks}). " + way_out
    )


def with_newest_parameters(
    own: inspect.Signature, missing: dict[str, tuple[str, KeywordRule]], by_position: list[str]
) -> inspect.Signature:
    """``own`` with the missing parameters added where the newest signature has them."""

    def default(name: str) -> Any:
        found = missing[name][1].default
        return inspect.Parameter.empty if found is NO_DEFAULT else found

    parameters = list(own.parameters.values())
    positional_end = sum(
        p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for p in parameters
    )
    for offset, name in enumerate(by_position):
        parameters.insert(
            positional_end + offset,
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default(name)),
        )
    keyword_end = len(parameters) - (
        parameters[-1].kind is inspect.Parameter.VAR_KEYWORD if parameters else 0
    )
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default(name))
        for name in missing
        if name not in by_position and name not in own.parameters
    ]
    parameters[keyword_end:keyword_end] = added
    return own.replace(parameters=parameters)


def positional_names(signature: str) -> list[str]:
    """The parameters a signature string lets be passed by position, in order."""
    names = []
    for part in signature.split(","):
        if part == "*" or part.startswith("*"):
            break
        if part and part != "/":
            names.append(part.partition("=")[0])
    return names
