"""The sdist and the wheel: built from this tree, their file lists checked against what they
must hold, and their metadata checked by twine. Run by ``nox -s package`` (marker
``packaging``), not by every matrix row: it builds, and needs no JAX.
"""

from __future__ import annotations

import email.parser
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from ._helpers import ROOT

pytestmark = pytest.mark.packaging

# What the sdist holds besides the package: everything a documented nox session reads (tests,
# tools/ for `report`, bench/ for `bench`, the downstream example for `downstream`, the
# workflows for `lint`, the generated documents the tests check).
SDIST_FOLDERS = ["jaxcompat", "tests", "tools", "bench", "examples", "docs", ".github/workflows"]
SDIST_FILES = [
    "pyproject.toml",
    "LICENSE",
    "README.md",
    "CHANGELOG.md",
    "COMPATIBILITY.md",
    "BENCHMARKS.md",
    "matrix.yml",
    "noxfile.py",
    "mkdocs.yml",  # with docs/: `nox -s docs` and the docs tests
    "PKG-INFO",
    ".gitignore",  # hatchling keeps it, so a build from the sdist excludes the same files
]
# Never shipped: caches and build output that may sit in a working tree.
JUNK = ("__pycache__", ".pyc", ".egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache")


def _tree_files(folder: str) -> set[str]:
    """Every file under ``folder`` of the source tree, as a POSIX path relative to it."""
    found = set()
    for path in (ROOT / folder).rglob("*"):
        relative = path.relative_to(ROOT).as_posix()
        if path.is_file() and not any(part in relative for part in JUNK):
            found.add(relative)
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build the sdist, then the wheel from the sdist (as `python -m build` does).

    With ``JAXCOMPAT_DIST=folder``, check the sdist and wheel already built there instead:
    the release workflow builds once and checks the files it publishes.
    """
    if os.environ.get("JAXCOMPAT_DIST"):
        out = Path(os.environ["JAXCOMPAT_DIST"]).resolve()
    else:
        out = tmp_path_factory.mktemp("dist")
        installer = ["--installer=uv"] if importlib.util.find_spec("uv") else []
        result = subprocess.run(
            [sys.executable, "-m", "build", *installer, "--outdir", str(out), str(ROOT)],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        assert result.returncode == 0, result.stdout + result.stderr
    [sdist] = out.glob("jaxcompat-*.tar.gz")
    [wheel] = out.glob("jaxcompat-*-py3-none-any.whl")
    return {"sdist": sdist, "wheel": wheel}


def _version() -> str:
    namespace: dict[str, str] = {}
    exec((ROOT / "jaxcompat" / "__about__.py").read_text(), namespace)
    return namespace["__version__"]


def test_sdist_holds_what_every_session_needs(built):
    with tarfile.open(built["sdist"]) as archive:
        names = {name for name in archive.getnames() if not archive.getmember(name).isdir()}
    top = f"jaxcompat-{_version()}/"
    assert all(name.startswith(top) for name in names), sorted(names)
    expected = set(SDIST_FILES).union(*map(_tree_files, SDIST_FOLDERS))
    assert {name[len(top) :] for name in names} == expected
    # The downstream example is installable from the sdist (`nox -s downstream`).
    assert {"examples/downstream/pyproject.toml", "tools/compat_report.py"} <= expected


def test_wheel_holds_the_package_its_data_license_and_metadata(built):
    with zipfile.ZipFile(built["wheel"]) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"jaxcompat-{_version()}.dist-info/METADATA").decode()
    info = f"jaxcompat-{_version()}.dist-info"
    package = _tree_files("jaxcompat")
    expected = {
        *package,
        f"{info}/METADATA",
        f"{info}/WHEEL",
        f"{info}/RECORD",
        f"{info}/entry_points.txt",  # the pytest plugin
        f"{info}/licenses/LICENSE",
    }
    assert names == expected
    assert "jaxcompat/py.typed" in names
    assert {name for name in package if name.startswith("jaxcompat/_data/")} <= names
    assert not [name for name in names if name.startswith(("tests/", "examples/", "bench/"))]
    fields = email.parser.Parser().parsestr(metadata)
    assert fields["Name"] == "jaxcompat"
    assert fields["Version"] == _version()
    assert fields["License-Expression"] == "Apache-2.0"
    assert fields.get_all("License-File") == ["LICENSE"]
    assert "jax>=0.4.13" in fields.get_all("Requires-Dist")
    assert fields["Requires-Python"] == ">=3.10"


def test_license_is_the_apache_2_text(built):
    with zipfile.ZipFile(built["wheel"]) as archive:
        shipped = archive.read(f"jaxcompat-{_version()}.dist-info/licenses/LICENSE").decode()
    assert shipped == (ROOT / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in shipped
    assert "END OF TERMS AND CONDITIONS" in shipped


def test_twine_check_passes(built):
    twine = shutil.which("twine", path=str(Path(sys.executable).parent))
    command = [twine] if twine else [sys.executable, "-m", "twine"]
    result = subprocess.run(
        [*command, "check", "--strict", str(built["sdist"]), str(built["wheel"])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2, result.stdout
