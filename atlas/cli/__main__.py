"""``python -m atlas.cli``: the ``atlas`` command, as ``python -m atlas`` runs it."""

from __future__ import annotations

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
