"""Tests of atlas's Python API (atlas/api, the names at the top of the package)."""
