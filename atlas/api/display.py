"""What atlas's values show in Jupyter: pictures, the replay viewer, tables.

Every display is self-contained (pictures as ``data:`` URLs, the viewer's script, style
and data inline), so a notebook exported to HTML shows them without a server or a
network.  A record's viewer is a whole page inside an ``<iframe srcdoc>``: its element
ids cannot meet another viewer's, and the page is the same one :meth:`Record.html
<atlas.api.games.Record.html>` writes.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..maps import GameMap

__all__ = [
    "map_png",
    "png_tag",
    "analysis_html",
    "report_html",
    "replay_page",
    "replay_frame",
    "standings_html",
    "results_html",
    "fairness_html",
    "REPLAY_HEIGHT",
]

#: Pixels of the frame a replay is shown in (the board, its controls and the chart).
REPLAY_HEIGHT = 940


def map_png(game_map: GameMap) -> bytes:
    """The picture of a map as PNG bytes, as its map page shows it bare."""
    from ..render.images import png_bytes
    from ..render.registry import render_of

    return png_bytes(render_of(game_map.game).picture(game_map, "plain"))


def png_tag(data: bytes, alt: str) -> str:
    """An ``<img>`` with the PNG inline."""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<img src="data:image/png;base64,{encoded}" alt="{html.escape(alt)}">'


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], cls: str = "") -> str:
    out = [f'<table class="atlas {cls}">', "<thead><tr>"]
    out += [f"<th>{html.escape(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def analysis_html(analysis: Any) -> str:
    """The figures of an analysis as ``atlas analyze`` prints them, and its pictures
    with their captions."""
    from ..render.images import png_bytes
    from ..render.registry import render_of

    captions = render_of(analysis.game).pictures
    parts = [
        f"<pre>{html.escape(analysis.text())}</pre>",
        '<div style="display:flex;gap:1em;flex-wrap:wrap">',
    ]
    for kind, image in analysis.pictures().items():
        caption = captions.get(kind, kind)
        parts.append(
            f"<figure style='margin:0'>{png_tag(png_bytes(image), caption or kind)}"
            f"<figcaption style='max-width:32em'>{html.escape(caption or kind)}</figcaption>"
            "</figure>"
        )
    parts.append("</div>")
    return "".join(parts)


def report_html(report: Any) -> str:
    """A validation report: its verdict, every problem with its rule and line, and the
    picture of the problems."""
    state = "unreadable" if report.unreadable else "valid" if report.valid else "invalid"
    parts = [
        f"<p><strong>{html.escape(report.file)}: {state}</strong> "
        f"({len(report.errors)} errors, {len(report.warnings)} warnings)</p>"
    ]
    problems = [("error", p) for p in report.errors] + [("warning", p) for p in report.warnings]
    if problems:
        parts.append(
            _table(
                ("", "rule", "line", "message"),
                (
                    (kind, p.rule, "" if p.line is None else p.line, p.message)
                    for kind, p in problems
                ),
            )
        )
    picture = report.picture()
    if picture is not None:
        parts.append(png_tag(picture, "the problems on the map"))
    return "".join(parts)


def replay_page(record: Any) -> str:
    """The replay viewer of ``record`` as a whole HTML page, everything inline."""
    from ..render.gif import font_script
    from ..render.site.pages import environment, moves_data, templates_dir
    from ..render.site.replays import render_replay
    from ..render.viewer import page_json

    _, viewer, meta = render_replay(record, gif=False)  # the page's button makes it
    viewer = {**viewer, **moves_data(record, [])}  # the seats panel's moves
    static = templates_dir() / "static"
    script = "\n".join(
        [
            *(
                (static / name).read_text(encoding="utf-8")
                for name in ("inflate.js", "overlays.js", "pv.js", "frames.js", "viewer.js")
            ),
            font_script(),  # the GIF button's glyphs, then its maker
            (static / "gif.js").read_text(encoding="utf-8"),
        ]
    ).replace("</", "<\\/")
    css = (static / "style.css").read_text(encoding="utf-8").replace("</", "<\\/")
    names = " vs ".join(p.name for p in record.players)
    template = environment().get_template("notebook_replay.html")
    return template.render(
        title=f"{names} on {record.map.name}",
        rec=record,
        e={"has_info": meta["has_info"], "has_cpu": meta["has_cpu"], "meta": meta},
        result=record.result_text(),
        viewer_json=page_json(viewer),
        css=css,
        script=script,
    )


def replay_frame(record: Any) -> str:
    """:func:`replay_page` in an ``<iframe srcdoc>``, for a notebook's output."""
    page = html.escape(replay_page(record), quote=True)
    return (
        f'<iframe class="atlas-replay" srcdoc="{page}" style="width:100%;'
        f'height:{REPLAY_HEIGHT}px;border:1px solid #ddd" '
        'title="atlas replay viewer"></iframe>'
    )


def standings_html(table: Any) -> str:
    """The standings as a table: ratings with their 95 % intervals and rank ranges,
    scores with theirs, the neighbours the games cannot separate, and head to head."""
    rows = []
    for k, r in enumerate(table.rows, 1):
        los = "" if r.los_next is None else f"{100 * r.los_next:.0f}%"
        rows.append(
            (
                k,
                r.bot,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                f"{r.points:g}",
                f"{r.rating:.0f}",
                f"[{r.low:.0f}, {r.high:.0f}]",
                str(r.rank_low) if r.rank_low == r.rank_high else f"{r.rank_low}-{r.rank_high}",
                los,
                f"{r.score:.3f} [{r.score_low:.2f}, {r.score_high:.2f}]",
            )
        )
    head = (
        "#",
        "bot",
        "games",
        "W",
        "D",
        "L",
        "points",
        "rating",
        "95% interval",
        "ranks",
        "LOS",
        "score [95%]",
    )
    parts = [_table(head, rows, "standings")]
    names = [r.bot for r in table.rows]
    if len(names) > 1:
        cells = [
            [a]
            + [
                "-"
                if a == b
                else "%d-%d-%d" % tuple(table.head_to_head.get(a, {}).get(b, (0, 0, 0)))
                for b in names
            ]
            for a in names
        ]
        parts.append("<p>Head to head (wins-draws-losses of each row against each column):</p>")
        parts.append(_table(["", *names], cells, "head-to-head"))
    parts.append(
        f"<p><small>Ratings: {html.escape(table.model)}, Elo scale; intervals: "
        f"{html.escape(table.interval.text)}; ranks: the ranks of the middle 95 % of the "
        "refits; LOS: likelihood that the row is stronger than the next; scores: "
        f"{html.escape(table.interval.score_text)}.</small></p>"
    )
    for text in table.separation_text():
        parts.append(f"<p>{html.escape(text[0].upper() + text[1:])}.</p>")
    return "".join(parts)


def results_html(results: Any) -> str:
    """A tournament's standings, then its games, one row each."""
    data = results.to_json()
    games = [
        (
            g["index"],
            g["map"],
            " vs ".join(g["players"]),
            "draw" if g["winner"] is None else f"seat {g['winner'] + 1}",
            g["reason"],
            g["turns"],
        )
        for g in data.get("games", [])
    ]
    return (
        f"<p><strong>{html.escape(str(data.get('game')))}</strong>: {len(games)} games</p>"
        + standings_html(results.standings)
        + "<details><summary>Games</summary>"
        + _table(("#", "map", "players", "winner", "reason", "turns"), games, "games")
        + "</details>"
    )


def _seat_cell(seat: Any) -> str:
    """``0.750 [0.600, 0.900]``, or a dash with no games."""
    if seat is None:
        return ""
    if seat.score is None:
        return "-"
    return f"{seat.score:.3f} [{seat.low:.3f}, {seat.high:.3f}]"


def fairness_html(reports: Sequence[Any], problems: Sequence[str] = ()) -> str:
    """Fairness reports as one table (a row per map: its symmetries, each seat's score
    with its 95 % interval, the draws, the verdict and the games behind it), the
    problems, and the method and the rule in small print."""
    seats = max((len(r.evidence.seats) for r in reports), default=0)
    head = ("map", "game", "symmetries", *(f"seat {k + 1}" for k in range(seats)))
    head += ("draws", "verdict", "games")
    rows = []
    for r in reports:
        e = r.evidence
        cells = [_seat_cell(e.seats[k] if k < len(e.seats) else None) for k in range(seats)]
        rows.append(
            (
                r.map,
                r.game,
                ", ".join(r.structure.symmetries) or "none",
                *cells,
                e.draws if e.games else "",
                r.verdict,
                e.games,
            )
        )
    parts = [_table(head, rows, "fairness")] if reports else []
    if problems:
        parts.append(
            "<p>Not reported:</p><ul>"
            + "".join(f"<li>{html.escape(p)}</li>" for p in problems)
            + "</ul>"
        )
    if reports:
        parts.append(
            "<p><small>Seat scores in [0, 1] with their 95 % intervals. Method: "
            f"{html.escape(reports[0].method)}. Verdict: {html.escape(reports[0].rule)}."
            "</small></p>"
        )
    return "".join(parts)
