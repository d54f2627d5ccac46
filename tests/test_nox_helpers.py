"""jaxcompat.nox: the rows a library's noxfile runs, and the commands that install each.

nox is not a test dependency: a stand-in module records what jaxcompat.nox passes to
``nox.param``, with nox's own signature. Nothing here reaches the network.
"""

import json
import os
import subprocess
import sys
import types
from dataclasses import dataclass, field

import pytest
import yaml

import jaxcompat.nox as jcn
from jaxcompat._matrix import pip_indexes as _pip_indexes
from jaxcompat._matrix import trial
from jaxcompat._matrix.cli import main as matrix

from ._helpers import ROOT, run_python
from ._helpers import NoxParam as Param
from ._helpers import nox_param as _param

ROWS = yaml.safe_load((ROOT / "matrix.yml").read_text())["releases"]
NEWEST_PYTHON = str(ROWS[-1]["primary"])


@pytest.fixture
def fake_nox(monkeypatch):
    module = types.ModuleType("nox")
    module.param = _param
    monkeypatch.setitem(sys.modules, "nox", module)
    return module


def _matrix_rows(*argv, capsys):
    assert matrix([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("selection", ["all", "breakpoints"])
def test_rows_of_a_selection_are_the_matrix_command_s(fake_nox, capsys, selection):
    expected = _matrix_rows("--select", selection, capsys=capsys)
    assert jcn.rows(select=selection) == [
        Param((row["python"], row["jax"]), f"jax='{row['jax']}'", ("jax",)) for row in expected
    ]


@pytest.mark.parametrize("example", ["downstream", "pinned"])
def test_needed_rows_are_the_matrix_command_s(fake_nox, capsys, example):
    path = ROOT / "examples" / example
    expected = _matrix_rows(str(path), capsys=capsys)
    assert [param.args for param in jcn.rows(path)] == [
        (row["python"], row["jax"]) for row in expected
    ]


def test_newest_and_future_rows_come_last_when_asked_for(fake_nox):
    plain = jcn.rows(ROOT / "examples" / "downstream")
    both = jcn.rows(ROOT / "examples" / "downstream", newest=True, future=True)
    assert both == [
        *plain,
        Param((NEWEST_PYTHON, "newest"), "jax='newest'", ("newest",)),
        Param((NEWEST_PYTHON, "future"), "jax='future'", ("future",)),
    ]


def test_an_unknown_selection_is_a_clear_error(fake_nox):
    with pytest.raises(
        ValueError, match=r"^select='some': choose one of all, breakpoints, needed$"
    ):
        jcn.rows(select="some")


@dataclass
class FakeSession:
    """What nox.Session offers jaxcompat.nox, recording each command instead of running it."""

    venv_backend: str
    bin: str = "/venv/bin"
    env: dict = field(default_factory=dict)
    calls: list = field(default_factory=list)

    def install(self, *args, env=None):
        self.calls.append(("install", args, env))

    def run(self, *args, env=None, external=False):
        self.calls.append(("run", args, env, external))


PIP_CONFIG = {"extra-index-url": "https://example.invalid/simple", "find-links": "/wheels"}
UV_ENV = {
    "UV_EXTRA_INDEX_URL": "https://example.invalid/simple",
    "UV_FIND_LINKS": "/wheels",
    "UV_INDEX_STRATEGY": "unsafe-best-match",
}


@pytest.fixture
def pip_configured(monkeypatch):
    """The user's pip configuration is PIP_CONFIG, and no UV_* variable is set."""
    for name in (*_pip_indexes.UV_INDEX_VARIABLES, "UV_INDEX_STRATEGY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(_pip_indexes, "pip_config", lambda python=sys.executable: PIP_CONFIG)


def _pinned(row):
    return (f"jax=={row['jax']}", f"jaxlib=={row['jaxlib']}", *row.get("pins", ()))


def test_install_with_a_uv_virtualenv_passes_pip_s_indexes_to_uv(pip_configured):
    session = FakeSession("uv")
    jcn.install(session, "0.4.13", "pytest")
    assert session.calls == [
        ("install", ("jax==0.4.13", "jaxlib==0.4.13", "numpy<2", "scipy<1.13", "pytest"), UV_ENV)
    ]
    assert session.env == {}


def _uv_on_path(monkeypatch, tmp_path, exit_status):
    """An executable ``uv`` that exits with ``exit_status``, as the only uv on PATH."""
    uv = tmp_path / "uv"
    uv.write_text(f"#!/bin/sh\nexit {exit_status}\n")
    uv.chmod(0o755)
    monkeypatch.setattr(
        _pip_indexes.shutil, "which", lambda name, path=None: str(uv) if name == "uv" else None
    )
    return uv


def test_install_uses_uv_from_path_in_another_virtualenv(pip_configured, monkeypatch, tmp_path):
    uv = _uv_on_path(monkeypatch, tmp_path, exit_status=0)
    session = FakeSession("virtualenv")
    row = ROWS[-1]
    jcn.install(session, str(row["jax"]))
    python = os.path.join("/venv/bin", "python")
    assert session.calls == [
        ("run", (str(uv), "pip", "install", "--python", python, *_pinned(row)), UV_ENV, True)
    ]


def test_install_without_uv_is_pip_s_own(pip_configured, monkeypatch):
    monkeypatch.setattr(_pip_indexes.shutil, "which", lambda name, path=None: None)
    session = FakeSession("virtualenv")
    jcn.install(session, "0.4.37")  # jaxlib 0.4.36: the row says so
    assert session.calls == [("install", ("jax==0.4.37", "jaxlib==0.4.36"), None)]


def test_install_passes_over_a_uv_that_does_not_start(pip_configured, monkeypatch, tmp_path):
    # A version manager's shim for a uv that is not installed is on PATH and exits 127.
    _uv_on_path(monkeypatch, tmp_path, exit_status=127)
    session = FakeSession("virtualenv")
    jcn.install(session, "0.4.37")
    assert session.calls == [("install", ("jax==0.4.37", "jaxlib==0.4.36"), None)]


def test_newest_and_future_install_the_newest_jax_unpinned(pip_configured):
    newest, future = FakeSession("uv"), FakeSession("uv")
    jcn.install(newest, "newest")
    jcn.install(future, "future")
    unpinned = ("install", ("--upgrade", "jax", "jaxlib"), UV_ENV)
    assert newest.calls == future.calls == [unpinned]
    assert (newest.env, future.env) == ({}, {"JAXCOMPAT_FUTURE": "1"})


def test_install_of_an_unknown_release_is_a_clear_error(pip_configured):
    with pytest.raises(ValueError, match=r"^jax='0\.4\.32' is no release of jaxcompat's matrix"):
        jcn.install(FakeSession("uv"), "0.4.32")


def test_the_user_s_uv_settings_win(monkeypatch):
    assert _pip_indexes.uv_index_environment({"UV_INDEX_URL": "x"}, PIP_CONFIG) == {}
    assert _pip_indexes.uv_index_environment({"UV_INDEX_STRATEGY": "first-index"}, PIP_CONFIG) == {
        "UV_EXTRA_INDEX_URL": "https://example.invalid/simple",
        "UV_FIND_LINKS": "/wheels",
    }
    assert _pip_indexes.uv_index_environment({}, {}) == {}


def test_the_project_noxfile_shares_the_index_logic():
    text = (ROOT / "noxfile.py").read_text()
    assert '"jaxcompat" / "_matrix" / "pip_indexes.py"' in text
    assert "def _pip_config" not in text


@pytest.mark.subprocess
def test_importing_jaxcompat_never_needs_nox():
    code = (
        "import sys; sys.modules['nox'] = None\n"
        "import jaxcompat, jaxcompat.nox\n"
        "print(jaxcompat.nox.requirements('0.4.13'))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "['jax==0.4.13', 'jaxlib==0.4.13', 'numpy<2', 'scipy<1.13']\n"


def test_the_future_row_sets_what_the_pytest_plugin_reads():
    import jaxcompat.testing

    assert jcn.FUTURE_ENV_VAR == jaxcompat.testing.FUTURE_ENV_VAR == "JAXCOMPAT_FUTURE"


def test_pip_s_configuration_comes_from_pip_on_path_without_a_pip_module(monkeypatch):
    ran = []

    def run(command, **kwargs):
        ran.append(command)
        if command[:3] == ["python", "-m", "pip"]:  # an environment made by uv: no pip
            return subprocess.CompletedProcess(command, 1, "", "No module named pip")
        return subprocess.CompletedProcess(command, 0, "global.find-links='/wheels'\n", "")

    monkeypatch.setattr(_pip_indexes.subprocess, "run", run)
    monkeypatch.setattr(_pip_indexes.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert _pip_indexes.pip_config("python") == {"find-links": "/wheels"}
    assert ran == [["python", "-m", "pip", "config", "list"], ["pip", "config", "list"]]


class FakeDistribution:
    version = "1.2.3"

    def __init__(self, direct_url):
        self.direct_url = direct_url

    def read_text(self, name):
        assert name == "direct_url.json"
        return self.direct_url


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        # pip install /path/to/jaxcompat (a checkout, editable or not)
        ('{"url": "file:///src/jax%20compat", "dir_info": {}}', "/src/jax compat"),
        (
            '{"url": "file:///dist/jaxcompat-1.2.3-py3-none-any.whl", "archive_info": {}}',
            "/dist/jaxcompat-1.2.3-py3-none-any.whl",
        ),
        # pip install jaxcompat from an index records nothing; from a URL, no local path
        (None, "jaxcompat==1.2.3"),
        ('{"url": "https://example.invalid/jc.whl", "archive_info": {}}', "jaxcompat==1.2.3"),
    ],
)
def test_the_sessions_get_the_jaxcompat_that_runs_the_noxfile(monkeypatch, direct_url, expected):
    fake = FakeDistribution(direct_url)
    monkeypatch.setattr(trial, "_source_tree", lambda: None)  # as where it runs installed
    monkeypatch.setattr(trial.importlib.metadata, "distribution", lambda name: fake)
    assert jcn.jaxcompat_requirement() == expected


def test_run_from_a_checkout_the_sessions_get_that_checkout(tmp_path, monkeypatch):
    # Where this very file runs from a checkout or from an installed wheel, the same answer.
    (tmp_path / "jaxcompat" / "_matrix").mkdir(parents=True)
    (tmp_path / "jaxcompat" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'jaxcompat'\n")
    monkeypatch.setattr(trial, "__file__", str(tmp_path / "jaxcompat" / "_matrix" / "trial.py"))
    assert jcn.jaxcompat_requirement() == str(tmp_path.resolve())
    (tmp_path / "pyproject.toml").unlink()  # a site-packages folder: no checkout around it
    monkeypatch.setattr(
        trial.importlib.metadata, "distribution", lambda name: FakeDistribution(None)
    )
    assert jcn.jaxcompat_requirement() == "jaxcompat==1.2.3"
