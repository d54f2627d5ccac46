"""The keyword rules: plain data that imports nothing from JAX (see ``jaxcompat._keywords``)."""
