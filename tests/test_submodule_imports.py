"""``import jaxcompat.X.Y`` gives what ``jaxcompat.X.Y`` gives: JAX's own module, or its error."""

import importlib
import subprocess
import sys

import jax
import pytest

import jaxcompat

from ._helpers import ROOT

# Modules of JAX that jaxcompat forwards, at one and two levels below a mirrored module, and
# one the stable-name table places (jax.extend.random, 0.4.18).
FORWARDED = [
    "scipy",
    "scipy.special",
    "scipy.stats.norm",
    "lax.linalg",
    "nn.initializers",
    "experimental.pjit",
    "extend.random",
]


def _by_attribute(path: str) -> object:
    found: object = jaxcompat
    for part in path.split("."):
        found = getattr(found, part)
    return found


@pytest.mark.parametrize("path", FORWARDED)
def test_import_gives_what_attribute_access_gives(path):
    expected: object
    try:
        expected = _by_attribute(path)
    except AttributeError as error:
        expected = error
    if isinstance(expected, AttributeError):
        # The release lacks it: the import says why, in the attribute's words.
        with pytest.raises(ModuleNotFoundError) as raised:
            importlib.import_module(f"jaxcompat.{path}")
        assert str(raised.value) == str(expected)
        assert raised.value.name == f"jaxcompat.{path}"
    else:
        imported = importlib.import_module(f"jaxcompat.{path}")
        assert imported is expected
        assert sys.modules[f"jaxcompat.{path}"] is expected


def test_the_imported_module_is_jaxs_own_and_keeps_its_spec():
    import jax.scipy.special

    spec = jax.scipy.special.__spec__
    import jaxcompat.scipy.special as special
    from jaxcompat.scipy.special import logsumexp

    assert special is jax.scipy.special
    assert logsumexp is jax.scipy.special.logsumexp
    assert jax.scipy.special.__spec__ is spec
    assert jax.scipy.special.__name__ == "jax.scipy.special"


def test_jaxs_private_package_is_forwarded_as_attribute_access_forwards_it():
    import jax._src.xla_bridge
    import jaxcompat._src.xla_bridge as xla_bridge

    assert xla_bridge is jax._src.xla_bridge
    assert jaxcompat._src is jax._src


def test_jaxcompats_own_modules_are_its_own():
    import jax.numpy.fft
    import jax.numpy.linalg

    import jaxcompat.experimental.layout
    import jaxcompat.numpy.fft
    import jaxcompat.numpy.linalg
    import jaxcompat.testing

    assert jaxcompat.testing.__name__ == "jaxcompat.testing"
    assert jaxcompat.experimental.layout.__name__ == "jaxcompat.experimental.layout"
    # jax.numpy.linalg and jax.numpy.fft with the newest keywords: JAX's own functions
    # wherever the release's function takes them all.
    assert jaxcompat.numpy.linalg.__name__ == "jaxcompat.numpy.linalg"
    assert jaxcompat.numpy.fft.__name__ == "jaxcompat.numpy.fft"
    assert jaxcompat.numpy.linalg is _by_attribute("numpy.linalg")
    assert jaxcompat.numpy.linalg.inv is jax.numpy.linalg.inv
    assert jaxcompat.numpy.fft.fft is jax.numpy.fft.fft


@pytest.mark.parametrize(
    "path",
    ["numpy.clip", "numpy.no_such_module", "scipy.no_such_module", "no_such_module"],
)
def test_what_is_not_a_module_is_no_module(path):
    with pytest.raises(ModuleNotFoundError) as raised:
        importlib.import_module(f"jaxcompat.{path}")
    assert str(raised.value) == f"No module named 'jaxcompat.{path}'"


def test_a_fresh_interpreter_imports_a_submodule_first():
    # Nothing imported before: the import statement alone reaches JAX's module.
    code = (
        "import jaxcompat.scipy.special as special, jax.scipy.special; "
        "assert special is jax.scipy.special; print(special.__name__)"
    )
    completed = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "jax.scipy.special"


def test_jax_modules_are_not_loaded_twice():
    importlib.import_module("jaxcompat.nn.initializers")
    loaded = [name for name, module in sys.modules.items() if module is jax.nn.initializers]
    assert sorted(loaded) == ["jax.nn.initializers", "jaxcompat.nn.initializers"]
