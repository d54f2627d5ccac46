"""Newest keywords on releases whose function lacks them, built from one shared wrapper.

Which keyword parameters of a callable's newest signature the installed release's own
function lacks comes from ``_data/newest_keywords.json``; what each becomes, from the rules in
``_stable_names/keywords.py``. :func:`accept_newest_keywords` wraps the release's function
once per name, on first lookup (``_namespace``), so that a call written for the newest JAX
works: the default value is the same as leaving the keyword out, and another value is
honoured (``device=``: the result is put there) or a clear error. Where the release's
function names the parameter, JAX's own object is kept.
"""

from __future__ import annotations

import functools
import inspect
import json
from importlib import resources
from typing import Any

import numpy as np

from .._dispatch import installed_release_in
from .._stable_names.keyword_kinds import (
    NOT_ADAPTED_YET,
    REFUSED_BY_NEWEST,
    UNSUPPORTED,
    KeywordRule,
)
from .._stable_names.keywords import KEYWORD_RULES, rule_for
from .._surface import parameter_names
from .._version import JAX_VERSION_STRING
from .keyword_helpers import HONOURS
from .release_class import standing_for

__all__ = ["accept_newest_keywords", "keywords_to_adapt", "names_to_adapt", "newest_data"]


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
            or (rule.broken_from is not None and _installed_from(rule.broken_from))
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


def _positional_names(signature: str) -> list[str]:
    """The parameters a signature string lets be passed by position, in order."""
    names = []
    for part in signature.split(","):
        if part == "*" or part.startswith("*"):
            break
        if part and part != "/":
            names.append(part.partition("=")[0])
    return names


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
        return _class_taking_newest_keywords(public_path, jax_path, function, wanted)
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
    newest_positional = _positional_names(newest_signature)
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
    namespace = live_in if live_in is not None else {}
    attribute = jax_path.rpartition(".")[2]
    count = len(own_positional)
    new_value_slots = _new_value_slots(own, own_positional, missing)

    @functools.wraps(function)
    def adapted(*args: Any, **kwargs: Any) -> Any:
        if new_value_slots:
            args, kwargs = _new_value_by_name(
                attribute, own_positional, new_value_slots, args, kwargs
            )
        if not kwargs and len(args) <= count:
            # No newest keyword given: the release's own call.
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
        honoured: dict[str, dict[str, Any]] = {}  # helper kind -> the values it honours
        for name, (first, rule) in missing.items():
            if name not in kwargs or (
                rule.new_values is not None
                and name in own.parameters
                and not _is_new_value(kwargs[name], rule.new_values)
            ):
                continue  # left out, or a value the release's own function takes
            value = kwargs.pop(name)
            if _is_default(value, rule.default) or _places_nothing(name, value):
                continue  # the same as leaving it out
            if rule.other_values in (UNSUPPORTED, REFUSED_BY_NEWEST, NOT_ADAPTED_YET):
                raise _refusal(public_path, jax_path, name, first, rule)
            honoured.setdefault(rule.other_values, {})[name] = value
        target = namespace.get(attribute, function)
        for kind, values in honoured.items():
            target = functools.partial(HONOURS[kind], target, jax_path, values)
            # A helper takes the release function's own call, and the next helper reads
            # that call's arguments by this signature (asarray(copy=, device=) stacks two).
            target.__signature__ = own  # type: ignore[attr-defined]
        return target(*args, **kwargs)

    adapted.__signature__ = _newest_signature(own, missing, by_position)  # type: ignore[attr-defined]
    # Named where it lives, so that pickle (which saves a function by module and name, and
    # checks it finds the very same object there) saves it as JAX's own function is saved.
    module, _, name = f"jaxcompat.{public_path}".rpartition(".")
    adapted.__module__, adapted.__qualname__ = module, name
    return adapted


#: What a class's constructor does with a newest keyword it lacks: its default is left out,
#: any other value refused (no helper composes a class's newest behaviour).
_REFUSALS = frozenset({UNSUPPORTED, REFUSED_BY_NEWEST, NOT_ADAPTED_YET})


def _class_taking_newest_keywords(
    public_path: str, jax_path: str, release_class: type, wanted: dict[str, tuple[str, KeywordRule]]
) -> type:
    """``release_class`` with a constructor that takes every ruled newest keyword it lacks:
    the default is the same as leaving it out, any other value a clear error.

    A subclass that stands for the release's class (``isinstance`` and ``issubclass`` hold
    both ways, for objects JAX makes itself too), whose calls hand back JAX's own object, so
    that JAX's own checks of an object's type (its handlers by type, ``type(x) is``) see its
    class. A subclass of it makes objects of that subclass, as subclassing JAX's class does.
    Where JAX prohibits subclassing its class, the release's class as it is.
    """
    try:
        own = inspect.signature(release_class)
    except (TypeError, ValueError):
        return release_class
    in_order = parameter_names(_added()[jax_path][0])
    missing = {p: wanted[p] for p in in_order if p in wanted and p not in own.parameters}
    if not missing or any(found[1].other_values not in _REFUSALS for found in missing.values()):
        return release_class

    def without_newest(kwargs: dict[str, Any]) -> dict[str, Any]:
        kept = dict(kwargs)
        for name, (first, rule) in missing.items():
            if name in kept and not _is_default(kept.pop(name), rule.default):
                raise _refusal(public_path, jax_path, name, first, rule)
        return kept

    base: Any = release_class  # its __new__ and __init__ are whatever JAX's class has

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        kept = without_newest(kwargs)
        if cls is adapted:
            return base(*args, **kept)  # JAX's own object
        if base.__new__ is object.__new__:
            return object.__new__(cls)
        return base.__new__(cls, *args, **kept)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        # Reached by an object of a subclass of this class only: this class's own calls hand
        # back JAX's object, whose class is not this one, so Python does not initialise it.
        if base.__init__ is not object.__init__:
            base.__init__(self, *args, **without_newest(kwargs))

    module, _, name = f"jaxcompat.{public_path}".rpartition(".")
    namespace = {
        "__new__": __new__,
        "__init__": __init__,
        "__slots__": (),
        "__module__": module,
        "__qualname__": name,
        "__doc__": release_class.__doc__,
    }
    try:
        adapted: type = standing_for(release_class)(name, (release_class,), namespace)
    except TypeError:  # JAX prohibits subclassing it (jax.P from 0.7.0)
        return release_class
    adapted.__signature__ = _newest_signature(own, missing, [])  # type: ignore[attr-defined]
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
        if len(args) > index and _is_new_value(args[index], new_values):
            by_name = dict(zip(own_positional[index:], args[index:], strict=False))
            clashes = [name for name in by_name if name in kwargs]
            if clashes:
                raise TypeError(
                    f"{function_name}() got multiple values for argument {clashes[0]!r}"
                )
            return args[:index], {**by_name, **kwargs}
    return args, kwargs


def _is_new_value(value: Any, new_values: tuple[Any, ...]) -> bool:
    """Whether ``value`` is one of a parameter's newest values (plain values: a str, ...)."""
    return any(type(value) is type(new) and value == new for new in new_values)


def _is_default(value: Any, default: Any) -> bool:
    """Whether ``value`` is the newest default: the very object, or a plain value (an int, a
    str, ...) of the same type equal to it (never an array's elementwise ``==``)."""
    return value is default or (
        type(value) is type(default) and type(value) in (bool, int, float, str) and value == default
    )


def _places_nothing(name: str, value: Any) -> bool:
    """Whether ``out_sharding=value`` asks for no placement at all: a sharding over a mesh
    with no axes, which is what ``jax.typeof(x).sharding`` is for an array outside any mesh
    (JAX 0.5.1 on). A library that reads the newest signature passes it on (optax's
    ``tree_random_like``: ``out_sharding=jax.typeof(leaf).sharding``); the newest JAX then
    places the result as it does without it."""
    mesh = getattr(value, "mesh", None)
    return name == "out_sharding" and mesh is not None and not getattr(mesh, "axis_names", 1)


def _refusal(
    public_path: str, jax_path: str, name: str, first: str, rule: KeywordRule
) -> Exception:
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
    assert rule.other_values == UNSUPPORTED, rule
    return TypeError(
        f"jaxcompat.{public_path}({name}=...) needs JAX {first} or newer: JAX "
        f"{JAX_VERSION_STRING} {rule.reason} (its {jax_path} has no {name} parameter). Pass "
        f"{name}={rule.default!r}, the default, or leave it out; or upgrade JAX."
    )


def _newest_signature(
    own: inspect.Signature, missing: dict[str, tuple[str, KeywordRule]], by_position: list[str]
) -> inspect.Signature:
    """``own`` with the missing parameters added where the newest signature has them."""
    parameters = list(own.parameters.values())
    positional_end = sum(
        p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for p in parameters
    )
    for offset, name in enumerate(by_position):
        parameters.insert(
            positional_end + offset,
            inspect.Parameter(
                name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=missing[name][1].default
            ),
        )
    keyword_end = len(parameters) - (
        parameters[-1].kind is inspect.Parameter.VAR_KEYWORD if parameters else 0
    )
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=missing[name][1].default)
        for name in missing
        if name not in by_position and name not in own.parameters
    ]
    parameters[keyword_end:keyword_end] = added
    return own.replace(parameters=parameters)
