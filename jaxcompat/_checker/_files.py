"""The files ``jaxcompat check`` and ``jaxcompat migrate`` read: which, how, and how deep;
and how ``migrate`` writes them back: all of them, or none.

Directory symlinks are followed, each directory once, so a loop of them ends; what is not a
regular file (a FIFO or a device named ``x.py``, which would block the read or never end it)
is never opened; a path with no Python file is an error, not a check of nothing; and a
syntax tree as deep as Python compiles is walked in a thread with room for it.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import os
import re
import stat
import sys
import threading
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ._ranges import RangeError

__all__ = [
    "LEADS_OUTSIDE",
    "LINE_END",
    "NO_PYTHON_FILES",
    "SKIPPED_DIRECTORIES",
    "Write",
    "char_column",
    "char_column_at",
    "decode_keeping_line_ends",
    "existing_paths",
    "few_collections",
    "file_problem",
    "python_files",
    "read_regular_file",
    "read_source",
    "source_lines",
    "unwritable",
    "with_deep_recursion",
    "write_all_or_none",
]

_T = TypeVar("_T")

#: Directories never entered when walking a directory argument.
SKIPPED_DIRECTORIES = frozenset({".git", ".venv", "venv", "build", ".nox", ".tox", "__pycache__"})


#: The line ends Python's tokenizer counts (str.splitlines also splits at form feeds and other
#: separators, which would put edits on other lines than the syntax tree names).
LINE_END = re.compile(r"\r\n|\r|\n")


#: The separators str.splitlines cuts at that Python's tokenizer does not.
_OTHER_SEPARATORS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def source_lines(source: str) -> list[str]:
    """``source`` cut after each line end Python counts, each line keeping its end."""
    if not _OTHER_SEPARATORS.search(source):
        return source.splitlines(keepends=True)  # the same cuts, ten times faster
    lines, start = [], 0
    for match in LINE_END.finditer(source):
        lines.append(source[start : match.end()])
        start = match.end()
    if start < len(source):
        lines.append(source[start:])
    return lines


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Run the cyclic garbage collector rarely while files are parsed and read.

    A syntax tree is tens of thousands of objects, none in a cycle, freed when its file is
    done. With the default thresholds, parsing a 600-line file starts the collector dozens of
    times, and each run walks the trees and data still alive: a third of ``check``'s time on
    50,000 lines (``bench/bench_check.py``). mypy raises the thresholds for the same reason.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(200_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def existing_paths(command: str, arguments: list[str]) -> list[Path] | None:
    """The paths a command was given, or None once it said which do not exist (lexists: a
    symlink that loops or dangles is named, and reported later as unreadable)."""
    paths = [Path(argument) for argument in arguments]
    missing = [str(path) for path in paths if not os.path.lexists(path)]
    if missing:
        print(f"{command}: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return None
    return paths


def char_column(line: str, byte_offset: int) -> int:
    """The column, in characters, of a column that ast gives in UTF-8 bytes."""
    return len(line.encode()[:byte_offset].decode())


def char_column_at(lines: list[str], line: int, byte_offset: int) -> int:
    """``char_column`` on line ``line`` (counted from 1) of ``lines``."""
    return char_column(lines[line - 1], byte_offset)


def python_files(path: Path, left_outside: list[Path] | None = None) -> Iterator[Path]:
    """``path`` itself if it is no directory, else every ``.py`` file under it, sorted.

    A symlinked directory is followed, unless it leads back into the tree (a loop, or a
    directory the walk reaches anyway): each directory is walked once, by its first name.
    With a ``left_outside`` list, one that leads out of the tree is not followed but added
    to it (``migrate`` rewrites only the files under the paths it was given).
    """
    if not path.is_dir():
        yield path
        return
    root = os.path.realpath(path)
    walked = {root}
    for directory, subdirectories, files in os.walk(path, followlinks=True):
        kept = []
        for name in sorted(subdirectories):
            if name in SKIPPED_DIRECTORIES:
                continue
            real = os.path.realpath(os.path.join(directory, name))
            inside = os.path.commonpath([root, real]) == root
            link = os.path.join(directory, name)
            if os.path.islink(link) and (inside or real in walked):
                continue
            if os.path.islink(link) and left_outside is not None:
                left_outside.append(Path(link))
                continue
            walked.add(real)
            kept.append(name)
        subdirectories[:] = kept
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(directory) / name


#: What both commands say of a directory argument with no Python file in it (a green run
#: that checked nothing would hide a wrong path).
NO_PYTHON_FILES = "no Python file under this directory"

#: What ``migrate`` says of a symlinked directory that leads out of the tree it was given.
LEADS_OUTSIDE = (
    "a symlink to a directory outside the tree: not migrated (name its target to migrate it)"
)


def read_regular_file(file: Path) -> bytes:
    """The file's bytes; OSError for what cannot be read or is not a regular file."""
    mode = file.stat().st_mode  # follows symlinks: a symlink loop is an OSError (ELOOP)
    if not stat.S_ISREG(mode):
        raise OSError(f"not a regular file ({_file_kind(mode)}); it was not read")
    return file.read_bytes()


def _file_kind(mode: int) -> str:
    return "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"


def read_source(file: Path) -> str:
    """The file's text as Python decodes it (PEP 263 coding line, UTF-8 byte order mark)."""
    return importlib.util.decode_source(read_regular_file(file))


def decode_keeping_line_ends(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a Python file's bytes as Python decodes them, but with its line
    ends as written, so that ``text.encode(encoding)`` gives the same bytes back (a byte
    order mark included: its encoding is ``utf-8-sig``). Raises SyntaxError for an unknown
    coding and UnicodeDecodeError for bytes the coding cannot decode."""
    lines = iter(data.splitlines(keepends=True))
    encoding, _ = tokenize.detect_encoding(lambda: next(lines, b""))
    return data.decode(encoding), encoding


#: How deep a syntax tree the checker follows: more than any Python it runs on compiles
#: (3.10-3.12 stop near 3,000 levels of one expression, 3.13 near 10,000).
_DEEPEST_TREE = 20_000


def with_deep_recursion(function: Callable[[], _T]) -> _T:
    """``function()`` in a thread whose stack and recursion limit follow a tree as deep as
    Python compiles (a 2,000-term ``a + b + ...`` is a tree 2,000 levels deep)."""
    result: list[_T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(function())
        except BaseException as error:  # re-raised in the calling thread
            failure.append(error)

    old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(max(old_limit, 4 * _DEEPEST_TREE))
    threading.stack_size(512 * 1024 * 1024)  # reserved, not used until the walk goes deep
    try:
        thread = threading.Thread(target=run, name="jaxcompat-check-deep")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    return result[0]


@dataclass(frozen=True)
class Write:
    """A file the port rewrites: its new bytes, and its bytes as they were (to put back
    should a later write fail)."""

    path: Path
    new: bytes
    old: bytes


def unwritable(path: Path) -> str | None:
    """Why `path` cannot be rewritten, found before any file is: opened for writing
    without changing a byte. None where it can."""
    try:
        with path.open("r+b"):
            pass
    except OSError as error:
        return f"cannot write: {error.strerror or error}"
    return None


def write_all_or_none(writes: list[Write]) -> tuple[Path, str] | None:
    """Write every file, or none: where a write fails (a full disk), the files written
    before it get their old bytes back. Returns (the file, why) on failure."""
    done: list[Write] = []
    for write in writes:
        try:
            write.path.write_bytes(write.new)
        except OSError as error:
            for written in reversed(done):
                with contextlib.suppress(OSError):
                    written.path.write_bytes(written.old)
            return write.path, f"cannot write: {error.strerror or error}"
        done.append(write)
    return None


def file_problem(error: Exception) -> tuple[int, int, str]:
    """(line, column, what went wrong) for a file that cannot be read, parsed or given a
    range: the one wording of ``check``, ``migrate`` and ``matrix``."""
    if isinstance(error, NotADirectoryError) and str(error) in (NO_PYTHON_FILES, LEADS_OUTSIDE):
        return 1, 1, str(error)
    if isinstance(error, OSError):
        return 1, 1, f"cannot read: {error.strerror or error}"
    if isinstance(error, RecursionError):
        return 1, 1, "cannot parse: nested too deeply"
    if isinstance(error, RangeError):
        return 1, 1, str(error)
    if isinstance(error, SyntaxError) and error.msg.startswith("unknown encoding"):
        return error.lineno or 1, error.offset or 1, f"cannot parse: {error.msg}"  # PEP 263
    if isinstance(error, SyntaxError):
        # Read with the running Python's grammar: a file written for a newer Python (a
        # test file in 3.12's syntax, say) parses under that Python only.
        python = f"Python {sys.version_info.major}.{sys.version_info.minor}"
        return error.lineno or 1, error.offset or 1, f"cannot parse with {python}: {error.msg}"
    return 1, 1, f"cannot parse: {error}"  # bytes the file's coding cannot decode
