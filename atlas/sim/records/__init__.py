"""Replay records: one versioned JSON document per game, self-contained and replayable.

A :class:`Record` holds everything needed to show a game and to check it: the game, the
map (its text embedded, with its content hash), the parameters, the players, the seed,
every turn's moves and answer times, the result and why, a status per seat, and a
digest of the final position (``Game.summary``).  Replaying the moves from the map and
the parameters must reach that digest, the recorded result and the recorded statuses
(:func:`verify_record`): a record cannot claim what its moves do not give.

The format (``"format": "atlas-replay", "version": 1``)::

    {
      "format": "atlas-replay", "version": 1,
      "game": "tron",
      "map": {"name": "ring", "hash": "<sha256 of the canonical map text>",
              "text": "<the map in its file format>"},
      "params": {...},
      "players": [{"name": "apex", "kind": "builtin", "effort": 100},
                  {"name": "mybot", "kind": "external", "command": "./mybot"}],
      "seed": 7,
      "turns": [{"moves": {"0": 2, "1": null}, "times": {"0": 0.0004, "1": 1.0},
                 "info": {"0": {"depth": 7, "score": 12.5, "nodes": 48211,
                                "pv": [2, 2, 3]}},
                 "cpu": {"0": 0.0003, "1": 0.012},
                 "late": {"1": {"limit": 0.5, "load": 3.41, "cores": 2}}}, ...],
      "result": {"winner": 0, "reason": "timeout", "scores": [1.0, 0.0], "detail": "..."},
      "statuses": [{"status": "ok", "turn": null, "detail": ""},
                   {"status": "timeout", "turn": 3, "detail": "no answer in 1.0 s"}],
      "stderr": ["", "Traceback ..."],
      "final": {...},
      "created": "2026-11-21T23:00:00Z"
    }

Seats are 0-based everywhere; JSON object keys are the seat numbers as strings. A move of
``null`` is a seat that gave no valid answer (crash, timeout, garbage or an illegal move):
the game's rules say what that costs, and the seat's status says why. A turn's ``info``
(optional, left out when empty) holds what a searching bot said about its move: numbers such
as ``depth``, ``score`` and ``nodes`` (:data:`INFO_KEYS`), and optionally its principal
variation ``pv`` (the JSON moves it expected, its own first, at most 12) with ``pv_cut``,
the moves of it that were dropped (:data:`PV_KEYS`, ``docs/formats.md``); records without
them load as before. A turn's ``cpu`` (optional) holds each answer's CPU seconds beside its
wall-clock ``times``: the bot's thread for a built-in bot, the program and every process it
started for an external one. A turn's ``late`` (optional) holds, for each seat that answered
after its deadline, the seconds it was given (``limit``) and the machine's 1-minute load
average (``load``) and number of cores (``cores``) at that moment, so a reader can tell a
slow bot from a loaded machine (:mod:`atlas.arena.timing`). Both were added to version 1
without changing it: a reader that does not know them skips them (atlas's own readers before
them did), and records without them load as before (their absence means "not measured",
never "no time"). ``stderr`` is private (a bot's diagnostics may hold anything):
:meth:`Record.public_json` drops it and a record without it loads with empty texts.
``created`` is informative only and is kept out of equality, so the same seed gives an equal
record.

A player's ``effort`` (optional) says that a built-in bot played at that fixed effort per
move (:attr:`atlas.bots.base.BotBase.effort`) instead of by the clock; records without it
(older ones, and every seat on the clock) load as before.  Such a seat's moves depend on
the map, the players, the efforts, the seed and the rules alone; its ``times``, ``cpu``
and ``late`` are still the machine's, and what a site publishes of the game leaves them
out (:func:`machine_free`).

Records are game-agnostic: every game-specific step goes through the game's ``GAME``
object (:mod:`atlas.sim.base`).

Reading a record (:func:`load_record`) turns any bytes into a :class:`Record` or a
:class:`~atlas.errors.RecordError` naming the file and the problem, within the limits of
:mod:`atlas.limits`: at most :data:`~atlas.limits.MAX_RECORD_BYTES` after decompression,
JSON nested at most :data:`~atlas.limits.MAX_JSON_DEPTH` deep, integers of at most
:data:`~atlas.limits.MAX_INT_DIGITS` digits.  Loading checks the form; only
:func:`verify_record` checks the content, by replaying the game.

The package is three modules, and every name is importable from here:
:mod:`~atlas.sim.records.model` (the values, :class:`RecordBuilder`),
:mod:`~atlas.sim.records.io` (JSON and files) and :mod:`~atlas.sim.records.verify`
(replaying a record and checking its claims).
"""

from __future__ import annotations

from . import io, model, verify
from .io import *  # noqa: F403  (each module's public names)
from .model import *  # noqa: F403
from .verify import *  # noqa: F403

__all__ = [*model.__all__, *io.__all__, *verify.__all__]
