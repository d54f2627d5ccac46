"""The README's Python examples run as written, on every matrix row."""

import re

import pytest

from ._helpers import ROOT


def readme_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_readme_has_its_examples():
    assert len(readme_blocks()) >= 4


@pytest.mark.parametrize("number", range(1, len(readme_blocks()) + 1))
def test_each_readme_example_runs_pasted_on_its_own(number):
    code = compile(readme_blocks()[number - 1], f"README.md python block {number}", "exec")
    exec(code, {"__name__": "readme"})


@pytest.mark.subprocess
def test_the_first_readme_example_runs_on_one_device(fresh_jaxcompat):
    # The fresh interpreter runs with one CPU device (tests/_fresh_interpreter.py).
    assert fresh_jaxcompat.section("readme") == ["1 device, mesh of 1 by 1"]
