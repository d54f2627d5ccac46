"""The README: short, its Python example runs as written on every matrix row, and its links
reach the docs pages the rest moved to (their examples: tests/test_docs_examples.py)."""

import contextlib
import io
import re

import pytest

from ._helpers import ROOT


def readme_text() -> str:
    return (ROOT / "README.md").read_text()


def readme_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", readme_text(), flags=re.S)


def test_readme_is_short():
    assert len(readme_text().splitlines()) <= 150


def test_readme_has_its_example():
    [example] = readme_blocks()
    assert "import jaxcompat as jax" in example


#: What the README's example prints, the same on every row.
README_PRINTS = ["(3,) float32", "[1.5 1.5 1.5]", "('x', 'y')"]


def test_the_readme_example_runs_pasted_on_its_own_and_prints_the_same_everywhere():
    [example] = readme_blocks()
    code = compile(example, "README.md python block 1", "exec")
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(code, {"__name__": "readme"})
    assert printed.getvalue().splitlines() == README_PRINTS


def test_readme_shows_the_port_in_four_commands():
    from jaxcompat._cli.commands import COMMANDS

    commands = re.search(
        r"## Port a library in four commands\n\n```bash\n(.*?)```", readme_text(), re.S
    )
    assert commands is not None
    shown = [line.split()[:2] for line in commands.group(1).splitlines()]
    assert shown == [["jaxcompat", command] for command in COMMANDS]


def test_readme_says_to_run_the_report_outside_a_checkout():
    # Inside a checkout, `python -m jaxcompat` imports the source tree, not the installed one.
    assert (
        "# outside the checkout (inside, it checks the source tree)\ncd ~ && python -m jaxcompat\n"
    ) in readme_text()


def test_readme_links_reach_their_files():
    links = re.findall(r"\]\(((?!https?://)[^)#]+)\)", readme_text())
    assert "docs/porting.md" in links
    for link in links:
        assert (ROOT / link).exists(), link


@pytest.mark.subprocess
def test_the_first_readme_example_runs_on_one_device(fresh_jaxcompat):
    # The fresh interpreter runs with one CPU device (tests/_fresh_interpreter.py): the example
    # prints what the README shows there too.
    output = r"```python\n.*?```\s*```text title=\"Output\"\n(.*?)```"
    shown = re.search(output, readme_text(), re.S)
    assert shown is not None
    assert fresh_jaxcompat.section("readme") == [
        *shown.group(1).splitlines(),
        "1 device, mesh of 1 by 1",
    ]
