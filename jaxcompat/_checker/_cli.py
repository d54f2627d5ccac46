"""``jaxcompat check``: the command line, the files it reads and its exit codes.

Exit 0 when there is nothing to report, 1 when there are findings, 2 on a usage error (a bad
``--jax`` specifier, a path that does not exist, an unknown code) or when a file cannot be
checked (it does not parse, cannot be read, or is not a regular file); the other files are
still checked. A reader that closes the output early (``| head``) ends the command quietly,
with the exit code a shell gives a command ended by SIGPIPE (141).
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from .._cli.program import parse_arguments, program_name
from ._checked import check_source, codes
from ._codes import CODES
from ._files import (
    NO_PYTHON_FILES,
    existing_paths,
    few_collections,
    file_problem,
    python_files,
    read_source,
    with_deep_recursion,
)
from ._output import FileFinding, ParseError, render
from ._ranges import RangeError, range_for_file, spec_mask

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{program_name()} check",
        description="Report what in a library's source breaks on which JAX releases, and "
        "the jaxcompat name that fixes it. Static: nothing is imported or run.",
    )
    parser.add_argument("paths", nargs="*", default=["."], help="files and directories")
    parser.add_argument(
        "--jax",
        metavar="SPEC",
        help="the JAX releases to check, a PEP 440 specifier such as '>=0.4.20,<0.9' "
        "(default: the jax requirement of the nearest pyproject.toml, else every release)",
    )
    parser.add_argument("--format", choices=("text", "json", "github"), default="text")
    parser.add_argument("--select", metavar="CODES", help="only these codes (prefixes)")
    parser.add_argument("--ignore", metavar="CODES", help="not these codes (prefixes)")
    parser.add_argument("--explain", metavar="CODE", help="say what a code means and exit")
    return parser


def main(argv: list[str]) -> int:
    """Run ``jaxcompat check`` with `argv` (the arguments after ``check``); return the exit code."""
    parser = _parser()
    args = parse_arguments(parser, argv)
    if isinstance(args, int):
        return args
    if args.explain:
        code = args.explain.upper()
        if code not in CODES:
            print(f"jaxcompat check: unknown code {args.explain!r}", file=sys.stderr)
            return 2
        print(f"{code} ({CODES[code].name})\n\n{CODES[code].explanation}")
        return 0
    select, ignore = codes(args.select), codes(args.ignore)
    for code in (*select, *ignore):
        if not any(known.startswith(code) for known in CODES):
            print(f"jaxcompat check: unknown code {code!r}", file=sys.stderr)
            return 2
    try:
        override = spec_mask(args.jax, "--jax") if args.jax is not None else None
    except RangeError as error:
        print(f"jaxcompat check: {error}", file=sys.stderr)
        return 2
    paths = existing_paths("jaxcompat check", args.paths)
    if paths is None:
        return 2
    reported: list[FileFinding] = []
    known_ranges: dict[Path, tuple[int, str]] = {}
    errors: list[ParseError] = []
    ranges: dict[str, int] = {}
    files = lines = 0
    with few_collections():
        for path in paths:
            found_any = False
            for file in python_files(path):
                found_any = True
                try:
                    source = read_source(file)
                    scope, origin = range_for_file(file, override, known_ranges, "--jax SPEC")
                    try:
                        found = check_source(source, scope)
                    except RecursionError:  # a deep tree that Python may still compile
                        found = with_deep_recursion(functools.partial(check_source, source, scope))
                except (RangeError, OSError, RecursionError, SyntaxError, ValueError) as error:
                    errors.append(ParseError(str(file), *file_problem(error)))
                    continue
                ranges[origin] = scope
                files += 1
                lines += source.count("\n") + (not source.endswith("\n") and bool(source))
                for finding in found:
                    if select and not finding.code.startswith(select):
                        continue
                    if ignore and finding.code.startswith(ignore):
                        continue
                    reported.append(FileFinding(str(file), finding))
            if not found_any:
                errors.append(ParseError(str(path), 1, 1, NO_PYTHON_FILES))
    print(render(args.format, reported, errors, files, lines, ranges))
    if errors:
        return 2
    return 1 if any(CODES[item.finding.code].fails_check for item in reported) else 0
