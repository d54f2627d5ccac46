"""python -m jaxcompat: the environment report and self-check."""

import json

import pytest

import jaxcompat
from jaxcompat import __main__ as report

from ._helpers import run_python


def test_every_self_check_passes():
    results = report.run_checks()
    assert set(results) == set(report.CHECKS)
    assert {name: error for name, error in results.items() if error} == {}


def test_installed_release_is_a_tested_row_or_newer():
    status, explanation = report.tested_status()
    assert status in ("yes", "no")
    if status == "no":
        assert "untested" in explanation


def test_a_failing_check_is_reported_and_fails_the_command(monkeypatch, capsys):
    def broken():
        raise AssertionError("deliberately broken")

    # Only the broken check and one that passes: the real checks run in the test above.
    monkeypatch.setattr(report, "CHECKS", {"broken": broken, "fine": lambda: None})
    assert report.main([]) == 1
    out = capsys.readouterr().out
    assert "FAIL  broken" in out
    assert "deliberately broken" in out


@pytest.mark.subprocess
def test_command_line():
    result = run_python("import runpy; runpy.run_module('jaxcompat', run_name='__main__')")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert f"JAX {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}" in out
    assert f"backend: {jaxcompat.BACKEND}" in out
    assert "tested release:" in out
    assert out.count("PASS") == len(report.CHECKS)
    assert f"{len(report.CHECKS)} passed, 0 failed" in out


def test_json_output(capsys):
    assert report.main(["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["backend"] == jaxcompat.BACKEND
    assert data["jax"] == jaxcompat.JAX_VERSION_STRING
    assert data["checks"] == dict.fromkeys(report.CHECKS, True)
