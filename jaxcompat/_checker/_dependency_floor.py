"""The lowest JAX a library's other dependencies admit, found by a real resolver.

A port can lower the floor of ``jax`` only as far as the library's other requirements let
it: ``chex>=0.1.90`` needs jax 0.4.27, and ``pip install`` of the library at a lower floor
resolves to a JAX above it (or fails). Which releases of JAX a requirement admits is the
resolver's to say, on the package indexes the user installs from, not a table's: each
candidate row's own requirements (jax, jaxlib and its pins, as ``jaxcompat matrix`` installs
it) are resolved with the other requirements, for the oldest Python of the row that the
library's ``requires-python`` admits, by ``uv pip compile`` (pointed at pip's indexes, as
``jaxcompat.nox`` does), else ``pip install --dry-run``. The lowest row that resolves is the
floor; the requirements that each alone keep the rows below it out are named.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from .._matrix import rows as matrix_rows
from .._matrix.pip_indexes import uv_index_environment, working_uv
from .._releases import parse_release

__all__ = ["DependencyFloor", "ResolverError", "dependency_floor"]

#: Requirements the port itself sets: the floor is theirs to follow, not to be read from.
_OWN = frozenset({"jax", "jaxlib", "jaxcompat"})

#: How long one resolution may take, in seconds (a slow index, a large set of requirements).
TIMEOUT = 300


class ResolverError(RuntimeError):
    """No resolver could answer (none installed, an index it cannot reach)."""


@dataclass(frozen=True)
class DependencyFloor:
    """The lowest row the other requirements admit, and the requirements that set it (none
    where the rows below have no wheels for the library's Pythons)."""

    release: str
    setters: tuple[str, ...]


def _uv_command() -> list[str] | None:
    """``uv pip compile`` run by this interpreter: with ``--python-version`` alone, uv looks
    for an interpreter of that version first, and tries to download one it cannot find."""
    uv = working_uv()
    if uv is None:
        return None
    quiet = ["--quiet", "--no-header", "--no-annotate"]
    return [uv, "pip", "compile", *quiet, "--python", sys.executable]


def _resolves(tool: str, command: list[str], impossible: tuple[str, ...], **options: Any) -> bool:
    """Run a resolver: True where it resolves, False where it says the requirements cannot
    be met (one of `impossible` in its message); raises ResolverError otherwise."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT, check=False, **options
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ResolverError(f"{tool} did not answer: {error}") from None
    if done.returncode == 0:
        return True
    # The row's own jax or jaxlib missing from the indexes is no conflict: the row cannot be
    # judged there.
    unavailable = ("no version of jax==", "no version of jaxlib==")
    if any(marker in done.stderr for marker in impossible) and not any(
        marker in done.stderr for marker in unavailable
    ):
        return False
    raise ResolverError(f"{tool} could not resolve: {_last_line(done.stderr)}")


def _resolves_with_uv(command: list[str], requirements: list[str], python: str) -> bool:
    return _resolves(
        "uv",
        [*command, "--python-version", python, "-"],
        ("unsatisfiable", "No solution found"),
        input="\n".join(requirements) + "\n",
        env={**os.environ, **uv_index_environment()},
    )


def _resolves_with_pip(requirements: list[str], python: str) -> bool:
    pip = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed"]
    with tempfile.TemporaryDirectory() as target:
        # pip reads a package's Requires-Python against the running interpreter, not the
        # --python-version it selects wheels for (jax 0.11 on 3.12 from a 3.11): the wheels'
        # tags, for the row's own Python, say what installs.
        for_python = ["--only-binary=:all:", "--target", target, "--python-version", python]
        for_python.append("--ignore-requires-python")
        # Only a conflict says the row is not admitted: "no matching distribution" is also
        # pip's answer for a release it cannot take as a wheel (jax 0.4.13 has an sdist only),
        # and a row it cannot judge is no answer.
        return _resolves("pip", [*pip, *for_python, *requirements], ("ResolutionImpossible",))


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def _resolver() -> Callable[[list[str], str], bool]:
    """`resolves(requirements, python)`: uv's, else pip's; raises ResolverError."""
    command = _uv_command()
    if command is not None:
        return lambda requirements, python: _resolves_with_uv(command, requirements, python)
    try:
        probe = subprocess.run(
            [sys.executable, "-m", "pip", "--version"], capture_output=True, check=False
        )
    except OSError:
        probe = None
    if probe is None or probe.returncode != 0:
        raise ResolverError("neither uv nor pip is installed")
    return _resolves_with_pip


def other_requirements(dependencies: list[str]) -> list[str]:
    """The entries of `dependencies` the floor is read from: valid, not jax's own."""
    others = []
    for entry in dependencies:
        try:
            name = canonicalize_name(Requirement(entry).name)
        except InvalidRequirement:
            continue
        if name not in _OWN:
            others.append(entry)
    return others


def dependency_floor(
    others: list[str], floor: str, requires_python: SpecifierSet | None = None
) -> DependencyFloor | None:
    """The lowest row from `floor` up that resolves with `others`, or None where `others`
    admit no row. Raises ResolverError where no resolver can answer.

    The row at `floor` is tried first (the common answer: nothing holds JAX up); then the
    newest, and the rows between are halved while the admitted ones are contiguous; where
    the newest is not admitted (a requirement caps JAX), a row at a time from the floor up.
    """
    candidates = [
        (row, python)
        for row in matrix_rows()
        if parse_release(row.jax) >= parse_release(floor)
        and (pythons := row.pythons_for(requires_python))
        for python in pythons[:1]
    ]
    if not candidates:
        return None
    resolves = _resolver()

    def admits(index: int, requirements: list[str]) -> bool:
        row, python = candidates[index]
        return resolves([*row.requirements, *requirements], python)

    lowest = _lowest_admitted(len(candidates), lambda index: admits(index, others))
    if lowest is None:
        return None
    if lowest == 0:
        return DependencyFloor(candidates[0][0].jax, ())
    # The requirements that, each alone, keep out the row below the floor.
    setters = tuple(entry for entry in others if not admits(lowest - 1, [entry]))
    return DependencyFloor(candidates[lowest][0].jax, setters)


def _lowest_admitted(count: int, admits: Callable[[int], bool]) -> int | None:
    """The lowest index in ``range(count)`` that `admits`, trying the first, then the
    newest, then halving the gap while the admitted rows are contiguous; a requirement
    that caps JAX (the newest is not admitted) is searched a row at a time."""
    if admits(0):
        return 0
    if count == 1:
        return None
    if not admits(count - 1):
        return next((index for index in range(1, count - 1) if admits(index)), None)
    low, high = 0, count - 1  # low is not admitted, high is
    while high - low > 1:
        middle = (low + high) // 2
        if admits(middle):
            high = middle
        else:
            low = middle
    return high
