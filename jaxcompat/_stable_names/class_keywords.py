"""What a newest constructor keyword of a class becomes where the installed release's class
lacks it (part of ``keywords.KEYWORD_RULES``; the classes are built by
``_backports/keyword_classes.py``).

Plain data: imports nothing from JAX.
"""

from __future__ import annotations

from .keyword_kinds import (
    NO_DEFAULT,
    PASSED_UNDER_THE_RELEASE_NAME,
    UNSUPPORTED,
    KeywordRule,
)

__all__ = ["CLASS_KEYWORD_RULES"]

CLASS_KEYWORD_RULES: tuple[KeywordRule, ...] = (
    # Newest constructor keywords of classes. A release's objects are what the default
    # describes; another value asks for something the release cannot make. jaxcompat's
    # class makes JAX's own objects (`_backports/keyword_classes.py`) but is not JAX's
    # class, so `type(x) is C` fails with it: ShapeDtypeStruct, which code compares by type
    # over eval_shape's results (`type(x) is jax.ShapeDtypeStruct`), has no rule for its
    # weak_type=, is_ref=, manual_axis_type= and _memory_space=, and stays JAX's own.
    # JAX 0.4.35: gathers and scatters with batching dimensions (XLA's); before, none.
    KeywordRule(
        "operand_batching_dims",
        UNSUPPORTED,
        "cannot gather or scatter with batching dimensions",
        default=(),
        paths=frozenset({"jax.lax.GatherDimensionNumbers", "jax.lax.ScatterDimensionNumbers"}),
    ),
    *(
        KeywordRule(
            parameter,
            UNSUPPORTED,
            f"cannot {verb} with batching dimensions",
            default=(),
            paths=frozenset({f"jax.lax.{kind}DimensionNumbers"}),
        )
        for parameter, verb, kind in (
            ("start_indices_batching_dims", "gather", "Gather"),
            ("scatter_indices_batching_dims", "scatter", "Scatter"),
        )
    ),
    # JAX 0.4.36: Mesh(axis_types=). Before, every axis of a mesh is what the newest calls
    # Auto, and there is no AxisType to name one (jaxcompat gives it from 0.5.3).
    KeywordRule(
        "axis_types",
        UNSUPPORTED,
        "cannot give a mesh's axes types (explicit sharding)",
        default=None,
        paths=frozenset({"jax.sharding.Mesh"}),
    ),
    # JAX 0.6.2: PartitionSpec(unreduced=, reduced=), sets of the mesh axes over which a
    # value is a partial sum, or reduced; their default, no axes, is every older spec. 0.6.1
    # names unreduced= but reads a set as one axis name (a tuple is its own call, as it is).
    # (The signature data names them from 0.10.1 only: 0.6.2-0.10.0's class is built in C++.)
    *(
        KeywordRule(
            parameter,
            UNSUPPORTED,
            "cannot mark mesh axes unreduced or reduced in a PartitionSpec",
            default=frozenset(),
            paths=frozenset({"jax.P", "jax.sharding.PartitionSpec"}),
            named_from=named_from,
            fixed_in=fixed_in,
        )
        for parameter, named_from, fixed_in in (
            ("unreduced", "0.6.1", "0.6.2"),
            ("reduced", "0.6.2", None),
        )
    ),
    # JAX 0.11.0: the kind of a spec's or a manual axis's unreduced axes (UnreducedKind,
    # which jaxcompat gives from 0.11.0); None where there are none.
    KeywordRule(
        "unreduced_kind",
        UNSUPPORTED,
        "has no kinds of unreduced axes (UnreducedKind)",
        default=None,
        paths=frozenset({"jax.P", "jax.sharding.PartitionSpec", "jax.sharding.ManualAxisType"}),
    ),
    # JAX 0.7.1: AbstractMesh(abstract_device=); 0.10.1: AbstractDevice(platform), required.
    KeywordRule(
        "abstract_device",
        UNSUPPORTED,
        "has no abstract device in an abstract mesh",
        default=None,
        paths=frozenset({"jax.sharding.AbstractMesh"}),
    ),
    KeywordRule(
        "platform",
        UNSUPPORTED,
        "has no platform in an abstract device",
        default=NO_DEFAULT,
        paths=frozenset({"jax.sharding.AbstractDevice"}),
    ),
    # experimental.layout.Layout is DeviceLocalLayout before 0.7.0: from 0.4.31 it takes
    # major_to_minor, and tiling and sub_byte_element_size_in_bits under a leading
    # underscore (public from 0.7.1); before 0.4.31 it only wraps XLA's layout of a compiled
    # function (`compiled.input_layouts`), and no layout can be made from its parts.
    KeywordRule(
        "major_to_minor",
        UNSUPPORTED,
        "cannot make a layout from its parts, only read a compiled function's",
        default=NO_DEFAULT,
        paths=frozenset({"jax.experimental.layout.Layout"}),
        named_from="0.4.31",
    ),
    *(
        KeywordRule(
            parameter,
            PASSED_UNDER_THE_RELEASE_NAME,
            "cannot make a layout from its parts, only read a compiled function's",
            default=default,
            paths=frozenset({"jax.experimental.layout.Layout"}),
            release_name=f"_{parameter}",
        )
        for parameter, default in (("tiling", None), ("sub_byte_element_size_in_bits", 0))
    ),
    # JAX 0.7.2: Ref(aval, refs); before, the class of a Ref (MutableArray, ArrayRef) takes
    # the array it holds as buf.
    KeywordRule(
        "refs",
        PASSED_UNDER_THE_RELEASE_NAME,
        "has no Ref that holds several arrays",
        default=NO_DEFAULT,
        paths=frozenset({"jax.Ref"}),
        release_name="buf",
    ),
)
