"""A class of jaxcompat's that stands for a release's class: ``isinstance`` and
``issubclass`` with it hold for everything the release's class covers, objects JAX makes
itself included (``Format``, ``custom_vjp``). A subclass of the release's class where JAX
lets it be subclassed; otherwise a class that stands in for it."""

from __future__ import annotations

from typing import Any

__all__ = ["stand_in_for", "standing_for"]


def standing_for(release_class: type) -> type:
    """The metaclass for a subclass of ``release_class`` that stands for it."""

    class _StandingFor(type(release_class)):  # type: ignore[misc]
        def __instancecheck__(cls, instance: Any) -> bool:
            return isinstance(instance, release_class)

        def __subclasscheck__(cls, subclass: type) -> bool:
            return issubclass(subclass, release_class)

    return _StandingFor


def stand_in_for(release_class: type, name: str, module: str, as_taken: Any) -> type:
    """A class that stands in for ``release_class``, whose metaclass cannot be subclassed
    (PartitionSpec 0.6.2-0.10.2, built in C++): calling it makes JAX's own object from the
    arguments ``as_taken`` turns them into; ``isinstance`` and ``issubclass`` with it hold
    for what the release's class covers; its other attributes (``P.UNCONSTRAINED``) are the
    release's class's; and a class written as its subclass is one of the release's class,
    as JAX allows (or refuses, from 0.10.1)."""

    class _StandIn(type):
        def __new__(
            mcs, class_name: str, bases: tuple[type, ...], namespace: dict[str, Any]
        ) -> Any:
            if any(isinstance(base, _StandIn) for base in bases):
                bases = tuple(release_class if isinstance(b, _StandIn) else b for b in bases)
                return type(release_class)(class_name, bases, namespace)
            return super().__new__(mcs, class_name, bases, namespace)

        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            args, kept = as_taken(args, kwargs)
            return release_class(*args, **kept)

        def __instancecheck__(cls, instance: Any) -> bool:
            return isinstance(instance, release_class)

        def __subclasscheck__(cls, subclass: type) -> bool:
            return issubclass(subclass, release_class)

        def __getattr__(cls, attribute: str) -> Any:
            return getattr(release_class, attribute)

    namespace = {"__module__": module, "__qualname__": name, "__doc__": release_class.__doc__}
    stand_in: type = _StandIn(name, (), namespace)
    return stand_in
