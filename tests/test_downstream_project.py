"""examples/downstream is a project of its own: its noxfile, its workflow and its README.

The noxfile is loaded with a stand-in nox module (nox is not a test dependency) and its
session is called with a stand-in session that records commands: nothing reaches the network.
"""

import importlib.util
import re
import shutil
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

import jaxcompat.nox as jcn

from ._helpers import ROOT
from ._helpers import nox_param as _param

PROJECT = ROOT / "examples" / "downstream"


@pytest.fixture
def fake_nox(monkeypatch):
    """A nox module that records the sessions a noxfile defines and their parameters."""
    module = types.ModuleType("nox")
    module.param = _param
    module.options = types.SimpleNamespace()
    module.sessions = {}

    def parametrize(names, params):
        def decorate(function):
            function.parametrized = (names, params)
            return function

        return decorate

    def session(function):
        module.sessions[function.__name__] = function
        return function

    module.parametrize = parametrize
    module.session = session
    monkeypatch.setitem(sys.modules, "nox", module)
    return module


def _load_noxfile(folder: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("tinysolve_noxfile", folder / "noxfile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_noxfile_runs_the_tests_on_jaxcompat_s_needed_rows_newest_and_future(fake_nox):
    _load_noxfile(PROJECT)
    assert list(fake_nox.sessions) == ["tests"]
    names, params = fake_nox.sessions["tests"].parametrized
    assert names == "python,jax"
    assert params == jcn.rows(PROJECT, select="needed", newest=True, future=True)
    assert [param.args[1] for param in params][-2:] == ["newest", "future"]
    # `nox -t jax` (the README's second command) selects exactly the needed releases.
    assert [param.args for param in params if "jax" in param.tags] == [
        param.args for param in jcn.rows(PROJECT, select="needed")
    ]


def test_the_noxfile_reads_the_folder_it_is_in(fake_nox, tmp_path):
    copy = tmp_path / "tinysolve"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns(".nox", "__pycache__"))
    pyproject = copy / "pyproject.toml"
    # A floor in the copy is the copy's own: the rows start there.
    pyproject.write_text(pyproject.read_text().replace('"jax",', '"jax>=0.5.3",'))
    _load_noxfile(copy)
    _, params = fake_nox.sessions["tests"].parametrized
    assert params == jcn.rows(copy, select="needed", newest=True, future=True)
    assert params[0].args[1] == "0.5.3"


@dataclass
class FakeSession:
    """What nox.Session offers the noxfile, recording each command instead of running it."""

    venv_backend: str = "uv"
    posargs: list = field(default_factory=list)
    env: dict = field(default_factory=dict)
    calls: list = field(default_factory=list)

    def install(self, *args, env=None):
        self.calls.append(("install", args))

    def run(self, *args, env=None, external=False):
        self.calls.append(("run", args))


@pytest.fixture
def noxfile(fake_nox, monkeypatch):
    module = _load_noxfile(PROJECT)
    monkeypatch.setattr(jcn, "jaxcompat_requirement", lambda: "/src/jaxcompat")
    return module


def test_a_row_installs_its_pins_jaxcompat_and_the_project_together(noxfile):
    session = FakeSession(posargs=["-x"])
    noxfile.tests(session, "0.4.13")
    assert session.calls == [
        (
            "install",
            (
                *("jax==0.4.13", "jaxlib==0.4.13", "numpy<2", "scipy<1.13"),
                *("/src/jaxcompat", "-e", ".", "pytest"),
            ),
        ),
        ("run", ("pytest", "-x")),
    ]
    assert session.env == {}


def test_the_future_row_installs_the_newest_jax_and_sets_the_plugin_s_variable(noxfile):
    session = FakeSession()
    noxfile.tests(session, "future")
    assert session.calls == [
        ("install", ("--upgrade", "jax", "jaxlib", "/src/jaxcompat", "-e", ".", "pytest")),
        ("run", ("pytest",)),
    ]
    assert session.env == {"JAXCOMPAT_FUTURE": "1"}


def _bash_blocks(markdown: str) -> list[list[str]]:
    blocks = re.findall(r"^```bash\n(.*?)^```", markdown, flags=re.DOTALL | re.MULTILINE)
    return [[line.split("#")[0].strip() for line in block.splitlines()] for block in blocks]


def test_the_readme_s_first_commands_install_jaxcompat_beside_nox_and_run_the_rows():
    first, second = _bash_blocks((PROJECT / "README.md").read_text())[0][:2]
    # A path or a wheel, which pip records for the noxfile; uv makes the row installs quick.
    assert first == "python -m pip install nox uv /path/to/jaxcompat"
    assert second == "nox -t jax"


def test_the_workflow_builds_its_jobs_from_jaxcompat_matrix_and_runs_the_noxfile_s_rows():
    workflow = yaml.safe_load((PROJECT / ".github" / "workflows" / "tests.yml").read_text())
    jobs = workflow["jobs"]
    listed = [step.get("run", "") for step in jobs["releases"]["steps"]]
    assert 'echo "matrix=$(jaxcompat matrix . --format github)" >> "$GITHUB_OUTPUT"' in listed
    tests = jobs["tests"]
    assert tests["strategy"]["matrix"] == "${{ fromJSON(needs.releases.outputs.matrix) }}"
    run = tests["steps"][-1]
    assert run["run"] == "nox --error-on-missing-interpreters -s \"tests(jax='$JAX')\""
    assert run["env"]["JAX"] == "${{ matrix.jax }}"
    assert tests["steps"][1]["with"]["python-version"] == "${{ matrix.python }}"
    assert jobs["next-jax"]["strategy"]["matrix"]["row"] == [jcn.NEWEST, jcn.FUTURE]
