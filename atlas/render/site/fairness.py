"""Each map's fairness section, the index's verdict badges and the per-game comparison.

:func:`fairness_sections` gives every map of a build its report
(:func:`atlas.arena.fairness.map_fairness`): the structure (symmetries, seat classes,
the game's own facts), cached by the map's text, and the evidence of the build's games
on the map that form complete seat-swapped groups: the built-in tournament's (its
pairings that met in both seats with one seed) and the fairness games of ``atlas build
--fairness N``.  The default build plays no fairness game of its own, so a map's verdict
rests on what the tournament happened to play in both seats, and its section says how
many games that is.

What the pages draw is here too: the symmetries over the map's thumbnail
(:func:`symmetry_svg`) and each seat's score with its interval as a bar
(:func:`interval_svg`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...maps import format_map
from ...sim.registry import game_names
from .. import palette as P
from .cache import content_key
from .entries import BuildContext, MapEntry

__all__ = [
    "fairness_sections",
    "section_data",
    "symmetry_svg",
    "interval_svg",
    "verdict_class",
]


def _structure_version() -> str:
    """What decides a cached structure besides the analysis code: the fairness module's
    own text (its notes)."""
    from ...arena import fairness

    return hashlib.sha256(Path(fairness.__file__).read_bytes()).hexdigest()


def fairness_sections(
    maps: Sequence[MapEntry], plan: Any, entries: Mapping[int, Any], ctx: BuildContext
) -> list[str]:
    """Give each readable map of a registered game its fairness section
    (``MapEntry.fairness``, :func:`section_data`): its structure (cached by the map's
    text) and the complete seat-swapped groups among the plan's played games
    (``entries``: the published game of each spec index).  Returns the problems."""
    from ...arena.fairness import Structure, map_fairness, structure

    by_map: dict[tuple[str, str], list[tuple[Any, Any]]] = {}
    for i, entry in entries.items():
        if entry.refused:
            continue
        spec = plan.specs[i]
        by_map.setdefault((spec.game, spec.map_text), []).append((spec, entry))
    version = _structure_version()
    problems: list[str] = []
    known = set(game_names())
    for m in maps:
        if not m.ok or m.game not in known or m.game_map is None:
            continue
        text = format_map(m.game_map)
        key = content_key("fairness-structure", m.game, text, ctx.version["analysis"], version)
        data = ctx.cache.get_json("fairness", key)
        try:
            found = Structure.from_json(data) if data is not None else None
        except (KeyError, TypeError, ValueError):
            found = None
        try:
            if found is None:
                found = structure(m.game_map)
                ctx.cache.put_json("fairness", key, found.to_json())
            played = by_map.get((m.game, text), [])
            report = map_fairness(
                m.game_map,
                [(spec, e.record) for spec, e in played],
                ids={spec.key: e.ident for spec, e in played},
                known=found,
            )
        except Exception as exc:  # a map its game cannot judge: its page says so
            problems.append(f"map {m.path}: no fairness report: {exc}")
            continue
        by_ident = {e.ident: e for _, e in played}
        m.fairness = section_data(report, by_ident, m.game_map.shape, m.game_map.starts)
    return problems


def verdict_class(verdict: str, games: int) -> str:
    """The CSS class of a verdict badge: ``fair-balanced``, ``fair-favours``,
    ``fair-undecided`` or ``fair-none`` (no games)."""
    if games == 0:
        return "fair-none"
    return "fair-" + verdict.split()[0]


def section_data(
    report: Any,
    games: Mapping[str, Any],
    shape: tuple[int, int],
    starts: Sequence[tuple[int, int]],
) -> dict[str, Any]:
    """What a map page's fairness section, the index badge and the comparison page
    show: the report's JSON, the pictures (:func:`symmetry_svg`, :func:`interval_svg`),
    the pairings in words and each group's games (``games``: the build's game entries
    by id)."""
    from ...arena.fairness import pairing_text

    data = report.to_json()
    ev = report.evidence
    data["badge"] = verdict_class(ev.verdict, ev.games)
    data["badge_text"] = (
        "no fairness games" if ev.games == 0 else f"{ev.verdict} · {ev.games} games"
    )
    data["symmetry_svg"] = symmetry_svg(shape, starts, report.structure.symmetries)
    data["pairings_text"] = [pairing_text(p) for p in ev.pairings]
    data["bars"] = (
        [interval_svg(s.seat, s.score, s.low, s.high, ev.even) for s in ev.seats]
        if ev.games
        else []
    )
    data["groups_games"] = [[games[i] for i in group if i in games] for group in ev.games_of]
    return data


_AXIS = "#333333"


def symmetry_svg(
    shape: tuple[int, int], starts: Sequence[tuple[int, int]], symmetries: Sequence[str]
) -> str:
    """An SVG the size of the board (one unit a cell) to lay over the map's picture:
    each mirror symmetry as a dashed axis, a rotation as an arrow about the centre
    labelled with its angle, each start ringed in its seat's colour."""
    h, w = int(shape[0]), int(shape[1])
    unit = max(h, w) / 40.0
    stroke = (
        f'stroke="{_AXIS}" stroke-width="{unit:.3f}" '
        f'stroke-dasharray="{2 * unit:.3f} {unit:.3f}"'
    )
    parts = [
        f'<svg class="sym-overlay" viewBox="0 0 {w} {h}" preserveAspectRatio="none" '
        'aria-hidden="true">'
    ]
    lines = {
        "flip-lr": (w / 2, 0, w / 2, h),
        "flip-ud": (0, h / 2, w, h / 2),
        "transpose": (0, 0, w, h),
        "antitranspose": (w, 0, 0, h),
    }
    for name in symmetries:
        if name in lines:
            x1, y1, x2, y2 = lines[name]
            parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" {stroke}/>')
    turns = [name for name in ("rot90", "rot180") if name in symmetries]
    if turns:
        r = min(h, w) / 6
        cx, cy = w / 2, h / 2
        parts.append(
            f'<path d="M {cx + r:g} {cy:g} A {r:g} {r:g} 0 1 1 {cx:g} {cy - r:g}" '
            f'fill="none" stroke="{_AXIS}" stroke-width="{unit:.3f}"/>'
            f'<path d="M {cx + 2.5 * unit:g} {cy - r:g} l {-2.5 * unit:g} {-2 * unit:g} '
            f'l 0 {4 * unit:g} z" fill="{_AXIS}"/>'
            f'<text x="{cx:g}" y="{cy + r / 3:g}" font-size="{r:.3f}" text-anchor="middle" '
            f'fill="{_AXIS}" font-family="sans-serif">'
            + ("90°" if "rot90" in turns else "180°")
            + "</text>"
        )
    for seat, (r0, c0) in enumerate(starts[:4]):
        parts.append(
            f'<circle cx="{c0 + 0.5:g}" cy="{r0 + 0.5:g}" r="{max(1.2, 2.5 * unit):.3f}" '
            f'fill="none" stroke="{P.PLAYER_HEX[seat]}" stroke-width="{unit:.3f}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def interval_svg(seat: int, score: float | None, low: float, high: float, even: float) -> str:
    """Seat ``seat``'s score (a dot) with its 95 % interval (a band) on a 0-1 scale,
    the even share dashed and the ``balanced`` margin shaded."""
    from ...arena.fairness import MARGIN

    width, height = 240, 18

    def x(v: float) -> float:
        return 4 + (width - 8) * min(1.0, max(0.0, v))

    colour = P.PLAYER_HEX[(seat - 1) % len(P.PLAYER_HEX)]
    parts = [
        f'<svg class="bar" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="seat {seat}: '
        + (
            f"{score:.2f}, 95 % interval {low:.2f} to {high:.2f}"
            if score is not None
            else "no games"
        )
        + '">',
        f'<rect x="{x(even - MARGIN):.1f}" y="2" width="{x(even + MARGIN) - x(even - MARGIN):.1f}" '
        f'height="{height - 4}" fill="#d3ecd0" stroke="#9ccc94" stroke-width="0.6"/>',
        f'<line x1="4" y1="{height / 2}" x2="{width - 4}" y2="{height / 2}" stroke="#bbbbbb"/>',
        f'<rect x="{x(low):.1f}" y="5" width="{max(1.0, x(high) - x(low)):.1f}" '
        f'height="{height - 10}" fill="{colour}" fill-opacity="0.45"/>',
        f'<line x1="{x(even):.1f}" y1="1" x2="{x(even):.1f}" y2="{height - 1}" stroke="#555555" '
        'stroke-dasharray="2 2"/>',
    ]
    if score is not None:
        parts.append(
            f'<circle cx="{x(score):.1f}" cy="{height / 2}" r="4" fill="{colour}" '
            'stroke="#222222" stroke-width="1"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
