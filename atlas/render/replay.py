"""A replay record as frames: its states drawn by its game's painter, turn by turn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .frames import Frame, sample_turns
from .registry import render_of

__all__ = ["record_frames"]


def record_frames(
    record: Any,
    states: Sequence[Any] | None = None,
    max_frames: int | None = None,
    overlay: str | None = None,
) -> Iterator[Frame]:
    """Frames of a replay record, one per (sampled) state, captioned with the turn.

    The game's painter (its painter module, found by :mod:`atlas.render.registry`) draws them;
    stateful painters see every state even when only some are drawn.  ``overlay`` (one
    of the painter's :meth:`~atlas.render.painter.GameRender.gif_overlays`) is drawn on
    every frame drawn.
    """
    if states is None:
        from ..sim.records import replay_states

        states = replay_states(record)
    game_map = record.game_map()
    render = render_of(record.game)
    params = dict(record.params)
    painter = render.painter(game_map, params)
    picks = set(sample_turns(len(states), max_frames))
    last = len(states) - 1
    for i, state in enumerate(states):
        if i not in picks:
            if painter.stateful:
                painter(state)
            continue
        frame = painter(state)
        if overlay is not None:
            frame = render.overlay_frame(frame, state, overlay, game_map, params)
        frame.turn = i
        frame.caption = f"turn {i}/{last}"
        yield frame
