"""The README's Python examples run as written, on every matrix row."""

import re

from ._helpers import ROOT


def test_readme_examples_run():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    namespace: dict[str, object] = {"__name__": "readme"}
    for number, block in enumerate(blocks, 1):
        code = compile(block, f"README.md python block {number}", "exec")
        exec(code, namespace)
