"""Newest keywords on releases whose function lacks them, built from one shared wrapper.

Which keyword parameters of a callable's newest signature the installed release's own
function lacks comes from ``_data/newest_keywords.json``; what each becomes, from the rules in
``_keywords/rules/functions.py``. :func:`accept_newest_keywords` wraps the release's function
once per name, on first lookup (``_namespace``), so that a call written for the newest JAX
works: the default value is the same as leaving the keyword out, and another value is
honoured (``device=``: the result is put there) or a clear error. Where the release's
function names the parameter, JAX's own object is kept. A class is never wrapped: jaxcompat
gives JAX's own class, whose constructor takes what the release's takes
(``_keywords/rules/classes.py``). The values shared with other wrappers (which values
are the default, the clear error) are in ``values.py``; the helpers that honour a keyword are
named by its rule and imported on the first wrap that needs them (:func:`helper`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import sys
from collections.abc import Callable
from importlib import resources
from typing import Any

import numpy as np

from .._dispatch import installed_release_in
from .._surface import parameter_names
from .rules.functions import KEYWORD_RULES, rule_for
from .rules.kinds import NOT_ADAPTED_YET, Helper, KeywordRule, helper_name
from .values import (
    is_default,
    is_new_value,
    places_nothing,
    positional_names,
    refusal,
    with_newest_parameters,
)

__all__ = [
    "accept_newest_keywords",
    "helper",
    "keywords_to_adapt",
    "names_to_adapt",
    "newest_data",
]


@functools.cache
def newest_data() -> dict[str, Any]:
    """``_data/newest_keywords.json`` (written from the API surface data): ``callables``,
    ``{jax path: (newest signature, {parameter: first release})}`` (see ``_surface``);
    ``defaults``, ``{jax path: {parameter: newest default}}`` where JSON keeps the default as
    it is (None, a bool, a number, a str); and ``config_options``, ``{option of the newest
    jax.config: first release}``."""
    text = (resources.files("jaxcompat") / "_data" / "newest_keywords.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


@functools.cache
def helper(name: str) -> Callable[..., Any]:
    """The helper a rule names, ``module:function`` under ``jaxcompat``: it takes (the
    release's function, its JAX path, {keyword: value}, *args, **kwargs) and composes the
    newest behaviour from the release's own function."""
    module, _, function = name.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(f"jaxcompat.{module}"), function)
    return found


def _added() -> dict[str, tuple[str, dict[str, str]]]:
    found: dict[str, tuple[str, dict[str, str]]] = newest_data()["callables"]
    return found


def keywords_to_adapt(jax_path: str) -> dict[str, tuple[str, KeywordRule]]:
    """The ruled parameters of ``jax_path``'s newest signature that the installed release
    predates: ``{parameter: (first release that names it, rule)}``."""
    entry = _added().get(jax_path)
    if entry is None:
        return {}
    found = {}
    for parameter, first in entry[1].items():
        if _installed_from(first) and not _ruled_past_first(parameter):
            continue  # the release's own function takes it (the usual case): no rule needed
        rule = rule_for(jax_path, parameter, _newest_defaults(jax_path))
        if rule is None:
            continue
        if (
            not _installed_from(first)
            or (rule.fixed_in is not None and not _installed_from(rule.fixed_in))
            or _broken_here(rule)
            or (rule.numpy_fixed_in is not None and not _numpy_from(rule.numpy_fixed_in))
        ):
            found[parameter] = (first, rule)
    # Newest values of parameters the release's function names (not in the keyword data,
    # which records parameters): from the release that takes them, the release's own.
    for rule in KEYWORD_RULES:
        if (
            rule.new_values is not None
            and rule.paths is not None
            and jax_path in rule.paths
            and rule.fixed_in is not None
            and not _installed_from(rule.fixed_in)
        ):
            found.setdefault(rule.parameter, (rule.fixed_in, rule))
    return found


def _newest_defaults(jax_path: str) -> dict[str, Any]:
    """The newest defaults of ``jax_path``'s added parameters, where the data keeps them."""
    found: dict[str, Any] = newest_data()["defaults"].get(jax_path, {})
    return found


def _broken_here(rule: KeywordRule) -> bool:
    """Whether the installed release's own function gets ``rule``'s parameter wrong again
    (``KeywordRule.broken_from``, up to ``fixed_again_in``)."""
    if rule.broken_from is None or not _installed_from(rule.broken_from):
        return False
    return rule.fixed_again_in is None or not _installed_from(rule.fixed_again_in)


@functools.cache
def _installed_from(release: str) -> bool:
    """Whether the installed JAX is ``release`` or newer (asked for a few dozen releases)."""
    return installed_release_in(f">={release}")


@functools.cache
def _ruled_past_first(parameter: str) -> bool:
    """Whether some rule for ``parameter`` may apply past its first release (``fixed_in``,
    ``broken_from``, ``numpy_fixed_in``)."""
    return any(
        r.parameter == parameter
        and (r.fixed_in is not None or r.broken_from is not None or r.numpy_fixed_in is not None)
        for r in KEYWORD_RULES
    )


@functools.cache
def _numpy_from(release: str) -> bool:
    """Whether the installed NumPy is ``release`` or newer."""
    return bool(np.lib.NumpyVersion(np.__version__) >= release)


def names_to_adapt(jax_module: str) -> set[str]:
    """The names directly in ``jax_module`` with a newest keyword to adapt on this release."""
    prefix = f"{jax_module}."
    return {
        path[len(prefix) :]
        for path in _added()
        if path.startswith(prefix) and "." not in path[len(prefix) :] and keywords_to_adapt(path)
    }


def accept_newest_keywords(
    public_path: str, jax_path: str, function: Any, live_in: dict[str, Any] | None = None
) -> Any:
    """``function`` taking every ruled newest parameter it lacks, or ``function`` itself.

    ``live_in``: JAX's module namespace, from which the function is read again on each call
    (so that a patch of JAX's module is seen); by default ``function`` itself is called.
    """
    wanted = keywords_to_adapt(jax_path)
    if not wanted or not callable(function):
        return function
    if isinstance(function, type):
        return function  # JAX's own class, whatever its constructor takes (rules/classes.py)
    try:
        own = inspect.signature(function)
    except (TypeError, ValueError):
        return function
    takes_any_keyword = any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in own.parameters.values()
    )
    missing = {
        p: found
        for p, found in wanted.items()
        # Named by the release's function only where it is not right there yet (or again).
        if (p not in own.parameters or found[1].fixed_in or found[1].broken_from)
        and not (takes_any_keyword and found[1].other_values == NOT_ADAPTED_YET)
    }
    if not missing:
        return function
    newest_signature = _added()[jax_path][0]
    missing = {name: missing[name] for name in parameter_names(newest_signature) if name in missing}
    kinds = [p.kind for p in own.parameters.values()]
    own_positional = [
        p.name
        for p in own.parameters.values()
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    newest_positional = positional_names(newest_signature)
    # Missing parameters that the newest signature takes by position right after the ones
    # this release's function takes (conv_general_dilated's out_sharding, say).
    by_position: list[str] = []
    if (
        inspect.Parameter.VAR_POSITIONAL not in kinds
        and newest_positional[: len(own_positional)] == own_positional
    ):
        for name in newest_positional[len(own_positional) :]:
            if name not in missing or missing[name][1].other_values == NOT_ADAPTED_YET:
                break
            by_position.append(name)
    # The helpers this function's rules name, imported here once rather than on each call.
    helpers = {
        named: helper(named)
        for _, rule in missing.values()
        if (named := helper_name(rule)) is not None
    }
    namespace = live_in if live_in is not None else {}
    attribute = jax_path.rpartition(".")[2]
    count = len(own_positional)
    new_value_slots = _new_value_slots(own, own_positional, missing)
    adapted_names = frozenset(missing)
    # How many positional arguments a call may pass and be the release's own call as it is:
    # any number, unless a newest parameter follows the release's own by position, or a
    # newest value may come by position (quantile's method, sixth).
    own_call_positions = min(
        [index for index, _ in new_value_slots] + [count if by_position else sys.maxsize]
    )

    def call_adapting(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if new_value_slots:
            args, kwargs = _new_value_by_name(
                attribute, own_positional, new_value_slots, args, kwargs
            )
        if not kwargs and len(args) <= count:
            return namespace.get(attribute, function)(*args)
        if by_position and len(args) > count:
            extra, args = (
                args[count : count + len(by_position)],
                args[:count] + args[count + len(by_position) :],
            )
            for name, value in zip(by_position, extra, strict=False):
                if name in kwargs:
                    raise TypeError(
                        f"jaxcompat.{public_path}() got multiple values for argument {name!r}"
                    )
                kwargs[name] = value
        honoured: dict[Helper, dict[str, Any]] = {}  # helper -> the values it honours
        for name, (first, rule) in missing.items():
            if name not in kwargs or (
                rule.new_values is not None
                and name in own.parameters
                and not is_new_value(kwargs[name], rule.new_values)
            ):
                continue  # left out, or a value the release's own function takes
            value = kwargs.pop(name)
            if is_default(value, rule.default) or places_nothing(name, value):
                continue  # the same as leaving it out
            named = helper_name(rule)
            if named is None:
                raise refusal(public_path, jax_path, name, first, rule, name in own.parameters)
            honoured.setdefault(named, {})[name] = value
        target = namespace.get(attribute, function)
        for helper_path, values in honoured.items():
            target = functools.partial(helpers[helper_path], target, jax_path, values)
            # A helper takes the release function's own call, and the next helper reads
            # that call's arguments by this signature (asarray(copy=, device=) stacks two).
            target.__signature__ = own  # type: ignore[attr-defined]
        return target(*args, **kwargs)

    # Most calls give no newest keyword: they are the release's own call, with as little as
    # possible before it (few closure cells, no method call, no keywords to pass on where
    # there are none), since that is the whole of the wrapper's cost.
    def own_call(*args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            try:
                own_function = namespace[attribute]
            except KeyError:  # not read live, or deleted from JAX's module
                own_function = function
            return own_function(*args)
        if adapted_names.isdisjoint(kwargs):
            return namespace.get(attribute, function)(*args, **kwargs)
        return call_adapting(args, kwargs)

    # The same, for a function where a newest parameter or value may come by position.
    def own_call_by_few_positions(*args: Any, **kwargs: Any) -> Any:
        if len(args) <= own_call_positions and (not kwargs or adapted_names.isdisjoint(kwargs)):
            return namespace.get(attribute, function)(*args, **kwargs)
        return call_adapting(args, kwargs)

    adapted = functools.wraps(function)(
        own_call if own_call_positions == sys.maxsize else own_call_by_few_positions
    )
    adapted.__signature__ = with_newest_parameters(own, missing, by_position)  # type: ignore[attr-defined]
    # Named where it lives, so that pickle (which saves a function by module and name, and
    # checks it finds the very same object there) saves it as JAX's own function is saved.
    module, _, name = f"jaxcompat.{public_path}".rpartition(".")
    adapted.__module__, adapted.__qualname__ = module, name
    return adapted


def _new_value_slots(
    own: inspect.Signature,
    own_positional: list[str],
    missing: dict[str, tuple[str, KeywordRule]],
) -> list[tuple[int, tuple[Any, ...]]]:
    """Where the release's function takes, by position, a parameter some of whose newest values
    it lacks (quantile's method, sixth): ``[(position, newest values)]``. Only positions from
    which every parameter can also be passed by name."""
    slots = []
    for name, (_, rule) in missing.items():
        if rule.new_values is None or name not in own_positional:
            continue
        index = own_positional.index(name)
        if all(
            own.parameters[later].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
            for later in own_positional[index:]
        ):
            slots.append((index, rule.new_values))
    return slots


def _new_value_by_name(
    function_name: str,
    own_positional: list[str],
    slots: list[tuple[int, tuple[Any, ...]]],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A newest value passed by position (``quantile(a, q, None, None, False, "inverted_cdf")``)
    moved to its name, with every positional argument after it, so that the rule sees it as it
    sees the keyword; any other call as it is. A parameter given both ways is the TypeError
    Python gives the release's own function."""
    for index, new_values in slots:
        if len(args) > index and is_new_value(args[index], new_values):
            by_name = dict(zip(own_positional[index:], args[index:], strict=False))
            clashes = [name for name in by_name if name in kwargs]
            if clashes:
                raise TypeError(
                    f"{function_name}() got multiple values for argument {clashes[0]!r}"
                )
            return args[:index], {**by_name, **kwargs}
    return args, kwargs
