"""jaxcompat's test matrix for a library's own ``noxfile.py``.

::

    import nox
    import jaxcompat.nox as jcn

    @nox.session
    @nox.parametrize("python,jax", jcn.rows(".", select="needed"))
    def tests(session, jax):
        jcn.install(session, jax)  # jax, jaxlib and the companion pins; uv when present
        session.install("-e", ".", "pytest")
        session.run("pytest", *session.posargs)

:func:`rows` gives one ``(python, jax)`` parameter per release of ``jaxcompat matrix``
(``select`` is ``all``, ``breakpoints`` or ``needed``), each with the id ``jax='0.4.30'`` and
the tag ``jax``, plus, when asked for, two rows that install the newest JAX with no pin:
``newest`` and ``future``, which also runs the tests with every deprecation that JAX has
registered made an error (the jaxcompat pytest plugin reads ``JAXCOMPAT_FUTURE``), as the
next release will. Select one with ``nox -s "tests(jax='future')"`` or ``nox -t future``.

:func:`install` installs a row's jax, jaxlib and companion pins (``numpy<2`` up to JAX 0.4.25,
...), with uv when the session's virtualenv is uv's or uv is on PATH, from the package
indexes of the user's own pip configuration. :func:`jaxcompat_requirement` is the jaxcompat
that runs the noxfile, as a requirement for the sessions (``jcn.install(session, jax,
jcn.jaxcompat_requirement(), "-e", ".")``): a checkout or wheel being tried is the one they
test. nox is imported only by these functions, so ``import jaxcompat`` never needs it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._matrix import MatrixRow
from ._matrix import rows as matrix_rows
from ._matrix.pip_indexes import uv_index_environment, working_uv
from ._matrix.select import SELECTIONS
from ._matrix.select import select as select_rows
from ._matrix.trial import jaxcompat_requirement

if TYPE_CHECKING:
    import nox

__all__ = [
    "FUTURE",
    "FUTURE_ENV_VAR",
    "NEWEST",
    "install",
    "jaxcompat_requirement",
    "requirements",
    "rows",
]

NEWEST = "newest"  # the newest JAX the package indexes offer, with no pin
FUTURE = "future"  # the newest JAX, with every registered deprecation made an error
FUTURE_ENV_VAR = "JAXCOMPAT_FUTURE"  # read by the pytest plugin, jaxcompat.testing


def _newest_python() -> str:
    return matrix_rows()[-1].python


def rows(
    path: str | os.PathLike[str] = ".",
    select: str = "needed",
    *,
    newest: bool = False,
    future: bool = False,
) -> list[nox.param]:
    """``nox.param(python, jax)`` for each release ``jaxcompat matrix PATH --select SELECT``
    gives, oldest first; then ``newest`` and ``future`` when asked for.

    Raises ValueError on an unknown ``select`` or a library that cannot be read.
    """
    import nox

    if select not in SELECTIONS:
        raise ValueError(f"select={select!r}: choose one of {', '.join(SELECTIONS)}")
    chosen = select_rows(select, Path(path))
    params = [
        nox.param(item.row.python, item.row.jax, id=f"jax='{item.row.jax}'", tags=["jax"])
        for item in chosen
    ]
    for wanted, name in ((newest, NEWEST), (future, FUTURE)):
        if wanted:
            params.append(nox.param(_newest_python(), name, id=f"jax='{name}'", tags=[name]))
    return params


def _row(jax: str) -> MatrixRow:
    for row in matrix_rows():
        if row.jax == jax:
            return row
    known = ", ".join(row.jax for row in matrix_rows())
    raise ValueError(
        f"jax={jax!r} is no release of jaxcompat's matrix ({known}), nor {NEWEST!r} or "
        f"{FUTURE!r}: pass the jax of a row of jaxcompat.nox.rows()"
    )


def requirements(jax: str) -> list[str]:
    """What :func:`install` installs for ``jax``: a row's pins, or the newest JAX unpinned."""
    if jax in (NEWEST, FUTURE):
        return ["--upgrade", "jax", "jaxlib"]
    return _row(jax).requirements


def install(session: Any, jax: str, *extra: str) -> None:
    """Install ``jax`` (a release of :func:`rows`, ``newest`` or ``future``) into ``session``:
    jax, jaxlib and the release's companion pins, and ``extra`` requirements with them.

    ``future`` also sets ``JAXCOMPAT_FUTURE=1`` for the session's later commands.
    """
    needed = [*requirements(jax), *extra]
    index_env = uv_index_environment()
    backend = getattr(session, "venv_backend", None)
    uv = working_uv() if backend in ("virtualenv", "venv") else None
    if backend == "uv":  # nox runs `uv pip install` itself
        session.install(*needed, env=index_env)
    elif uv is not None:
        python = os.path.join(session.bin, "python")
        session.run(uv, "pip", "install", "--python", python, *needed, env=index_env, external=True)
    else:  # pip reads its own configuration
        session.install(*needed)
    if jax == FUTURE:
        session.env[FUTURE_ENV_VAR] = "1"
