"""Stable names of ``jax.random``: backported distributions and key functions."""

from __future__ import annotations

from ._schema import Source, StableName

# Typed key arrays came in 0.4.16, with key_impl, wrap_key_data and the impl= of key; the
# jax.random.key of 0.4.13 has no impl= and no public way to name or wrap an implementation.
NO_KEY_IMPLS = (
    "key arrays cannot name or choose their PRNG implementation (jax.random.key has no impl=)"
    " before it"
)

NAMES: tuple[StableName, ...] = (
    # No key-reuse checker before 0.4.26, so handing the key back is what clone does.
    StableName(
        "random.clone",
        (Source("jax.random:clone"), Source("jaxcompat._backports.random:clone")),
    ),
    # The annotation type of key arrays (0.12.0): a NewType of jax.Array.
    StableName(
        "random.Key",
        (Source("jax.random:Key"), Source("jaxcompat._backports.random:Key")),
    ),
    # lognormal and triangular (missing from 0.4.13) gained out_sharding= in 0.10.1 and 0.10.2; the
    # backport draws the same samples from the release's own normal and uniform.
    StableName(
        "random.lognormal",
        (
            Source("jax.random:lognormal", releases=">=0.10.1"),
            Source("jaxcompat._backports.random:lognormal"),
        ),
    ),
    StableName(
        "random.triangular",
        (
            Source("jax.random:triangular", releases=">=0.10.2"),
            Source("jaxcompat._backports.random:triangular"),
        ),
    ),
    # binomial (0.4.21): until 0.7.2 its dtype error shows a class or a literal "{dtype}"
    # instead of the dtype's name.
    StableName(
        "random.binomial",
        (
            Source("jax.random:binomial", releases=">=0.7.2"),
            Source("jaxcompat._backports.random:binomial"),
        ),
    ),
    # multinomial (0.5.3): until 0.12.0 a shape= that adds batch axes to p's fails to
    # broadcast.
    StableName(
        "random.multinomial",
        (
            Source("jax.random:multinomial", releases=">=0.12.0"),
            Source("jaxcompat._backports.random:multinomial"),
        ),
    ),
    # key_dtype (0.10.1) is the dtype of a key made with impl=.
    StableName(
        "random.key_dtype",
        (
            Source("jax.random:key_dtype"),
            Source("jaxcompat._backports.random:key_dtype", releases=">=0.4.16"),
        ),
        first="0.4.16",
        reason=NO_KEY_IMPLS,
    ),
    # split's num is a count or, from JAX 0.4.14, a shape.
    StableName(
        "random.split",
        (
            Source("jax.random:split", releases=">=0.4.14"),
            Source("jax.random:split", adapter="random:split_into_shape"),
        ),
    ),
    # key_impl names the built-in implementations by a string from 0.4.36 on; before, it
    # returns a PRNGSpec for them too.
    StableName(
        "random.key_impl",
        (
            Source("jax.random:key_impl", releases=">=0.4.36"),
            Source("jax.random:key_impl", adapter="random:key_impl_name"),
        ),
        first="0.4.16",
        reason=NO_KEY_IMPLS,
    ),
    StableName(
        "random.wrap_key_data",
        (Source("jax.random:wrap_key_data"),),
        first="0.4.16",
        reason=NO_KEY_IMPLS,
    ),
)
