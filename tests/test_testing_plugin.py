"""jaxcompat.testing, the pytest plugin: the jax marker, its skips, and a header that never
stops pytest."""

import os
import subprocess
import sys

import pytest

import jaxcompat

from ._helpers import ROOT

pytest_plugins = ["pytester"]

MARKED = """
import pytest

def test_plain():
    assert 1 + 1 == 2

@pytest.mark.jax("<0.0.1")
def test_never():
    pass
"""


def test_a_skip_points_at_the_test(pytester):
    pytester.makepyfile(test_marked=MARKED)
    result = pytester.runpytest("-ra", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "SKIPPED [[]1[]] test_marked.py:6: needs JAX <0.0.1; "
            f"JAX {jaxcompat.JAX_VERSION_STRING} is installed"
        ]
    )
    assert "testing.py" not in result.stdout.str()


def test_a_marker_that_matches_the_installed_jax_runs_the_test(pytester):
    # A plugin that skipped every marked test would leave a suite green: the matching ones run.
    installed = jaxcompat.JAX_VERSION_STRING
    pytester.makepyfile(
        test_matching=f"""
import pytest

@pytest.mark.jax("=={installed}")
def test_exact():
    pass

@pytest.mark.jax(">=0.4.13")
def test_floor():
    assert False, "ran"

@pytest.mark.jax("!={installed}")
def test_other():
    pass
"""
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*AssertionError: ran*"])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            '"garbage"',
            "ERROR: test_bad.py::test_bad: @pytest.mark.jax('garbage'): 'garbage' is not a PEP "
            "440 version specifier; use @pytest.mark.jax('<PEP 440 specifier>'), e.g. "
            "@pytest.mark.jax('>=0.4.36')",
        ),
        (
            "",
            "ERROR: test_bad.py::test_bad: use @pytest.mark.jax('<PEP 440 specifier>'), e.g. "
            "@pytest.mark.jax('>=0.4.36')",
        ),
        (
            "(0, 4, 36)",
            "ERROR: test_bad.py::test_bad: use @pytest.mark.jax('<PEP 440 specifier>'), e.g. "
            "@pytest.mark.jax('>=0.4.36')",
        ),
    ],
)
def test_a_bad_marker_is_a_usage_error_naming_the_test(pytester, arguments, message):
    pytester.makepyfile(
        test_bad=f"import pytest\n\n@pytest.mark.jax({arguments})\ndef test_bad():\n    pass\n"
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines == [message, ""] or result.stderr.lines == [message]
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_the_header_names_jax_and_the_backend(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(
        [
            f"jax {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}, "
            f"jaxcompat backend {jaxcompat.BACKEND}",
            f"jaxcompat {jaxcompat.__version__} imported from {jaxcompat.__file__}",
        ]
    )


def _broken_jax(directory):
    """JAX 0.4.23 and jaxlib 0.4.23 whose import fails as an old jaxlib's does under numpy 2
    (after writing NumPy's banner to stderr)."""
    (directory / "jax").mkdir(parents=True)
    (directory / "jax" / "__init__.py").write_text(
        "import sys\n"
        "sys.stderr.write('A module that was compiled using NumPy 1.x cannot be run in\\n')\n"
        "raise AttributeError('_ARRAY_API not found')\n"
    )
    for name in ("jax", "jaxlib"):
        info = directory / f"{name}-0.4.23.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.4.23\n")
    return str(directory)


@pytest.mark.subprocess
def test_broken_jax_the_header_says_what_is_wrong_and_the_tests_run(tmp_path):
    stub = _broken_jax(tmp_path / "stub")
    (tmp_path / "suite" / "test_suite.py").parent.mkdir()
    (tmp_path / "suite" / "test_suite.py").write_text(
        MARKED + "\ndef test_version(jax_version):\n    pass\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-ra", "-p", "no:cacheprovider", "test_suite.py"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([stub, str(ROOT)])},
        cwd=tmp_path / "suite",
        timeout=300,
        check=False,
    )
    out = result.stdout
    assert result.returncode == pytest.ExitCode.TESTS_FAILED, out + result.stderr
    assert "INTERNALERROR" not in out + result.stderr
    assert "NumPy 1.x" not in out + result.stderr
    reason = (
        "JAX is installed but failed to import (AttributeError: _ARRAY_API not found). JAX "
        "releases up to 0.4.25 need 'numpy<2' (and up to 0.4.23 also 'scipy<1.13'); see "
        "matrix.yml in the jaxcompat repository for the pins each release needs."
    )
    header = [
        "jax 0.4.23, jaxlib 0.4.23: JAX cannot be used, so tests that need it fail",
        "problem (jax-broken): JAX 0.4.23 is installed but fails to import: "
        "AttributeError: _ARRAY_API not found",
        "fix: Install the companions JAX 0.4.23 needs: pip install 'numpy<2' 'scipy<1.13'.",
        f"jaxcompat {jaxcompat.__version__} imported from {jaxcompat.__file__}",
    ]
    lines = out.splitlines()
    start = lines.index(header[0])
    assert lines[start : start + 4] == header
    assert "test_suite.py .EE" in out
    assert f"@pytest.mark.jax needs the installed JAX: {reason}\n" in out
    assert f"the jax_version fixture needs the installed JAX: {reason}\n" in out
    assert "1 passed, 2 errors" in out


FUTURE_SUITE = """
import sys

import jax
from jax._src import deprecations

def test_every_registered_deprecation_is_an_error():
    registered = getattr(deprecations, "_registered_deprecations", {})
    # JAX 0.4.29 keyed a deprecation by one id; before, by (module, key).
    ids = [name if isinstance(name, tuple) else (name,) for name in registered]
    assert all(deprecations.is_accelerated(*each) for each in ids)
    tables = [
        module._deprecations
        for name, module in list(sys.modules.items())
        if name.startswith("jax") and isinstance(getattr(module, "_deprecations", None), dict)
    ]
    assert all(entry[1] is None for table in tables for entry in table.values())
"""


@pytest.mark.subprocess
def test_jaxcompat_future_makes_every_registered_deprecation_an_error(pytester, monkeypatch):
    monkeypatch.setenv("JAXCOMPAT_FUTURE", "1")
    pytester.makepyfile(test_future=FUTURE_SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "JAXCOMPAT_FUTURE is set: every deprecation this JAX has registered is an error, as "
            "on a coming release"
        ]
    )
    monkeypatch.delenv("JAXCOMPAT_FUTURE")
    plain = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert "JAXCOMPAT_FUTURE" not in plain.stdout.str()
