"""``python -m jaxcompat._matrix matrix.yml > jaxcompat/_data/matrix.json``: the package data
for the repository's matrix.yml."""

import sys

import yaml

from . import dumps, from_matrix_yml

with open(sys.argv[1], encoding="utf-8") as source:
    sys.stdout.write(dumps(from_matrix_yml(yaml.safe_load(source)["releases"])))
