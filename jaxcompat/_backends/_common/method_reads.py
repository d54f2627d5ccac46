"""Which attributes of ``self`` a jitted method can read, found in its code before it runs.

A jitted method keys its compiled code on the part of ``self``'s state that it can read
(``instance_state``): a logger, an open file or a large index that it never touches costs
nothing and can never raise. What it can read is every attribute named through ``self`` in
its code (``self.name``, ``getattr(self, "name")``, ``super().name``) and, recursively, in
the methods, properties and ``__getattr__`` those reach on its class. An attribute counts
whole: everything reachable from ``self.cfg`` is compared when ``self.cfg`` is named.

Where ``self`` is used in any other way (passed to a function, returned, stored, compared,
``vars(self)``, ``getattr`` with a computed name, a dunder attribute), or where some code it
reaches cannot be read (no source, a descriptor of unknown kind), the answer is None: the
method may read anything, and all of ``self``'s state counts, as it always did.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import types
from typing import Any

import jax

#: Built-ins that name an attribute of their first argument in their second.
_NAMING_CALLS = frozenset({"getattr", "hasattr", "setattr", "delattr"})
#: JAX's jitted functions: as a class attribute, ``self.f(x)`` passes self to the function.
_PJIT_FUNCTION = type(jax.jit(lambda x: x))


def attributes_read(function: Any, cls: type) -> tuple[str, ...] | None:
    """The attributes of a ``cls`` instance that ``function`` (its method) can read, in the
    order first named; None when it may read any."""
    names: dict[str, None] = {}
    if _collect(function, cls, names, set()):
        return tuple(names)
    return None


def _collect(function: Any, cls: type, names: dict[str, None], seen: set[Any]) -> bool:
    """Add what ``function``, called with a ``cls`` instance first, names through it."""
    if not isinstance(function, types.FunctionType):
        return False
    if function in seen:
        return True
    seen.add(function)
    node = _parse(function)
    if node is None:
        return False
    parameters = [*node.args.posonlyargs, *node.args.args]
    if not parameters:
        return False  # self comes in *args: anything may happen to it
    self_name = parameters[0].arg
    named = _names_through(node, self_name)
    if named is None:
        return False
    # `self.__w` in a class body is `self._Cls__w` at run time (name mangling).
    through_self, through_super = (_mangled(function, n) for n in named)
    for name in through_self:
        names.setdefault(name, None)
        if not _collect_attribute(cls, name, names, seen):
            return False
    for name in through_super:  # super().name: any definition up the MRO
        names.setdefault(name, None)
        for klass in cls.__mro__:
            if name in vars(klass) and not _collect_value(vars(klass)[name], cls, names, seen):
                return False
    if isinstance(inspect.getattr_static(cls, "__getattribute__"), types.FunctionType):
        return False  # every attribute read runs the class's own code
    getattr_hook = inspect.getattr_static(cls, "__getattr__", None)
    return getattr_hook is None or _collect(getattr_hook, cls, names, seen)


def _parse(function: types.FunctionType) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        source = textwrap.dedent(inspect.getsource(function))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, ValueError):  # no source, or not one def
        return None
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    found = tree.body[0]
    # The source read from the file is this function's (not a file edited since, nor a
    # wrapper that took the wrapped function's name).
    code = function.__code__
    parameters = [a.arg for a in (*found.args.posonlyargs, *found.args.args)]
    if found.name != function.__name__ or parameters != list(code.co_varnames[: code.co_argcount]):
        return None
    return found


def _names_through(
    node: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str
) -> tuple[list[str], list[str]] | None:
    """The attribute names used through ``self`` and through ``super()``, or None if
    ``self`` is used any other way or rebound."""
    through_self: list[str] = []
    through_super: list[str] = []
    accounted: set[int] = set()
    for sub in ast.walk(node):
        if sub is not node and isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = sub.args
            every = [*inner.posonlyargs, *inner.args, *inner.kwonlyargs, inner.vararg, inner.kwarg]
            if any(a is not None and a.arg == self_name for a in every):
                return None  # a nested function's own `self`
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            if sub.value.id == self_name:
                through_self.append(sub.attr)
                accounted.add(id(sub.value))
        elif isinstance(sub, ast.Attribute) and _is_bare_super(sub.value):
            through_super.append(sub.attr)
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id in _NAMING_CALLS
            and len(sub.args) >= 2
            and isinstance(sub.args[0], ast.Name)
            and sub.args[0].id == self_name
        ):
            if not (isinstance(sub.args[1], ast.Constant) and isinstance(sub.args[1].value, str)):
                return None  # a computed name: any attribute
            through_self.append(sub.args[1].value)
            accounted.add(id(sub.args[0]))
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == self_name and id(sub) not in accounted:
            return None  # self passed on, returned, stored, compared, rebound, ...
    if any(n.startswith("__") and n.endswith("__") and n != "__class__" for n in through_self):
        return None  # __dict__, __getstate__, ...: the whole state
    return [n for n in through_self if n != "__class__"], through_super


def _mangled(function: types.FunctionType, names: list[str]) -> list[str]:
    """``names`` as Python stores them for code written in ``function``'s class body."""
    scopes = function.__qualname__.split(".")
    owner = scopes[-2].lstrip("_") if len(scopes) >= 2 and not scopes[-2].startswith("<") else ""
    return [
        f"_{owner}{name}" if owner and name.startswith("__") and not name.endswith("__") else name
        for name in names
    ]


def _is_bare_super(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and not node.args
        and not node.keywords
    )


def _collect_attribute(cls: type, name: str, names: dict[str, None], seen: set[Any]) -> bool:
    """What ``self.name`` runs on the class, if anything: a method, a property, ..."""
    found = inspect.getattr_static(cls, name, _MISSING)
    if found is _MISSING:
        return True  # an instance attribute (or one __getattr__ makes: collected apart)
    return _collect_value(found, cls, names, seen)


_MISSING = object()


def _collect_value(value: Any, cls: type, names: dict[str, None], seen: set[Any]) -> bool:
    """A class attribute found through ``self``: follow the code that receives ``self``."""
    if isinstance(value, types.FunctionType):
        return _collect(value, cls, names, seen)
    if isinstance(value, property):
        accessors = (value.fget, value.fset, value.fdel)
        return all(f is None or _collect(f, cls, names, seen) for f in accessors)
    if isinstance(value, staticmethod | classmethod):
        return True  # receives no instance
    if getattr(type(value), "_jaxcompat_compare_by_identity", False) or isinstance(
        value, _PJIT_FUNCTION
    ):  # a jitted function: its function receives self
        return _collect(getattr(value, "__wrapped__", None), cls, names, seen)
    if not hasattr(type(value), "__get__"):
        return True  # a plain class attribute: a constant, a type, ...
    if isinstance(value, functools.cached_property):
        return _collect(value.func, cls, names, seen)
    return False  # a descriptor of another kind: unknown code receives self
