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
from collections.abc import Callable
from importlib import resources
from typing import Any

import jax
import numpy as np

from .._dispatch import installed_release_in
from .._stable_names.keywords import (
    AS_THE_NUMPY_FUNCTION,
    CHECKED_AGAINST_THE_SHARDS,
    COMPUTED_IN_THE_DTYPE,
    COPIED_AS_ASKED,
    CORRECTION_AS_DDOF,
    EXTENDED_AS_OPAQUE,
    FACTORED_AS_ASKED,
    INDICES_OF_THE_DTYPE,
    KEYS_JOINED_AS_ASKED,
    KEYWORD_RULES,
    MAPPED_IN_BATCHES,
    MASKED_AS_ZERO_WEIGHT,
    NEGATIVE_INDICES_AS_ALLOWED,
    NOT_ADAPTED_YET,
    PICKLED_AS_ALLOWED,
    PLACED_ON_DEVICE,
    RANK_AS_ASKED,
    REFUSED_BY_NEWEST,
    SORTED_AS_ASKED,
    TOLERANCE_AS_RTOL,
    TOP_K_ALONG_AXIS,
    UNSUPPORTED,
    UNUSED_BY_NEWEST,
    VMAP_METHOD_AS_VECTORIZED,
    KeywordRule,
    rule_for,
)
from .._version import JAX_VERSION_STRING
from .keywords_arrays import (
    checked_against_the_shards,
    copied_as_asked,
    extended_as_opaque,
    pickled_as_allowed,
)
from .keywords_linalg import (
    as_the_numpy_function,
    factored_as_asked,
    rank_as_asked,
    tolerance_as_rtol,
)

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
            or (rule.numpy_fixed_in is not None and not _numpy_from(rule.numpy_fixed_in))
        ):
            found[parameter] = (first, rule)
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
    ``numpy_fixed_in``)."""
    return any(
        r.parameter == parameter and (r.fixed_in is not None or r.numpy_fixed_in is not None)
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
    if not wanted or not callable(function) or isinstance(function, type):
        return function  # a class stays a class (isinstance, subclassing)
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
        if (p not in own.parameters or found[1].fixed_in is not None)  # named, not yet right
        and not (takes_any_keyword and found[1].other_values == NOT_ADAPTED_YET)
    }
    if not missing:
        return function
    newest_signature = _added()[jax_path][0]
    in_order = [part.partition("=")[0] for part in newest_signature.split(",")]
    missing = {name: missing[name] for name in in_order if name in missing}
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

    @functools.wraps(function)
    def adapted(*args: Any, **kwargs: Any) -> Any:
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
            if name not in kwargs:
                continue
            value = kwargs.pop(name)
            if _is_default(value, rule.default) or _places_nothing(name, value):
                continue  # the same as leaving it out
            if rule.other_values in (UNSUPPORTED, REFUSED_BY_NEWEST, NOT_ADAPTED_YET):
                raise _refusal(public_path, jax_path, name, first, rule)
            honoured.setdefault(rule.other_values, {})[name] = value
        target = namespace.get(attribute, function)
        for kind, values in honoured.items():
            target = functools.partial(_HONOURS[kind], target, jax_path, values)
        return target(*args, **kwargs)

    adapted.__signature__ = _newest_signature(own, missing, by_position)  # type: ignore[attr-defined]
    # Named where it lives, so that pickle (which saves a function by module and name, and
    # checks it finds the very same object there) saves it as JAX's own function is saved.
    module, _, name = f"jaxcompat.{public_path}".rpartition(".")
    adapted.__module__, adapted.__qualname__ = module, name
    return adapted


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


# --- the helpers that honour a keyword with the release's own function -------------------
# Each takes (the release's function, its JAX path, {keyword: value}, *args, **kwargs).


def _placed_on_device(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    return jax.device_put(function(*args, **kwargs), values["device"])


def _sorted_as_asked(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """jnp.sort or jnp.argsort (both stable before JAX 0.4.24) with stable= and descending=."""
    if not values.get("descending", False):
        return function(*args, **kwargs)  # a stable sort is one that stable=False may give
    bound = inspect.signature(function).bind(*args, **kwargs)
    array = jax.numpy.asarray(bound.arguments.pop("a"))
    axis = bound.arguments.pop("axis", -1)
    if axis is None:
        array, axis = array.ravel(), 0
    rest = bound.arguments
    if path == "jax.numpy.sort":
        return jax.numpy.flip(function(array, axis, **rest), axis)
    if not values.get("stable", True):
        return jax.numpy.flip(function(array, axis, **rest), axis)
    # As the newest argsort: sort the reversed array stably and reverse the indices, so that
    # equal elements keep their order.
    size = array.shape[axis]
    indices = function(jax.numpy.flip(array, axis), axis, **rest)
    return jax.numpy.flip((size - 1) - indices, axis)


def _correction_as_ddof(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """std and var before JAX 0.4.29: correction= is ddof=, and both is an error."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    ddof = bound.arguments.get("ddof", 0)
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    bound.arguments["ddof"] = values["correction"]
    return function(*bound.args, **bound.kwargs)


def _keys_joined_as_asked(function: Any, path: str, values: dict[str, Any], keys: Any, /) -> str:
    """keystr before JAX 0.5.1, with simple= and separator=."""
    text = _simple_key_text if values.get("simple", False) else str
    return str(values.get("separator", "")).join(map(text, keys))


def _simple_key_text(key: Any) -> str:
    """A key's text without its brackets or dot (JAX 0.5.1's simple keystr)."""
    tree_util = jax.tree_util
    for kind, field in (
        (tree_util.SequenceKey, "idx"),
        (tree_util.DictKey, "key"),
        (tree_util.GetAttrKey, "name"),
        (tree_util.FlattenedIndexKey, "key"),
    ):
        if isinstance(key, kind):
            return str(getattr(key, field))
    return str(key)


def _top_k_along_axis(
    function: Any, path: str, values: dict[str, Any], operand: Any, k: int
) -> Any:
    """top_k before JAX 0.8.1, along the axis given: along the last of the axis moved there."""
    operand = jax.numpy.asarray(operand)
    axis = values["axis"]
    if not -operand.ndim <= axis < max(operand.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {operand.ndim}")
    moved = jax.numpy.moveaxis(operand, axis, -1)
    top_values, top_indices = function(moved, k)
    return jax.numpy.moveaxis(top_values, -1, axis), jax.numpy.moveaxis(top_indices, -1, axis)


def _negative_indices_as_allowed(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """dynamic_slice and its kin before JAX 0.5.3 (a negative index counts from the end),
    with allow_negative_indices= (a bool, or one per dimension for the ``start_indices``
    functions). Where it is False, a static negative index (an int) is the newest's
    ValueError, and a traced one becomes 0, where XLA clamps it when the release does not
    count it from the end (the index is never negative then)."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    shape = jax.numpy.shape(bound.arguments["operand"])
    allowed = values["allow_negative_indices"]
    if "start_indices" in bound.arguments:
        indices = bound.arguments["start_indices"]
        if len(indices) != len(shape):
            return function(*args, **kwargs)  # the release's own error
        flags = [allowed] * len(shape) if isinstance(allowed, bool) else list(allowed)
        if len(flags) != len(shape):
            raise ValueError(
                f"allow_negative_indices has {len(flags)} entries, but the operand has "
                f"{len(shape)} dimensions: give one bool per dimension, or one for all"
            )
        bound.arguments["start_indices"] = [
            index if allow else _not_from_the_end(index, size)
            for index, size, allow in zip(list(indices), shape, flags, strict=True)
        ]
    elif not allowed:
        name = "start_index" if "start_index" in bound.arguments else "index"
        size = shape[bound.arguments["axis"]]
        # The newest *_index_in_dim are jitted, so that even a static index is traced there.
        static = not path.endswith("index_in_dim")
        bound.arguments[name] = _not_from_the_end(bound.arguments[name], size, static)
    return function(*bound.args, **bound.kwargs)


def _not_from_the_end(index: Any, size: int, static: bool = True) -> Any:
    if static and isinstance(index, int | np.integer):
        if index < 0:
            raise ValueError(
                f"Index {index} is out of bounds for dimension {size} if "
                "allow_negative_indices=False"
            )
        return index
    index = jax.numpy.asarray(index)
    if jax.numpy.issubdtype(index.dtype, jax.numpy.unsignedinteger):
        return index
    return jax.lax.max(index, jax.numpy.zeros_like(index))


def _mapped_in_batches(function: Any, path: str, values: dict[str, Any], f: Any, xs: Any) -> Any:
    """lax.map before JAX 0.4.31, with batch_size=: as the newest, the release's map (a scan)
    over batches of ``batch_size`` elements, each mapped with vmap, then the remainder mapped
    with vmap, joined along the leading axis."""
    batch_size = values["batch_size"]
    leaves, structure = jax.tree_util.tree_flatten(xs)
    if not leaves:
        return function(f, xs)  # the release's own error: nothing to map over
    size = leaves[0].shape[0]
    batches, remainder = (0, size) if batch_size == 0 else divmod(size, batch_size)
    used = batches * batch_size
    mapped = jax.vmap(f)
    parts = []
    if batches:
        batched = [leaf[:used].reshape(batches, batch_size, *leaf.shape[1:]) for leaf in leaves]
        ys = function(mapped, jax.tree_util.tree_unflatten(structure, batched))
        parts.append(jax.tree_util.tree_map(lambda y: y.reshape(-1, *y.shape[2:]), ys))
    if remainder:
        rest = [leaf[used:] for leaf in leaves]
        parts.append(mapped(jax.tree_util.tree_unflatten(structure, rest)))
    if len(parts) == 1:
        return parts[0]
    return jax.tree_util.tree_map(
        lambda whole, rest: jax.lax.concatenate([whole, rest], dimension=0), *parts
    )


def _masked_as_zero_weight(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """nn.logsumexp before JAX 0.4.27, with where=: an element left out is one of weight 0
    (``b``), which the release leaves out of the maximum and the sum alike. The weight of
    the others is 1, weakly typed, so that it does not change the result's dtype."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    where = values["where"]
    weight = bound.arguments.get("b")
    if weight is None:
        bound.arguments["b"] = jax.numpy.where(where, 1.0, 0.0)
    else:
        bound.arguments["b"] = jax.numpy.where(where, weight, 0)
    return function(*bound.args, **bound.kwargs)


def _indices_of_the_dtype(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """argsort before JAX 0.9.1, with dtype=: the newest counts its indices in that dtype."""
    return function(*args, **kwargs).astype(values["dtype"])


def _computed_in_the_dtype(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """cov and corrcoef before JAX 0.8.1, with dtype=: the newest casts the data to it
    before it computes; casting each input first gives the same values. Weights are cast
    after they are combined there, which the release's cov does not let be done."""
    dtype = values["dtype"]
    name = path.rpartition(".")[2]
    if not jax.numpy.issubdtype(dtype, jax.numpy.inexact):
        raise ValueError(f"{name}: dtype must be a subclass of float or complex; got {dtype=}")
    bound = inspect.signature(function).bind(*args, **kwargs)
    if any(bound.arguments.get(weights) is not None for weights in ("fweights", "aweights")):
        raise TypeError(
            f"jaxcompat.numpy.cov(dtype=..., fweights= or aweights=...) needs JAX 0.8.1 or "
            f"newer: JAX {JAX_VERSION_STRING}'s cov cannot weigh in the dtype given. Leave "
            "dtype out, or upgrade JAX."
        )
    for data in ("m", "x", "y"):
        if bound.arguments.get(data) is not None:
            bound.arguments[data] = jax.numpy.asarray(bound.arguments[data]).astype(dtype)
    return function(*bound.args, **bound.kwargs)


def _unused_by_newest(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """A keyword the newest JAX takes and does not use (unique's sorted=)."""
    return function(*args, **kwargs)


#: The newest pure_callback's batching methods, in its own order (JAX 0.5.0 added
#: "sequential_unrolled").
_VMAP_METHODS = [
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
    None,
]


def _vmap_method_as_vectorized(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """pure_callback before JAX 0.5.1, with every vmap_method= of the newest.

    "sequential_unrolled" (0.5.1) unrolls the loop of "sequential": the same calls and
    values. Before 0.4.35 the release's vectorized= is the choice; it cannot add the unbatched
    arguments' axes that "expand_dims" and "broadcast_all" add, since its batching rule does
    not say which arguments are batched.
    """
    method = values["vmap_method"]
    if method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {_VMAP_METHODS}, but got: {method}"
        )
    if "vectorized" in kwargs:
        raise ValueError(
            "the vectorized and vmap_method arguments of jax.pure_callback cannot be used "
            "together. Please use the vmap_method argument."
        )
    looped = "sequential" if method == "sequential_unrolled" else method
    if "vmap_method" in inspect.signature(function).parameters:  # JAX 0.4.35-0.5.0
        return function(*args, vmap_method=looped, **kwargs)
    if method in ("expand_dims", "broadcast_all"):
        raise TypeError(
            f"jaxcompat.pure_callback(vmap_method={method!r}) needs JAX 0.4.35 or newer: JAX "
            f"{JAX_VERSION_STRING}'s pure_callback batches a callback only in a loop or with "
            "every argument as given. Pass vmap_method='sequential' or 'legacy_vectorized', "
            "or upgrade JAX."
        )
    return function(*args, vectorized=looped == "legacy_vectorized", **kwargs)


_HONOURS: dict[str, Callable[..., Any]] = {
    PLACED_ON_DEVICE: _placed_on_device,
    SORTED_AS_ASKED: _sorted_as_asked,
    CORRECTION_AS_DDOF: _correction_as_ddof,
    KEYS_JOINED_AS_ASKED: _keys_joined_as_asked,
    TOP_K_ALONG_AXIS: _top_k_along_axis,
    VMAP_METHOD_AS_VECTORIZED: _vmap_method_as_vectorized,
    NEGATIVE_INDICES_AS_ALLOWED: _negative_indices_as_allowed,
    MAPPED_IN_BATCHES: _mapped_in_batches,
    MASKED_AS_ZERO_WEIGHT: _masked_as_zero_weight,
    INDICES_OF_THE_DTYPE: _indices_of_the_dtype,
    COMPUTED_IN_THE_DTYPE: _computed_in_the_dtype,
    UNUSED_BY_NEWEST: _unused_by_newest,
    FACTORED_AS_ASKED: factored_as_asked,
    RANK_AS_ASKED: rank_as_asked,
    TOLERANCE_AS_RTOL: tolerance_as_rtol,
    AS_THE_NUMPY_FUNCTION: as_the_numpy_function,
    COPIED_AS_ASKED: copied_as_asked,
    CHECKED_AGAINST_THE_SHARDS: checked_against_the_shards,
    EXTENDED_AS_OPAQUE: extended_as_opaque,
    PICKLED_AS_ALLOWED: pickled_as_allowed,
}


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
