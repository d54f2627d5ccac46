"""A subclass of a release's class that stands for it: ``isinstance`` and ``issubclass``
with the subclass hold for everything the release's class covers, objects JAX makes itself
included (``Format``, ``custom_vjp``)."""

from __future__ import annotations

from typing import Any

__all__ = ["standing_for"]


def standing_for(release_class: type) -> type:
    """The metaclass for a subclass of ``release_class`` that stands for it."""

    class _StandingFor(type(release_class)):  # type: ignore[misc]
        def __instancecheck__(cls, instance: Any) -> bool:
            return isinstance(instance, release_class)

        def __subclasscheck__(cls, subclass: type) -> bool:
            return issubclass(subclass, release_class)

    return _StandingFor
