"""The pages of the site, written with jinja2 from ``templates/``.

Every page gets ``root``, the relative path back to the site's top (``""`` or
``"../"``), so all links are relative and the site works from ``file://`` and from any
static host.  Autoescaping is on for every template: map names, bot names, details and
messages that come from files or bots are always HTML-escaped.  Bot error output
(``stderr``) is never published: pages are built from ``Record.public_json``.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from ...sim.registry import game_names, get_info
from .. import palette as P
from ..games import render_of

__all__ = ["write_pages", "standings", "templates_dir", "environment", "flatten",
           "slugify", "game_titles", "picture_titles"]


def game_titles() -> dict[str, str]:
    """Game name -> the title people read, for every registered game."""
    return {g: get_info(g).title for g in game_names()}


def picture_titles() -> dict[str, dict[str, str]]:
    """Game -> picture kind -> caption, from each game's render module."""
    out = {}
    for g in game_names():
        render = render_of(g)
        out[g] = dict(render.pictures)
        if render.validates:
            out[g]["validation"] = render.validation_caption
    return out


def slugify(text: str, taken: set[str] | None = None) -> str:
    """A file-name-safe, lower-case form of ``text``; unique within ``taken``."""
    out = "".join(ch if (ch.isascii() and ch.isalnum()) or ch in "-_" else "-"
                  for ch in text.lower()).strip("-_")
    while "--" in out:
        out = out.replace("--", "-")
    out = out[:60] or "x"
    if taken is not None:
        base, n = out, 2
        while out in taken:
            out = f"{base}-{n}"
            n += 1
        taken.add(out)
    return out


def templates_dir() -> Path:
    """The site's templates folder (``templates/``; see :mod:`atlas.resources`)."""
    from ...resources import templates_dir as found

    return found()


def environment() -> Any:
    """The jinja2 environment: templates folder, autoescape on, strict undefined."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.globals.update(game_titles=game_titles(), player_hex=P.PLAYER_HEX,
                       player_shapes=P.PLAYER_SHAPES, picture_titles=picture_titles())
    env.filters["move"] = _move_text
    return env


def _move_text(move: Any, limit: int = 60) -> str:
    if move is None:
        return "—"
    text = move if isinstance(move, str) else json.dumps(move, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def flatten(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    """``{"a": {"b": 1}}`` -> ``[("a.b", "1")]``; lists of scalars joined, long ones cut."""
    out: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out += flatten(v, f"{prefix}{k}.")
        return [(k.rstrip("."), v) for k, v in out]
    text = json.dumps(data) if not isinstance(data, str) else data
    if len(text) > 120:
        text = text[:117] + "..."
    return [(prefix, text)]


def _result_text(rec: Any) -> str:
    r = rec.result
    if r.winner is not None:
        return f"{rec.players[r.winner].name} (seat {r.winner + 1}) wins — {r.reason}"
    if rec.num_players > 2:
        return "scores " + ", ".join(f"{p.name} {s:g}" for p, s in zip(rec.players, r.scores))
    return f"draw — {r.reason}"


def standings(game_entries: Sequence[Any], slugger: Any) -> dict[str, dict[str, Any]]:
    """Per game, the tournament's standings (:func:`atlas.arena.tournament.standings`) as
    the pages show them: rows (bot, slug, rating, games, wins, draws, losses, points),
    the head-to-head table, the names in order, and whether the game compares seats
    pairwise (more than two seats)."""
    from ...arena.tournament import standings as table_of

    by_game: dict[str, list[Any]] = defaultdict(list)
    for g in game_entries:
        by_game[g.record.game].append(g.record)
    out: dict[str, dict[str, Any]] = {}
    for game in game_names():
        records = by_game.get(game, [])
        if not records:
            continue
        table = table_of(records)
        names = [r.bot for r in table.rows]
        rows = [{"name": r.bot, "slug": slugger(game, r.bot), "rating": round(r.rating),
                 "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses,
                 "points": r.points} for r in table.rows]
        h2h = {a: {b: list(table.head_to_head.get(a, {}).get(b, (0, 0, 0))) for b in names}
               for a in names}
        out[game] = {"rows": rows, "h2h": h2h, "names": names,
                     "pairwise": get_info(game).num_players > 2}
    return out


def write_pages(out: Path, maps: Sequence[Any], games: Sequence[Any],
                problems: Sequence[str]) -> None:
    """Write every page and the static files of the site into ``out``."""
    env = environment()
    static = templates_dir() / "static"
    for f in static.iterdir():
        if f.is_file():
            shutil.copyfile(f, out / "static" / f.name)
    bot_slugs: dict[tuple[str, str], str] = {}
    taken: set[str] = set()

    def bot_slug(game: str, name: str) -> str:
        key = (game, name)
        if key not in bot_slugs:
            bot_slugs[key] = slugify(f"{game}-{name}", taken)
        return bot_slugs[key]

    table = standings(games, bot_slug)
    map_by_slug = {m.slug: m for m in maps}
    games = list(games)
    known = game_names()
    titles = game_titles()
    by_game = {g: [m for m in maps if m.game == g] for g in known}
    other = [m for m in maps if m.game not in known]
    games_by_game = {g: [e for e in games if e.record.game == g] for g in known}

    def write(rel: str, template: str, **ctx: Any) -> None:
        depth = rel.count("/")
        html = env.get_template(template).render(root="../" * depth, **ctx)
        (out / rel).write_text(html, encoding="utf-8")

    common = {"result_text": _result_text, "bot_slug": bot_slug,
              "map_by_slug": map_by_slug}
    write("index.html", "index.html", title="Maps", nav="maps", by_game=by_game,
          other=other, problems=problems, n_games=len(games), **common)
    for m in maps:
        write(m.page, "map.html", title=f"{m.name} ({titles.get(m.game, m.game)})",
              nav="maps", m=m, summary=flatten(m.summary), **common)
    for e in games:
        rec = e.record
        # numbers and fixed names only; "</" is escaped all the same so that no text
        # could ever close the <script> element early
        data = (json.dumps(e.viewer, separators=(",", ":")) if e.viewer else "null"
                ).replace("</", "<\\/")
        write(e.page, "game.html", title=f"{' vs '.join(p.name for p in rec.players)} "
              f"on {rec.map.name}", nav="games", e=e, rec=rec,
              viewer_json=data, **common)
    write("games.html", "games.html", title="Games", nav="games",
          games_by_game=games_by_game, **common)
    write("standings.html", "standings.html", title="Standings", nav="standings",
          table=table, **common)
    for game, t in table.items():
        for row in t["rows"]:
            mine = [e for e in games_by_game[game]
                    if row["name"] in [p.name for p in e.record.players]]
            write(f"bots/{row['slug']}.html", "bot.html",
                  title=f"{row['name']} ({titles[game]})", nav="standings",
                  game=game, row=row, t=t, games=mine, **common)
    write("validation.html", "validation.html", title="Outpost map validation",
          nav="validation", maps=[m for m in maps if m.validation is not None], **common)
