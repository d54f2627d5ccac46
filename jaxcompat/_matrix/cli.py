"""``jaxcompat matrix [PATH]``: the JAX releases to test a library on, and how to install each.

Exit 0 with the rows; 2 on a usage error or a library that cannot be read (a path that does
not exist, a file that does not parse, a pyproject.toml whose jax requirement is not valid).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from .._cli.program import parse_arguments, program_name
from . import MatrixRow
from .select import SELECTIONS, LibraryError, Selected, select

__all__ = ["main", "render"]

FORMATS = ("text", "json", "github")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{program_name()} matrix",
        description="The JAX releases to test a library on, with what installs each: jax, "
        "jaxlib, the Pythons that have wheels (and the primary one), the companion pins, and "
        "the jaxcompat backend that serves it. Static: the library is read, not imported.",
        epilog="selections: all (every tested release); breakpoints (the first and last "
        "release of every jaxcompat backend, and the newest); needed (the default with a "
        "PATH: the floor and newest release of the library's declared range, both sides of "
        "every release where a finding of `check` on it changes, and one release per backend).",
    )
    parser.add_argument(
        "path", nargs="?", help="the library: a directory or file (default selection: needed)"
    )
    parser.add_argument(
        "--select",
        choices=SELECTIONS,
        help="which releases (default: needed with a PATH, else all)",
    )
    parser.add_argument("--format", choices=FORMATS, default="text")
    return parser


def github_include(row: MatrixRow) -> dict[str, str]:
    """One entry of a GitHub Actions ``strategy.matrix.include`` list.

    ``requirements`` is shell-quoted for ``pip install ${{ matrix.requirements }}``: a bare
    ``numpy<2`` would be read by the shell as a redirection.
    """
    return {
        "jax": row.jax,
        "jaxlib": row.jaxlib,
        "python": row.python,
        "backend": row.backend,
        "requirements": " ".join(shlex.quote(r) for r in row.requirements),
    }


def _text(selected: list[Selected], heading: str) -> str:
    table = [("jax", "jaxlib", "python", "pythons", "pins", "backend")]
    for item in selected:
        row = item.row
        pins = " ".join(row.pins) or "-"
        table.append((row.jax, row.jaxlib, row.python, ",".join(row.pythons), pins, row.backend))
    widths = [max(len(line[column]) for line in table) for column in range(len(table[0]))]
    lines = [heading]
    for index, line in enumerate(table):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
        if index:  # why each row is in the selection
            lines.extend(f"    - {why}" for why in selected[index - 1].why)
    return "\n".join(line.rstrip() for line in lines)


def render(output: str, selected: list[Selected], heading: str) -> str:
    """The rows as ``text``, ``json`` or ``github`` (a ``strategy.matrix`` value, one line)."""
    if output == "json":
        return json.dumps([item.row.as_dict() for item in selected], indent=2)
    if output == "github":
        return json.dumps({"include": [github_include(item.row) for item in selected]})
    return _text(selected, heading)


def main(argv: list[str]) -> int:
    """Run ``jaxcompat matrix`` with `argv` (the arguments after ``matrix``)."""
    parser = _parser()
    args = parse_arguments(parser, argv)
    if isinstance(args, int):  # --help (0) or a usage error, which argparse has printed
        return args
    prog = parser.prog
    path = Path(args.path) if args.path is not None else None
    selection = args.select or ("needed" if path is not None else "all")
    if selection == "needed" and path is None:
        path = Path(".")
    if path is not None and selection != "needed":
        print(f"{prog}: a PATH is read only by --select needed, not {selection}", file=sys.stderr)
        return 2
    if path is not None and not path.exists():
        print(f"{prog}: no such file or directory: {path}", file=sys.stderr)
        return 2
    try:
        selected = select(selection, path)
    except LibraryError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    about = f" for {path}" if path is not None else ""
    heading = f"{len(selected)} JAX releases to test{about} ({selection}):"
    print(render(args.format, selected, heading))
    return 0
