"""The stable-name table: where each drifted name of the newest JAX lives on every release.

One entry per public name of the newest JAX whose location or meaning drifted between JAX
0.4.13 and the newest release. ``path`` is the name's path under ``jax`` (and so under
``jaxcompat``); ``sources`` are tried in order, and the first that exists on the installed
JAX wins. A source is ``module:attribute``: a JAX location, or a backport in
``jaxcompat._backports`` where JAX has no object that does the job. An ``adapter`` turns the
object found into the newest call signature. ``releases`` limits a source to the releases on
which it has the newest meaning; it is used only where the same JAX name changed meaning (the
rest is feature detection). Where no source exists, the name raises an AttributeError that
names ``first``, the first JAX release that has it, and ``reason``.

Any name that is not in this table is forwarded to the installed JAX's module of the same
name (``jaxcompat/_namespace.py``). This module is plain data and imports nothing from JAX,
so the docs and ``python -m jaxcompat check`` read it without JAX installed.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["STABLE_NAMES", "Source", "StableName", "by_path"]


@dataclass(frozen=True)
class Source:
    """One place a stable name can be had: ``module:attribute``."""

    where: str
    #: ``module:function`` in ``jaxcompat._backports`` that turns the object found at
    #: ``where`` into the newest API.
    adapter: str | None = None
    #: The releases on which ``where`` has the newest meaning, e.g. ``">=0.7.0"`` or
    #: ``">=0.4.30,<0.6.2"``; None: wherever it exists.
    releases: str | None = None


@dataclass(frozen=True)
class StableName:
    """A name of the newest JAX, and where it lives on each release."""

    path: str
    sources: tuple[Source, ...]
    #: The first JAX release that has the name (None: every supported release).
    first: str | None = None
    #: Why releases before ``first`` cannot have it.
    reason: str = ""


def _tree(name: str, tree_util_name: str) -> StableName:
    # jax.tree arrived in 0.4.25 and gained names until 0.7.0; jax.tree_util has had the same
    # functions, with the same parameters, since before 0.4.13.
    return StableName(
        f"tree.{name}", (Source(f"jax.tree:{name}"), Source(f"jax.tree_util:{tree_util_name}"))
    )


_NO_STACKLESS = (
    "JAX's tracing machinery before the 0.4.34 'stackless' rewrite has no equivalent of it"
)
_NO_EXPLICIT_SHARDING = "sharding in types (explicit axes) does not exist before it"
_NO_REFS = "mutable array references do not exist before it"

STABLE_NAMES: tuple[StableName, ...] = (
    # --- jax.tree: every name of the newest module on every release ---------------------
    # tree.all's is_leaf keyword arrived in 0.4.30 (jax.tree.all of 0.4.25-0.4.29 lacks it).
    StableName(
        "tree.all",
        (
            Source("jax.tree:all", releases=">=0.4.30"),
            Source("jaxcompat._backports.tree:tree_all"),
        ),
    ),
    StableName(
        "tree.broadcast",
        (Source("jax.tree:broadcast"), Source("jaxcompat._backports.tree:tree_broadcast")),
    ),
    _tree("flatten", "tree_flatten"),
    _tree("flatten_with_path", "tree_flatten_with_path"),
    _tree("leaves", "tree_leaves"),
    _tree("leaves_with_path", "tree_leaves_with_path"),
    _tree("map", "tree_map"),
    _tree("map_with_path", "tree_map_with_path"),
    _tree("reduce", "tree_reduce"),
    StableName(
        "tree.reduce_associative",
        (
            Source("jax.tree:reduce_associative"),
            Source("jaxcompat._backports.tree:tree_reduce_associative"),
        ),
    ),
    # jax.tree.static marks a dataclass field for register_dataclass's field inference,
    # which arrived in 0.4.36 (data_fields became optional).
    StableName(
        "tree.static",
        (
            Source("jax.tree:static"),
            Source("jaxcompat._backports.tree:static", releases=">=0.4.36"),
        ),
        first="0.4.36",
        reason="jax.tree_util.register_dataclass cannot infer fields before it",
    ),
    _tree("structure", "tree_structure"),
    # transpose's inner_treedef may be None (inferred) from 0.4.25.
    StableName(
        "tree.transpose",
        (
            Source("jax.tree:transpose"),
            Source("jax.tree_util:tree_transpose", releases=">=0.4.25"),
            Source("jaxcompat._backports.tree:tree_transpose"),
        ),
    ),
    _tree("unflatten", "tree_unflatten"),
    StableName(
        "tree_util.tree_all",
        (
            Source("jax.tree_util:tree_all", releases=">=0.4.30"),
            Source("jaxcompat._backports.tree:tree_all"),
        ),
    ),
    StableName(
        "tree_util.tree_broadcast",
        (
            Source("jax.tree_util:tree_broadcast"),
            Source("jaxcompat._backports.tree:tree_broadcast"),
        ),
    ),
    StableName(
        "tree_util.tree_reduce_associative",
        (
            Source("jax.tree_util:tree_reduce_associative"),
            Source("jaxcompat._backports.tree:tree_reduce_associative"),
        ),
    ),
    StableName(
        "tree_util.tree_transpose",
        (
            Source("jax.tree_util:tree_transpose", releases=">=0.4.25"),
            Source("jaxcompat._backports.tree:tree_transpose"),
        ),
    ),
    # --- top-level jax ------------------------------------------------------------------
    # jax.typeof arrived in 0.5.3 as an alias of jax.core.get_aval (which warns from 0.9.0).
    StableName("typeof", (Source("jax:typeof"), Source("jax.core:get_aval"))),
    StableName(
        "make_mesh",
        (
            # The first parameter was axis_shapes until 0.11.2, and devices/axis_types
            # swapped positions at 0.7.0: older releases get the newest signature.
            Source("jax:make_mesh", releases=">=0.11.2"),
            Source("jax:make_mesh", adapter="sharding:make_mesh_from_jax"),
            Source(
                "jax.experimental.mesh_utils:create_device_mesh",
                adapter="sharding:make_mesh_from_device_mesh",
            ),
        ),
    ),
    StableName("P", (Source("jax:P"), Source("jax.sharding:PartitionSpec"))),
    StableName(
        "shard_map",
        (
            Source("jax:shard_map"),
            Source(
                "jax.experimental.shard_map:shard_map",
                adapter="sharding:shard_map_from_experimental",
            ),
        ),
    ),
    # jax.sharding.set_mesh of 0.6.0-0.7.0 returns None: only the top-level name (0.7.1) is
    # the newest context manager and global setter.
    StableName(
        "set_mesh",
        (
            Source("jax:set_mesh"),
            # use_mesh of 0.5.0 sets only the abstract mesh.
            Source(
                "jax.sharding:use_mesh",
                adapter="sharding:set_mesh_from_use_mesh",
                releases=">=0.5.1",
            ),
            Source("jax.sharding:Mesh", adapter="sharding:set_mesh_from_mesh_context"),
        ),
    ),
    StableName(
        "get_mesh",
        (Source("jax:get_mesh"), Source("jax.sharding:get_mesh")),
        first="0.8.1",
        reason="no public function reads the mesh set by set_mesh before it",
    ),
    StableName(
        "get_abstract_mesh",
        (Source("jax:get_abstract_mesh"), Source("jax.sharding:get_abstract_mesh")),
        first="0.5.3",
        reason="there is no abstract mesh before it",
    ),
    StableName(
        "reshard",
        (Source("jax:reshard"), Source("jax.sharding:reshard")),
        first="0.7.0",
        reason=_NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "Ref",
        (Source("jax:Ref"), Source("jax:ArrayRef"), Source("jax.experimental:MutableArray")),
        first="0.6.1",
        reason=_NO_REFS,
    ),
    StableName(
        "new_ref",
        (
            Source("jax:new_ref"),
            Source("jax:array_ref"),
            Source("jax.experimental:mutable_array"),
        ),
        first="0.6.1",
        reason=_NO_REFS,
    ),
    StableName(
        "freeze",
        (Source("jax:freeze"),),
        first="0.8.0",
        reason="there is no public way to read a mutable array reference out before it",
    ),
    # jax.enable_x64 arrived in 0.8.0; jax.experimental.enable_x64, the same context manager
    # (`with enable_x64(True):`), warns from 0.8.0 and is gone in 0.10.
    StableName(
        "enable_x64",
        (
            Source("jax:enable_x64"),
            Source("jax.experimental:enable_x64"),
        ),
    ),
    # jax.ad was the deprecated alias of the jax.interpreters.ad module until 0.4.x; from
    # 0.10.0 it is a new namespace (DontWant, DidntWant, GradRef, GradValue).
    StableName(
        "ad",
        (Source("jax:ad", releases=">=0.10.0"),),
        first="0.10.0",
        reason="jax.ad is a different API before it (the old jax.interpreters.ad alias)",
    ),
    # --- jax.sharding ---------------------------------------------------------------------
    StableName(
        "sharding.set_mesh",
        (
            Source("jax.sharding:set_mesh", releases=">=0.7.1"),
            # use_mesh of 0.5.0 sets only the abstract mesh.
            Source(
                "jax.sharding:use_mesh",
                adapter="sharding:set_mesh_from_use_mesh",
                releases=">=0.5.1",
            ),
            Source("jax.sharding:Mesh", adapter="sharding:set_mesh_from_mesh_context"),
        ),
    ),
    StableName(
        "sharding.get_mesh",
        (Source("jax.sharding:get_mesh"),),
        first="0.8.1",
        reason="no public function reads the mesh set by set_mesh before it",
    ),
    StableName(
        "sharding.get_abstract_mesh",
        (Source("jax.sharding:get_abstract_mesh"),),
        first="0.5.3",
        reason="there is no abstract mesh before it",
    ),
    StableName(
        "sharding.AxisType",
        (Source("jax.sharding:AxisType"),),
        first="0.5.3",
        reason=_NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.reshard",
        (Source("jax.sharding:reshard"),),
        first="0.7.0",
        reason=_NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.auto_axes",
        (Source("jax.sharding:auto_axes"),),
        first="0.7.0",
        reason=_NO_EXPLICIT_SHARDING,
    ),
    StableName(
        "sharding.explicit_axes",
        (Source("jax.sharding:explicit_axes"),),
        first="0.7.0",
        reason=_NO_EXPLICIT_SHARDING,
    ),
    # --- jax.errors, jax.typing, jax.random, jax.dtypes -------------------------------------
    # Before 0.4.34 a runtime error from compiled code is jaxlib's XlaRuntimeError.
    StableName(
        "errors.JaxRuntimeError",
        (Source("jax.errors:JaxRuntimeError"), Source("jaxlib.xla_extension:XlaRuntimeError")),
    ),
    StableName(
        "typing.DTypeLike",
        (Source("jax.typing:DTypeLike"), Source("jaxcompat._backports.typing:DTypeLike")),
    ),
    # No key-reuse checker before 0.4.26, so handing the key back is what clone does.
    StableName(
        "random.clone",
        (Source("jax.random:clone"), Source("jaxcompat._backports.random:clone")),
    ),
    StableName(
        "dtypes.prng_key",
        (Source("jax.dtypes:prng_key"),),
        first="0.4.18",
        reason="typed PRNG key arrays (jax.random.key) do not exist before it",
    ),
    # --- jax.custom_derivatives -------------------------------------------------------------
    StableName(
        "custom_derivatives.zero_from_primal",
        (Source("jax.custom_derivatives:zero_from_primal"),),
        first="0.4.34",
        reason="custom_vjp's symbolic zeros have no public constructor before it",
    ),
    # --- jax.numpy: keywords renamed in 0.4.30 (min/max, shape), old ones gone later --------
    StableName(
        "numpy.clip",
        (
            Source("jax.numpy:clip", releases=">=0.4.30"),
            Source("jax.numpy:clip", adapter="numpy:clip_from_a_min_a_max"),
        ),
    ),
    StableName(
        "numpy.reshape",
        (
            Source("jax.numpy:reshape", releases=">=0.4.30"),
            Source("jax.numpy:reshape", adapter="numpy:reshape_from_newshape"),
        ),
    ),
    # --- jax.numpy: the array-API aliases (JAX 0.4.24) are the older functions renamed -----
    *(
        StableName(f"numpy.{name}", (Source(f"jax.numpy:{name}"), Source(f"jax.numpy:{old}")))
        for name, old in (
            ("acos", "arccos"),
            ("acosh", "arccosh"),
            ("asin", "arcsin"),
            ("asinh", "arcsinh"),
            ("atan", "arctan"),
            ("atan2", "arctan2"),
            ("atanh", "arctanh"),
            ("bitwise_invert", "invert"),
            ("bitwise_left_shift", "left_shift"),
            ("bitwise_right_shift", "right_shift"),
            ("bool", "bool_"),
            ("pow", "power"),
        )
    ),
    # --- jax.numpy: functions added from 0.4.18 on, backported where they are missing ------
    *(
        StableName(
            f"numpy.{name}",
            (Source(f"jax.numpy:{name}"), Source(f"jaxcompat._backports.{module}:{name}")),
        )
        for name, module in (
            ("bitwise_count", "numpy_array_api"),  # 0.4.18
            ("concat", "numpy_array_api"),  # 0.4.24
            ("cumulative_prod", "numpy_array_api"),  # 0.4.36
            ("fill_diagonal", "numpy_functions"),  # 0.4.20
            ("matvec", "numpy_array_api"),  # 0.4.38
            ("minmax", "numpy_functions"),  # 0.11.2
            ("permute_dims", "numpy_array_api"),  # 0.4.24
            ("put_along_axis", "numpy_functions"),  # 0.4.36
            ("spacing", "numpy_functions"),  # 0.4.35
            ("top_k", "numpy_functions"),  # 0.11.1
            ("trapezoid", "numpy_functions"),  # 0.4.26
            ("unstack", "numpy_array_api"),  # 0.4.27
            ("vecdot", "numpy_array_api"),  # 0.4.24
            ("vecmat", "numpy_array_api"),  # 0.4.38
        )
    ),
    # cumulative_sum arrived in 0.4.27; with dtype=bool it summed the numbers, not their truth
    # values, until 0.7.2.
    StableName(
        "numpy.cumulative_sum",
        (
            Source("jax.numpy:cumulative_sum", releases=">=0.7.2"),
            Source("jaxcompat._backports.numpy_array_api:cumulative_sum"),
        ),
    ),
    # isdtype arrived in 0.4.24; a dtype as the kind is accepted from 0.4.27.
    StableName(
        "numpy.isdtype",
        (
            Source("jax.numpy:isdtype", releases=">=0.4.27"),
            Source("jaxcompat._backports.numpy_array_api:isdtype"),
        ),
    ),
    # astype arrived in 0.4.21 with copy=True by default and no device; the newest
    # signature (copy=False, device) is 0.4.27's.
    StableName(
        "numpy.astype",
        (
            Source("jax.numpy:astype", releases=">=0.4.27"),
            Source("jaxcompat._backports.numpy_array_api:astype"),
        ),
    ),
    # unique_* arrived in 0.4.24 without size/fill_value, which came in 0.4.29.
    *(
        StableName(
            f"numpy.{name}",
            (
                Source(f"jax.numpy:{name}", releases=">=0.4.29"),
                Source(f"jaxcompat._backports.numpy_array_api:{name}"),
            ),
        )
        for name in ("unique_all", "unique_counts", "unique_inverse", "unique_values")
    ),
    # Narrow and float8 dtypes: JAX's type promotion, lowering and scalar types know a dtype
    # only from the release that added it.
    *(
        StableName(
            f"numpy.{name}",
            (Source(f"jax.numpy:{name}"),),
            first=first,
            reason=f"JAX does not support the {name} dtype before it",
        )
        for name, first in (
            ("float4_e2m1fn", "0.5.3"),
            ("float6_e2m3fn", "0.10.2"),
            ("float6_e3m2fn", "0.10.2"),
            ("float8_e3m4", "0.4.36"),
            ("float8_e4m3", "0.4.36"),
            ("float8_e4m3fnuz", "0.4.18"),
            ("float8_e5m2fnuz", "0.4.18"),
            ("float8_e8m0fnu", "0.5.1"),
            ("int1", "0.9.1"),
            ("int2", "0.4.31"),
            ("uint1", "0.9.1"),
            ("uint2", "0.4.31"),
        )
    ),
    # --- jax.experimental.layout: Layout changed meaning at 0.7.0 -----------------------------
    StableName(
        "experimental.layout.Format",
        (
            Source("jax.experimental.layout:Format"),
            Source("jax.experimental.layout:Layout", releases="<0.6.2"),
        ),
        first="0.4.27",
        reason="jax.experimental.layout has no Format (then named Layout) before it",
    ),
    StableName(
        "experimental.layout.Layout",
        (
            Source("jax.experimental.layout:Layout", releases=">=0.7.0"),
            Source("jax.experimental.layout:DeviceLocalLayout"),
        ),
        first="0.4.26",
        reason="jax.experimental.layout has no Layout (then named DeviceLocalLayout) before it",
    ),
    # --- jax.extend.core: tracing internals that moved out of jax.core ----------------------
    *(
        StableName(
            f"extend.core.{name}", (Source(f"jax.extend.core:{name}"), Source(f"jax.core:{name}"))
        )
        for name in (
            "ClosedJaxpr",
            "DropVar",
            "Jaxpr",
            "JaxprEqn",
            "Literal",
            "Primitive",
            "Var",
            "find_top_trace",
            "jaxpr_as_fun",
            "mapped_aval",
        )
    ),
    # unmapped_aval lost its axis_name parameter in 0.5.1.
    StableName(
        "extend.core.unmapped_aval",
        (
            Source("jax.extend.core:unmapped_aval"),
            Source("jax.core:unmapped_aval", releases=">=0.5.1"),
            Source("jax.core:unmapped_aval", adapter="core:unmapped_aval_without_axis_name"),
        ),
    ),
    *(
        StableName(
            f"extend.core.{name}",
            (Source(f"jax.extend.core:{name}"), Source(f"jax.core:{name}")),
            first="0.4.36",
            reason=_NO_STACKLESS,
        )
        for name in ("TraceTag", "set_current_trace", "take_current_trace")
    ),
    StableName(
        "extend.core.get_opaque_trace_state",
        (
            Source("jax.extend.core:get_opaque_trace_state"),
            Source("jax.core:get_opaque_trace_state"),
        ),
        first="0.4.34",
        reason=_NO_STACKLESS,
    ),
    # The jit primitive was named pjit_p until 0.7.0.
    StableName(
        "extend.core.primitives.jit_p",
        (
            Source("jax.extend.core.primitives:jit_p"),
            Source("jax.extend.core.primitives:pjit_p"),
            Source("jax.experimental.pjit:pjit_p"),
        ),
    ),
)


def by_path() -> dict[str, StableName]:
    """The table as a mapping from path (``"tree.map"``) to entry."""
    return {entry.path: entry for entry in STABLE_NAMES}
