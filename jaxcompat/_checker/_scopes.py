"""Names and scopes: what a local name is bound to where the checker reads it."""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = ["Binding", "Scope", "annotation_nodes", "parameters"]


@dataclass(frozen=True)
class Binding:
    path: str | None  # the JAX or jaxcompat path; None: something else (shadowed)
    mask: int  # the rows on which the binding was made
    alias: bool  # bound by ``from`` import or assignment: the name itself was checked there


class Scope(dict[str, Binding]):
    """A module, function or class namespace (a class's names are not seen by its methods)."""

    def __init__(self, is_class: bool) -> None:
        super().__init__()
        self.is_class = is_class


def parameters(arguments: ast.arguments) -> list[ast.arg]:
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return every + [a for a in (arguments.vararg, arguments.kwarg) if a is not None]


def annotation_nodes(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    found = [a.annotation for a in parameters(node.args) if a.annotation is not None]
    return found + ([node.returns] if node.returns is not None else [])
