"""Every Python example of the README and the docs pages runs as written, on every matrix row,
and prints what the page shows.

A ```python block is run on its own, in a fresh namespace; when a ```text title="Output"
block follows it with nothing but blank lines between, that block is what the example prints.
Each block is also pasted line by line into an interactive console, as a reader pastes it into
the interpreter: a blank line inside a class body, or a statement right after an indented block,
fails there. Other blocks (shell commands, the noxfile of a library) are not run.
"""

from __future__ import annotations

import code
import contextlib
import io
import re
from pathlib import Path

import pytest

from jaxcompat._checker._cli import main as check_main

from ._helpers import ROOT

_BLOCK = re.compile(r"```python\n(.*?)```(?:\s*\n```text title=\"Output\"\n(.*?)```)?", re.S)


def hand_written_pages() -> list[Path]:
    # The generated pages (tools/gen_docs.py) hold no examples and are not in docs/.
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def examples() -> list[tuple[str, str, str | None]]:
    """(where, code, shown output or None), for every Python block."""
    found = []
    for page in hand_written_pages():
        text = page.read_text()
        for number, match in enumerate(_BLOCK.finditer(text), start=1):
            where = f"{page.relative_to(ROOT).as_posix()} python block {number}"
            found.append((where, match.group(1), match.group(2)))
    return found


EXAMPLES = examples()


def test_the_pages_have_their_examples():
    pages = {where.partition(" ")[0] for where, _, _ in EXAMPLES}
    # Every output block shown follows an example, so none goes unchecked.
    outputs = sum(page.read_text().count('```text title="Output"') for page in hand_written_pages())
    assert outputs == sum(shown is not None for _, _, shown in EXAMPLES)
    assert {
        "README.md",
        "docs/index.md",
        "docs/getting-started.md",
        "docs/scope.md",
        "docs/primitives.md",
    } <= pages
    # The examples that moved from the README to the pages: each primitive has one.
    primitives = "\n".join(code for where, code, _ in EXAMPLES if "primitives.md" in where)
    for used in (
        "@jaxcompat.jit(static_argnames",
        "def predict(self, x)",
        "jaxcompat.lower(my_fun",
        "jaxcompat.trace(my_fun",
        "jaxcompat.tracer_safe_hash(",
        "jaxcompat.is_tracer(",
        "jaxcompat.block_if_array(",
        "jaxcompat.lax.while_loop(",
    ):
        assert used in primitives, used


@pytest.mark.parametrize(("where", "source", "shown"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_example_prints_what_its_page_shows(where, source, shown):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, where, "exec"), {"__name__": "docs_example"})
    # A page that shows no output has an example that prints none.
    assert printed.getvalue() == (shown or "")


class _Console(code.InteractiveConsole):
    """An interactive console that raises what the interpreter would print as an error."""

    def showsyntaxerror(self, filename: str | None = None, **kwargs: object) -> None:
        raise AssertionError("the interpreter refuses a line as pasted")

    def showtraceback(self) -> None:
        raise AssertionError("the pasted example raised")


@pytest.mark.parametrize(("where", "source", "shown"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_example_pastes_into_the_interpreter(where, source, shown):
    console = _Console({"__name__": "__console__"}, filename=where)
    with contextlib.redirect_stdout(io.StringIO()):
        for line in source.splitlines():
            console.push(line)
        # The blank line a paste ends with runs what is left: nothing may still wait for more.
        assert not console.push(""), f"{where} ends inside an unfinished statement"


def _shown_check_run(page: Path) -> str:
    match = re.search(r"\$ jaxcompat check examples/pinned\n(.*?)```", page.read_text(), re.S)
    assert match, f"{page.name} shows a run of `jaxcompat check examples/pinned`"
    return match.group(1)


def test_the_porting_page_shows_the_real_check_output(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert check_main(["examples/pinned"]) == 1
    assert _shown_check_run(ROOT / "docs" / "porting.md") == capsys.readouterr().out
