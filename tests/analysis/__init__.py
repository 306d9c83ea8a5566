"""Tests of atlas.analysis (a package, so that test module names may repeat elsewhere)."""
