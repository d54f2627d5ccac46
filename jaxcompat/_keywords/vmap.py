"""``jax.vmap(sum_match=True)`` before JAX 0.9.0, built on the release's own vmap.

With ``sum_match=True`` the newest vmap sums over the mapped axis an output whose
``out_axes`` is None and that varies along that axis (``x.sum(axis)``, with ``jnp.sum``'s
dtypes: a bool or small integer sums to the default integer), and returns one that does not
vary as it is; without it, such an output is an error. Whether an output varies is known
only to the vmap's own batching, while it traces: here each such output is shown, with
``lax.axis_index`` of the vmap's axis (which varies there for certain), to a
``custom_batching.custom_vmap`` function whose batching rule is told, as plain booleans,
which of its arguments vary. The outputs that vary leave the vmap through an extra output
mapped at 0 and are summed after it; the others keep their None. It traces once, jits,
differentiates and nests as the release's vmap does.
"""

from __future__ import annotations

import functools
import inspect
import itertools
from typing import Any

import jax
import jax.numpy as jnp
from jax import tree_util
from jax.custom_batching import custom_vmap  # type: ignore[attr-defined, unused-ignore]

from .._primitives.cycles import refuse_cycles
from .._version import JAX_VERSION_STRING

__all__ = ["summed_over_the_axis"]

#: Axis names for a vmap given none: the probe needs one to name the axis.
_FRESH_NAMES = itertools.count()


def summed_over_the_axis(
    function: Any, path: str, values: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    """``vmap(fun, ..., sum_match=True)`` from the release's vmap ``function``."""
    del path
    options = inspect.signature(function).bind(*args, **kwargs)
    options.apply_defaults()
    settings = dict(options.arguments)
    fun = settings.pop("fun")
    out_axes = settings["out_axes"]
    if not values["sum_match"] or not any(
        axis is None for axis in tree_util.tree_leaves(out_axes, is_leaf=_is_none)
    ):
        return function(fun, **settings)  # nothing to sum: the release's vmap as it is
    if settings["axis_name"] is None:
        settings["axis_name"] = f"_jaxcompat_sum_match_{next(_FRESH_NAMES)}"
    elif isinstance(settings["axis_name"], tuple):
        # lax.axis_index reads a tuple as several axes' names: the probe cannot name it.
        raise TypeError(
            f"jaxcompat.vmap(sum_match=True) with a tuple as axis_name needs JAX 0.9.0 or "
            f"newer: on JAX {JAX_VERSION_STRING} jaxcompat finds the outputs to sum through "
            "lax.axis_index, which reads a tuple as the names of several axes. Name the axis "
            "with a string, or upgrade JAX."
        )
    return _vmap_summing(function, fun, settings)


def _vmap_summing(vmap: Any, fun: Any, settings: dict[str, Any]) -> Any:
    out_axes, axis_name = settings["out_axes"], settings["axis_name"]

    @functools.wraps(fun)
    def vmapped(*args: Any, **kwargs: Any) -> Any:
        # Flattened here and by the vmap: one that holds itself crashes jaxlib (cycles.py).
        refuse_cycles("vmap", args, kwargs)
        summed: list[int] = []  # which output leaves vary, learnt while the vmap traces
        structure: list[Any] = []

        def split_outputs(*args: Any, **kwargs: Any) -> Any:
            outputs = fun(*args, **kwargs)
            refuse_cycles("vmap", (), {"the output": outputs})
            leaves, treedef = tree_util.tree_flatten(outputs)
            axes = _axis_per_leaf(out_axes, outputs)
            if axes is None or len(axes) != len(leaves):
                return outputs, []  # not a prefix of the outputs: the release's vmap says so
            varies = _probe(axis_name)
            summed.extend(
                index
                for index, (leaf, axis) in enumerate(zip(leaves, axes, strict=True))
                if axis is None and varies(leaf)
            )
            structure.append(treedef)
            kept = [None if index in summed else leaf for index, leaf in enumerate(leaves)]
            return tree_util.tree_unflatten(treedef, kept), [leaves[i] for i in summed]

        outputs, to_sum = vmap(split_outputs, **{**settings, "out_axes": (out_axes, 0)})(
            *args, **kwargs
        )
        if not summed:
            return outputs
        sums = dict(zip(summed, (jnp.sum(leaf, axis=0) for leaf in to_sum), strict=True))
        rest = iter(tree_util.tree_leaves(outputs))
        (treedef,) = structure
        leaves = [sums[i] if i in sums else next(rest) for i in range(treedef.num_leaves)]
        return tree_util.tree_unflatten(treedef, leaves)

    return vmapped


def _probe(axis_name: Any) -> Any:
    """``varies(leaf)``: whether ``leaf`` varies along the vmap of ``axis_name`` (which
    must be tracing): its batching rule for a function of (that axis's index, leaf) is told
    which arguments vary. A value that is not a tracer varies along no axis."""
    told: list[bool] = []

    @custom_vmap
    def shown(index: Any, leaf: Any) -> Any:
        del leaf
        return index

    @shown.def_vmap
    def rule(axis_size: int, in_batched: list[Any], index: Any, leaf: Any) -> Any:
        del axis_size, leaf
        told.append(bool(in_batched[1]))
        return index, in_batched[0]

    def varies(leaf: Any) -> bool:
        if not isinstance(leaf, jax.core.Tracer):
            return False
        told.clear()
        index = jax.lax.axis_index(axis_name)  # type: ignore[no-untyped-call, unused-ignore]
        shown(index, leaf)  # its result is unused (and dropped by jit)
        (answer,) = told  # the vmap's batching ran the rule once
        return answer

    return varies


def _axis_per_leaf(out_axes: Any, outputs: Any) -> list[Any] | None:
    """``out_axes``, a prefix of ``outputs``' tree, as one axis per leaf of ``outputs``;
    None where it is not such a prefix."""
    try:
        per_leaf = tree_util.tree_map(
            lambda axis, subtree: [axis] * len(tree_util.tree_leaves(subtree)),
            out_axes,
            outputs,
            is_leaf=_is_none,
        )
    except ValueError:
        return None
    lists = tree_util.tree_leaves(per_leaf, is_leaf=lambda node: isinstance(node, list))
    return [axis for axes in lists for axis in axes]


def _is_none(node: Any) -> bool:
    return node is None
