"""What a keyword of the newest JAX becomes where the installed release's function lacks it.

``jaxcompat/_data/newest_keywords.json`` (written from the API surface data by `nox -s
api_surface`) lists, for every callable, the keyword parameters of its newest signature that
some older row's signature lacks, with the first release that names each. A rule below says
what such a parameter becomes on a release before that one; a parameter with no rule is not
adapted yet. Wherever the release's own function names the parameter, the name is JAX's own
object and no rule applies.

Passing a rule's default is always the same as leaving the keyword out. Another value is,
by the rule's ``other_values``:

* ``UNSUPPORTED``: a TypeError naming the function, the installed release and the first
  release that takes the value, with ``reason``;
* ``REFUSED_BY_NEWEST``: a NotImplementedError, as the newest JAX raises for it too;
* ``PLACED_ON_DEVICE``: honoured, by putting the result on the device or sharding given
  (``jax.device_put``), which is what the newest JAX's ``device=`` does.

Rules are plain data and import nothing from JAX.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "KEYWORD_RULES",
    "PLACED_ON_DEVICE",
    "REFUSED_BY_NEWEST",
    "UNSUPPORTED",
    "KeywordRule",
    "rule_for",
]

UNSUPPORTED = "unsupported"
REFUSED_BY_NEWEST = "refused by the newest"
PLACED_ON_DEVICE = "placed on the device"


@dataclass(frozen=True)
class KeywordRule:
    """What a newest parameter becomes before the first release whose function names it."""

    parameter: str
    #: What a value other than the default becomes: one of the kinds above.
    other_values: str
    #: Why, said after "JAX X.Y.Z ..." (UNSUPPORTED) or after the refusal (REFUSED_BY_NEWEST).
    reason: str = ""
    #: The newest default: passing it is the same as leaving the keyword out.
    default: Any = None
    #: The JAX paths the rule is for; None: every callable whose newest signature has it.
    paths: frozenset[str] | None = None


# The functions that are jnp.ufunc objects in the newest JAX (one by one from JAX 0.4.33),
# whose calls take out= and where= and refuse any value but None.
_UFUNCS = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "add",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "logaddexp",
        "logaddexp2",
        "logical_and",
        "logical_or",
        "logical_xor",
        "maximum",
        "minimum",
        "multiply",
        "negative",
        "subtract",
    )
)

# The array-creation functions whose device= (JAX 0.4.24-0.4.33, the array API) places the
# result on a device or sharding.
_CREATION = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "arange",
        "array",
        "asarray",
        "astype",
        "empty",
        "empty_like",
        "eye",
        "full",
        "full_like",
        "linspace",
        "ones",
        "ones_like",
        "zeros",
        "zeros_like",
    )
)

KEYWORD_RULES: tuple[KeywordRule, ...] = (
    # Sharding in types (JAX 0.5.0 on) lets a function place its result with out_sharding=;
    # each function gained it on its own release, up to 0.11.0 (nn.one_hot). Before that,
    # None (the result's usual placement) is the one value the release's function computes.
    KeywordRule(
        "out_sharding",
        UNSUPPORTED,
        "cannot place this function's result under explicit sharding (sharding in types)",
    ),
    KeywordRule(
        "out",
        REFUSED_BY_NEWEST,
        "JAX arrays are immutable, so a result cannot be written into an array given",
        paths=_UFUNCS,
    ),
    KeywordRule(
        "where",
        REFUSED_BY_NEWEST,
        "a ufunc call computes every element",
        paths=_UFUNCS,
    ),
    KeywordRule("device", PLACED_ON_DEVICE, paths=_CREATION),
)


def rule_for(jax_path: str, parameter: str) -> KeywordRule | None:
    """The rule for ``parameter`` of the callable at ``jax_path``, if any."""
    for rule in KEYWORD_RULES:
        if rule.parameter == parameter and (rule.paths is None or jax_path in rule.paths):
            return rule
    return None
