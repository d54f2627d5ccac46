"""mkdocs hook (mkdocs.yml ``hooks:``): adds the generated pages of ``tools/gen_docs.py`` to
the site in memory, so that ``mkdocs build`` and ``mkdocs serve`` show them and nothing
generated lands in ``docs/``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_docs", Path(__file__).with_name("gen_docs.py")
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def on_files(files: Files, config: MkDocsConfig) -> Files:
    from mkdocs.structure.files import File

    for src_uri, content in _load_generator().pages().items():
        files.append(File.generated(config, src_uri, content=content))
    return files
