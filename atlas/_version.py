"""atlas's version, in a module of its own (numba's cache folder is keyed by it)."""

__version__ = "0.2.0"
