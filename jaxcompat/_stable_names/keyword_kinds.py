"""The kinds of keyword rule: what a newest keyword that the installed release's function
lacks becomes (``other_values`` of :class:`KeywordRule`; the rules are in ``keywords.py``).

Passing a rule's default is always the same as leaving the keyword out. Another value is,
by the rule's kind:

* ``UNSUPPORTED``: a TypeError naming the function, the installed release and the first
  release that takes the value, with ``reason``;
* ``REFUSED_BY_NEWEST``: a NotImplementedError, as the newest JAX raises for it too;
* ``NOT_ADAPTED_YET``: a TypeError naming the first release, for any value (see
  ``keywords.rule_for``);
* any other kind: honoured, by the helper of that name (``_backports/keyword_helpers.py``
  maps each kind to it), which composes the newest behaviour from the release's own
  function (``PLACED_ON_DEVICE``: the result is put on the device or sharding given, as the
  newest ``device=`` does).

Plain data: imports nothing from JAX.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "ACCUMULATED_IN_THE_DTYPE",
    "AS_DOT_GENERAL",
    "AS_THE_NUMPY_FUNCTION",
    "CAST_BEFORE_THE_PRODUCT",
    "CHECKED_AGAINST_THE_SHARDS",
    "COMPUTED_IN_THE_DTYPE",
    "CONVERTED_WITH_COPY",
    "COPIED_AS_ASKED",
    "CORRECTION_AS_DDOF",
    "DRAWN_BY_MODE",
    "DTYPE_AS_IMPL",
    "EXTENDED_AS_OPAQUE",
    "FACTORED_AS_ASKED",
    "FILLED_TO_SIZE",
    "FLAT_INDEX_IN_THE_DTYPE",
    "GATHERED_AS_ASKED",
    "INDICES_OF_THE_DTYPE",
    "KEYS_JOINED_AS_ASKED",
    "LEAVES_CHOSEN_BY_PATH",
    "LOGS_DROPPED",
    "MAPPED_IN_BATCHES",
    "MASKED_AS_ZERO_WEIGHT",
    "NEGATIVE_INDICES_AS_ALLOWED",
    "NOT_ADAPTED_YET",
    "NO_DEFAULT",
    "ORTHOGONAL_TO_SIZE",
    "OUT_OF_BOUNDS_AS_ASKED",
    "PADDED_CONSISTENTLY",
    "PICKLED_AS_ALLOWED",
    "PLACED_ON_DEVICE",
    "PLACED_WHERE_CONCRETE",
    "RANK_AS_ASKED",
    "REFUSED_BY_NEWEST",
    "REGISTERED_WITH_KEYS",
    "SAME_RESULT_BY_ANY_METHOD",
    "SAMPLED_AS_ASKED",
    "SAMPLED_BY_METHOD",
    "SET_FILLED_TO_SIZE",
    "SORTED_AS_ASKED",
    "SORTED_IN_ONE_BATCH",
    "SPREAD_AROUND_THE_MEAN",
    "STABLE_BY_THE_RELEASE",
    "SUBSET_WHERE_COMPUTABLE",
    "SUMMED_OVER_THE_AXIS",
    "TOLERANCE_AS_RTOL",
    "TOP_K_ALONG_AXIS",
    "UNPACKED_AS_ASKED",
    "UNSUPPORTED",
    "UNUSED_BY_NEWEST",
    "VMAP_METHOD_AS_VECTORIZED",
    "WEIGHTED_BY_INVERTED_CDF",
    "KeywordRule",
]

UNSUPPORTED = "unsupported"
NOT_ADAPTED_YET = "not adapted yet"
REFUSED_BY_NEWEST = "refused by the newest"
PLACED_ON_DEVICE = "placed on the device"
SORTED_AS_ASKED = "sorted as asked"
CORRECTION_AS_DDOF = "correction as ddof"
KEYS_JOINED_AS_ASKED = "keys joined as asked"
TOP_K_ALONG_AXIS = "top_k along the axis"
VMAP_METHOD_AS_VECTORIZED = "vmap_method as vectorized"
NEGATIVE_INDICES_AS_ALLOWED = "negative indices as allowed"
MAPPED_IN_BATCHES = "mapped in batches"
MASKED_AS_ZERO_WEIGHT = "masked as zero weight"
INDICES_OF_THE_DTYPE = "indices of the dtype"
COMPUTED_IN_THE_DTYPE = "computed in the dtype"
UNUSED_BY_NEWEST = "unused by the newest"
FACTORED_AS_ASKED = "factored as asked"
RANK_AS_ASKED = "rank as asked"
TOLERANCE_AS_RTOL = "tolerance as rtol"
AS_THE_NUMPY_FUNCTION = "as the jax.numpy function"
COPIED_AS_ASKED = "copied as asked"
CHECKED_AGAINST_THE_SHARDS = "checked against the shards"
EXTENDED_AS_OPAQUE = "extended as opaque"
PICKLED_AS_ALLOWED = "pickled as allowed"
SPREAD_AROUND_THE_MEAN = "spread around the mean"
FILLED_TO_SIZE = "filled to size"
SAME_RESULT_BY_ANY_METHOD = "same result by any method"
CONVERTED_WITH_COPY = "converted with copy"
CAST_BEFORE_THE_PRODUCT = "cast before the product"
OUT_OF_BOUNDS_AS_ASKED = "out of bounds as asked"
FLAT_INDEX_IN_THE_DTYPE = "flat index in the dtype"
AS_DOT_GENERAL = "as dot_general"
REGISTERED_WITH_KEYS = "registered with keys"
PLACED_WHERE_CONCRETE = "placed where concrete"
UNPACKED_AS_ASKED = "unpacked as asked"
LEAVES_CHOSEN_BY_PATH = "leaves chosen by path"
ACCUMULATED_IN_THE_DTYPE = "accumulated in the dtype"
SET_FILLED_TO_SIZE = "set filled to size"
SORTED_IN_ONE_BATCH = "sorted in one batch"
STABLE_BY_THE_RELEASE = "stable by the release"
WEIGHTED_BY_INVERTED_CDF = "weighted by the inverted cdf"
DRAWN_BY_MODE = "drawn by mode"
SAMPLED_AS_ASKED = "sampled as asked"
ORTHOGONAL_TO_SIZE = "orthogonal to size"
DTYPE_AS_IMPL = "dtype as impl"
SEEDED_WITH_IMPL = "seeded with the implementation"
SUBSET_WHERE_COMPUTABLE = "subset where computable"
PADDED_CONSISTENTLY = "padded consistently"
SAMPLED_BY_METHOD = "sampled by method"
GATHERED_AS_ASKED = "gathered as asked"
LOGS_DROPPED = "logs dropped"
SUMMED_OVER_THE_AXIS = "summed over the mapped axis"


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
    #: What a value other than the default becomes: one of the kinds above.
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
