"""The port's floor after the library's other dependencies are read, and its tests'.

``jaxcompat migrate`` lowers a library's ``jax>=`` floor only as far as its other runtime
requirements admit (``_dependency_floor`` resolves them row by row); its test requirements,
resolved from there, do not move the floor (the library installs and runs without them) but
are named where they hold JAX higher, since ``jaxcompat floor`` and ``matrix`` install them
with the library on every row they try.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from .._releases import parse_release
from ._dependency_floor import ResolverError, dependency_floor, other_requirements
from ._pyproject_edit import project_table, pyproject_tables

__all__ = [
    "TEST_REQUIREMENT_NAMES",
    "DependencyBound",
    "declared_test_requirements",
    "dependency_bound",
]


@dataclass(frozen=True)
class DependencyBound:
    """The port's floor after the other dependencies are read, and what the summary says."""

    floor: str
    note: str = ""
    resolved: bool = False  # a resolver answered
    # Where the test requirements hold JAX above `floor`: the first release they admit
    # (None: none from `floor` on), and what the summary says of it.
    tests_floor: str | None = None
    tests_note: str = ""

    def tests_note_above(self, floor: str) -> str:
        """What the summary says of the test requirements, where they hold JAX above the
        port's final `floor` (the code's names can raise it past them)."""
        if self.tests_floor is not None and parse_release(self.tests_floor) <= parse_release(floor):
            return ""
        return self.tests_note


#: The extras and dependency groups that hold a library's test requirements, by the names
#: libraries give them.
TEST_REQUIREMENT_NAMES = ("test", "tests", "testing")


def declared_test_requirements(pyproject: Path) -> tuple[str, list[str]]:
    """The test extra or dependency group of a pyproject.toml, named as the summary names it
    ("extra 'test'"), and its requirements other than JAX's own; ("", []) where it has none."""
    text = pyproject_tables(pyproject)
    project = text.get("project")
    extras = project.get("optional-dependencies") if isinstance(project, dict) else None
    groups = text.get("dependency-groups")
    for kind, table in (("extra", extras), ("dependency group", groups)):
        for name in TEST_REQUIREMENT_NAMES:
            listed = table.get(name) if isinstance(table, dict) else None
            if isinstance(listed, list):
                return f"{kind} '{name}'", other_requirements(
                    [entry for entry in listed if isinstance(entry, str)]
                )
    return "", []


def _tests_bound(
    pyproject: Path, others: list[str], bound: DependencyBound, requires: SpecifierSet | None
) -> DependencyBound:
    """`bound` with what the test requirements admit, where they hold JAX above its floor:
    ``jaxcompat floor`` and ``matrix`` install them with the library on every row they try."""
    where, tests = declared_test_requirements(pyproject)
    if not tests:
        return bound
    try:
        found = dependency_floor([*others, *tests], bound.floor, requires)
    except ResolverError as error:
        return dataclasses.replace(
            bound, tests_note=f"the test requirements ({where}) were not resolved ({error})"
        )
    if found is not None and found.release == bound.floor:
        return bound
    if found is None:
        said = f"no tested JAX release from {bound.floor} on resolves with them"
    else:
        said = f"they hold JAX at {found.release} and newer"
        said += f": {', '.join(found.setters)}" if found.setters else ""
    return dataclasses.replace(
        bound,
        tests_floor=None if found is None else found.release,
        tests_note=f"the test requirements ({where}): {said}; `jaxcompat floor` and "
        "`jaxcompat matrix` cannot run the library's tests below that",
    )


def dependency_bound(pyproject: Path, floor: str) -> DependencyBound:
    """The port's floor raised to the lowest JAX the library's other dependencies admit
    (``_dependency_floor``), and what its test requirements admit from there."""
    bound, admitted = _runtime_bound(pyproject, floor)
    if not admitted:  # no resolver answered, or no release resolves with them
        return bound
    project = project_table(pyproject)
    requires = _requires_python(project)
    return _tests_bound(pyproject, _other_dependencies(project), bound, requires)


def _other_dependencies(project: dict[str, object]) -> list[str]:
    dependencies = project.get("dependencies", [])
    listed = dependencies if isinstance(dependencies, list) else []
    return other_requirements([d for d in listed if isinstance(d, str)])


def _requires_python(project: dict[str, object]) -> SpecifierSet | None:
    requires = project.get("requires-python")
    try:
        return SpecifierSet(str(requires)) if requires is not None else None
    except InvalidSpecifier:
        return None


def _runtime_bound(pyproject: Path, floor: str) -> tuple[DependencyBound, bool]:
    """The port's floor raised to the lowest JAX the library's runtime dependencies admit,
    and whether they admit one (False also where no resolver answered)."""
    project = project_table(pyproject)
    others = _other_dependencies(project)
    if not others:
        return DependencyBound(floor), True
    requires = project.get("requires-python")
    requires_python = _requires_python(project)
    try:
        found = dependency_floor(others, floor, requires_python)
    except ResolverError as error:
        return DependencyBound(
            floor,
            f"the other dependencies were not resolved ({error}): the floor is the code's; "
            "check that they admit it",
        ), False
    if found is None:
        return DependencyBound(
            floor,
            f"no tested JAX release from {floor} on resolves with the other dependencies: the "
            "floor is the code's",
            resolved=True,
        ), False
    if found.release == floor:
        return DependencyBound(floor, f"the other dependencies admit JAX {floor}", True), True
    if not found.setters:  # the rows below have no wheels for the library's Pythons
        return DependencyBound(
            found.release,
            f"JAX below {found.release} has no wheels for a Python that requires-python "
            f"{requires} admits; the other dependencies admit JAX {found.release}",
            resolved=True,
        ), True
    return DependencyBound(
        found.release,
        f"the other dependencies hold JAX at {found.release} and newer: "
        + ", ".join(found.setters),
        resolved=True,
    ), True
