"""The module surface data: fresh against matrix.yml, and true to the installed JAX."""

import importlib.util
import warnings

import pytest

import jaxcompat
from jaxcompat import _surface
from jaxcompat._checker import _module_data
from jaxcompat._checker._module_findings import MODULE_REPLACEMENTS


def test_rows_are_the_api_surface_rows():
    # Stale data fails here: after adding a matrix.yml row, run `nox -s module_surface`.
    assert tuple(_module_data._data()["rows"]) == _surface.rows()


def test_every_record_covers_every_row():
    data = _module_data._data()
    count = len(_surface.rows())
    for chars in data["modules"].values():
        assert len(chars) == count and set(chars) <= set("owdr.")
    for chars in data["array"].values():
        assert len(chars) == count and set(chars) <= set("mMpPr.")
    for names in data["names"].values():
        for runs in names.values():
            chars = _module_data.rows_of_runs(runs)
            assert len(chars) == count and set(chars) <= set("owr.")


@pytest.fixture
def index():
    release = jaxcompat.JAX_VERSION_STRING
    if release not in _surface.rows():
        pytest.skip(f"JAX {release} is not a matrix.yml row, so the data has no record of it")
    return _surface.rows().index(release)


def _has_module(path):
    try:
        return importlib.util.find_spec(path) is not None
    except ModuleNotFoundError:  # its parent is gone too
        return False


@pytest.mark.parametrize("path", sorted({*MODULE_REPLACEMENTS, "jax.extend.backend"}))
def test_live_modules_are_where_the_data_says(path, index):
    chars = _module_data._data()["modules"].get(path, "." * len(_surface.rows()))
    assert _has_module(path) == (chars[index] != ".")


def test_live_array_attributes_are_as_the_data_says(index):
    import jax.numpy as jnp

    array = jnp.zeros((2, 2))
    for name in ("device_buffer", "device_buffers", "device"):
        char = _module_data.array_attribute(name)[index]
        if char in "mp":
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                getattr(array, name)
            assert caught == [], (name, [str(w.message) for w in caught])
        elif char in "MP":
            with pytest.warns(DeprecationWarning, match=name):
                getattr(array, name)
        elif char == "r":
            with pytest.raises(AttributeError):
                getattr(array, name)
        else:
            assert not hasattr(array, name)
    char = _module_data.array_attribute("device()")[index]
    if char == "m":
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            array.device()
        assert caught == [], [str(w.message) for w in caught]
    elif char == "M":
        with pytest.warns(DeprecationWarning, match=r"device\(\)"):
            array.device()
    else:
        with pytest.raises((AttributeError, TypeError)):
            array.device()


# Modules without submodules of their own (a package's names grow as its submodules are
# imported), whose names `check` reads from the data: jax.lax.linalg.ormqr from 0.10.0.
LEAF_MODULES = ["jax.lax.linalg", "jax.extend.backend", "jax.scipy.linalg", "jax.scipy.special"]


@pytest.mark.parametrize("path", LEAF_MODULES)
def test_live_module_names_are_the_data_s(path, index):
    import importlib
    import warnings

    recorded = _module_data._data()["names"].get(path, {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # importing a module can warn on some rows
        try:
            module = importlib.import_module(path)
        except ImportError:
            assert _module_data.module_mask(path)[0] >> index & 1 == 0
            return
        public = {name for name in dir(module) if not name.startswith("_")}
    # As the probe reads them: a deprecated name is read through the module's __getattr__.
    deprecations = getattr(module, "_deprecations", None)
    if isinstance(deprecations, dict):
        public |= set(deprecations)
    if path in _api_detailed():
        assert recorded == {}  # the API surface data records it in detail
        return
    present = {
        name for name, runs in recorded.items() if _module_data.rows_of_runs(runs)[index] in "owr"
    }
    assert present == public


def _api_detailed():
    return frozenset(_surface._data()["modules"])
