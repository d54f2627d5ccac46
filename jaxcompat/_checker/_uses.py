"""What import resolution finds in a file: uses of JAX and jaxcompat names, and gates."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["CallInfo", "Gate", "Use"]


@dataclass(frozen=True)
class CallInfo:
    positional: int | None  # None when a ``*args`` is passed
    keywords: tuple[tuple[str, int, int], ...]  # name, line, column
    double_star: bool
    none_keywords: frozenset[str] = frozenset()  # the keywords passed a literal None
    first_text: str | None = None  # the first argument, where it is a string literal


@dataclass
class Use:
    path: str
    line: int
    col: int
    mask: int  # the rows this code runs on
    guarded: bool  # inside ``try`` with ``except ImportError/AttributeError``
    check_name: bool  # False for a name bound by ``from`` (the import reported it)
    call: CallInfo | None = None
    #: The path its local name was bound to (``jax`` in ``jax.lib.xla_bridge``); None for
    #: an import, whose ``imported`` says which kind: "import" (``import a.b``: every part
    #: is a module) or "from" (``from a import b``: ``b`` a name or a module).
    bound: str | None = None
    imported: str = ""


@dataclass
class Gate:
    kind: str  # "version", "hasattr", "try"; "string": a misordering string comparison
    line: int
    col: int
    branches: list[list[str]] = field(default_factory=list)  # the paths each branch uses
    mask: int = -1  # the rows the gate itself runs on
    #: The rows on which its first branch runs (the ``if`` body, the ``try`` body that
    #: imports without error); None when the checker cannot tell (a name its data lacks).
    truth: int | None = None
    test: str = ""  # what it tests, for messages: ``jax.__version_info__ >= (0, 5)``
    has_else: bool = True  # an ``else``/``elif``/``except`` branch
    is_elif: bool = False  # runs only where the tests of its chain before it failed
    node: ast.stmt | ast.expr | None = field(default=None, compare=False, repr=False)
