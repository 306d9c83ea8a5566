"""Write the generated half of docs/cli.md: the ``--help`` text of atlas and of each command.

Run after changing the CLI: ``python tools/make_cli_doc.py``.  ``tests/test_cli.py``
fails while docs/cli.md and ``--help`` differ.  The hand-written part above the
marker line is kept as it is.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from atlas.cli import COMMANDS, help_text  # noqa: E402

DOC = ROOT / "docs" / "cli.md"
MARKER = "<!-- Below: written by tools/make_cli_doc.py from the parser; do not edit. -->"
WIDTH = 88


def reference() -> str:
    """The generated half: ``atlas --help`` and every ``atlas COMMAND --help``."""
    parts = [
        MARKER,
        "",
        "## Reference",
        "",
        "### atlas",
        "",
        "```text",
        help_text(None, WIDTH).rstrip(),
        "```",
        "",
    ]
    for name in COMMANDS:
        parts += [
            f"### atlas {name}",
            "",
            "```text",
            help_text(name, WIDTH).rstrip(),
            "```",
            "",
        ]
    return "\n".join(parts)


def write(doc: Path = DOC) -> None:
    text = doc.read_text(encoding="utf-8")
    head = text.split(MARKER, 1)[0].rstrip("\n")
    doc.write_text(head + "\n\n" + reference(), encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {DOC.relative_to(ROOT)}")
