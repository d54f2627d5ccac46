"""No silent wrong answer: jaxcompat's backports and keyword adapters give the newest JAX's
results on every row.

Each call of ``tests/_differential_cases.py`` runs eagerly, under ``jit`` and under ``vmap``,
and its result (pytree structure, each leaf's dtype, shape and values) is compared with the
newest JAX's, recorded in ``differential_newest.json`` by ``tools/differential_newest.py``
(``nox -s newest_results``). Where the newest JAX raises, the row raises the same exception.
Integers and booleans are compared exactly; floats to 1e-5, since XLA releases round
transcendental functions differently in the last place.
"""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from ._differential_cases import CASES, outcome

RECORDED = json.loads((Path(__file__).parent / "differential_newest.json").read_text())["cases"]


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(case.id for case in CASES), "run nox -s newest_results"


@pytest.mark.parametrize(
    ("case", "mode"),
    [(case, mode) for case in CASES for mode in case.modes],
    ids=lambda value: value if isinstance(value, str) else value.id,
)
def test_the_newest_jaxs_result(case, mode):
    expected = RECORDED[case.id][mode]
    with warnings.catch_warnings():
        # The newest JAX's result is what is compared; a release's own deprecation warnings
        # about how the backport computes it are not the user's.
        warnings.simplefilter("ignore", DeprecationWarning)
        got = outcome(case, mode)
    if "error" in expected or "error" in got:
        assert got == expected
        return
    assert got["structure"] == expected["structure"]
    assert len(got["leaves"]) == len(expected["leaves"])
    for leaf, want in zip(got["leaves"], expected["leaves"], strict=True):
        assert (leaf["dtype"], leaf["shape"]) == (want["dtype"], want["shape"])
        if np.dtype(want["dtype"]).kind in "biu":
            assert leaf["values"] == want["values"]
        else:
            np.testing.assert_allclose(
                leaf["values"], want["values"], rtol=1e-5, atol=1e-6, equal_nan=True
            )
