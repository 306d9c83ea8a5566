"""Write the tables of the docs that the registries decide: the built-in bots and the
game parameters.

Each table sits between two marker lines in its document::

    <!-- atlas:bots tron -->            a game's bots: bot, what it does, files
    <!-- atlas:bot-names -->            every game's bots, from the simplest (README)
    <!-- atlas:params outpost -->       a game's parameters: name, default, meaning
    <!-- atlas:params -->               every game's parameters
    ...the generated table...
    <!-- /atlas -->

and is written from the games' registry (:mod:`atlas.games`), each game's ``BOTS`` and
``ABOUT`` (``atlas/games/GAME/bots/__init__.py``) and its ``GameInfo.params``.  Run after
adding a bot or a parameter: ``python tools/make_doc_tables.py``;
``tests/test_doc_tables.py`` fails while a document differs from what this writes.
The text outside the markers is kept as it is.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from atlas.bots.registry import bot_about, bot_names  # noqa: E402
from atlas.sim.registry import game_names, get_info  # noqa: E402

#: The documents that hold generated tables (paths in the repository).
DOCS = ("README.md", "docs/bots.md", "docs/cli.md", "docs/outpost.md")
#: A generated region: its opening marker (kind and argument), its body, its end.
REGION = re.compile(
    r"(<!-- atlas:([a-z-]+)(?: ([a-z0-9_-]+))? -->\n)(.*?)(<!-- /atlas -->)", re.S
)


def _code(text: str) -> str:
    return f"`{text}`"


def bot_names_table() -> str:
    """Every game and its bots, from the simplest (the README's table)."""
    rows = ["| game | bots, from the simplest |", "|---|---|"]
    for game in game_names():
        rows.append(f"| {game} | {', '.join(_code(b) for b in bot_names(game))} |")
    return "\n".join(rows)


def bots_table(game: str) -> str:
    """A game's bots: name, what it does, the files that hold its code."""
    rows = ["| bot | what it does | module |", "|---|---|---|"]
    for name, (text, files) in bot_about(game).items():
        rows.append(f"| {_code(name)} | {text} | {', '.join(_code(f) for f in files)} |")
    return "\n".join(rows)


def _default(value: Any) -> str:
    if value is None:
        return "the map's"
    return _code(f'"{value}"') if isinstance(value, str) else str(value)


def _values(param: Any) -> str:
    if param.choices:
        words = ", ".join(_code(f'"{c}"') for c in param.choices)
    elif param.kind is int:
        words = "a whole number" + (f" ≥ {param.minimum}" if param.minimum is not None else "")
    else:
        words = "a word"
    if param.nullable:
        words += ", or none (the map's)"
    return words


def params_table(game: str | None = None) -> str:
    """A game's parameters (name, default, values, meaning), or every game's."""
    games = game_names() if game is None else [game]
    head = "| name | default | values | meaning |"
    rows = [
        ("| game " if game is None else "") + head,
        ("|---" if game is None else "") + "|---|---:|---|---|",
    ]
    for g in games:
        for p in get_info(g).params:
            cells = [_code(p.name), _default(p.default), _values(p), p.help]
            rows.append(
                ("| " + g + " " if game is None else "") + "| " + " | ".join(cells) + " |"
            )
    return "\n".join(rows)


def table(kind: str, arg: str | None) -> str:
    """The generated body of a region of ``kind`` (and its argument)."""
    if kind == "bot-names":
        return bot_names_table()
    if kind == "bots" and arg:
        return bots_table(arg)
    if kind == "params":
        return params_table(arg)
    raise ValueError(f"unknown generated table {kind!r} {arg or ''}")


def rewrite(text: str) -> str:
    """``text`` with every marked region's table written anew."""
    return REGION.sub(
        lambda m: m.group(1) + table(m.group(2), m.group(3)) + "\n" + m.group(5), text
    )


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for rel in DOCS:
        path = ROOT / rel
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            stale.append(rel)
            if not check:
                path.write_text(new, encoding="utf-8")
    if check:
        for rel in stale:
            print(f"{rel} differs from the registries: run python tools/make_doc_tables.py")
        return 1 if stale else 0
    print("wrote " + (", ".join(stale) if stale else "nothing (every table up to date)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
