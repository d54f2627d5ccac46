"""The jaxcompat release number, in one place."""

__version__ = "0.1.0.dev0"
