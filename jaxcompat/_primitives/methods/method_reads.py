"""What of ``self`` a jitted method can read, found in its code before it runs.

A jitted method keys its compiled code on the part of ``self``'s state that it can read
(``instance_state``): a logger, an open file or a large index that it never touches costs
nothing and can never raise. What it can read is every attribute named through ``self`` in
its code (``self.name``, ``getattr(self, "name")``, ``super().name``) and, recursively, in
the methods, properties and ``__getattr__`` those reach on its class.

How much of an attribute counts (:class:`Reads`):

* an attribute the method only reads through a chain of attribute loads and constant
  subscripts (``self.cfg.optimizer.rate``, ``self.params["dense"][0]``) counts along that
  chain alone (``read_paths`` follows it on each call, and stops where an object is not
  plain data);
* ``getattr(self, f"w{i}")`` reads any attribute whose name starts with ``w``;
* any other use of ``self.cfg`` (handed on, subscripted, called, assigned to) counts all of it.

Where ``self`` is used in any other way (passed to a function, returned, stored, compared,
``vars(self)``, ``getattr`` with a name computed some other way, a dunder attribute), or where
some code it reaches cannot be read (no source, a descriptor of unknown kind), the answer is
None: the method may read anything, and all of ``self``'s state counts, as it always did.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import types
from typing import Any, NamedTuple

from ..jit_object import PjitFunction

#: Built-ins that name an attribute of their first argument in their second.
_NAMING_CALLS = frozenset({"getattr", "hasattr", "setattr", "delattr"})


class Item(NamedTuple):
    """A step of a read chain that is a constant subscript: ``["optimizer"]``, ``[0]``."""

    key: str | int


#: A read chain through ``self``: an attribute of ``self`` (always a name), then attribute
#: names and constant subscripts. ``self.cfg.optimizer.rate`` is
#: ``("cfg", "optimizer", "rate")``, ``self.params["w"]`` is ``("params", Item("w"))`` and
#: ``self.scale`` is ``("scale",)``.
ReadPath = tuple[str | Item, ...]


class Reads(NamedTuple):
    """What a method can read of an instance of one class."""

    #: Attribute chains, in the order first named; no chain extends another, and a chain of
    #: one name is the whole attribute.
    paths: tuple[ReadPath, ...]
    #: ``getattr(self, f"w{i}")``: every attribute whose name starts with one of these.
    prefixes: tuple[str, ...]


def reads_of(function: Any, cls: type) -> Reads | None:
    """What ``function`` (a method of ``cls``) can read of a ``cls`` instance; None when it
    may read anything."""
    paths: dict[ReadPath, None] = {}
    prefixes: dict[str, None] = {}
    if not _collect(function, cls, paths, prefixes, set()):
        return None
    return Reads(_shortest(paths), tuple(prefixes))


def _shortest(paths: dict[ReadPath, None]) -> tuple[ReadPath, ...]:
    """The paths no other path is a start of: what is read whole covers what lies below."""
    return tuple(
        path for path in paths if not any(path[:length] in paths for length in range(1, len(path)))
    )


def _collect(
    function: Any,
    cls: type,
    paths: dict[ReadPath, None],
    prefixes: dict[str, None],
    seen: set[Any],
) -> bool:
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
    # `self.__w` in a class body is `self._Cls__w` at run time (name mangling), and so is
    # `self.cfg.__w`; a name in a string (getattr's) is not mangled.
    chains = [_mangled_chain(function, chain) for chain in named.chains]
    chains += [(name,) for name in named.in_strings]
    through_super = _mangled(function, named.through_super)
    names = [str(chain[0]) for chain in chains]
    for prefix in named.prefixes:
        prefixes.setdefault(prefix, None)
        names += [name for klass in cls.__mro__ for name in vars(klass) if name.startswith(prefix)]
    for chain in chains:
        paths.setdefault(chain, None)
    for name in names:
        if not _collect_attribute(cls, name, paths, prefixes, seen):
            return False
    for name in through_super:  # super().name: any definition up the MRO
        paths.setdefault((name,), None)
        for klass in cls.__mro__:
            if name in vars(klass) and not _collect_value(
                vars(klass)[name], cls, paths, prefixes, seen
            ):
                return False
    if isinstance(inspect.getattr_static(cls, "__getattribute__"), types.FunctionType):
        return False  # every attribute read runs the class's own code
    getattr_hook = inspect.getattr_static(cls, "__getattr__", None)
    return getattr_hook is None or _collect(getattr_hook, cls, paths, prefixes, seen)


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


class _Named(NamedTuple):
    """What a function's code names through ``self`` and ``super()``."""

    chains: list[ReadPath]  # self.cfg.rate: as written, to be mangled
    in_strings: list[str]  # getattr(self, "name"): stored as written
    prefixes: list[str]  # getattr(self, f"w{i}")
    through_super: list[str]  # super().name


def _names_through(node: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str) -> _Named | None:
    """What ``node`` names through ``self`` and ``super()``, or None if ``self`` is used any
    other way or rebound."""
    named = _Named([], [], [], [])
    accounted: set[int] = set()
    parents = {id(child): sub for sub in ast.walk(node) for child in ast.iter_child_nodes(sub)}
    for sub in ast.walk(node):
        if sub is not node and isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = sub.args
            every = [*inner.posonlyargs, *inner.args, *inner.kwonlyargs, inner.vararg, inner.kwarg]
            if any(a is not None and a.arg == self_name for a in every):
                return None  # a nested function's own `self`
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            if sub.value.id == self_name:
                named.chains.append(_chain_from(sub, parents))
                accounted.add(id(sub.value))
        elif isinstance(sub, ast.Attribute) and _is_bare_super(sub.value):
            named.through_super.append(sub.attr)
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id in _NAMING_CALLS
            and len(sub.args) >= 2
            and isinstance(sub.args[0], ast.Name)
            and sub.args[0].id == self_name
        ):
            name = sub.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                named.in_strings.append(name.value)
            elif prefix := _constant_prefix(name):
                named.prefixes.append(prefix)
            else:
                return None  # a computed name: any attribute
            accounted.add(id(sub.args[0]))
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == self_name and id(sub) not in accounted:
            return None  # self passed on, returned, stored, compared, rebound, ...
    firsts = [str(chain[0]) for chain in named.chains] + named.in_strings + named.prefixes
    if any(_is_dunder(n) and n != "__class__" for n in firsts) or any(
        p.startswith("__") for p in named.prefixes
    ):
        return None  # __dict__, __getstate__, ...: the whole state
    named.chains[:] = [chain for chain in named.chains if chain[0] != "__class__"]
    named.in_strings[:] = [n for n in named.in_strings if n != "__class__"]
    return named


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _chain_from(attribute: ast.Attribute, parents: dict[int, ast.AST]) -> ReadPath:
    """``self.cfg.optimizer.rate``, from its ``self.cfg``: the attribute loads and constant
    subscripts (a string or a non-negative integer) that follow.

    The chain stops before an attribute or item that is assigned or deleted
    (``self.cfg.rate = 1`` changes ``self.cfg``, which then counts whole) and at anything
    else (a call, a computed subscript, an argument: what is there counts whole).
    """
    chain: list[str | Item] = [attribute.attr]
    node: ast.AST = attribute
    if not isinstance(attribute.ctx, ast.Load):
        return tuple(chain)
    while True:
        parent = parents.get(id(node))
        if not isinstance(parent, ast.Attribute | ast.Subscript) or parent.value is not node:
            break
        if not isinstance(parent.ctx, ast.Load):
            break
        if isinstance(parent, ast.Attribute):
            chain.append(parent.attr)
        elif isinstance(parent.slice, ast.Constant) and type(key := parent.slice.value) in (
            str,
            int,
        ):
            chain.append(Item(key))  # type: ignore[arg-type]  # str or int, as just checked
        else:
            break
        node = parent
    return tuple(chain)


def _constant_prefix(name: ast.expr) -> str:
    """``f"w{i}"`` names an attribute starting with ``"w"``; "" where nothing is known."""
    if isinstance(name, ast.JoinedStr) and name.values:
        first = name.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return ""


def _mangled_chain(function: types.FunctionType, chain: ReadPath) -> ReadPath:
    """``chain`` with its attribute names as Python stores them (see ``_mangled``)."""
    return tuple(_mangled(function, [s])[0] if isinstance(s, str) else s for s in chain)


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


def _collect_attribute(
    cls: type, name: str, paths: dict[ReadPath, None], prefixes: dict[str, None], seen: set[Any]
) -> bool:
    """What ``self.name`` runs on the class, if anything: a method, a property, ..."""
    found = inspect.getattr_static(cls, name, _MISSING)
    if found is _MISSING:
        return True  # an instance attribute (or one __getattr__ makes: collected apart)
    return _collect_value(found, cls, paths, prefixes, seen)


_MISSING = object()


def _collect_value(
    value: Any, cls: type, paths: dict[ReadPath, None], prefixes: dict[str, None], seen: set[Any]
) -> bool:
    """A class attribute found through ``self``: follow the code that receives ``self``."""
    if isinstance(value, types.FunctionType):
        return _collect(value, cls, paths, prefixes, seen)
    if isinstance(value, property):
        accessors = (value.fget, value.fset, value.fdel)
        return all(f is None or _collect(f, cls, paths, prefixes, seen) for f in accessors)
    if isinstance(value, staticmethod | classmethod):
        return True  # receives no instance
    if getattr(type(value), "_jaxcompat_compare_by_identity", False) or isinstance(
        value, PjitFunction
    ):  # a jitted function: its function receives self
        return _collect(getattr(value, "__wrapped__", None), cls, paths, prefixes, seen)
    if not hasattr(type(value), "__get__"):
        return True  # a plain class attribute: a constant, a type, ...
    if isinstance(value, functools.cached_property):
        return _collect(value.func, cls, paths, prefixes, seen)
    return False  # a descriptor of another kind: unknown code receives self
