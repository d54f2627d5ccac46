"""Newest constructor keywords on releases whose class lacks them.

A class's rules (``_stable_names/keywords.py``) either refuse a keyword (its default is the
same as leaving it out, any other value a clear error: the release cannot make what it asks
for) or pass it on under the name the release's class gives it (``PASSED_UNDER_THE_RELEASE_NAME``).
No helper composes a class's newest behaviour.

The class built here makes JAX's own objects, so that JAX's checks of an object's type (its
handlers by type) see its class, and ``isinstance``/``issubclass`` with it hold both ways. It
is not JAX's class, so ``type(x) is C`` fails with it: a class that code compares by type
(``ShapeDtypeStruct``) has no rule and stays JAX's own.
"""

from __future__ import annotations

import inspect
from typing import Any

from .._stable_names.keyword_kinds import (
    NOT_ADAPTED_YET,
    PASSED_UNDER_THE_RELEASE_NAME,
    REFUSED_BY_NEWEST,
    UNSUPPORTED,
    KeywordRule,
)
from .._stable_names.keywords import KEYWORD_RULES
from .._surface import parameter_names
from .keyword_values import (
    EMPTY_AS,
    is_default,
    positional_names,
    refusal,
    signature_from,
    with_newest_parameters,
)
from .release_class import stand_in_for, standing_for

__all__ = ["class_taking_newest_keywords"]

#: The kinds of rule a class's constructor follows (see the module's docstring).
_CLASS_KINDS = frozenset(
    {UNSUPPORTED, REFUSED_BY_NEWEST, NOT_ADAPTED_YET, PASSED_UNDER_THE_RELEASE_NAME}
)


#: The class made for each class of JAX's, so that JAX's aliases of one class (``jax.P`` and
#: ``jax.sharding.PartitionSpec``, whose rules are the same) stay one class here too.
_MADE: dict[type, type] = {}


def class_taking_newest_keywords(
    public_path: str,
    jax_path: str,
    release_class: type,
    newest_signature: str,
    newest_defaults: dict[str, Any],
    wanted: dict[str, tuple[str, KeywordRule]],
) -> type:
    """``release_class`` with a constructor that takes every ruled newest keyword it lacks,
    or ``release_class`` itself where it lacks none (or its signature cannot be read, and no
    rule says what it names).

    A subclass that stands for the release's class, whose calls hand back JAX's own object;
    a subclass of it makes objects of that subclass, as subclassing JAX's class does. Where
    JAX's class cannot be subclassed so (PartitionSpec from 0.6.2: built in C++, or refusing
    subclasses from 0.10.1), a class that stands in for it (``release_class.stand_in_for``).
    """
    if release_class in _MADE:
        return _MADE[release_class]
    public_path, jax_path = _named_as_jax_names(release_class, public_path, jax_path)
    try:
        own: inspect.Signature | None = inspect.signature(release_class)
    except (TypeError, ValueError):  # a class built in C++ (PartitionSpec 0.6.2-0.10.0)
        if not any(r.named_from and jax_path in (r.paths or ()) for r in KEYWORD_RULES):
            return release_class  # no rule says what it names (numpy's dtype on old NumPy)
        own = None  # its rules' first releases say what it lacks (KeywordRule.named_from)
    named = own.parameters if own is not None else {}
    in_order = parameter_names(newest_signature)
    missing = {
        p: wanted[p]
        for p in in_order
        # Named by the release's class, but read otherwise before the rule's fixed_in.
        if p in wanted and (p not in named or wanted[p][1].fixed_in is not None)
    }
    if not missing or any(found[1].other_values not in _CLASS_KINDS for found in missing.values()):
        return release_class
    renamed: dict[str, str] = {
        name: rule.release_name
        for name, (_, rule) in missing.items()
        if rule.other_values == PASSED_UNDER_THE_RELEASE_NAME
        and rule.release_name is not None
        and rule.release_name in named
    }
    own_positional = [
        p.name
        for p in named.values()
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    newest_positional = positional_names(newest_signature)
    # Missing parameters that the newest takes by position right after the ones the release's
    # class takes (AbstractDevice's platform, third).
    by_position = []
    if own is not None and newest_positional[: len(own_positional)] == own_positional:
        by_position = [
            p for p in newest_positional[len(own_positional) :] if p in missing and p not in renamed
        ]
    count = len(own_positional)

    def as_the_release_takes(
        args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        kept = dict(kwargs)
        if by_position and len(args) > count:
            for name, value in zip(by_position, args[count:], strict=False):
                if name in kept:
                    raise TypeError(
                        f"jaxcompat.{public_path}() got multiple values for argument {name!r}"
                    )
                kept[name] = value
            args = args[:count] + args[count + len(by_position) :]
        for name, (first, rule) in missing.items():
            if name not in kept or (name in named and not _of_the_newest_kind(kept[name], rule)):
                continue  # left out, or the release's own call (0.6.1's unreduced=("x",))
            value = kept.pop(name)
            if name in renamed:
                if renamed[name] in kept:
                    raise TypeError(
                        f"jaxcompat.{public_path}() got {name}= and {renamed[name]}=, the name "
                        f"JAX's own class gives it: pass one"
                    )
                kept[renamed[name]] = value
            elif not is_default(value, rule.default):
                raise refusal(public_path, jax_path, name, first, rule, name in named)
        return args, kept

    module, _, name = f"jaxcompat.{public_path}".rpartition(".")
    try:
        adapted = _subclass_standing_for(release_class, name, module, as_the_release_takes)
    except TypeError:  # JAX prohibits subclassing it, or its metaclass cannot be subclassed
        adapted = stand_in_for(release_class, name, module, as_the_release_takes)
    if own is not None:  # a renamed parameter shown where the release's class has it
        release_names = {release: newest for newest, release in renamed.items()}
        shown = own.replace(
            parameters=[
                p.replace(name=release_names.get(p.name, p.name)) for p in own.parameters.values()
            ]
        )
        added = {p: found for p, found in missing.items() if p not in renamed}
        newest = with_newest_parameters(shown, added, by_position)
    else:  # it takes the rest of the newest signature itself
        defaults = {**newest_defaults, **{p: rule.default for p, (_, rule) in wanted.items()}}
        newest = signature_from(newest_signature, defaults)
    adapted.__signature__ = newest  # type: ignore[attr-defined]
    adapted.__wrapped__ = release_class  # type: ignore[attr-defined]
    _MADE[release_class] = adapted
    return adapted


def _named_as_jax_names(release_class: type, public_path: str, jax_path: str) -> tuple[str, str]:
    """The public and JAX paths of the alias of ``jax_path`` that bears the release class's
    own name (``sharding.PartitionSpec`` for 0.4.13's class, ``P`` for 0.10.1's, whichever
    alias is read first), so that the one class made for both is named as JAX names it."""
    aliases = {
        path
        for rule in KEYWORD_RULES
        if rule.paths is not None and jax_path in rule.paths
        for path in rule.paths
    }
    for alias in sorted(aliases):
        if alias.rpartition(".")[2] == release_class.__name__:
            return alias.removeprefix("jax."), alias
    return public_path, jax_path


def _of_the_newest_kind(value: Any, rule: KeywordRule) -> bool:
    """Whether ``value``, for a parameter that the release's class names but reads otherwise,
    is of the kind of the newest default (a set or frozenset for PartitionSpec's unreduced=,
    which 0.6.1 reads as one axis name): another value is the release's own call."""
    default_type: type = type(rule.default)
    return type(value) in EMPTY_AS.get(default_type, (default_type,))


def _subclass_standing_for(release_class: type, name: str, module: str, as_taken: Any) -> type:
    """A subclass of ``release_class`` that stands for it, whose own calls make JAX's object
    from the arguments ``as_taken`` turns them into."""
    base: Any = release_class  # its __new__ and __init__ are whatever JAX's class has

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        args, kept = as_taken(args, kwargs)
        if cls is adapted:
            return base(*args, **kept)  # JAX's own object
        if base.__new__ is object.__new__:
            return object.__new__(cls)
        return base.__new__(cls, *args, **kept)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        # Reached by an object of a subclass of this class only: this class's own calls hand
        # back JAX's object, whose class is not this one, so Python does not initialise it.
        if base.__init__ is not object.__init__:
            args, kept = as_taken(args, kwargs)
            base.__init__(self, *args, **kept)

    namespace = {
        "__new__": __new__,
        "__init__": __init__,
        "__slots__": (),
        "__module__": module,
        "__qualname__": name,
        "__doc__": release_class.__doc__,
    }
    adapted: type = standing_for(release_class)(name, (release_class,), namespace)
    return adapted
