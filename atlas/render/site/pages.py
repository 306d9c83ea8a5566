"""The pages of the site, written with jinja2 from ``templates/``.

Every page gets ``root``, the relative path back to the site's top (``""`` or
``"../"``), so all links are relative and the site works from ``file://`` and from any
static host.  Autoescaping is on for every template: map names, bot names, details and
messages that come from files or bots are always HTML-escaped, and data embedded for
scripts is JSON with ``<`` escaped.  Bot error output (``stderr``) is never published:
pages are built from ``Record.public_json``.

Besides the pages, :func:`write_pages` writes ``site-index.js``: every map, bot and
game in a compact form (:func:`site_index`) for the search box of the index and the
games tables (sortable, filterable, paginated) of the games list, the map pages and
the bot pages.  It is a script, not JSON fetched at run time, so it loads from
``file://`` too.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard

from ...maps.validation import validating_games, validator_of
from ...sim.registry import game_names, get_info
from .. import palette as P
from ..gif import font_script
from ..registry import render_of
from ..svg import chamber_tree_svg
from ..viewer import page_json
from .ahead import Ahead, can_fork, in_two
from .cache import code_version, content_key, content_key_of

__all__ = [
    "write_pages",
    "standings",
    "event_standings",
    "templates_dir",
    "environment",
    "game_links",
    "flatten",
    "slugify",
    "game_titles",
    "picture_titles",
    "site_index",
    "index_files",
    "INDEX_PART",
    "pages_version",
    "script_json",
    "INDEX_FILE",
    "FAIRNESS_ORIGIN",
]

#: The site's index of maps, bots and games, a script every page with a search box or
#: a games table loads.
INDEX_FILE = "site-index.js"


def game_titles() -> dict[str, str]:
    """Game name -> the title people read, for every registered game."""
    return {g: get_info(g).title for g in game_names()}


def picture_titles() -> dict[str, dict[str, str]]:
    """Game -> picture kind -> caption, from each game's painter module (``validation``:
    the picture of a report, for the games that validate their maps)."""
    out = {}
    validating = validating_games()
    for g in game_names():
        render = render_of(g)
        out[g] = dict(render.pictures)
        if g in validating:
            out[g]["validation"] = render.validation_caption
    return out


#: A text :func:`slugify` leaves as it is (up to 60 characters and no ``--``): a
#: season's game names, a map's slug and a content key, are mostly such.
_SLUG_ALREADY = re.compile(r"[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?")


def slugify(text: str, taken: set[str] | None = None) -> str:
    """A file-name-safe, lower-case form of ``text``; unique within ``taken``."""
    if len(text) <= 60 and "--" not in text and _SLUG_ALREADY.fullmatch(text):
        out = text
    else:
        out = "".join(
            ch if (ch.isascii() and ch.isalnum()) or ch in "-_" else "-" for ch in text.lower()
        ).strip("-_")
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


@lru_cache(maxsize=1)
def pages_version() -> str:
    """A digest of what decides a page besides its data: the templates, the static
    files and this module (a game page is kept as it was when neither changed)."""
    h = hashlib.sha256()
    for p in sorted(templates_dir().rglob("*")) + [Path(__file__)]:
        if p.is_file():
            h.update(str(p.name).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: ``<``, ``>`` and
    ``&`` are written as ``\\u`` escapes, so no text can close the element early."""
    return (
        json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


def environment() -> Any:
    """The jinja2 environment: templates folder, autoescape on, strict undefined."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        game_titles=game_titles(),
        player_hex=P.PLAYER_HEX,
        player_shapes=P.PLAYER_SHAPES,
        picture_titles=picture_titles(),
    )
    env.filters["move"] = _move_text
    env.globals["game_links"] = game_links
    env.globals["opponent_rows"] = opponent_rows
    env.globals["h2h_max"] = H2H_MAX
    return env


#: Players of a standings table up to which its page shows the head-to-head table
#: (beyond, a course's season of 300 players would make it 90,000 cells: each player's
#: page lists its own row, the opponents it met).
H2H_MAX = 30


def opponents_met(t: Mapping[str, Any], name: str) -> list[str]:
    """The players of the standings table ``t`` (a page's, :func:`_page_table`) that
    ``name`` met, in the order of their names (``bot2`` before ``bot10``): not the
    table's, which ten more games of a season reshuffle among players of near ratings,
    so that every player's page would be written again for them.

    >>> t = {"names": ["b10", "a", "b2"], "h2h": {"a": {"b10": [1, 0, 0], "b2": [0, 1, 0]}}}
    >>> opponents_met(t, "a")
    ['b2', 'b10']
    """
    row = t["h2h"].get(name, {})
    names = t.get("by_name") or sorted(t["names"], key=name_order)  # once, in the table
    return [b for b in names if b != name and sum(row.get(b, (0, 0, 0))) > 0]


def name_order(name: str) -> tuple[Any, ...]:
    """A name's place in a list of names: case aside, its runs of digits as numbers
    (``bot2`` before ``bot10``), then the name itself (one order for every name)."""
    parts = re.split(r"(\d+)", name.casefold())  # the runs of digits at odd places
    # a run compared as a number without making one (a name may hold 10,000 digits)
    runs = [
        (0, len(p.lstrip("0")), p.lstrip("0")) if k % 2 else (1, 0, p)
        for k, p in enumerate(parts)
    ]
    return (tuple(runs), name)


def game_links(root: str, games: Sequence[Any], result_text: Any = None) -> Any:
    """The list items of the games ``games`` for readers without scripts (a link, the
    players, the result), escaped: written here rather than by a template loop, which
    costs far more for the thousands of games a map or a bot page may list."""
    from markupsafe import Markup, escape

    parts = []
    for e in games:
        head = e.head
        item = (
            f'<li><a href="{escape(root)}{escape(e.page)}">{escape(e.ident)}</a> — '
            f"{escape(' vs '.join(p.name for p in head.players))}"
        )
        if result_text is not None:
            item += f" — {escape(result_text(head))}"
        parts.append(item + "</li>")
    return Markup("".join(parts))


def opponent_rows(met: Sequence[Sequence[Any]]) -> Any:
    """The rows of a player's table of opponents, ``met`` being ``[name, page slug,
    [wins, draws, losses]]`` for each opponent it met, escaped: written here rather than
    by a template loop (a season's 300 players have met 300 each)."""
    from markupsafe import Markup, escape

    return Markup(
        "".join(
            f'<tr><td><a href="{escape(slug)}.html">{escape(name)}</a></td>'
            f'<td class="num">{int(x[0])}</td><td class="num">{int(x[1])}</td>'
            f'<td class="num">{int(x[2])}</td></tr>'
            for name, slug, x in met
        )
    )


def _move_text(move: Any, game: str | None = None, limit: int = 60) -> str:
    if move is None:
        return "—"
    text = render_of(game).move_text(move) if game in game_names() else None
    if text is None:
        text = move if isinstance(move, str) else json.dumps(move, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def moves_data(rec: Any, failures: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The game page's table of moves as the viewer writes it (``static/viewer.js``):
    ``moves``, per turn each seat's move as text (``null``: no move that turn), and
    ``failed``, ``[turn index, seat, "how: what was done"]`` for each failure marked in
    it.  Far smaller in the page's (deflated) data than as HTML rows."""
    game = rec.game
    moves = [
        [
            _move_text(t.moves[k], game) if k in t.moves else None
            for k in range(len(rec.players))
        ]
        for t in rec.turns
    ]
    out: dict[str, Any] = {"moves": moves}
    failed = [[f["index"], f["seat"], f"{f['how']}: {f['effect']}"] for f in failures]
    if failed:
        out["failed"] = failed
    return out


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


def _compact_json(value: Any) -> str:
    """``value`` as compact JSON text (no spaces, any character as it is): a list's
    text is its items' texts joined by commas in brackets, so parts of a key's long
    lists can be encoded once and joined.

    >>> items = [["a", 1], ["é", [2, 3]]]
    >>> _compact_json(items)
    '[["a",1],["é",[2,3]]]'
    >>> _compact_json(items) == "[" + ",".join([_compact_json(i) for i in items]) + "]"
    True
    """
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _result_text(rec: Any) -> str:
    r = rec.result
    if r.winner is not None:
        return f"{rec.players[r.winner].name} (seat {r.winner + 1}) wins — {r.reason}"
    if rec.num_players > 2:
        return "scores " + ", ".join(f"{p.name} {s:g}" for p, s in zip(rec.players, r.scores))
    return f"draw — {r.reason}"


def _why_featured(e: Any) -> str:
    """One sentence on why a map page features game ``e`` (see
    :func:`atlas.render.site.build.featured_game`): its charted measure is read from
    the game's whole meta data (a season's index keeps only what picks the game)."""
    meta = e.whole_meta()
    it = meta.get("interest", {})
    first = (meta.get("series") or [{}])[0]
    measure = first.get("phrase") or first.get("name", "")
    if it.get("comeback", 0) > 0 and measure:
        return (
            f"Featured: its winner was behind by up to {100 * it['comeback']:.0f} % "
            f"of the total in {measure} (the chart under its board) and still won, "
            f"the largest comeback on this map."
        )
    if it.get("decisive"):
        return (
            f"Featured: no winner on this map came from behind, and this is the longest "
            f"game with a winner ({it.get('turns', 0)} turns)."
        )
    return f"Featured: the longest game on this map ({it.get('turns', 0)} turns)."


def _page_table(
    table: Any, game: str, slugger: Callable[..., str], event: str | None = None
) -> dict[str, Any]:
    """A :class:`~atlas.arena.standings.Standings` as the pages show it: rows (name,
    slug, rating, its 95 % interval, its rank range, the likelihood of superiority over
    the next row in percent, games, wins, draws, losses, points, the score and its
    paired interval; for an organiser's
    tournament, ``event``, also the identity), the head-to-head table, the names in
    order, whether seats compare pairwise, how the intervals were computed
    (``interval``, a sentence) and the adjacent rows the games cannot separate
    (``separation``, sentences)."""
    names = [r.bot for r in table.rows]
    rows = []
    for r in table.rows:
        row = {
            "name": r.bot,
            "slug": slugger(game, r.bot) if event is None else slugger(game, r.bot, event),
            "rating": round(r.rating),
            "low": round(r.low),
            "high": round(r.high),
            "ranks": (
                str(r.rank_low) if r.rank_low == r.rank_high else f"{r.rank_low}–{r.rank_high}"
            ),
            "los": (
                None
                if r.los_next is None or table.interval.samples <= 0
                else round(100 * r.los_next)
            ),
            "games": r.games,
            "wins": r.wins,
            "draws": r.draws,
            "losses": r.losses,
            "points": round(r.points, 2),
            "score": f"{r.score:.2f}",
            "score_range": f"{r.score_low:.2f}–{r.score_high:.2f}",
        }
        if event is not None:
            row.update(identity=r.identity)
        rows.append(row)
    h2h = {
        a: {b: list(table.head_to_head.get(a, {}).get(b, (0, 0, 0))) for b in names}
        for a in names
    }
    return {
        "rows": rows,
        "h2h": h2h,
        "names": names,
        "by_name": sorted(names, key=name_order),
        "pairwise": get_info(game).num_players > 2,
        "interval": table.interval.text,
        "score_method": table.interval.score_text,
        "bootstrap": table.interval.samples > 0,
        "separation": table.separation_text(),
    }


def _standing_groups(game_entries: Sequence[Any]) -> dict[str, list[Any]]:
    """The games each game's standings count, in :func:`game_names`'s order: neither
    fairness games (a bot against itself: evidence on the map, not on the bots) nor an
    organiser's tournament's (they stand apart)."""
    by_game: dict[str, list[Any]] = defaultdict(list)
    for g in game_entries:
        if getattr(g, "origin", None) == FAIRNESS_ORIGIN:
            continue
        if getattr(g, "event", None) is None:
            by_game[g.head.game].append(g)
    return {game: by_game[game] for game in game_names() if by_game.get(game)}


def _games_key(entries: Sequence[Any]) -> str | None:
    """The content key of a table's games, in any order (the standings do not depend
    on it), or None when one of them has no content key."""
    digests = [getattr(g, "digest", None) for g in entries]
    known = [d for d in digests if isinstance(d, str) and d]
    if len(known) != len(entries):
        return None
    return content_key("standings-games", "\n".join(sorted(known)))


def _table_slot(game: str, samples: int | None) -> str:
    """The cache's entry of a game's last table: one a game, overwritten when its games
    change (a site rebuilt at every save, ``atlas serve``, keeps one table, not one a
    rebuild)."""
    return content_key("standings", code_version(), samples, game)


def _kept_table(cache: Any, game: str, samples: int | None, key: str) -> Any:
    """The table the cache keeps for ``game``'s games of content key ``key``, or None."""
    kept = cache.get_json("standings", _table_slot(game, samples))
    if isinstance(kept, list) and len(kept) == 2 and kept[0] == key:
        return _standings_of(kept[1])
    return None


#: Games of one kind from which a build works their standings out ahead, in a forked
#: child (:func:`standings_ahead`): a table of fewer takes well under a second.
AHEAD_GAMES = 5_000


def _tables(todo: dict[str, tuple[str, list[Any]]], samples: int | None) -> dict[str, Any]:
    """Each game's table of ``todo`` (its games' key and heads), with that key."""
    from ...arena.tournament import standings as table_of

    return {
        game: (key, table_of(heads, samples=samples, spread=in_two))
        for game, (key, heads) in todo.items()
    }


def standings_ahead(
    game_entries: Sequence[Any], *, samples: int | None = None, cache: Any = None
) -> Ahead | None:
    """The standings tables :func:`standings` will need and the ``cache`` lacks, worked
    out in a forked child (:class:`~atlas.render.site.ahead.Ahead`) while the build draws
    and pages its games; None when there is nothing worth it (tables of fewer than
    :data:`AHEAD_GAMES` games each, all kept) or no ``fork``.  :func:`standings` takes a
    table from the child's result only for the same games (a game refused meanwhile
    changes the key: that table is worked out again)."""
    if not can_fork():
        return None
    todo: dict[str, tuple[str, list[Any]]] = {}
    for game, entries in _standing_groups(game_entries).items():
        key = _games_key(entries)
        if key is None or len(entries) < AHEAD_GAMES:
            continue
        if cache is not None and _kept_table(cache, game, samples, key) is not None:
            continue
        todo[game] = (key, [g.head for g in entries])
    if not todo:
        return None
    return Ahead.start(_tables, todo, samples)


def standings(
    game_entries: Sequence[Any],
    slugger: Any,
    *,
    samples: int | None = None,
    cache: Any = None,
    ahead: Mapping[str, tuple[str, Any]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Per game, the tournament's standings (:func:`atlas.arena.tournament.standings`) as
    the pages show them (:func:`_page_table`): rows with 95 % intervals and rank
    ranges, the head-to-head table, the names in order, whether the game compares seats
    pairwise (more than two seats), how the intervals were computed and the rows the
    games cannot separate.

    With a ``cache`` (:class:`~atlas.render.site.cache.Cache`) each game's last table is
    kept, with the content keys of its games (in any order: the standings do not depend
    on it), under atlas's code: a season's rebuild computes only the tables of games
    that changed (a table of 300 players takes a second or more, most of it in the
    bootstrap).  ``ahead``: tables worked out before, each with its games' key
    (:func:`standings_ahead`'s result), taken for those same games only."""
    from ...arena.tournament import standings as table_of

    out: dict[str, dict[str, Any]] = {}
    for game, entries in _standing_groups(game_entries).items():
        key = _games_key(entries)
        table = None
        if cache is not None and key is not None:
            table = _kept_table(cache, game, samples, key)
        if table is None:
            found = (ahead or {}).get(game)
            if key is not None and found is not None and found[0] == key:
                table = found[1]
            else:
                table = table_of([g.head for g in entries], samples=samples)
            if cache is not None and key is not None:
                cache.put_json(
                    "standings", _table_slot(game, samples), [key, _standings_json(table)]
                )
        out[game] = _page_table(table, game, slugger)
    return out


def _standings_json(table: Any) -> list[Any]:
    """A :class:`~atlas.arena.standings.Standings` as the cache keeps it: every field,
    each float as it is (:func:`_standings_of` reads it back, equal)."""
    return [
        [list(vars(r).values()) for r in table.rows],
        {a: {b: list(v) for b, v in row.items()} for a, row in table.head_to_head.items()},
        table.errors,
        table.model,
        list(vars(table.interval).values()),
        [list(v) for v in table.voided],
        table.void_under_load,
    ]


def _standings_of(data: Any) -> Any:
    """The standings :func:`_standings_json` kept, or None (no entry, or a damaged one)."""
    from dataclasses import fields

    from ...arena.standings import Interval, StandingRow, Standings

    if not isinstance(data, list) or len(data) != 7:
        return None
    try:
        rows, h2h, errors, model, interval, voided, load = data
        width = len(fields(StandingRow))
        if not (
            all(isinstance(r, list) and len(r) == width and isinstance(r[0], str) for r in rows)
            and isinstance(h2h, dict)
            and isinstance(errors, int)
            and isinstance(model, str)
            and isinstance(interval, list)
            and len(interval) == len(fields(Interval))
        ):
            return None
        return Standings(
            tuple(StandingRow(*r) for r in rows),
            {a: {b: (v[0], v[1], v[2]) for b, v in row.items()} for a, row in h2h.items()},
            errors,
            model,
            Interval(*interval),
            tuple((k, why) for k, why in voided),
            load,
        )
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return None


def event_standings(
    game_entries: Sequence[Any], slugger: Any, *, samples: int | None = None
) -> list[dict[str, Any]]:
    """Per organiser's tournament (``GameEntry.event``), in the order given: its name,
    page, game, games, and the standings with 95 % intervals and the likelihood of
    superiority over the next row (:func:`atlas.arena.standings.standings`)."""
    from ...arena.standings import standings as table_of

    by_event: dict[str, list[Any]] = {}
    for g in game_entries:
        if getattr(g, "event", None) is not None:
            by_event.setdefault(g.event, []).append(g)
    taken: set[str] = set()
    out = []
    for name, entries in by_event.items():
        games = sorted({g.head.game for g in entries})
        tables = []
        for game in games:
            mine = [g for g in entries if g.head.game == game]
            # games voided by the tournament's rule (lost on time under load) count for
            # no one; their players keep their rows
            table = table_of(
                [g.head for g in mine if not g.voided],
                [p for g in mine if g.voided for p in g.head.players],
                samples=samples,
            )
            page = _page_table(table, game, slugger, name)
            page.update(
                game=game,
                model=table.model,
                errors=table.errors,
                games=mine,
                voided=[g for g in mine if g.voided],
            )
            tables.append(page)
        slug = slugify(name, taken)
        out.append(
            {
                "name": name,
                "slug": slug,
                "page": f"tournaments/{slug}.html",
                "tables": tables,
                "n_games": len(entries),
            }
        )
    return out


#: The origin of the site's fairness games (``atlas build --fairness``): kept out of the
#: standings, badged in the games tables.
FAIRNESS_ORIGIN = "fairness"


def _badge_of(origin: str) -> int | str:
    """A games table row's badge: none for the built-in tournament's games, else where
    the game comes from (``imported``, ``fairness`` or ``tournament NAME``), as the
    pages' own game rows show it."""
    return 0 if origin == "tournament" else origin


def site_index(maps: Sequence[Any], games: Sequence[Any], bot_slug: Any) -> dict[str, Any]:
    """The data of the site index (:func:`index_files`): ``{"titles": {game: title},
    "maps": [[slug, name, game, games]], "bots": [[slug, name, game]], "reasons":
    [...], "games": [[ident, map index or -1, map name, [bot index per seat], winner
    seat or -1, reason index, turns, badge], ...]}`` (indices into the lists before;
    ``badge`` 0 for a game of the built-in tournament, else the word its row shows:
    ``"fairness"`` or ``"imported"``).  In the compact form the files hold, a game on
    a known map gives its ident without the map's slug and ``-`` (``"4795c8790f"`` for
    ``"tron-duel-4795c8790f"``; a whole ident starts with ``=``) and its map name as
    ``""``."""
    map_index = {m.slug: i for i, m in enumerate(maps)}
    bots: list[list[str]] = []
    bot_index: dict[tuple[str, str, str | None], int] = {}
    reasons: list[str] = []
    reason_index: dict[str, int] = {}
    rows = []
    for e in games:
        rec = e.head
        seats = []
        event = getattr(e, "event", None)
        for p in rec.players:
            key = (rec.game, p.name, event)
            if key not in bot_index:
                bot_index[key] = len(bots)
                bots.append([bot_slug(rec.game, p.name, event), p.name, rec.game])
            seats.append(bot_index[key])
        reason = rec.result.reason
        if reason not in reason_index:
            reason_index[reason] = len(reasons)
            reasons.append(reason)
        winner = rec.result.winner
        rows.append(
            [
                e.ident,
                map_index.get(e.map_slug or "", -1),
                rec.map.name,
                seats,
                -1 if winner is None else int(winner),
                reason_index[reason],
                len(rec.turns),
                _badge_of(e.origin),
            ]
        )
    return {
        "titles": game_titles(),
        "maps": [[m.slug, m.name, m.game, len(m.games)] for m in maps],
        "bots": bots,
        "reasons": reasons,
        "games": rows,
    }


#: Games per part of the site index: a page loads the parts it needs as scripts, and
#: adding games to a site rewrites only the parts that change (the last, usually).
INDEX_PART = 4000
#: The folder of the index's parts.
INDEX_PARTS = "index"


def _compact(row: list[Any], maps: list[list[Any]]) -> list[Any]:
    """A games row of :func:`site_index` in the compact form the index files hold."""
    ident, m, name = row[0], row[1], row[2]
    if m >= 0:
        slug, map_name = maps[m][0], maps[m][1]
        ident = ident[len(slug) + 1 :] if ident.startswith(slug + "-") else "=" + ident
        name = "" if name == map_name else name
    else:
        ident = "=" + ident
    return [ident, m, name, *row[3:]]


def _script_data(data: Any) -> str:
    """``JSON.parse("...")`` of ``data``: a browser reads JSON text much faster than the
    same data written as a script's literal, and the text stays safe in a page."""
    return "JSON.parse(" + json.dumps(script_json(data), ensure_ascii=True) + ")"


def _index_of(maps: Sequence[Any], games: Sequence[Any], bot_slug: Any) -> dict[str, str]:
    """The site index's files (:func:`index_files` of :func:`site_index`)."""
    return index_files(site_index(maps, games, bot_slug))


def index_ahead(maps: Sequence[Any], games: Sequence[Any], bot_slug: Any) -> Ahead | None:
    """The site index's files (:func:`_index_of`) made in a forked child
    (:class:`~atlas.render.site.ahead.Ahead`) while the build pages the games, for a
    site of :data:`AHEAD_GAMES` games or more (0.4 s of a season's rebuild); None for
    a smaller site or without ``fork``.  ``bot_slug`` has named every player's page
    already: the child only looks the names up."""
    if len(games) < AHEAD_GAMES or not can_fork():
        return None
    return Ahead.start(_index_of, maps, games, bot_slug)


def _index_sent(index: Any) -> TypeGuard[dict[str, str]]:
    """Whether a child sent the site index's files: paths and texts."""
    return isinstance(index, dict) and all(
        type(k) is str and type(v) is str for k, v in index.items()
    )


def index_files(data: dict[str, Any]) -> dict[str, str]:
    """The site index's files (path in the site -> text) for :func:`site_index`'s
    ``data``: ``site-index.js`` sets ``window.ATLAS_INDEX`` to everything but the games
    and the list of the parts that hold them (``"parts"``, ``"count"``), and each part
    ``index/games-K.js`` calls ``ATLAS_PART(K, rows)`` with up to :data:`INDEX_PART`
    games in the compact form (:func:`site_index`).  ``static/site.js`` loads the
    parts as scripts (no ``fetch()``: the site works from ``file://``)."""
    rows = [_compact(r, data["maps"]) for r in data["games"]]
    parts = [rows[i : i + INDEX_PART] for i in range(0, len(rows), INDEX_PART)]
    names = [f"{INDEX_PARTS}/games-{k}.js" for k in range(len(parts))]
    head = {k: v for k, v in data.items() if k != "games"}
    head.update(parts=names, count=len(rows))
    out = {INDEX_FILE: f"window.ATLAS_INDEX = {_script_data(head)};\n"}
    for k, (name, part) in enumerate(zip(names, parts)):
        out[name] = f"ATLAS_PART({k}, {_script_data(part)});\n"
    return out


def write_pages(
    out: Any,
    maps: Sequence[Any],
    games: Sequence[Any],
    problems: Sequence[str],
    code: str | None = None,
    cache: Any = None,
    ahead: Mapping[str, tuple[str, Any]] | Ahead | None = None,
) -> None:
    """Write every page, the site index and the static files through ``out`` (a
    :class:`~atlas.render.site.output.SiteWriter`); the standings are kept in
    ``cache``, when one is given, and taken from ``ahead`` when it has them
    (:func:`standings`): the tables, or the child working them out
    (:func:`standings_ahead`), asked for them once the games' pages are written."""
    env = environment()
    code = code or pages_version()
    static = templates_dir() / "static"
    for f in sorted(static.iterdir()):
        if f.is_file():
            out.copy(f"static/{f.name}", f)
    out.put("static/gif-font.js", font_script())  # the GIF button's glyphs (static/gif.js)
    bot_slugs: dict[tuple[str, str, str | None], str] = {}
    taken: set[str] = set()

    def bot_slug(game: str, name: str, event: str | None = None) -> str:
        """A player's page: one per game and name, and per organiser's tournament (its
        ``alice`` is not another tournament's, nor a built-in bot of that name)."""
        key = (game, name, event)
        if key not in bot_slugs:
            stem = f"{game}-{name}" if event is None else f"{event}-{game}-{name}"
            bot_slugs[key] = slugify(stem, taken)
        return bot_slugs[key]

    # every player's page named first, in one order (not the standings', which follow
    # the ratings): of two names of one slug, the same one gets the plain slug at every
    # build.  A season's heads share their players' tuples (across games, whose slugs
    # differ): each pairing is looked at once, and its slugs made once, for its pages
    games = list(games)

    def pairing(e: Any) -> tuple[int, str, str | None]:
        return id(e.head.players), e.head.game, e.event

    pairings = {pairing(e): e for e in games}
    # each player value once per game and tournament (a 300-player season has 65,000
    # pairings of 900 players' values)
    values: dict[tuple[str, str | None], dict[int, Any]] = defaultdict(dict)
    for (_, game, event), e in pairings.items():
        of = values[game, event]
        for p in e.head.players:
            of[id(p)] = p
    players = {
        (game, p.name, event) for (game, event), of in values.items() for p in of.values()
    }
    for game, name, event in sorted(
        players, key=lambda k: (k[2] is not None, k[2] or "", k[:2])
    ):
        bot_slug(game, name, event)
    # each pairing's slugs as one JSON text, for the pages' keys (a list of strings
    # encoded anew for each of a season's 100,000 keys took 0.2 s), joined from each
    # player's slug encoded once: the text json.dumps gives the list
    texts = {
        ge: {i: json.dumps(bot_slug(ge[0], p.name, ge[1])) for i, p in of.items()}
        for ge, of in values.items()
    }
    slugs_of: dict[tuple[int, str, str | None], str] = {}
    for k, e in pairings.items():
        encoded = texts[k[1], k[2]]
        slugs_of[k] = "[" + ", ".join([encoded[id(p)] for p in e.head.players]) + "]"
    map_by_slug = {m.slug: m for m in maps}
    known = game_names()
    titles = game_titles()
    by_game = {g: [m for m in maps if m.game == g] for g in known}
    other = [m for m in maps if m.game not in known]
    games_by_game = {g: [e for e in games if e.head.game == g] for g in known}

    def render(rel: str, template: str, **ctx: Any) -> str:
        depth = rel.count("/")
        return env.get_template(template).render(root="../" * depth, **ctx)

    def write(rel: str, template: str, **ctx: Any) -> None:
        out.put(rel, render(rel, template, **ctx))

    fairness_pages = [g for g in known if any(m.fairness for m in by_game[g])]
    common = {
        "result_text": _result_text,
        "bot_slug": bot_slug,
        "map_by_slug": map_by_slug,
        "index_file": INDEX_FILE,
        "fairness_pages": fairness_pages,
    }
    # a season's site index is made on the other core while the games are paged here
    index_job = index_ahead(maps, games, bot_slug)
    write(
        "index.html",
        "index.html",
        title="Maps",
        nav="maps",
        by_game=by_game,
        other=other,
        problems=problems,
        n_games=len(games),
        **common,
    )
    for m in maps:
        parity = m.summary.get("parity_bound") if m.ok else None
        write(
            m.page,
            "map.html",
            title=f"{m.name} ({titles.get(m.game, m.game)})",
            nav="maps",
            m=m,
            summary=flatten(m.summary),
            parity=parity,
            tree_svg=chamber_tree_svg(m.chambers) if m.chambers else "",
            why=_why_featured(m.featured) if m.featured else "",
            overlay_title=render_of(m.game).game_pictures_title if m.game in known else "",
            overlay_note=render_of(m.game).game_pictures_note if m.game in known else "",
            **common,
        )
    page_key = content_key_of("game-page", code)
    for e in games:
        # the drawing (its meta data: series, timing) follows from ``replay_key``
        key = page_key(
            e.replay_key,
            e.ident,
            e.origin,
            e.map_slug,
            slugs_of[pairing(e)],
            e.gif,
            e.record_file,
            e.record_kb,
            e.voided,
        )

        def page(e: Any = e) -> str:
            from ...arena.timing import late_moves

            rec = e.record  # the whole record: loaded for a page written anew only
            part = e.meta_part
            e.whole_meta()  # and the meta data only its page needs
            viewer = e.viewer_data() if e.drawn else None
            if viewer is not None:  # the moves' table: rows the viewer writes
                viewer = {**viewer, **moves_data(rec, e.meta.get("failures") or [])}
            html = render(
                e.page,
                "game.html",
                title=f"{' vs '.join(p.name for p in rec.players)} on {rec.map.name}",
                nav="games",
                e=e,
                rec=rec,
                viewer=viewer,
                viewer_json=page_json(viewer) if viewer is not None else "null",
                late=late_moves(rec),
                **common,
            )
            e.viewer = None  # a big site holds many; it stays in the cache
            e.forget_record()  # and its file
            if part:
                e.part_meta()  # and the meta data its page alone needs
            return html

        out.put(e.page, page, key=key)
    sent = index_job.result() if index_job is not None else None
    # no child, or one that failed: made here
    index = sent if _index_sent(sent) else _index_of(maps, games, bot_slug)
    for rel, text in index.items():
        out.put(rel, text)
    # the standings after the games' pages: a season's are worked out meanwhile (ahead)
    tables = ahead.result() if isinstance(ahead, Ahead) else ahead
    table = standings(games, bot_slug, cache=cache, ahead=tables)
    events = event_standings(games, bot_slug)
    write(
        "games.html",
        "games.html",
        title="Games",
        nav="games",
        games_by_game=games_by_game,
        n_games=len(games),
        **common,
    )
    plans = {}
    for game in table:  # the built-in standings' games (organisers' and fairness stand apart)
        n = sum(
            1 for e in games_by_game[game] if e.event is None and e.origin != FAIRNESS_ORIGIN
        )
        plans[game] = f"{n} game{'s' if n != 1 else ''}"
    write(
        "standings.html",
        "standings.html",
        title="Standings",
        nav="standings",
        table=table,
        plans=plans,
        events=events,
        **common,
    )

    def bot_pages(t: Any, games: Sequence[Any], where: str, **context: Any) -> None:
        """A page for each bot of the standings table ``t``, with its games of ``games``;
        ``context``: the table's ``game``, its ``event`` and the ``back`` link."""
        played: dict[str, list[Any]] = {}  # each player's games, in order (one pass)
        names_of: dict[int, tuple[str, ...]] = {}  # each players' tuple's names once
        for e in games:
            players = e.head.players
            names = names_of.get(id(players))
            if names is None:
                names = names_of[id(players)] = tuple(dict.fromkeys(p.name for p in players))
            for name in names:
                played.setdefault(name, []).append(e)
        game, event = context["game"], context["event"]
        slug_of = {b: bot_slug(game, b, event) for b in t["names"]}
        # each game's line of the lists, encoded once (a game is on two players' pages)
        line_of: dict[int, str] = {}

        def line(e: Any) -> str:
            text = line_of.get(id(e))
            if text is None:
                shown = [
                    e.page,
                    e.ident,
                    [p.name for p in e.head.players],
                    _result_text(e.head),
                ]
                text = line_of[id(e)] = _compact_json(shown)
            return text

        for row in t["rows"]:
            mine = played.get(row["name"], [])
            rel, title = f"bots/{row['slug']}.html", f"{row['name']} ({where})"
            # what the page shows (its games' list is the site index's, but for the
            # first 100 its fallback lists): a season's rebuild writes the pages of
            # the players whose rows, opponents or games changed, not every player's
            faced = t["h2h"].get(row["name"], {})
            met = [[b, slug_of[b], faced[b]] for b in opponents_met(t, row["name"])]
            key = content_key(
                "bot-page",
                code,
                rel,
                title,
                row,
                # the long parts as one text each: json's encoder writes them at once
                _compact_json(met),
                len(t["names"]),
                len(mine),
                "[" + ",".join([line(e) for e in mine[:100]]) + "]",
                [game, event, list(context["back"])],
                fairness_pages,
            )

            def page(
                rel: str = rel,
                title: str = title,
                row: Any = row,
                mine: Any = mine,
                met: Any = met,
            ) -> str:
                return render(
                    rel,
                    "bot.html",
                    title=title,
                    nav="standings",
                    row=row,
                    t=t,
                    met=met,
                    games=mine,
                    **context,
                    **common,
                )

            out.put(rel, page, key=key)

    for game, t in table.items():
        builtin = [e for e in games_by_game[game] if e.event is None]
        back = (f"standings.html#{game}", f"{titles[game]} standings")
        bot_pages(t, builtin, titles[game], game=game, event=None, back=back)
    for ev in events:
        write(
            ev["page"],
            "tournament.html",
            title=f"{ev['name']}: standings",
            nav="standings",
            ev=ev,
            **common,
        )
        for t in ev["tables"]:
            where = f"{ev['name']}, {titles[t['game']]}"
            back = (ev["page"], f"{ev['name']} standings")
            bot_pages(t, t["games"], where, game=t["game"], event=ev["name"], back=back)
    for game in fairness_pages:
        judged = [m for m in by_game[game] if m.fairness]
        labels: list[str] = []
        for m in judged:
            for f in m.fairness["facts"]:
                if f["label"] not in labels:
                    labels.append(f["label"])
        write(
            f"fairness/{game}.html",
            "fairness.html",
            title=f"Fairness: {titles[game]} maps",
            nav="fairness",
            game=game,
            maps=judged,
            fact_labels=labels,
            **common,
        )
    validating = validating_games()
    named = [titles[g] for g in validating]
    write(
        "validation.html",
        "validation.html",
        title=f"{' and '.join(named)} map validation" if named else "Map validation",
        nav="validation",
        maps=[m for m in maps if m.validation is not None],
        validating=named,
        rules={g: dict(validator_of(g).rules) for g in validating},
        rules_docs=sorted({validator_of(g).docs for g in validating} - {""}),
        **common,
    )
