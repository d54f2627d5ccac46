"""``jax.lax.FftType`` (JAX 0.4.35), and a ``lax.fft`` that takes it, for older releases.

Before 0.4.35 ``lax.fft`` takes jaxlib's ``xla_client.FftType``, a pybind11 enum, or the
operation's name; 0.4.35 made the type JAX's own ``enum.IntEnum`` with the same members and
values, and ``lax.fft`` no longer takes jaxlib's. The adapter passes a member on by name,
which every release's ``lax.fft`` takes.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from typing import Any

import jax

__all__ = ["FftType", "fft_taking_fft_type"]


class FftType(enum.IntEnum):
    """Describes which FFT operation to perform."""

    FFT = 0  # forward complex-to-complex
    IFFT = 1  # inverse complex-to-complex
    RFFT = 2  # forward real-to-complex
    IRFFT = 3  # inverse real-to-complex


def fft_taking_fft_type(jax_fft: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    """``lax.fft(x, fft_type, fft_lengths)`` with ``fft_type`` a ``FftType`` or a name."""

    @functools.wraps(jax_fft)
    def fft(x: Any, fft_type: FftType | str, fft_lengths: Sequence[int]) -> jax.Array:
        if isinstance(fft_type, FftType):
            return jax_fft(x, fft_type.name, fft_lengths)
        if isinstance(fft_type, str):
            return jax_fft(x, fft_type, fft_lengths)
        # The newest JAX's error, also for jaxlib's enum, which it no longer takes.
        raise TypeError(f"Unknown FFT type value '{fft_type}'")

    return fft
