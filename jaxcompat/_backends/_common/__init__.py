"""Version-agnostic machinery that the ``jax_*`` backends choose from and configure."""
