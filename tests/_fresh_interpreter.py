"""One fresh interpreter for the checks that need jaxcompat imported from nothing.

Every start of an interpreter costs a JAX import, so the checks that need jaxcompat fresh (but
not pristine again after each one) share one run, one section after the other, in a namespace
they share:

- ``imports``: importing jaxcompat, jaxcompat.numpy and jaxcompat.tree after ``import jax``
  imports no other JAX module and resolves no stable name;
- ``threads``: eight threads then resolve every stable name at once, each in another order,
  and all get the same object for each name (or all find it unavailable);
- ``backends``: after all of that, the selected backend is the only backend module imported;
- ``report``: ``python -m jaxcompat`` (run as a module, as the command line does): its output
  and its exit code;
- ``readme``: the README's first example, last, as a user pastes it on a machine with one
  device: the interpreter runs without the test suite's eight forced CPU devices.

Each section's output follows a marker line; a section that raises prints its traceback there
and the sections after it still run, so each test reads its own section.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from ._helpers import ROOT, run_python

SECTIONS = {
    "imports": """
import sys, jax
before = set(sys.modules)
import jaxcompat, jaxcompat.numpy, jaxcompat.tree
print(sorted(m for m in set(sys.modules) - before if m.startswith("jax.")))
from jaxcompat._stable_names import STABLE_NAMES
def resolved(path):
    module_name, _, name = f"jaxcompat.{path}".rpartition(".")
    return module_name in sys.modules and name in vars(sys.modules[module_name])
print(sorted(e.path for e in STABLE_NAMES if resolved(e.path)))
""",
    "threads": """
import threading
paths = [e.path for e in STABLE_NAMES]
seen = {p: set() for p in paths}
barrier = threading.Barrier(8)
def lookup(path):
    found = jaxcompat
    for part in path.split("."):
        found = getattr(found, part)
    return found
def work(i):
    barrier.wait()
    for p in paths[i:] + paths[:i]:
        try:
            seen[p].add(id(lookup(p)))
        except AttributeError:
            seen[p].add("unavailable")
threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
print(len(paths), sorted(p for p, ids in seen.items() if len(ids) != 1))
""",
    "backends": """
loaded = sorted(m for m in sys.modules if m.startswith("jaxcompat._backends.jax_"))
print(jaxcompat.BACKEND, loaded)
""",
    "report": """
import runpy
try:
    runpy.run_module("jaxcompat", run_name="__main__")
except SystemExit as exit:
    print("exit code", exit.code)
else:
    print("exit code", None)
""",
}

RUNNER = """
import traceback
shared = {"__name__": "__main__"}
for name, code in SECTIONS.items():
    print("== section", name, flush=True)
    try:
        exec(code, shared)
    except BaseException:
        print(traceback.format_exc())
"""


@dataclass(frozen=True)
class FreshInterpreter:
    result: subprocess.CompletedProcess[str]
    outputs: dict[str, list[str]]

    def section(self, name: str) -> list[str]:
        """The lines the section printed; fails if the interpreter died before it."""
        assert name in self.outputs, f"never ran: the interpreter died\n{self.result.stderr}"
        return self.outputs[name]


def lines_after_markers(output: str, marker: str) -> dict[str, list[str]]:
    """The lines printed after each ``marker NAME`` line, by NAME (also test_no_crash's)."""
    outputs: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in output.splitlines():
        if line.startswith(marker):
            lines = outputs[line.removeprefix(marker)] = []
        else:
            lines.append(line)
    return outputs


# The README beside the tests: with a built wheel under test, jaxcompat is not in the checkout.
README_SECTION = """
import re
from pathlib import Path
readme = Path(README_PATH).read_text()
example = {"__name__": "readme"}
exec(re.findall(r"```python\\n(.*?)```", readme, flags=re.S)[0], example)
rows, columns = example["mesh"].devices.shape
print(f"{jax.device_count()} device, mesh of {rows} by {columns}")
""".replace("README_PATH", repr(str(ROOT / "README.md")))


def run_fresh_interpreter() -> FreshInterpreter:
    sections = {**SECTIONS, "readme": README_SECTION}
    result = run_python(f"SECTIONS = {sections!r}\n{RUNNER}", env={"XLA_FLAGS": ""})
    return FreshInterpreter(result, lines_after_markers(result.stdout, "== section "))
