"""``atlas build``: the static site (build, pages, cache)."""
