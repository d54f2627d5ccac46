"""Detect: reading the installed JAX release."""

import jax
import jaxlib
import pytest
from packaging.version import Version

import jaxcompat
from jaxcompat._releases import parse_release


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.4.13", (0, 4, 13)),
        ("0.4.30", (0, 4, 30)),
        ("0.9.0.1", (0, 9, 0, 1)),
        ("0.12.0.1", (0, 12, 0, 1)),
        ("0.4.31.dev20240601", (0, 4, 31)),
        ("0.5.0rc1", (0, 5, 0)),
        ("0.5.0.rc1", (0, 5, 0)),
        ("0.4.30+cuda12", (0, 4, 30)),
        ("0.4.31.dev20240601+cuda12.cudnn89", (0, 4, 31)),
        ("0.10.2", (0, 10, 2)),
        ("1.0", (1, 0)),
        ("0.6.0.post1", (0, 6, 0)),
    ],
)
def test_parse_release(text, expected):
    assert parse_release(text) == expected
    # Agrees with the PEP 440 reference implementation.
    assert parse_release(text) == Version(text).release


@pytest.mark.parametrize("text", ["", "unknown", "jax", "v", ".4.1", "0..4"])
def test_parse_release_rejects_garbage(text):
    with pytest.raises(ValueError, match="not a PEP 440 version"):
        parse_release(text)


def test_ordering_never_compares_strings():
    # The classic bug: "0.10.2" < "0.4.31" as strings.
    assert parse_release("0.10.2") > parse_release("0.4.31")
    assert parse_release("0.9.0.1") > parse_release("0.9.0")
    assert parse_release("0.9.0.1") < parse_release("0.9.1")


def test_installed_versions_are_int_tuples():
    assert isinstance(jaxcompat.JAX_VERSION, tuple)
    assert all(type(part) is int for part in jaxcompat.JAX_VERSION)
    assert Version(jax.__version__).release == jaxcompat.JAX_VERSION
    assert Version(jaxlib.__version__).release == jaxcompat.JAXLIB_VERSION


# --- What importing JAX writes to stderr: held until the import is known to succeed ---------


def test_what_a_successful_import_writes_is_written_unchanged(capsys):
    import sys

    from jaxcompat._held_stderr import stderr_held_until_success

    with stderr_held_until_success():
        sys.stderr.write("written during the import\n")
        kept = sys.stderr  # as a logging handler made during the import would keep it
        assert capsys.readouterr().err == ""
    assert capsys.readouterr().err == "written during the import\n"
    kept.write("later\n")  # once released, it writes straight through
    kept.flush()
    assert capsys.readouterr().err == "later\n"


def test_what_a_failed_import_writes_is_dropped(capsys):
    import sys

    from jaxcompat._held_stderr import stderr_held_until_success

    def failing_import():
        with stderr_held_until_success():
            sys.stderr.write("A module that was compiled using NumPy 1.x cannot be run in\n")
            raise ImportError("numpy.core.multiarray failed to import")

    original = sys.stderr
    with pytest.raises(ImportError, match=r"^numpy\.core\.multiarray failed to import$"):
        failing_import()
    assert sys.stderr is original
    assert capsys.readouterr().err == ""
