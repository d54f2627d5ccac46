"""tinysolve's tests on the JAX releases jaxcompat says it needs.

nox                              every row (nox -l lists them)
nox -s "tests(jax='0.4.13')"     one release; arguments after -- go to pytest
nox -t jax                       the releases of jaxcompat's matrix only
nox -t newest                    the newest JAX, with no pin
nox -t future                    the newest JAX with every deprecation it has registered made an
                                 error, as the next release will have them

The releases are `jaxcompat matrix .` (the floor and newest release of the declared range,
plus one of each jaxcompat backend and each release where a finding of `jaxcompat check`
changes); the CI workflow runs the same rows. nox's own environment needs jaxcompat.
"""

from __future__ import annotations

from pathlib import Path

import nox

import jaxcompat.nox as jcn

HERE = Path(__file__).parent

nox.needs_version = ">=2024.10.9"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_venv = "yes"  # a JAX virtualenv is ~0.5 GB: build each once


@nox.session
@nox.parametrize("python,jax", jcn.rows(HERE, select="needed", newest=True, future=True))
def tests(session: nox.Session, jax: str) -> None:
    """tinysolve's tests on one JAX release."""
    # One install, so that the row's pins and tinysolve's own requirements resolve together:
    # a requirement that pulls JAX up is an error, not a silent upgrade.
    jcn.install(session, jax, jcn.jaxcompat_requirement(), "-e", ".", "pytest")
    session.run("pytest", *session.posargs)
