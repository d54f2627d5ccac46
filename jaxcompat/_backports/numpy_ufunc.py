"""``jax.numpy.ufunc(..., call=, reduce=, accumulate=, at=, reduceat=)`` before JAX 0.4.33.

JAX 0.4.33 let a ufunc carry its own implementation of each method; the method then checks
its arguments as before and calls it (``reduce(a, axis=, dtype=, keepdims=, initial=,
where=)``, ``accumulate(a, axis=, dtype=)``, ``at(a, indices[, b])``, ``reduceat(a,
indices, axis=, dtype=)``, ``call(*args)``). A ufunc made with none of them is JAX's own
object, as before; one made with any is an object of the class below, a subclass of the
release's ufunc whose methods call the implementations given. As in the newest JAX, they are
not part of a ufunc's identity (its hash and equality).
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp

from .release_class import standing_for

__all__ = ["ufunc_with_methods"]

_METHODS = ("call", "reduce", "accumulate", "at", "reduceat")


def ufunc_with_methods(release_ufunc: type) -> type:
    """The newest ``jax.numpy.ufunc`` from the release's (0.4.18-0.4.32)."""

    base: Any = release_ufunc  # its __init__ and methods are whatever JAX's class has

    class ufunc(base, metaclass=standing_for(release_ufunc)):  # type: ignore[misc,metaclass]
        def __new__(
            cls: type,
            func: Any,
            /,
            nin: int,
            nout: int,
            *,
            name: str | None = None,
            nargs: int | None = None,
            identity: Any = None,
            call: Any = None,
            reduce: Any = None,
            accumulate: Any = None,
            at: Any = None,
            reduceat: Any = None,
            update_doc: bool = True,
        ) -> Any:
            # update_doc: the release's own parameter (False by default there); the newest
            # has none and always takes the function's docstring.
            given = (call, reduce, accumulate, at, reduceat)
            options = {"name": name, "nargs": nargs, "identity": identity, "update_doc": update_doc}
            if cls is ufunc and all(method is None for method in given):
                return release_ufunc(func, nin, nout, **options)  # JAX's own object
            made: Any = object.__new__(cls)
            base.__init__(made, func, nin, nout, **options)
            made._newest_methods = dict(zip(_METHODS, given, strict=True))
            return made

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass  # made in __new__

        @property
        def _call(self) -> Any:  # what the release's methods (outer) call
            call = self._newest_methods["call"]
            return super()._call if call is None else call

        def __call__(self, *args: Any, out: None = None, where: None = None, **kwargs: Any) -> Any:
            call = self._newest_methods["call"]
            if call is None:  # the release's own call, which passes keywords on to func
                return super().__call__(*args, out=out, where=where, **kwargs)
            if kwargs:  # the newest's __call__ takes none
                raise TypeError(
                    f"ufunc.__call__() got an unexpected keyword argument {next(iter(kwargs))!r}"
                )
            if out is not None:
                raise NotImplementedError(f"out argument of {self}")
            if where is not None:
                raise NotImplementedError(f"where argument of {self}")
            return call(*args)

        @functools.partial(jax.jit, static_argnames=["self", "axis", "dtype", "out", "keepdims"])
        def reduce(
            self,
            a: Any,
            axis: Any = 0,
            dtype: Any = None,
            out: None = None,
            keepdims: bool = False,
            initial: Any = None,
            where: Any = None,
        ) -> Any:
            reduce = self._newest_methods["reduce"]
            if reduce is None:
                return super().reduce(a, axis, dtype, out, keepdims, initial, where)
            _binary_with_one_output(self, "reduce", out)
            if where is not None:
                if self.identity is None and initial is None:
                    raise ValueError(
                        f"reduction operation {self.__name__!r} does not have an identity, "
                        "so to use a where mask one has to specify 'initial'."
                    )
                if jnp.result_type(where) != jnp.bool_:
                    raise ValueError(
                        f"where argument must have dtype=bool; got dtype={jnp.result_type(where)}"
                    )
            return reduce(
                a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where
            )

        @functools.partial(jax.jit, static_argnames=["self", "axis", "dtype"])
        def accumulate(self, a: Any, axis: int = 0, dtype: Any = None, out: None = None) -> Any:
            accumulate = self._newest_methods["accumulate"]
            if accumulate is None:
                return super().accumulate(a, axis, dtype, out)
            _binary_with_one_output(self, "accumulate", out)
            return accumulate(a, axis=axis, dtype=dtype)

        @functools.partial(jax.jit, static_argnums=[0], static_argnames=["inplace"])
        def at(self, a: Any, indices: Any, b: Any = None, /, *, inplace: bool = True) -> Any:
            at = self._newest_methods["at"]
            if at is None:
                return super().at(a, indices, b, inplace=inplace)
            if inplace:
                # The release's own message: JAX arrays are immutable.
                return super().at(a, indices, b, inplace=inplace)
            return at(a, indices) if b is None else at(a, indices, b)

        @functools.partial(jax.jit, static_argnames=["self", "axis", "dtype"])
        def reduceat(
            self, a: Any, indices: Any, axis: int = 0, dtype: Any = None, out: None = None
        ) -> Any:
            reduceat = self._newest_methods["reduceat"]
            if reduceat is None:
                return super().reduceat(a, indices, axis, dtype, out)
            _binary_with_one_output(self, "reduceat", out)
            return reduceat(a, indices, axis=axis, dtype=dtype)

    ufunc.__module__, ufunc.__qualname__ = "jaxcompat.numpy", "ufunc"
    return ufunc


def _binary_with_one_output(ufunc: Any, method: str, out: Any) -> None:
    """The newest method's checks before it calls the implementation given."""
    if ufunc.nin != 2:
        raise ValueError(f"{method} only supported for binary ufuncs")
    if ufunc.nout != 1:
        raise ValueError(f"{method} only supported for functions returning a single value")
    if out is not None:
        raise NotImplementedError(f"out argument of {ufunc.__name__}.{method}()")
