"""Tests of atlas.analyze (a package, so that test module names may repeat elsewhere)."""
