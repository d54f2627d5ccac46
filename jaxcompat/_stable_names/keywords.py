"""What a keyword of the newest JAX becomes where the installed release's function lacks it.

``jaxcompat/_data/newest_keywords.json`` (written from the API surface data by `nox -s
api_surface`) lists, for every callable, the parameters of its newest signature that some
older row's signature lacks, with the first release that names each. A rule below says what
such a parameter becomes on a release before that one; a parameter with no rule is not
adapted yet. The function keeps JAX's own object wherever its signature names the parameter.

Rules are plain data, one per parameter name, and import nothing from JAX.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["KEYWORD_RULES", "KeywordRule"]


@dataclass(frozen=True)
class KeywordRule:
    """A newest parameter that a release before its first can take only with its default."""

    parameter: str
    #: The newest default. Passing it where the release's function lacks the parameter is the
    #: same as leaving it out; any other value is a TypeError naming the first release.
    default: Any
    #: Why an older release cannot honour another value, said after "JAX X.Y.Z ...".
    reason: str


KEYWORD_RULES: tuple[KeywordRule, ...] = (
    # Sharding in types (JAX 0.5.0 on) lets a function place its result with out_sharding=;
    # each function gained it on its own release, up to 0.11.0 (nn.one_hot). Before that,
    # None (the result's usual placement) is the one value the release's function computes.
    KeywordRule(
        "out_sharding",
        None,
        "cannot place this function's result under explicit sharding (sharding in types)",
    ),
)
