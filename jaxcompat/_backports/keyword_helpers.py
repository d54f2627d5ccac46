"""Which helper honours each kind of keyword rule (``_stable_names/keyword_kinds.py``):
each takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs) and
composes the newest behaviour from the release's own function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._stable_names.keyword_kinds import (
    ACCUMULATED_IN_THE_DTYPE,
    AS_DOT_GENERAL,
    AS_THE_NUMPY_FUNCTION,
    CAST_BEFORE_THE_PRODUCT,
    CHECKED_AGAINST_THE_SHARDS,
    COMPUTED_IN_THE_DTYPE,
    CONVERTED_WITH_COPY,
    COPIED_AS_ASKED,
    CORRECTION_AS_DDOF,
    EXTENDED_AS_OPAQUE,
    FACTORED_AS_ASKED,
    FILLED_TO_SIZE,
    FLAT_INDEX_IN_THE_DTYPE,
    INDICES_OF_THE_DTYPE,
    KEYS_JOINED_AS_ASKED,
    LEAVES_CHOSEN_BY_PATH,
    MAPPED_IN_BATCHES,
    MASKED_AS_ZERO_WEIGHT,
    NEGATIVE_INDICES_AS_ALLOWED,
    OUT_OF_BOUNDS_AS_ASKED,
    PICKLED_AS_ALLOWED,
    PLACED_ON_DEVICE,
    PLACED_WHERE_CONCRETE,
    RANK_AS_ASKED,
    REGISTERED_WITH_KEYS,
    SAME_RESULT_BY_ANY_METHOD,
    SORTED_AS_ASKED,
    SPREAD_AROUND_THE_MEAN,
    TOLERANCE_AS_RTOL,
    TOP_K_ALONG_AXIS,
    UNPACKED_AS_ASKED,
    UNUSED_BY_NEWEST,
    VMAP_METHOD_AS_VECTORIZED,
)
from .keywords_arrays import (
    checked_against_the_shards,
    converted_with_copy,
    copied_as_asked,
    extended_as_opaque,
    pickled_as_allowed,
    placed_where_concrete,
    unpacked_as_asked,
)
from .keywords_honoured import (
    as_dot_general,
    cast_before_the_product,
    computed_in_the_dtype,
    correction_as_ddof,
    indices_of_the_dtype,
    keys_joined_as_asked,
    leaves_chosen_by_path,
    mapped_in_batches,
    masked_as_zero_weight,
    negative_indices_as_allowed,
    placed_on_device,
    registered_with_keys,
    sorted_as_asked,
    top_k_along_axis,
    unused_by_newest,
    vmap_method_as_vectorized,
)
from .keywords_linalg import (
    as_the_numpy_function,
    factored_as_asked,
    rank_as_asked,
    tolerance_as_rtol,
)
from .keywords_numpy import (
    accumulated_in_the_dtype,
    filled_to_size,
    flat_index_in_the_dtype,
    out_of_bounds_as_asked,
    same_result_by_any_method,
    spread_around_the_mean,
)

__all__ = ["HONOURS"]

HONOURS: dict[str, Callable[..., Any]] = {
    PLACED_ON_DEVICE: placed_on_device,
    SORTED_AS_ASKED: sorted_as_asked,
    CORRECTION_AS_DDOF: correction_as_ddof,
    KEYS_JOINED_AS_ASKED: keys_joined_as_asked,
    TOP_K_ALONG_AXIS: top_k_along_axis,
    VMAP_METHOD_AS_VECTORIZED: vmap_method_as_vectorized,
    NEGATIVE_INDICES_AS_ALLOWED: negative_indices_as_allowed,
    MAPPED_IN_BATCHES: mapped_in_batches,
    MASKED_AS_ZERO_WEIGHT: masked_as_zero_weight,
    INDICES_OF_THE_DTYPE: indices_of_the_dtype,
    COMPUTED_IN_THE_DTYPE: computed_in_the_dtype,
    UNUSED_BY_NEWEST: unused_by_newest,
    FACTORED_AS_ASKED: factored_as_asked,
    RANK_AS_ASKED: rank_as_asked,
    TOLERANCE_AS_RTOL: tolerance_as_rtol,
    AS_THE_NUMPY_FUNCTION: as_the_numpy_function,
    COPIED_AS_ASKED: copied_as_asked,
    CHECKED_AGAINST_THE_SHARDS: checked_against_the_shards,
    EXTENDED_AS_OPAQUE: extended_as_opaque,
    PICKLED_AS_ALLOWED: pickled_as_allowed,
    CONVERTED_WITH_COPY: converted_with_copy,
    SPREAD_AROUND_THE_MEAN: spread_around_the_mean,
    FILLED_TO_SIZE: filled_to_size,
    OUT_OF_BOUNDS_AS_ASKED: out_of_bounds_as_asked,
    FLAT_INDEX_IN_THE_DTYPE: flat_index_in_the_dtype,
    AS_DOT_GENERAL: as_dot_general,
    REGISTERED_WITH_KEYS: registered_with_keys,
    PLACED_WHERE_CONCRETE: placed_where_concrete,
    UNPACKED_AS_ASKED: unpacked_as_asked,
    LEAVES_CHOSEN_BY_PATH: leaves_chosen_by_path,
    ACCUMULATED_IN_THE_DTYPE: accumulated_in_the_dtype,
    SAME_RESULT_BY_ANY_METHOD: same_result_by_any_method,
    CAST_BEFORE_THE_PRODUCT: cast_before_the_product,
}
