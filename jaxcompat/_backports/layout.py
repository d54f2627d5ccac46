"""``jax.experimental.layout.Format`` with the newest names (JAX 0.7.0).

JAX 0.7.0 renamed the format class's parameter and attribute ``device_local_layout`` to
``layout`` (and the class it holds, ``DeviceLocalLayout``, to ``Layout``). The class in that
role before it is JAX's ``Layout`` (0.4.27-0.6.0), renamed ``Format`` at 0.6.2 with the old
names kept.
"""

from __future__ import annotations

from typing import Any

from .release_class import standing_for

__all__ = ["format_with_newest_names"]


def format_with_newest_names(release_format: type) -> type:
    """``Format(layout=None, sharding=None)`` and ``format.layout`` from the release's class.

    A subclass, so JAX takes its objects wherever it takes its own (``jit``'s shardings,
    ``device_put``), and they compare and hash with them. The release's own call,
    ``device_local_layout=``, and attribute keep working. A format JAX itself makes
    (``compiled.input_formats``) is the release's class: ``isinstance`` with this class holds
    for it, but it reads only as ``device_local_layout``.
    """

    class Format(release_format, metaclass=standing_for(release_format)):  # type: ignore[misc,metaclass]
        __slots__ = ()

        def __init__(
            self, layout: Any = None, sharding: Any = None, *, device_local_layout: Any = None
        ) -> None:
            if device_local_layout is not None:
                if layout is not None:
                    raise TypeError(
                        "Format() got both layout= and device_local_layout=, one parameter "
                        "(named layout from JAX 0.7.0): pass one"
                    )
                layout = device_local_layout
            super().__init__(layout, sharding)

        @property
        def layout(self) -> Any:
            return self.device_local_layout

        def __repr__(self) -> str:
            return f"Format(layout={self.layout}, sharding={self.sharding})"

    Format.__module__, Format.__qualname__ = "jaxcompat.experimental.layout", "Format"
    return Format
