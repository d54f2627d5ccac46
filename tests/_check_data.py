"""A small, fixed API surface and stable-name table for the checker's tests.

Seven rows, with names whose facts the tests assert exactly; the real data file changes
when JAX does, this one never does.
"""

import functools

import pytest

from jaxcompat import _stable_names as stable
from jaxcompat import _surface
from jaxcompat._checker import (
    _api,
    _config_findings,
    _migrate_positional,
    _module_data,
    _module_findings,
    _ranges,
    _rules,
)

ROWS = ["0.4.13", "0.4.25", "0.4.30", "0.5.3", "0.7.0", "0.10.0", "0.12.0"]
ALL = "ooooooo"


def _names(**statuses: str) -> dict:
    return {name: {"status": status, "object": []} for name, status in statuses.items()}


SURFACE = {
    "format": 1,
    "rows": ROWS,
    "modules": {
        "jax": {
            "mirrored": True,
            "importable": ALL,
            "names": _names(
                numpy=ALL,
                tree=".oooooo",
                tree_util=ALL,
                core=ALL,
                extend=ALL,
                jit=ALL,
                grad=ALL,
                typeof="...oooo",
                make_mesh="..ooooo",
                shard_map="....ooo",
                set_mesh="....ooo",
                ffi="...oooo",
                tree_map="owrr...",
            ),
        },
        "jax.numpy": {
            "mirrored": True,
            "importable": ALL,
            "names": _names(clip=ALL, reshape=ALL, sum=ALL, round_="oowr...", zeros=ALL),
        },
        "jax.tree": {"mirrored": True, "importable": ".oooooo", "names": _names(map=".oooooo")},
        "jax.tree_util": {
            "mirrored": True,
            "importable": ALL,
            "names": _names(tree_map=ALL, register_dataclass="..ooooo"),
        },
        "jax.core": {
            "mirrored": False,
            "importable": ALL,
            "names": _names(get_aval="oooowr.", Primitive="ooowr.."),
        },
        "jax.extend": {"mirrored": False, "importable": ALL, "names": _names(core=".oooooo")},
        "jax.experimental": {
            "mirrored": False,
            "importable": ALL,
            # A submodule in dir() only when something else imported it.
            "names": {"multihost_utils": {"status": "..oo...", "object": [[2, "module:x"]]}},
        },
        "jax.extend.core": {
            "mirrored": True,
            "importable": ".oooooo",
            "names": _names(Primitive="..ooooo"),
        },
        "jax.experimental.shard_map": {
            "mirrored": False,
            "importable": ALL,
            "names": _names(shard_map="oooooww"),
        },
    },
    "signatures": {
        "jax.numpy.clip": [
            [0, "a,a_min=,a_max=,out="],
            [2, "x=,/,min=,max=,*,a=!,a_min=!,a_max=!"],
            [5, "arr=,/,min=,max="],
        ],
        "jax.numpy.reshape": [
            [0, "a,newshape,order="],
            [2, "a,shape=,order=,*,newshape=!"],
            [4, "a,shape,order=,*,copy="],
        ],
        "jax.jit": [
            [0, "fun,in_shardings=,out_shardings=,static_argnums="],
            [3, "fun,/,*,in_shardings=,out_shardings=,static_argnums="],
        ],
        "jax.make_mesh": [
            [0, None],
            [2, "axis_shapes,axis_names,devices=,axis_types="],
            [4, "axis_sizes,axis_names,axis_types=,devices="],
        ],
        "jax.shard_map": [[0, None], [4, "f=,/,*,out_specs,in_specs=,mesh="]],
        "jax.experimental.shard_map.shard_map": [[0, "f,mesh,in_specs,out_specs,check_rep="]],
        "jax.grad": [[0, "fun,argnums=,has_aux=,**kwargs"]],
        "jax.numpy.zeros": [[0, "shape,dtype="], [4, "shape,dtype=,*,out_sharding="]],
        "jax.tree_util.register_dataclass": [
            [0, None],
            [2, "nodetype,data_fields,meta_fields"],
            [4, "nodetype,data_fields=,meta_fields="],
        ],
    },
}

S, Src = stable.StableName, stable.Source
STABLE = (
    S("tree.map", (Src("jax.tree:map"), Src("jax.tree_util:tree_map"))),
    S("typeof", (Src("jax:typeof"), Src("jax.core:get_aval"))),
    S("numpy.clip", (Src("jax.numpy:clip", releases=">=0.4.30"),)),
    S(
        "extend.core.Primitive",
        (Src("jax.extend.core:Primitive"), Src("jax.core:Primitive")),
    ),
    S(
        "shard_map",
        (Src("jax:shard_map"), Src("jax.experimental.shard_map:shard_map", adapter="a:b")),
    ),
    S("set_mesh", (Src("jax:set_mesh"),), first="0.5.3", reason="no mesh context before it"),
)


def _clear() -> None:
    for function in (
        _api._module_set,
        _api._name_set,
        _api.facts,
        _api.signature_masks,
        _api.stable_names,
        _api._by_jax_path,
        _api.adapted_keyword,
        _api.rows_before,
        _migrate_positional._candidates,
        _ranges.release_tuples,
        _ranges.describe,
        _rules._name_problems,
        _module_findings._missing,
        _config_findings._missing,
    ):
        function.cache_clear()


@pytest.fixture
def fixture_data(monkeypatch):
    """Point the checker at SURFACE and STABLE for one test."""
    monkeypatch.setattr(_surface, "_data", functools.cache(lambda: SURFACE))
    monkeypatch.setattr(_api, "STABLE_NAMES", STABLE)
    # No module paths, names or array attributes: tests/test_check_modules.py sets its own.
    no_modules = {"rows": ROWS, "modules": {}, "names": {}, "array": {}}
    monkeypatch.setattr(_module_data, "_data", functools.cache(lambda: no_modules))
    _clear()
    yield
    _clear()
