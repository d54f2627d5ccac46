"""python -m jaxcompat: the environment report and self-check."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import jaxcompat
from jaxcompat import __main__ as report
from jaxcompat._cli import diagnose as _diagnose
from jaxcompat._cli.diagnose import Finding
from jaxcompat._dispatch import backend_floors
from jaxcompat._releases import parse_release

from ._helpers import ROOT, stub_jax


@pytest.fixture(scope="module")
def json_report():
    """One in-process run of ``python -m jaxcompat --json``: (exit code, the parsed output).

    Every self-check compiles programs of its own, each time it runs: the tests of the checks
    and of the JSON output read this one run.
    """
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = report.main(["--json"])
    return code, json.loads(out.getvalue())


def test_every_self_check_passes(json_report):
    # The report's "errors" are run_checks' failures, by check name.
    _, data = json_report
    assert set(data["checks"]) == set(report.CHECKS)
    assert data["errors"] == {}


def test_installed_release_is_a_tested_row_or_newer():
    status, explanation, finding = report.tested_status()
    assert status in ("yes", "no")
    if status == "no":
        assert explanation == "untested"
        assert finding is not None
        assert "newer than every release" in finding.finding


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
def test_command_line(fresh_jaxcompat):
    # `python -m jaxcompat`, run as a module in a fresh interpreter.
    *lines, exit_code = fresh_jaxcompat.section("report")
    out = "\n".join(lines)
    assert exit_code == "exit code 0", out + fresh_jaxcompat.result.stderr
    assert f"JAX {jaxcompat.JAX_VERSION_STRING}, jaxlib {jaxcompat.JAXLIB_VERSION_STRING}" in out
    assert f"backend: {jaxcompat.BACKEND}" in out
    assert "tested release:" in out
    assert out.count("PASS") == len(report.CHECKS)
    assert f"{len(report.CHECKS)} passed, 0 failed" in out


def test_json_output(json_report):
    code, data = json_report
    assert code == 0
    assert data["backend"] == jaxcompat.BACKEND
    assert data["jax"] == jaxcompat.JAX_VERSION_STRING
    assert data["checks"] == dict.fromkeys(report.CHECKS, True)


# --- Diagnosis: each problem is found, explained with its fix, and fails the command --------


def _run_report(tmp_path, *, path=(), env=None, flags=(), json_output=True):
    """Run ``python [flags] -m jaxcompat [--json]`` with ``path`` first on sys.path."""
    code = (
        "import sys, runpy\n"
        f"sys.argv = ['jaxcompat'{', ' + repr('--json') if json_output else ''}]\n"
        "runpy.run_module('jaxcompat', run_name='__main__')\n"
    )
    environment = {**os.environ, **(env or {})}
    under_test = [] if "-S" in flags else [str(Path(jaxcompat.__file__).parent.parent)]
    environment["PYTHONPATH"] = os.pathsep.join([*path, *under_test])
    environment.pop("JAXCOMPAT_TEST_ACCELERATE", None)  # nothing to accelerate without JAX
    result = subprocess.run(
        [sys.executable, *flags, "-c", code],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout) if json_output else result.stdout


def _package_copy(tmp_path):
    """A copy of the jaxcompat under test, alone on a directory of its own."""
    target = tmp_path / "alone"
    shutil.copytree(
        Path(jaxcompat.__file__).parent,
        target / "jaxcompat",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return str(target)


def _problems(data):
    return [(p["problem"], p["finding"], p["fix"]) for p in data["problems"]]


@pytest.mark.subprocess
def test_jax_missing(tmp_path):
    # -S: no site-packages, so no JAX; the package under test is the only thing on the path.
    alone = [_package_copy(tmp_path)]
    data = _run_report(tmp_path, path=alone, flags=["-S"])
    assert (data["jax"], data["backend"], data["checks"]) == (None, None, {})
    assert _problems(data) == [
        (
            "jax-missing",
            "jax is not installed, and jaxcompat needs JAX 0.4.13 or newer.",
            "Install JAX: pip install -U jax jaxlib (or pip install 'jax>=0.4.13').",
        )
    ]
    out = _run_report(tmp_path, path=alone, flags=["-S"], json_output=False)
    assert "JAX: not found\nproblem (jax-missing): jax is not installed" in out
    assert "fix: Install JAX: pip install -U jax jaxlib" in out


@pytest.mark.subprocess
def test_jax_too_old(tmp_path):
    stub = stub_jax(tmp_path, "0.4.12")
    data = _run_report(tmp_path, path=stub)
    assert (data["jax"], data["jaxlib"], data["backend"]) == ("0.4.12", "0.4.12", None)
    assert _problems(data) == [
        (
            "jax-too-old",
            "JAX 0.4.12 is installed; jaxcompat supports JAX 0.4.13 and newer.",
            "Upgrade JAX: pip install -U 'jax>=0.4.13' 'jaxlib>=0.4.13'.",
        )
    ]
    out = _run_report(tmp_path, path=stub, json_output=False)
    assert "JAX 0.4.12, jaxlib 0.4.12\nproblem (jax-too-old): JAX 0.4.12 is installed" in out
    assert "fix: Upgrade JAX: pip install -U 'jax>=0.4.13' 'jaxlib>=0.4.13'." in out


def _broken_jax(directory, version):
    """A JAX 'version' whose import fails as an old jaxlib's does under numpy 2."""
    (directory / "jax").mkdir(parents=True)
    (directory / "jax" / "__init__.py").write_text(
        "raise ImportError('numpy.core.multiarray failed to import')\n"
    )
    info = directory / f"jax-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: jax\nVersion: {version}\n")
    return [str(directory)]


@pytest.mark.subprocess
def test_jax_fails_to_import(tmp_path):
    data = _run_report(tmp_path, path=_broken_jax(tmp_path / "stub", "0.4.23"))
    assert data["jax"] == "0.4.23"
    assert _problems(data) == [
        (
            "jax-broken",
            "JAX 0.4.23 is installed but fails to import: "
            "ImportError: numpy.core.multiarray failed to import",
            "Install the companions JAX 0.4.23 needs: pip install 'numpy<2' 'scipy<1.13'.",
        )
    ]
    out = _run_report(tmp_path, path=[str(tmp_path / "stub")], json_output=False)
    assert "problem (jax-broken): JAX 0.4.23 is installed but fails to import" in out
    assert "fix: Install the companions JAX 0.4.23 needs: pip install 'numpy<2'" in out


@pytest.mark.subprocess
def test_bad_backend(tmp_path):
    env = {"JAXCOMPAT_BACKEND": "jax_9_9_9"}
    stub = stub_jax(tmp_path, jaxcompat.JAX_VERSION_STRING)
    data = _run_report(tmp_path, path=stub, env=env)
    floors = ", ".join(backend_floors())
    assert _problems(data) == [
        (
            "bad-backend",
            "JAXCOMPAT_BACKEND='jax_9_9_9' names no jaxcompat backend.",
            "Unset JAXCOMPAT_BACKEND to select the backend by the installed JAX, or set it to "
            f"one of: {floors}.",
        )
    ]
    out = _run_report(tmp_path, path=stub, env=env, json_output=False)
    assert "problem (bad-backend): JAXCOMPAT_BACKEND='jax_9_9_9' names no" in out


def _as_installed(monkeypatch, shown):
    """Report as if JAX ``shown`` were installed (the real one serves it); one passing check."""
    monkeypatch.setattr(jaxcompat, "JAX_VERSION", parse_release(shown))
    monkeypatch.setattr(jaxcompat, "JAX_VERSION_STRING", shown)
    monkeypatch.setattr(report, "CHECKS", {"fine": lambda: None})


def test_a_release_newer_than_every_row_is_a_warning(monkeypatch, capsys):
    newest = yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"][-1]
    _as_installed(monkeypatch, "99.0.0")
    assert report.main(["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["tested"], data["problems"]) == ("no", [])
    pins = "".join(f" '{pin}'" for pin in newest.get("pins", ()))
    warning = {
        "problem": "untested",
        "finding": "JAX 99.0.0 is newer than every release this jaxcompat is tested on (newest "
        f"tested: {newest['jax']}); it runs on the newest backend, untested.",
        "fix": "Upgrade jaxcompat (pip install -U jaxcompat) to a release that tests it, or "
        f"install the newest tested JAX: pip install jax=={newest['jax']} "
        f"jaxlib=={newest['jaxlib']}{pins}.",
    }
    assert data["warnings"] == [warning]
    assert report.main([]) == 0
    out = capsys.readouterr().out
    assert f"tested release: no (untested)\nwarning (untested): {warning['finding']}\n" in out
    assert f"\nfix: {warning['fix']}\nPASS  fine\n1 passed, 0 failed\n" in out


def test_a_newer_release_whose_check_fails_is_a_problem(monkeypatch, capsys):
    _as_installed(monkeypatch, "99.0.0")

    def broken():
        raise AssertionError("deliberately broken")

    monkeypatch.setattr(report, "CHECKS", {"broken": broken})
    assert report.main(["--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [p["problem"] for p in data["problems"]] == ["untested"]
    assert data["warnings"] == []


def test_a_release_between_rows_is_a_problem(monkeypatch, capsys):
    _as_installed(monkeypatch, "0.4.32")  # between the rows 0.4.31 and 0.4.33
    assert report.main(["--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["warnings"] == []
    assert data["problems"] == [
        {
            "problem": "untested",
            "finding": "JAX 0.4.32 is not a release this jaxcompat is tested on (not a row of "
            "matrix.yml).",
            "fix": "Install the nearest tested release: pip install jax==0.4.31 jaxlib==0.4.31.",
        }
    ]


def test_untested_findings_name_the_release_to_install():
    rows = [
        {"jax": "0.4.31", "jaxlib": "0.4.31"},
        {"jax": "0.4.33", "jaxlib": "0.4.33", "pins": ["numpy<2"]},
        {"jax": "0.9.0.1", "jaxlib": "0.9.0"},
    ]
    assert _diagnose.tested_finding((0, 4, 31), "0.4.31", rows) is None
    assert _diagnose.tested_finding((0, 9, 0, 1), "0.9.0.1", rows) is None
    gap = _diagnose.tested_finding((0, 4, 32), "0.4.32", rows)
    assert gap == Finding(
        "untested",
        "JAX 0.4.32 is not a release this jaxcompat is tested on (not a row of matrix.yml).",
        "Install the nearest tested release: pip install jax==0.4.31 jaxlib==0.4.31.",
    )
    newer = _diagnose.tested_finding((0, 10, 0), "0.10.0.dev20260101", rows)
    assert newer == Finding(
        "untested",
        "JAX 0.10.0.dev20260101 is newer than every release this jaxcompat is tested on "
        "(newest tested: 0.9.0.1); it runs on the newest backend, untested.",
        "Upgrade jaxcompat (pip install -U jaxcompat) to a release that tests it, or install "
        "the newest tested JAX: pip install jax==0.9.0.1 jaxlib==0.9.0.",
    )
    pinned = _diagnose.tested_finding((0, 4, 34), "0.4.34", rows)
    assert pinned is not None
    assert (
        pinned.fix
        == "Install the nearest tested release: pip install jax==0.4.33 jaxlib==0.4.33 'numpy<2'."
    )


def test_a_verb_runs_before_anything_reads_jax(tmp_path, monkeypatch, capsys):
    (tmp_path / "fake_verb.py").write_text(
        "def main(argv):\n    print('verb', argv)\n    return 3\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(report.SUBCOMMANDS, "fake", "fake_verb")
    monkeypatch.setitem(report.SUBCOMMANDS, "absent", "no_such_verb_module")
    assert report.main(["fake", "a", "--json"]) == 3
    assert capsys.readouterr().out == "verb ['a', '--json']\n"
    assert report.main(["absent"]) == 2
    assert "this jaxcompat has no 'absent' command" in capsys.readouterr().err


def test_inside_the_checkout_the_report_says_it_reads_the_source_tree(monkeypatch, capsys):
    monkeypatch.setattr(report, "CHECKS", {"fine": lambda: None})
    checkout = Path(jaxcompat.__file__).resolve().parent.parent
    note = (
        "note: this is the source tree in the current directory, not an installed jaxcompat: "
        "run it from another directory to report on the installed one"
    )
    monkeypatch.chdir(checkout)
    report.main([])
    inside = capsys.readouterr().out.splitlines()
    monkeypatch.chdir(checkout.parent)
    report.main([])
    outside = capsys.readouterr().out.splitlines()
    # The checkout is where pyproject.toml sits beside the package: installed, nothing said.
    assert (note in inside) == (checkout / "pyproject.toml").is_file()
    assert note not in outside


def test_the_report_says_whether_random_bits_are_the_newest_jaxs(monkeypatch, capsys):
    import jax

    monkeypatch.setattr(report, "CHECKS", {"fine": lambda: None})
    saved = jax.config.jax_threefry_partitionable
    lines = {}
    try:
        for flag in (False, True):
            jax.config.update("jax_threefry_partitionable", flag)
            report.main([])
            lines[flag] = [
                line for line in capsys.readouterr().out.splitlines() if "random" in line
            ]
            assert report.newest_random_bits() is flag
    finally:
        jax.config.update("jax_threefry_partitionable", saved)
    assert lines[True] == [
        "random bits: the newest JAX's for the same key (jax_threefry_partitionable)"
    ]
    assert lines[False] == [
        "random bits: not the newest JAX's for the same key: jax_threefry_partitionable is "
        "False, the default before JAX 0.5.0; "
        'jax.config.update("jax_threefry_partitionable", True) gives the newest\'s bits'
    ]


def test_the_json_report_says_whether_random_bits_are_the_newest_jaxs(json_report):
    import jax

    _, data = json_report
    assert data["newest_random_bits"] is bool(jax.config.jax_threefry_partitionable)
