"""Select: choosing and importing one backend."""

import sys
import warnings

import pytest

import jaxcompat
from jaxcompat import _dispatch
from jaxcompat._dispatch import backend_floors, select_backend

from ._helpers import run_python, stub_jax

FLOORS = backend_floors()


def test_backends_are_discovered_from_files():
    assert FLOORS, "no backend files found"
    assert list(FLOORS.values()) == sorted(FLOORS.values())
    for name, floor in FLOORS.items():
        assert name == "jax_" + "_".join(map(str, floor))


def test_selected_backend_is_the_newest_floor_at_or_below_the_release():
    assert select_backend(jaxcompat.JAX_VERSION, FLOORS) == jaxcompat.BACKEND
    floor = FLOORS[jaxcompat.BACKEND]
    assert floor <= jaxcompat.JAX_VERSION
    newer = [f for f in FLOORS.values() if f > floor]
    assert all(f > jaxcompat.JAX_VERSION for f in newer)
    assert isinstance(jaxcompat.BACKEND, str)


def test_each_floor_selects_its_own_backend():
    for name, floor in FLOORS.items():
        assert select_backend(floor, FLOORS) == name
        assert select_backend((*floor, 99), FLOORS) == name  # a four-part release inside


def test_newer_than_every_row_uses_newest_backend_silently():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert select_backend((99, 0, 0), FLOORS) == list(FLOORS)[-1]


def test_too_old_names_installed_and_minimum():
    oldest = _dispatch.format_release(min(FLOORS.values()))
    with pytest.raises(ImportError) as info:
        select_backend((0, 4, 12), FLOORS, version_string="0.4.12")
    message = str(info.value)
    assert "0.4.12" in message
    assert oldest in message
    assert "pip install" in message


def test_forced_backend():
    name = list(FLOORS)[0]
    assert select_backend((99, 0), FLOORS, forced=name) == name


def test_forced_unknown_backend_lists_valid_names():
    with pytest.raises(ImportError) as info:
        select_backend(jaxcompat.JAX_VERSION, FLOORS, forced="jax_9_9_9")
    message = str(info.value)
    assert "JAXCOMPAT_BACKEND" in message
    assert "jax_9_9_9" in message
    for name in FLOORS:
        assert name in message


@pytest.mark.subprocess
def test_only_the_selected_backend_is_imported(fresh_jaxcompat):
    # In a fresh interpreter, after every stable name was resolved there.
    [line] = fresh_jaxcompat.section("backends")
    backend, loaded = line.split(" ", 1)
    assert backend == jaxcompat.BACKEND
    assert loaded == repr([f"jaxcompat._backends.{backend}"])


@pytest.mark.subprocess
def test_environment_variable_forces_a_backend_and_rejects_unknown_names(tmp_path):
    forced = run_python(
        "import jaxcompat; print(jaxcompat.BACKEND)",
        env={"JAXCOMPAT_BACKEND": jaxcompat.BACKEND},
    )
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.strip() == jaxcompat.BACKEND
    # The name is rejected before any backend, or JAX beyond its version, is imported.
    unknown = run_python(
        "import jaxcompat; jaxcompat.jit",
        env={"JAXCOMPAT_BACKEND": "jax_0_0_1"},
        path=stub_jax(tmp_path, jaxcompat.JAX_VERSION_STRING),
    )
    assert unknown.returncode != 0
    assert "ImportError" in unknown.stderr
    assert "jax_0_0_1" in unknown.stderr
    assert all(name in unknown.stderr for name in FLOORS)


@pytest.mark.subprocess
def test_missing_jax_says_how_to_install_it():
    # Importing jaxcompat succeeds (so that `python -m jaxcompat` can diagnose); the first
    # name that needs JAX raises.
    result = run_python("import sys; sys.modules['jax'] = None; import jaxcompat; jaxcompat.jit")
    assert result.returncode != 0
    assert "ImportError: jaxcompat needs JAX, which is not installed" in result.stderr
    assert "pip install jax" in result.stderr


@pytest.mark.subprocess
def test_too_old_jax_names_both_releases(tmp_path):
    result = run_python("from jaxcompat import jit", path=stub_jax(tmp_path, "0.4.12"))
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "JAX 0.4.12 is installed" in result.stderr
    assert "0.4.13" in result.stderr


def test_dispatch_module_is_the_only_version_comparison():
    # Nothing but _version.py reads jax.__version__.
    import pathlib

    package = pathlib.Path(jaxcompat.__file__).parent
    readers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        # The static checker names jax.__version__ as code to look for; it never reads it.
        if "_checker" not in path.parts
        and "__version__" in path.read_text()
        and "jax" in path.read_text()
        and "jax.__version__" in path.read_text()
    )
    assert readers == ["_version.py"], readers
    assert "jaxcompat._backends" in sys.modules
