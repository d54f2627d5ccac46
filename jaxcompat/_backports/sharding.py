"""Meshes and ``shard_map`` with the newest JAX's signatures on older releases."""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable, Sequence
from typing import Any

import jax
from jax.sharding import Mesh

from .._keywords.rules.backports import backport_keyword
from .._version import JAX_VERSION_STRING

__all__ = [
    "make_mesh_from_device_mesh",
    "make_mesh_from_jax",
    "make_single_device_sharding",
    "set_mesh_from_mesh_context",
    "set_mesh_from_use_mesh",
    "shard_map_from_experimental",
]


def _explicit_axes(count: int) -> tuple[Any, ...] | None:
    # The newest jax.make_mesh makes Explicit axes by default (from JAX 0.9.0). Releases with
    # axis types (jax.sharding.AxisType) get the same default; older meshes have no axis types.
    axis_type = getattr(jax.sharding, "AxisType", None)
    return None if axis_type is None else (axis_type.Explicit,) * count


def _no_axis_types_error() -> TypeError:
    fact = backport_keyword("jax.make_mesh", "axis_types")
    assert fact is not None  # the checker reports the same release (JC041)
    return TypeError(
        f"jaxcompat.make_mesh(axis_types=...) needs JAX {fact.first} or newer "
        "(jax.sharding.AxisType); "
        f"JAX {JAX_VERSION_STRING} meshes have no axis types. Leave axis_types out."
    )


def make_mesh_from_jax(jax_make_mesh: Callable[..., Mesh]) -> Callable[..., Mesh]:
    """``make_mesh(axis_sizes, axis_names, axis_types=None, *, devices=None)`` (JAX 0.11.1).

    ``jax.make_mesh`` of 0.4.32-0.11.0 named its first parameter ``axis_shapes``, took
    ``devices`` before ``axis_types`` until 0.7.0, and made Auto axes by default until 0.9.0:
    every argument is passed by keyword, with the newest default.
    """

    def make_mesh(
        axis_sizes: Sequence[int],
        axis_names: Sequence[str],
        axis_types: tuple[Any, ...] | None = None,
        *,
        devices: Sequence[Any] | None = None,
    ) -> Mesh:
        if axis_types is None:
            axis_types = _explicit_axes(len(axis_names))
        elif _explicit_axes(0) is None:
            raise _no_axis_types_error()
        options: dict[str, Any] = {"devices": devices}
        if axis_types is not None:
            options["axis_types"] = tuple(axis_types)
        return jax_make_mesh(tuple(axis_sizes), tuple(axis_names), **options)

    make_mesh.__doc__ = jax_make_mesh.__doc__
    return make_mesh


def make_mesh_from_device_mesh(create_device_mesh: Callable[..., Any]) -> Callable[..., Mesh]:
    """``make_mesh`` before JAX 0.4.32: the first devices, arranged by ``create_device_mesh``."""

    def make_mesh(
        axis_sizes: Sequence[int],
        axis_names: Sequence[str],
        axis_types: tuple[Any, ...] | None = None,
        *,
        devices: Sequence[Any] | None = None,
    ) -> Mesh:
        if axis_types is not None:
            raise _no_axis_types_error()
        sizes = tuple(int(size) for size in axis_sizes)
        available = list(jax.devices() if devices is None else devices)
        needed = math.prod(sizes)
        if needed > len(available):
            raise ValueError(
                f"Number of devices {len(available)} must be >= the product of mesh_shape {sizes}"
            )
        return Mesh(create_device_mesh(sizes, available[:needed]), tuple(axis_names))

    return make_mesh


class _Infer:
    """The default of ``in_specs``: infer them (what ``jax.sharding.Infer`` means)."""

    def __repr__(self) -> str:
        return "Infer"


_INFER: Any = _Infer()


def shard_map_from_experimental(experimental_shard_map: Callable[..., Any]) -> Callable[..., Any]:
    """``shard_map(f, /, *, out_specs, in_specs, mesh, axis_names, check_vma)`` (JAX 0.6.1).

    Translated to ``jax.experimental.shard_map.shard_map``: ``check_vma`` is its
    ``check_rep``, and ``axis_names`` (the manual axes) is the complement of its ``auto``.
    """

    def shard_map(
        f: Callable[..., Any] | None = None,
        /,
        *,
        out_specs: Any,
        in_specs: Any = _INFER,
        mesh: Mesh | None = None,
        axis_names: Any = frozenset(),
        check_vma: bool = True,
    ) -> Any:
        if f is None:
            return functools.partial(
                shard_map,
                out_specs=out_specs,
                in_specs=in_specs,
                mesh=mesh,
                axis_names=axis_names,
                check_vma=check_vma,
            )
        if in_specs is _INFER:
            raise TypeError(
                f"jaxcompat.shard_map needs in_specs=... on JAX {JAX_VERSION_STRING}: "
                "inferring them from the arguments needs JAX 0.7.1 or newer."
            )

        def on(mesh: Mesh) -> Callable[..., Any]:
            options: dict[str, Any] = {"check_rep": check_vma}
            manual = frozenset(axis_names)
            if manual and manual != frozenset(mesh.axis_names):
                options["auto"] = frozenset(mesh.axis_names) - manual
            mapped = experimental_shard_map(f, mesh, in_specs, out_specs, **options)
            return _naming_check_vma(mapped) if check_vma else mapped

        return on(mesh) if mesh is not None else _on_the_mesh_set(f, on)

    return shard_map


def _on_the_mesh_set(
    f: Callable[..., Any], on: Callable[[Mesh], Callable[..., Any]]
) -> Callable[..., Any]:
    """``shard_map(f)`` with no mesh: as the newest JAX, the mesh set when it is called.

    The mesh is the one ``jaxcompat.set_mesh`` set last on this thread. Each mesh's mapped
    function is built once, so calls on the same mesh reuse JAX's caches.
    """
    built: dict[Mesh, Callable[..., Any]] = {}

    @functools.wraps(f)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        meshes = _meshes_set()
        if not meshes:
            raise TypeError(
                "jaxcompat.shard_map was given no mesh and none is set: call it inside "
                "`with jaxcompat.set_mesh(mesh):`, or pass mesh=... (JAX "
                f"{JAX_VERSION_STRING} has no mesh context of its own that shard_map reads)."
            )
        mesh = meshes[-1]
        if mesh not in built:
            built[mesh] = on(mesh)
        return built[mesh](*args, **kwargs)

    return mapped


_NO_RULE = "No replication rule for "


def _naming_check_vma(mapped: Callable[..., Any]) -> Callable[..., Any]:
    # The replication check behind check_rep lacks rules that the newest check_vma has (cond
    # until JAX 0.4.36). JAX's error then says to pass check_rep=False, a parameter the newest
    # shard_map does not have: say it in the newest API's words.
    @functools.wraps(mapped)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return mapped(*args, **kwargs)
        except NotImplementedError as error:
            message = str(error)
            if not message.startswith(_NO_RULE):
                raise
            primitive = message.removeprefix(_NO_RULE).partition(".")[0]
            # Before JAX 0.4.35 jaxcompat's pure_callback(vmap_method="expand_dims" or
            # "broadcast_all") is a custom_vmap (_keywords/callbacks.py): say so.
            bound_by = (
                " (jaxcompat.pure_callback with vmap_method='expand_dims' or 'broadcast_all' "
                "binds it before JAX 0.4.35)"
                if primitive == "custom_vmap_call"
                else ""
            )
            raise NotImplementedError(
                f"jaxcompat.shard_map(check_vma=True) cannot check {primitive}{bound_by} on JAX "
                f"{JAX_VERSION_STRING}: this release's replication check has no rule for it. "
                "Pass check_vma=False, or upgrade JAX."
            ) from error

    return checked


# The meshes jaxcompat.set_mesh has set on each thread, the innermost last. Where set_mesh is
# jaxcompat's (before JAX 0.7.1), shard_map with no mesh reads it: the releases before 0.6.1,
# whose shard_map jaxcompat provides too, have no mesh context that their shard_map reads.
_MESHES_SET = threading.local()


def _meshes_set() -> list[Mesh]:
    if not hasattr(_MESHES_SET, "meshes"):
        _MESHES_SET.meshes = []
    meshes: list[Mesh] = _MESHES_SET.meshes
    return meshes


class _MeshSetting:
    """What ``set_mesh(mesh)`` returns: the mesh is set already; leaving a ``with`` unsets it."""

    def __init__(self, entered: Any) -> None:
        self._entered = entered

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> None:
        meshes = _meshes_set()
        if meshes:
            meshes.pop()
        self._entered.__exit__(*exc_info)


def _mesh_setter(enter: Callable[[Mesh], Any]) -> Callable[[Mesh], _MeshSetting]:
    def set_mesh(mesh: Mesh) -> _MeshSetting:
        """Set ``mesh`` for the current thread; as a context manager, until the block ends."""
        if not isinstance(mesh, Mesh):
            raise ValueError(f"Expected mesh of type `jax.sharding.Mesh`. Got {type(mesh)}")
        context = enter(mesh)
        context.__enter__()
        _meshes_set().append(mesh)
        return _MeshSetting(context)

    return set_mesh


def set_mesh_from_use_mesh(use_mesh: Callable[[Mesh], Any]) -> Callable[[Mesh], _MeshSetting]:
    """``jax.set_mesh`` (0.7.1) from ``jax.sharding.use_mesh`` (0.5.0-0.7.0).

    Unlike ``use_mesh``, the newest ``set_mesh`` sets the mesh when called, so that it works
    both as a global setter and as a context manager.
    """
    return _mesh_setter(use_mesh)


def set_mesh_from_mesh_context(mesh_type: type[Mesh]) -> Callable[[Mesh], _MeshSetting]:
    """``jax.set_mesh`` before JAX 0.5.0: entering the mesh itself (``with mesh:``)."""
    del mesh_type
    return _mesh_setter(lambda mesh: mesh)


def make_single_device_sharding(device: Any, *, memory_kind: str | None = None) -> Any:
    """``jax.sharding.make_single_device_sharding`` (JAX 0.10.0): a SingleDeviceSharding.

    SingleDeviceSharding of JAX 0.4.13 takes no memory kind: it gets one only when given.
    """
    if memory_kind is None:
        return jax.sharding.SingleDeviceSharding(device)
    # JAX 0.4.13's SingleDeviceSharding has no memory_kind parameter: its TypeError stands.
    return jax.sharding.SingleDeviceSharding(device, memory_kind=memory_kind)  # type: ignore[call-arg, unused-ignore]
