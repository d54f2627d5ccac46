"""What a traced method meets in place of state that has no value to compare.

An open file, a generator, a logger's stream: a later call cannot compare such a value with
the one the method was traced with, so the static key holds it by identity, and while
tracing the method gets an :class:`Unreadable` in its place. A method that never touches it
runs as under ``jax.jit``. A method that touches it in any way (an attribute, a call,
iteration, truth, ``==``, ``repr``) gets a StateError naming its path: what it read would be
compiled in, and a later call could not tell that it had changed.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .state_walk import READ_WHILE_TRACED, Path, no_value_reason, refusal


def _read(stand_in: Unreadable, *args: Any, **kwargs: Any) -> NoReturn:
    path = object.__getattribute__(stand_in, "_path")
    real = object.__getattribute__(stand_in, "_real")
    raise refusal(path, real, no_value_reason(real), READ_WHILE_TRACED)


class Unreadable:
    """Stands in for one value with no value to compare; every use of it raises StateError."""

    __slots__ = ("_path", "_real")

    def __init__(self, path: Path, real: Any) -> None:
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_real", real)

    # Python looks special methods up on the type, past __getattribute__: each is a read.
    __getattribute__ = __setattr__ = __delattr__ = _read
    __call__ = __iter__ = __next__ = __len__ = __bool__ = __contains__ = _read
    __getitem__ = __setitem__ = __delitem__ = __enter__ = __exit__ = _read
    __aiter__ = __anext__ = __aenter__ = __aexit__ = __await__ = _read
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _read
    __repr__ = __str__ = __format__ = __bytes__ = __dir__ = __reduce_ex__ = _read
    __int__ = __float__ = __index__ = __complex__ = __fspath__ = _read
    __add__ = __sub__ = __mul__ = __truediv__ = __floordiv__ = __mod__ = __pow__ = _read
    __radd__ = __rsub__ = __rmul__ = __rtruediv__ = __neg__ = __array__ = _read
