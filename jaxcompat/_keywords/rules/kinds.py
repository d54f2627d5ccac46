"""What a newest keyword that the installed release's function lacks becomes: the
:class:`KeywordRule` (the rules themselves are in ``functions.py``), and the three outcomes that
are not a helper.

Passing a rule's default is always the same as leaving the keyword out. Another value
(``other_values`` of the rule) is:

* ``UNSUPPORTED``: a TypeError naming the function, the installed release and the first
  release that takes the value, with ``reason``;
* ``REFUSED_BY_NEWEST``: a NotImplementedError, as the newest JAX raises for it too;
* ``NOT_ADAPTED_YET``: a TypeError naming the first release, for any value (see
  ``keywords.rule_for``);
* a :class:`Helper`: honoured, by the function it names as ``module:function`` under
  ``jaxcompat`` (``Helper("_keywords.newest_keyword_helpers:placed_on_device")``: the result is put
  on the device or sharding given, as the newest ``device=`` does), which composes the newest
  behaviour from the release's own function. ``_keywords/adapter.py`` imports it on the
  first wrap that needs it.

The refusals and helpers are plain data rather than functions because they are read as data:
by the adapter, by ``jaxcompat check`` and by the docs generator, none of which may import
JAX to learn them. Plain data: imports nothing from JAX.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

__all__ = [
    "NOT_ADAPTED_YET",
    "NO_DEFAULT",
    "REFUSALS",
    "REFUSED_BY_NEWEST",
    "UNSUPPORTED",
    "Helper",
    "KeywordRule",
    "Refusal",
    "helper_name",
]


class Refusal(enum.Enum):
    """What a rule does with another value than its default where no helper honours it."""

    UNSUPPORTED = "unsupported"
    NOT_ADAPTED_YET = "not adapted yet"
    REFUSED_BY_NEWEST = "refused by the newest"


UNSUPPORTED = Refusal.UNSUPPORTED
NOT_ADAPTED_YET = Refusal.NOT_ADAPTED_YET
REFUSED_BY_NEWEST = Refusal.REFUSED_BY_NEWEST


class Helper(str):
    """The function that honours a rule's other values, ``"module:function"`` under
    ``jaxcompat``: its name, so that this data imports no JAX (``adapter.helper`` imports it
    on the first wrap that needs it). A str, so that looking it up costs what a str does."""

    __slots__ = ()


class _NoDefault:
    """The default of a parameter the newest signature requires, or whose default the data
    does not keep (not a plain value): no value passed is the same as leaving it out."""

    def __repr__(self) -> str:
        return "<needs a newer JAX>"


NO_DEFAULT = _NoDefault()


@dataclass(frozen=True)
class KeywordRule:
    """What a newest parameter becomes before the first release whose function names it."""

    parameter: str
    #: What a value other than the default becomes: a refusal, or the helper that honours it.
    other_values: Refusal | Helper
    #: Why, said after "JAX X.Y.Z ..." (UNSUPPORTED) or after the refusal (REFUSED_BY_NEWEST).
    reason: str = ""
    #: The newest default: passing it is the same as leaving the keyword out.
    default: Any = None
    #: The JAX paths the rule is for; None: every callable whose newest signature has it.
    paths: frozenset[str] | None = None
    #: The first release whose own function honours the parameter as the newest does, where
    #: that is later than the first that names it; before, the rule applies all the same.
    fixed_in: str | None = None
    #: The first release whose own function gets the parameter wrong again, where one does:
    #: the rule applies from there on too, up to ``fixed_again_in``.
    broken_from: str | None = None
    #: The first release after ``broken_from`` whose own function is right again, as the
    #: newest JAX's is by definition: from there on JAX's own object is kept.
    fixed_again_in: str | None = None
    #: For a function that is NumPy's (``jnp.savez``): the first NumPy whose function takes
    #: the parameter; the rule applies with an older NumPy, whatever the JAX release.
    numpy_fixed_in: str | None = None
    #: For a parameter whose newest values the release's function lacks although it names
    #: the parameter (quantile's method="inverted_cdf"): those values, which the rule
    #: honours before ``fixed_in``; any other value is the release's own call, as written.
    #: (Where the release's function lacks the parameter itself, the rule takes every value
    #: but the default, as any rule does.)
    new_values: tuple[Any, ...] | None = None


#: The outcomes of a rule that are not a helper.
REFUSALS = frozenset(Refusal)


def helper_name(rule: KeywordRule) -> Helper | None:
    """The helper that honours ``rule``'s other values, or None where the rule refuses them."""
    return rule.other_values if isinstance(rule.other_values, Helper) else None
