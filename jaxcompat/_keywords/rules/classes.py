"""The newest constructor keywords of JAX's classes, and the first release whose class takes
each as the newest does.

jaxcompat gives JAX's own class under each of these names on every release that has it (the
class of the newest meaning, where a name changed meaning), so that ``type(x) is C``,
``functools.singledispatch``, class-keyed registries and pytree registration see JAX's class.
A newest keyword that the release's class lacks is therefore JAX's own TypeError there;
``jaxcompat check`` reports a call that passes one on a declared range whose releases lack it
(JC010), with the release below, and COMPATIBILITY.md lists them.

Plain data: imports nothing from JAX.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLASS_KEYWORDS", "CLASS_PATHS", "ClassKeyword", "class_keyword"]


@dataclass(frozen=True)
class ClassKeyword:
    """A newest constructor keyword of the class jaxcompat gives under ``paths``."""

    #: The JAX paths of the jaxcompat names (``jax.P`` for ``jaxcompat.P``) of one class.
    paths: frozenset[str]
    parameter: str
    #: The first release whose class (the one jaxcompat gives) takes it as the newest does.
    first: str
    #: What the classes before ``first`` lack, said after "JAX before it".
    reason: str


def _of(paths: set[str], first: str, reason: str, *parameters: str) -> tuple[ClassKeyword, ...]:
    return tuple(ClassKeyword(frozenset(paths), p, first, reason) for p in parameters)


_PARTITION_SPEC = {"jax.P", "jax.sharding.PartitionSpec"}

CLASS_KEYWORDS: tuple[ClassKeyword, ...] = (
    # JAX 0.4.33: a ufunc carries its own implementation of each method.
    *_of(
        {"jax.numpy.ufunc"},
        "0.4.33",
        "has no ufunc that carries its own method implementations",
        "call",
        "reduce",
        "accumulate",
        "at",
        "reduceat",
    ),
    # JAX 0.4.33 (0.4.32 was yanked): weak_type=; 0.7.0 is_ref=; 0.10.0 manual_axis_type=;
    # 0.11.1 _memory_space=.
    *_of({"jax.ShapeDtypeStruct"}, "0.4.33", "has no weakly typed shape struct", "weak_type"),
    *_of({"jax.ShapeDtypeStruct"}, "0.7.0", "has no shape struct of a Ref", "is_ref"),
    *_of(
        {"jax.ShapeDtypeStruct"},
        "0.10.0",
        "has no manual axis types (ManualAxisType)",
        "manual_axis_type",
    ),
    *_of(
        {"jax.ShapeDtypeStruct"},
        "0.11.1",
        "has no memory space in a shape struct",
        "_memory_space",
    ),
    # JAX 0.4.35: gathers and scatters with batching dimensions (XLA's).
    *_of(
        {"jax.lax.GatherDimensionNumbers"},
        "0.4.35",
        "cannot gather with batching dimensions",
        "operand_batching_dims",
        "start_indices_batching_dims",
    ),
    *_of(
        {"jax.lax.ScatterDimensionNumbers"},
        "0.4.35",
        "cannot scatter with batching dimensions",
        "operand_batching_dims",
        "scatter_indices_batching_dims",
    ),
    # JAX 0.4.36: Mesh(axis_types=) (explicit sharding).
    *_of({"jax.sharding.Mesh"}, "0.4.36", "cannot give a mesh's axes types", "axis_types"),
    # JAX 0.6.2: PartitionSpec(unreduced=, reduced=). 0.6.1 names unreduced= but reads a set
    # as one axis name. (The signature data names them from 0.10.1 only: 0.6.2-0.10.0's
    # class is built in C++, whose signature inspect cannot read.)
    *_of(
        _PARTITION_SPEC,
        "0.6.2",
        "cannot mark mesh axes unreduced in a PartitionSpec, and 0.6.1 reads a set given as "
        "unreduced= as one axis name",
        "unreduced",
    ),
    *_of(
        _PARTITION_SPEC,
        "0.6.2",
        "cannot mark mesh axes reduced in a PartitionSpec",
        "reduced",
    ),
    # JAX 0.6.2: custom_jvp and custom_vjp take nondiff_argnames= (the names' positions).
    *(
        fact
        for kind in ("custom_jvp", "custom_vjp")
        for fact in _of(
            {f"jax.{kind}", f"jax.custom_derivatives.{kind}"},
            "0.6.2",
            "takes the non-differentiable arguments by position only (nondiff_argnums)",
            "nondiff_argnames",
        )
    ),
    # JAX 0.7.0: Format(layout=), named device_local_layout before (the class is named
    # Layout before 0.6.2); jaxcompat's Format is that class.
    *_of(
        {"jax.experimental.layout.Format"},
        "0.7.0",
        "names it device_local_layout",
        "layout",
    ),
    # experimental.layout.Layout is DeviceLocalLayout before 0.7.0 (jaxcompat gives it): from
    # 0.4.31 it takes major_to_minor, and tiling and sub_byte_element_size_in_bits under a
    # leading underscore (public from 0.7.1); before 0.4.31 it only wraps XLA's layout of a
    # compiled function.
    *_of(
        {"jax.experimental.layout.Layout"},
        "0.4.31",
        "cannot make a layout from its parts, only read a compiled function's",
        "major_to_minor",
    ),
    *_of(
        {"jax.experimental.layout.Layout"},
        "0.7.1",
        "names it with a leading underscore",
        "tiling",
        "sub_byte_element_size_in_bits",
    ),
    # JAX 0.7.1: AbstractMesh(abstract_device=); 0.10.1: AbstractDevice(platform), required.
    *_of(
        {"jax.sharding.AbstractMesh"},
        "0.7.1",
        "has no abstract device in an abstract mesh",
        "abstract_device",
    ),
    *_of(
        {"jax.sharding.AbstractDevice"},
        "0.10.1",
        "has no platform in an abstract device",
        "platform",
    ),
    # JAX 0.7.2: Ref(aval, refs); before, the class of a Ref (MutableArray, ArrayRef) takes
    # the array it holds as buf.
    *_of({"jax.Ref"}, "0.7.2", "names the array a Ref holds buf", "refs"),
    # JAX 0.11.0: the kind of a spec's or a manual axis's unreduced axes (UnreducedKind).
    *(
        fact
        for paths in (_PARTITION_SPEC, {"jax.sharding.ManualAxisType"})
        for fact in _of(
            paths, "0.11.0", "has no kinds of unreduced axes (UnreducedKind)", "unreduced_kind"
        )
    ),
)
"""Every newest constructor keyword that some supported release's class lacks."""

#: The JAX paths of the classes above: no keyword adapter wraps them.
CLASS_PATHS = frozenset(path for fact in CLASS_KEYWORDS for path in fact.paths)


def class_keyword(jax_path: str, parameter: str) -> ClassKeyword | None:
    """The fact for ``parameter`` of the class jaxcompat gives as ``jax_path``, if any."""
    for fact in CLASS_KEYWORDS:
        if fact.parameter == parameter and jax_path in fact.paths:
            return fact
    return None
