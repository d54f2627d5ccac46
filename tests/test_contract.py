"""Every backend implements the contract; checked by parsing, so all backends are checked."""

import ast
import inspect
from pathlib import Path

import pytest

import jaxcompat
from jaxcompat import _contract
from jaxcompat._dispatch import backend_floors

BACKENDS = Path(jaxcompat.__file__).parent / "_backends"
NAMES = list(backend_floors())


def _assigned(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for element in ast.walk(target):
                    if isinstance(element, ast.Name):
                        names.add(element.id)
    return names


@pytest.mark.parametrize("name", NAMES)
def test_backend_defines_every_contract_name(name):
    tree = ast.parse((BACKENDS / f"{name}.py").read_text())
    missing = set(_contract.BACKEND_NAMES) - _assigned(tree)
    assert not missing, f"{name} lacks {sorted(missing)}"


@pytest.mark.parametrize("name", NAMES)
def test_backend_imports_no_other_backend(name):
    tree = ast.parse((BACKENDS / f"{name}.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported = [node.module or ""] + [alias.name for alias in node.names]
            assert not any(part.startswith("jax_") for part in imported), (name, imported)


@pytest.mark.parametrize("name", NAMES)
def test_backend_docstring_states_its_range(name):
    doc = ast.get_docstring(ast.parse((BACKENDS / f"{name}.py").read_text()))
    assert doc, f"{name} needs a docstring naming its range and the JAX changes behind it"
    floor = ".".join(name.split("_")[1:])
    assert floor in doc.splitlines()[0], f"{name}: the first line should name JAX {floor}"


def test_no_version_comparisons_outside_dispatch():
    # Backends are chosen by _dispatch; everything else asks the backend, never the version.
    # (jaxcompat.testing compares versions on purpose: that is its @pytest.mark.jax marker.)
    import re

    comparison = re.compile(r"(JAX_VERSION|JAXLIB_VERSION)\s*[<>]|[<>]=?\s*(JAX_VERSION|JAXLIB)")
    package = BACKENDS.parent
    for path in package.rglob("*.py"):
        if path.name in ("_dispatch.py", "testing.py"):
            continue
        source = path.read_text()
        assert not comparison.search(source), path
        # The static checker names jax.__version__ as code to look for; it never reads it.
        if path.name != "_version.py" and "_checker" not in path.parts:
            assert "jax.__version__" not in source, path


def test_public_api():
    assert set(jaxcompat.__all__) == {
        "BACKEND",
        "JAXLIB_VERSION",
        "JAXLIB_VERSION_STRING",
        "JAX_VERSION",
        "JAX_VERSION_STRING",
        "__version__",
        "block_if_array",
        "is_tracer",
        "jit",
        "lax",
        "lower",
        "trace",
        "tracer_safe_hash",
    }
    for name in jaxcompat.__all__:
        assert hasattr(jaxcompat, name)
    # __all__ is jaxcompat's own API; dir() also lists every name mirrored from jax.
    assert set(jaxcompat.__all__) <= set(dir(jaxcompat))
    assert {"grad", "vmap", "numpy"} <= set(dir(jaxcompat))
    assert set(jaxcompat.lax.__all__) == set(_contract.CONTROL_FLOW_NAMES)


@pytest.mark.parametrize("name", ["is_tracer", "tracer_safe_hash", "block_if_array", "jit"])
def test_public_functions_carry_the_contract_documentation(name):
    public = getattr(jaxcompat, name)
    assert inspect.getdoc(public) == inspect.getdoc(getattr(_contract, name))
    if name == "jit":  # jit(fun, /, **options) shows the newest jax.jit's options by name
        from jaxcompat._primitives.jit_options import JIT_OPTIONS

        parameters = inspect.signature(public).parameters.values()
        assert [(p.name, p.kind) for p in parameters] == [
            ("fun", inspect.Parameter.POSITIONAL_ONLY),
            *((option, inspect.Parameter.KEYWORD_ONLY) for option in JIT_OPTIONS),
        ]
        return
    assert inspect.signature(public) == inspect.signature(getattr(_contract, name))


def test_typed_package():
    assert (Path(jaxcompat.__file__).parent / "py.typed").exists()
