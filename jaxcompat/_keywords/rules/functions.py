"""What a keyword of the newest JAX becomes where the installed release's function lacks it.

``jaxcompat/_data/newest_keywords.json`` (written from the API surface data by `nox -s
api_surface`) lists, for every callable, the keyword parameters of its newest signature that
some older row's signature lacks, with the first release that names each. A rule below says
what such a parameter becomes on a release before that one: a refusal
(``kinds.py``), or the helper that honours it, named ``module:function`` under
``jaxcompat`` (``Helper("_keywords.numpy:filled_to_size")``, in ``jaxcompat/_keywords/numpy.py``); a
parameter with no rule is not adapted yet. Wherever the release's own function names the
parameter, the name is JAX's own object and no rule applies.

A newest keyword with no rule gets the ``NOT_ADAPTED_YET`` rule in the modules of
``CLEAR_ERROR_MODULES`` and the callables of ``CLEAR_ERROR_CALLABLES`` (unless the release's
function takes ``**kwargs``, which may take it), rather than JAX's "unexpected keyword"; its
newest default (from the data) is still the same as leaving it out.

No rule applies to a class's constructor: jaxcompat gives JAX's own class, and its newest
keywords are listed in ``classes.py``.

Rules are plain data and import nothing from JAX.
"""

from __future__ import annotations

from typing import Any

from .classes import CLASS_PATHS
from .kinds import (
    NO_DEFAULT,
    NOT_ADAPTED_YET,
    REFUSED_BY_NEWEST,
    UNSUPPORTED,
    Helper,
    KeywordRule,
)

__all__ = ["CLEAR_ERROR_CALLABLES", "CLEAR_ERROR_MODULES", "KEYWORD_RULES", "rule_for"]


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
    # JAX 0.4.24's own zeros, full, ones_like, ... (device=) fail under jit, where they call
    # make_array_from_callback ("cannot be called within a traced context"); 0.4.25 fixed it.
    KeywordRule(
        "device",
        Helper("_keywords.newest_keyword_helpers:placed_on_device"),
        paths=_CREATION,
        fixed_in="0.4.25",
    ),
    # JAX 0.4.24: sort and argsort take stable= (default True) and descending=. Before, both
    # always sort stably, so a stable sort is what stable=False may give too, and descending
    # order is the ascending one reversed (for argsort, of the reversed array, so that equal
    # elements keep their order, as the newest does).
    KeywordRule(
        "stable",
        Helper("_keywords.newest_keyword_helpers:sorted_as_asked"),
        default=True,
        paths=frozenset({"jax.numpy.sort", "jax.numpy.argsort"}),
    ),
    KeywordRule(
        "descending",
        Helper("_keywords.newest_keyword_helpers:sorted_as_asked"),
        default=False,
        paths=frozenset({"jax.numpy.sort", "jax.numpy.argsort"}),
    ),
    # JAX 0.4.29: the array API's correction= of std and var is ddof under another name.
    KeywordRule(
        "correction",
        Helper("_keywords.newest_keyword_helpers:correction_as_ddof"),
        paths=frozenset({"jax.numpy.std", "jax.numpy.var"}),
    ),
    # JAX 0.5.1: keystr(simple=, separator=) joins the keys' simple texts ("0", "foo", "bar")
    # with the separator; before, it joined their full texts ("[0]", "['foo']", ".bar").
    KeywordRule(
        "simple",
        Helper("_keywords.newest_keyword_helpers:keys_joined_as_asked"),
        default=False,
        paths=frozenset({"jax.tree_util.keystr"}),
    ),
    KeywordRule(
        "separator",
        Helper("_keywords.newest_keyword_helpers:keys_joined_as_asked"),
        default="",
        paths=frozenset({"jax.tree_util.keystr"}),
    ),
    # JAX 0.4.35: pure_callback(vmap_method=) says how vmap batches the callback; before, its
    # vectorized= did ("sequential" is vectorized=False, "legacy_vectorized" True). Without a
    # rule the release's **kwargs would hand the keyword to the callback. JAX 0.5.1 added
    # "sequential_unrolled", which 0.4.35-0.5.0 refuse.
    KeywordRule(
        "vmap_method",
        Helper("_keywords.callbacks:vmap_method_as_vectorized"),
        paths=frozenset({"jax.pure_callback"}),
        fixed_in="0.5.1",
    ),
    # JAX 0.4.18: pure_callback(sharding=) chooses the devices the callback runs on.
    KeywordRule(
        "sharding",
        UNSUPPORTED,
        "cannot choose the devices a callback runs on",
        paths=frozenset({"jax.pure_callback"}),
    ),
    # JAX 0.5.3: dynamic_slice and its kin take allow_negative_indices= (default True, a
    # negative index counts from the end, as every older release always does). False leaves a
    # traced negative index to XLA, which clamps it to 0, and refuses a static one (an int).
    KeywordRule(
        "allow_negative_indices",
        Helper("_keywords.newest_keyword_helpers:negative_indices_as_allowed"),
        default=True,
        paths=frozenset(
            f"jax.lax.{name}"
            for name in (
                "dynamic_slice",
                "dynamic_slice_in_dim",
                "dynamic_update_slice",
                "dynamic_update_slice_in_dim",
            )
        ),
    ),
    # JAX 0.10.1 jitted the *_index_in_dim functions, so that an int index is traced there
    # too: False clamps it to 0, where 0.5.3-0.10.0 refuse it.
    KeywordRule(
        "allow_negative_indices",
        Helper("_keywords.newest_keyword_helpers:negative_indices_as_allowed"),
        default=True,
        paths=frozenset({"jax.lax.dynamic_index_in_dim", "jax.lax.dynamic_update_index_in_dim"}),
        fixed_in="0.10.1",
    ),
    # JAX 0.4.31: lax.map(batch_size=) maps batches of that many elements with vmap, in a
    # scan over the batches, and the remainder with vmap after.
    KeywordRule(
        "batch_size",
        Helper("_keywords.newest_keyword_helpers:mapped_in_batches"),
        paths=frozenset({"jax.lax.map"}),
    ),
    # JAX 0.4.27: nn.logsumexp(where=) leaves out the elements where it is False; before,
    # b= (a weight, 0 leaves an element out) does the same.
    KeywordRule(
        "where",
        Helper("_keywords.newest_keyword_helpers:masked_as_zero_weight"),
        paths=frozenset({"jax.nn.logsumexp"}),
    ),
    # JAX 0.9.1: argsort(dtype=) is the indices' dtype; before, the default integer.
    KeywordRule(
        "dtype",
        Helper("_keywords.newest_keyword_helpers:indices_of_the_dtype"),
        paths=frozenset({"jax.numpy.argsort"}),
    ),
    # JAX 0.8.1: cov and corrcoef (dtype=) compute in a float or complex dtype given.
    KeywordRule(
        "dtype",
        Helper("_keywords.newest_keyword_helpers:computed_in_the_dtype"),
        paths=frozenset({"jax.numpy.cov", "jax.numpy.corrcoef"}),
    ),
    # JAX 0.5.3: unique(sorted=) is "unused by JAX" (its docstring): any value gives the
    # sorted unique values, as every release does.
    KeywordRule(
        "sorted",
        Helper("_keywords.newest_keyword_helpers:unused_by_newest"),
        default=True,
        paths=frozenset({"jax.numpy.unique"}),
    ),
    # JAX 0.4.33: reshape(copy=) is "unused by JAX" (its docstring): every release returns
    # a new array (before 0.4.30, jaxcompat's reshape adapter takes copy= itself).
    KeywordRule(
        "copy",
        Helper("_keywords.newest_keyword_helpers:unused_by_newest"),
        paths=frozenset({"jax.numpy.reshape"}),
    ),
    # JAX 0.4.24: unique(equal_nan=) (default True); before, all NaNs always count as one.
    KeywordRule(
        "equal_nan",
        UNSUPPORTED,
        "counts all NaNs as one value",
        default=True,
        paths=frozenset({"jax.numpy.unique"}),
    ),
    # JAX 0.4.33: fftfreq and rfftfreq take device= (the array API), as the creation
    # functions do.
    KeywordRule(
        "device",
        Helper("_keywords.newest_keyword_helpers:placed_on_device"),
        paths=frozenset({"jax.numpy.fft.fftfreq", "jax.numpy.fft.rfftfreq"}),
    ),
    # JAX 0.4.24: cholesky(upper=) gives the upper factor, the conjugate transpose of the
    # lower (0.4.24's own gives the lower factor for upper=True: 0.4.25 fixed it); JAX
    # 0.6.0: cholesky and eigvalsh take symmetrize_input= (default True, what every older
    # release does: they factor (a + a^H) / 2), False is lax's own option.
    KeywordRule(
        "upper",
        Helper("_keywords.linalg:factored_as_asked"),
        default=False,
        paths=frozenset({"jax.numpy.linalg.cholesky"}),
        fixed_in="0.4.25",
    ),
    KeywordRule(
        "symmetrize_input",
        Helper("_keywords.linalg:factored_as_asked"),
        default=True,
        paths=frozenset({"jax.numpy.linalg.cholesky", "jax.numpy.linalg.eigvalsh"}),
    ),
    # JAX 0.4.29 renamed matrix_rank's tol= and pinv's rcond= to rtol= (the array API; same
    # values, and the old name stays); JAX 0.10.1 added matrix_rank(hermitian=), whose
    # singular values come from svd(hermitian=True), which every release has.
    KeywordRule(
        "rtol",
        Helper("_keywords.linalg:rank_as_asked"),
        paths=frozenset({"jax.numpy.linalg.matrix_rank"}),
    ),
    KeywordRule(
        "hermitian",
        Helper("_keywords.linalg:rank_as_asked"),
        default=False,
        paths=frozenset({"jax.numpy.linalg.matrix_rank"}),
    ),
    KeywordRule(
        "rtol",
        Helper("_keywords.linalg:tolerance_as_rtol"),
        paths=frozenset({"jax.numpy.linalg.pinv"}),
    ),
    # JAX 0.4.28: linalg.matmul, tensordot and vecdot take precision= and
    # preferred_element_type=; from 0.4.24 (the array API) each is the jax.numpy function
    # of its name under another signature, and that one takes both.
    *(
        KeywordRule(
            parameter,
            Helper("_keywords.linalg:as_the_numpy_function"),
            paths=frozenset(
                f"jax.numpy.linalg.{name}" for name in ("matmul", "tensordot", "vecdot")
            ),
        )
        for parameter in ("precision", "preferred_element_type")
    ),
    # JAX 0.8.1: top_k(axis=) takes the top k along any axis; before, along the last one.
    KeywordRule(
        "axis",
        Helper("_keywords.newest_keyword_helpers:top_k_along_axis"),
        default=-1,
        paths=frozenset({"jax.lax.top_k"}),
    ),
    # JAX 0.4.34: device_put(donate=, may_alias=), each a bool or a tree prefix of x. The
    # newest copies a leaf where may_alias is False and donate is not True, and donates
    # where donate is True ("best effort": the input may stay valid); both True is an error.
    # Before, device_put may alias the input, and never donates it. 0.4.34-0.5.3's own
    # may_alias=False hands back the input's buffer on CPU (measured); 0.6.0 copies.
    *(
        KeywordRule(
            parameter,
            Helper("_keywords.arrays:copied_as_asked"),
            default=default,
            paths=frozenset({"jax.device_put"}),
            fixed_in="0.6.0",
        )
        for parameter, default in (("donate", False), ("may_alias", None))
    ),
    # JAX 0.5.3: make_array_from_callback and make_array_from_single_device_arrays take
    # dtype=, needed where a process has no shard of the array; where it has one, the
    # shards' dtype must be the one given (every process of a single-process run has one).
    KeywordRule(
        "dtype",
        Helper("_keywords.arrays:checked_against_the_shards"),
        paths=frozenset(
            {"jax.make_array_from_callback", "jax.make_array_from_single_device_arrays"}
        ),
    ),
    # JAX 0.4.14 renamed opaque dtypes (key<fry>, ...) extended dtypes, and
    # canonicalize_dtype's allow_opaque_dtype= with them.
    KeywordRule(
        "allow_extended_dtype",
        Helper("_keywords.arrays:extended_as_opaque"),
        default=False,
        paths=frozenset({"jax.dtypes.canonicalize_dtype"}),
    ),
    # jnp.savez is NumPy's; NumPy 2.2 added allow_pickle= (False refuses object arrays).
    # Before, its **kwds would save the flag as an array named "allow_pickle". The NumPy
    # installed, not the JAX release, decides whether savez names it (NumPy 2.0 and 2.1
    # install with JAX 0.4.26 and newer).
    KeywordRule(
        "allow_pickle",
        Helper("_keywords.arrays:pickled_as_allowed"),
        default=True,
        paths=frozenset({"jax.numpy.savez"}),
        numpy_fixed_in="2.2.0",
    ),
    # JAX 0.4.24: asarray(copy=) (the array API): True always copies, as array() does;
    # False refuses where a copy cannot be avoided.
    KeywordRule(
        "copy",
        Helper("_keywords.arrays:converted_with_copy"),
        paths=frozenset({"jax.numpy.asarray"}),
    ),
    # JAX 0.8.1: std, var, nanstd and nanvar take mean=, a mean computed before (with
    # keepdims=True), used in place of the mean of the input.
    KeywordRule(
        "mean",
        Helper("_keywords.numpy:spread_around_the_mean"),
        paths=frozenset(f"jax.numpy.{name}" for name in ("std", "var", "nanstd", "nanvar")),
    ),
    # JAX 0.4.28: compress and extract take size= (a static length, so that they jit) and
    # fill_value= (default 0) for the places past the elements selected.
    *(
        KeywordRule(
            parameter,
            Helper("_keywords.numpy:filled_to_size"),
            default=default,
            paths=frozenset({"jax.numpy.compress", "jax.numpy.extract"}),
        )
        for parameter, default in (("size", None), ("fill_value", 0))
    ),
    # JAX 0.4.29: take_along_axis(fill_value=) is what an index out of bounds gives where
    # the mode fills (the default); before, NaN or the smallest integer. JAX 0.10.2:
    # wrap_negative_indices=False makes a negative index out of bounds.
    *(
        KeywordRule(
            parameter,
            Helper("_keywords.numpy:out_of_bounds_as_asked"),
            default=default,
            paths=frozenset({"jax.numpy.take_along_axis"}),
        )
        for parameter, default in (("fill_value", None), ("wrap_negative_indices", True))
    ),
    # JAX 0.9.1: ravel_multi_index(dtype=) computes the flat index in that integer dtype.
    KeywordRule(
        "dtype",
        Helper("_keywords.numpy:flat_index_in_the_dtype"),
        paths=frozenset({"jax.numpy.ravel_multi_index"}),
    ),
    # JAX 0.4.27: from_dlpack(device=, copy=) (the array API). JAX's own copy= is wrong
    # again on 0.4.35-0.8.0 (measured): copy=False copies an unaligned host buffer silently,
    # where 0.4.27-0.4.34 share it and 0.8.1 on refuse it, as the newest does. From 0.8.1
    # JAX's own is the newest's, copy=True included (it hands back an aligned host buffer
    # itself, so a later write to the source shows through).
    KeywordRule(
        "device",
        Helper("_keywords.arrays:unpacked_as_asked"),
        paths=frozenset({"jax.numpy.from_dlpack"}),
    ),
    KeywordRule(
        "copy",
        Helper("_keywords.arrays:unpacked_as_asked"),
        paths=frozenset({"jax.numpy.from_dlpack"}),
        broken_from="0.4.35",
        fixed_again_in="0.8.1",
    ),
    # JAX 0.4.24: lax.full and full_like(sharding=) place a concrete result there. 0.4.24's
    # own fail under jit with a traced fill (make_array_from_callback, as its device= of
    # the creation functions); 0.4.25 fixed it.
    KeywordRule(
        "sharding",
        Helper("_keywords.arrays:placed_where_concrete"),
        paths=frozenset({"jax.lax.full", "jax.lax.full_like"}),
        fixed_in="0.4.25",
    ),
    # JAX 0.7.1: lax.dot(dimension_numbers=) is dot_general's.
    KeywordRule(
        "dimension_numbers",
        Helper("_keywords.newest_keyword_helpers:as_dot_general"),
        paths=frozenset({"jax.lax.dot"}),
    ),
    # JAX 0.4.18: the jax.numpy products take preferred_element_type= (the dtype of the
    # result, and of the accumulation where it holds the inputs').
    KeywordRule(
        "preferred_element_type",
        Helper("_keywords.numpy:accumulated_in_the_dtype"),
        paths=frozenset(
            f"jax.numpy.{name}"
            for name in ("convolve", "correlate", "dot", "inner", "matmul", "tensordot", "vdot")
        ),
    ),
    # JAX 0.6.2: the *_with_path functions take is_leaf_takes_path= (default False): True
    # calls is_leaf with (key path, node).
    KeywordRule(
        "is_leaf_takes_path",
        Helper("_keywords.newest_keyword_helpers:leaves_chosen_by_path"),
        default=False,
        paths=frozenset(
            (
                *(f"jax.tree.{name}_with_path" for name in ("flatten", "leaves", "map")),
                *(f"jax.tree_util.tree_{name}_with_path" for name in ("flatten", "leaves", "map")),
            )
        ),
    ),
    # JAX 0.4.36: register_pytree_node(flatten_with_keys_func=) registers keyed flattening,
    # as register_pytree_with_keys (JAX 0.4.6) does.
    KeywordRule(
        "flatten_with_keys_func",
        Helper("_keywords.newest_keyword_helpers:registered_with_keys"),
        paths=frozenset({"jax.tree_util.register_pytree_node"}),
    ),
    # JAX 0.4.33 and 0.4.34: isin(method=) and digitize(method=) choose the algorithm; each
    # gives the same result.
    KeywordRule(
        "method",
        Helper("_keywords.numpy:same_result_by_any_method"),
        default="auto",
        paths=frozenset({"jax.numpy.isin"}),
    ),
    KeywordRule(
        "method",
        Helper("_keywords.numpy:same_result_by_any_method"),
        paths=frozenset({"jax.numpy.digitize"}),
    ),
    # JAX 0.10.0: lax.mul(out_dtype=) gives the product in that dtype, "typically" by
    # converting both factors to it first (its docstring).
    KeywordRule(
        "out_dtype",
        Helper("_keywords.newest_keyword_helpers:cast_before_the_product"),
        paths=frozenset({"jax.lax.mul"}),
    ),
    # JAX 0.11.0: top_k(is_stable=) (default True) keeps equal elements in their order; False
    # leaves it unspecified. Every older top_k is stable (measured on each row).
    KeywordRule(
        "is_stable",
        Helper("_keywords.sets:stable_by_the_release"),
        default=True,
        paths=frozenset({"jax.lax.top_k"}),
    ),
    # JAX 0.12.0: lexsort(batch_size=) (default 16) bounds the keys compared in one sort;
    # more are sorted in batches, with the same result.
    KeywordRule(
        "batch_size",
        Helper("_keywords.sets:sorted_in_one_batch"),
        default=16,
        paths=frozenset({"jax.numpy.lexsort"}),
    ),
    # JAX 0.4.32: intersect1d and setxor1d take size= (a static length, so that they jit)
    # and fill_value= (default: the smallest value of the result), as unique, union1d and
    # setdiff1d did before. JAX's own size=0 fails ("zero-size array to reduction operation
    # max") up to 0.11.1, and 0.11.2's own size=-1 is an internal TypeError (measured); 0.12.0
    # gives the empty array and refuses a negative size with a ValueError.
    *(
        KeywordRule(
            parameter,
            Helper("_keywords.sets:set_filled_to_size"),
            paths=frozenset({"jax.numpy.intersect1d", "jax.numpy.setxor1d"}),
            fixed_in="0.12.0",
        )
        for parameter in ("size", "fill_value")
    ),
    # JAX 0.10.0: quantile and its kin take weights=, with the method "inverted_cdf" (new
    # there too), the only one that takes them.
    KeywordRule(
        "weights",
        Helper("_keywords.numpy:weighted_by_inverted_cdf"),
        paths=frozenset(
            f"jax.numpy.{name}"
            for name in ("quantile", "percentile", "nanquantile", "nanpercentile")
        ),
    ),
    # JAX 0.10.0: method="inverted_cdf" of the same functions, with or without weights (the
    # smallest value whose cumulative count reaches q of the total); the other methods are
    # every older release's.
    KeywordRule(
        "method",
        Helper("_keywords.numpy:weighted_by_inverted_cdf"),
        default="linear",
        paths=frozenset(
            f"jax.numpy.{name}"
            for name in ("quantile", "percentile", "nanquantile", "nanpercentile")
        ),
        fixed_in="0.10.0",
        new_values=("inverted_cdf",),
    ),
    # JAX 0.5.3 (gumbel) and 0.6.1 (bernoulli): mode="high" draws twice the random bits, for
    # a wider range of values; "low" is every older release's sampler. JAX 0.5.3:
    # categorical(replace=False) draws without replacement; 0.6.2: categorical and choice
    # take mode= too, for their Gumbel noise. JAX 0.5.3: orthogonal(m=) is the number of
    # columns, for a semi-orthogonal n-by-m matrix. JAX 0.10.0 added gumbel's mode
    # "highest" (float32: a 64-bit uniform), which the releases before refuse.
    KeywordRule(
        "mode",
        Helper("_keywords.random:drawn_by_mode"),
        paths=frozenset({"jax.random.gumbel"}),
        fixed_in="0.10.0",
    ),
    KeywordRule(
        "mode",
        Helper("_keywords.random:drawn_by_mode"),
        default="low",
        paths=frozenset({"jax.random.bernoulli"}),
    ),
    KeywordRule(
        "mode",
        Helper("_keywords.random:sampled_as_asked"),
        paths=frozenset({"jax.random.categorical", "jax.random.choice"}),
        fixed_in="0.10.0",
    ),
    KeywordRule(
        "replace",
        Helper("_keywords.random:sampled_as_asked"),
        default=True,
        paths=frozenset({"jax.random.categorical"}),
    ),
    KeywordRule(
        "m",
        Helper("_keywords.random:orthogonal_to_size"),
        paths=frozenset({"jax.random.orthogonal"}),
    ),
    # JAX 0.11.1: gamma, loggamma, beta, chisquare and poisson take method="approximate",
    # a loop-free sampler; "exact", the default, is every older release's sampler.
    KeywordRule(
        "method",
        Helper("_keywords.random_methods:sampled_by_method"),
        default="exact",
        paths=frozenset(
            f"jax.random.{name}" for name in ("gamma", "loggamma", "beta", "chisquare", "poisson")
        ),
    ),
    # JAX 0.8.2: all_gather(to=) types the result across the axes: "reduced" needs 0.8.2's
    # reduced axes; 0.10.0 added "invarying" (the same on every device, for shard_map's
    # check), which is composed before it.
    KeywordRule(
        "to",
        Helper("_keywords.collectives:gathered_as_asked"),
        default="varying",
        paths=frozenset({"jax.lax.all_gather"}),
        fixed_in="0.10.0",
        new_values=("invarying",),
        # Measured: an eager (not jitted) shard_map of JAX 0.4.13-0.4.20 has no axis_index,
        # on which "invarying" is built there.
        reason=(
            '"invarying" in an eager (not jitted) shard_map on JAX 0.4.13-0.4.20 is JAX\'s '
            "NotImplementedError for an eager axis_index: jit the shard_map there"
        ),
    ),
    # JAX 0.11.1: custom_gradient(with_logs=True): the gradient function also returns logs,
    # which the newest hands out only through its VJP function's with_logs method (none
    # before). JAX 0.12.0: remat=True needs the jax_custom_vjp3 and jax_remat3
    # implementations, options of 0.12.0 that are off by default.
    KeywordRule(
        "with_logs",
        Helper("_backports.custom_derivatives:logs_dropped"),
        default=False,
        paths=frozenset({"jax.custom_gradient", "jax.custom_derivatives.custom_gradient"}),
    ),
    KeywordRule(
        "remat",
        REFUSED_BY_NEWEST,
        "by default, as custom_vjp.defremat needs the jax_custom_vjp3 implementation, an "
        "option of JAX 0.12.0",
        default=False,
        paths=frozenset({"jax.custom_gradient", "jax.custom_derivatives.custom_gradient"}),
    ),
    # JAX 0.10.1: key and wrap_key_data take dtype= (a key dtype or an implementation's
    # name), impl= under another name.
    KeywordRule(
        "dtype",
        Helper("_keywords.random:dtype_as_impl"),
        paths=frozenset({"jax.random.key", "jax.random.wrap_key_data"}),
    ),
    # JAX 0.4.16: key and PRNGKey take impl= (a name, an implementation or a key dtype);
    # 0.4.13 seeds the default implementation by the same private function it seeds any with.
    KeywordRule(
        "impl",
        Helper("_keywords.random:seeded_with_impl"),
        paths=frozenset({"jax.random.key", "jax.random.PRNGKey"}),
    ),
    # JAX 0.4.25: linalg.svd(subset_by_index=) computes a part of the singular values, on
    # TPU only; the whole range is every singular value, on any platform.
    KeywordRule(
        "subset_by_index",
        Helper("_keywords.linalg:subset_where_computable"),
        paths=frozenset({"jax.numpy.linalg.svd"}),
    ),
    # JAX 0.9.0: conv_transpose(use_consistent_padding=True) reads explicit padding as the
    # forward convolution's, as "SAME" and "VALID" are read.
    KeywordRule(
        "use_consistent_padding",
        Helper("_keywords.linalg:padded_consistently"),
        default=False,
        paths=frozenset({"jax.lax.conv_transpose"}),
    ),
    # JAX 0.9.0: vmap(sum_match=True) sums over the mapped axis an output whose out_axes is
    # None and that varies along it (before, such an output is an error).
    KeywordRule(
        "sum_match",
        Helper("_keywords.vmap:summed_over_the_axis"),
        default=False,
        paths=frozenset({"jax.vmap"}),
    ),
    # JAX 0.10.2: checkpoint(static_argnames=) is read only under the jax_remat3 option (off
    # by default, and absent before 0.10.2): otherwise the newest traces keyword arguments
    # as every older release does.
    KeywordRule(
        "static_argnames",
        Helper("_keywords.newest_keyword_helpers:unused_by_newest"),
        default=(),
        paths=frozenset({"jax.checkpoint"}),
    ),
)


#: The modules whose functions give a clear error for a newest keyword that has no rule.
CLEAR_ERROR_MODULES = frozenset(
    {
        "jax.numpy",
        "jax.numpy.fft",
        "jax.numpy.linalg",
        "jax.lax",
        "jax.random",
        "jax.nn",
        "jax.tree",
        "jax.tree_util",
    }
)


#: Callables outside those modules whose newest keywords with no rule are a clear error too
#: (the rest of those modules' names are transforms and context managers that jaxcompat
#: gives as they are, or as its own).
CLEAR_ERROR_CALLABLES = frozenset(
    {
        "jax.vjp",
        "jax.linearize",
        "jax.vmap",
        "jax.custom_gradient",
        "jax.custom_derivatives.custom_gradient",
        "jax.new_ref",
        "jax.empty_ref",
    }
)


def rule_for(
    jax_path: str, parameter: str, newest_defaults: dict[str, Any] | None = None
) -> KeywordRule | None:
    """The rule for ``parameter`` of the callable at ``jax_path``, if any.

    ``newest_defaults``: the newest signature's defaults (from the keyword data), so that
    passing the default of a keyword with no rule is the same as leaving it out, as for a
    ruled one. Where the data has no default for it (not a plain value), every value is
    refused.
    """
    if jax_path in CLASS_PATHS:
        return None  # JAX's own class (classes.py)
    for rule in KEYWORD_RULES:
        if rule.parameter == parameter and (rule.paths is None or jax_path in rule.paths):
            return rule
    if jax_path.rpartition(".")[0] in CLEAR_ERROR_MODULES or jax_path in CLEAR_ERROR_CALLABLES:
        default = (newest_defaults or {}).get(parameter, NO_DEFAULT)
        return KeywordRule(parameter, NOT_ADAPTED_YET, default=default)
    return None
