"""What a newest keyword that the installed release's function lacks becomes: the
:class:`KeywordRule` (the rules themselves are in ``keywords.py``), and the three outcomes that
are not a helper.

Passing a rule's default is always the same as leaving the keyword out. Another value
(``other_values`` of the rule) is:

* ``UNSUPPORTED``: a TypeError naming the function, the installed release and the first
  release that takes the value, with ``reason``;
* ``REFUSED_BY_NEWEST``: a NotImplementedError, as the newest JAX raises for it too;
* ``NOT_ADAPTED_YET``: a TypeError naming the first release, for any value (see
  ``keywords.rule_for``);
* anything else: honoured, by the helper the rule names as ``module:function`` under
  ``jaxcompat`` (``"_keywords.newest_keyword_helpers:placed_on_device"``: the result is put
  on the device or sharding given, as the newest ``device=`` does), which composes the newest
  behaviour from the release's own function. ``_keywords/adapter.py`` imports it on the
  first wrap that needs it.

The three outcomes are plain strings rather than helpers because they are read as data: by
the adapter, by ``jaxcompat check`` and by the docs generator, none of which may import JAX
to learn them. Plain data: imports nothing from JAX.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "NOT_ADAPTED_YET",
    "NO_DEFAULT",
    "REFUSALS",
    "REFUSED_BY_NEWEST",
    "UNSUPPORTED",
    "KeywordRule",
    "helper_name",
]

UNSUPPORTED = "unsupported"
NOT_ADAPTED_YET = "not adapted yet"
REFUSED_BY_NEWEST = "refused by the newest"


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
    #: What a value other than the default becomes: ``UNSUPPORTED``, ``REFUSED_BY_NEWEST``,
    #: ``NOT_ADAPTED_YET``, or the helper that honours it, ``"module:function"`` under
    #: ``jaxcompat`` (a string, so that this data imports no JAX: see ``helper_name``).
    other_values: str
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
REFUSALS = frozenset({UNSUPPORTED, REFUSED_BY_NEWEST, NOT_ADAPTED_YET})


def helper_name(rule: KeywordRule) -> str | None:
    """The ``module:function`` (under ``jaxcompat``) that honours ``rule``'s other values, or
    None where the rule refuses them."""
    return None if rule.other_values in REFUSALS else rule.other_values
