"""``atlas check``: try a submitted bot before a tournament.

The bot plays one short game against the random bot, in the first seat, through the
same runner as real games; what it was sent and what it answered on the first turns is
kept (the protocol exchange), with what it wrote to stderr, and the game ends in a
verdict: ``ok``, or how the bot failed (``crashed``, ``timeout``, ``invalid``,
``illegal``) and at which turn.  It is what course staff run on each submission.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..maps import GameMap
from ..sim.base import Status
from ..sim.records import Record
from ..sim.registry import get_info
from .players import parse_player
from .process import ExternalBot
from .runner import make_player, play_game

__all__ = ["CheckReport", "check_bot", "TRANSCRIPT_TURNS"]

#: Turns of the protocol exchange a report keeps.
TRANSCRIPT_TURNS = 3
#: Bytes of one message shown in a transcript.
SHOWN_BYTES = 2000


@dataclass
class CheckReport:
    """The verdict on a bot, the game it played and what it said."""

    record: Record
    transcript: list[tuple[str, str]] = field(default_factory=list)
    stderr: str = ""

    @property
    def status(self) -> Status:
        return Status(self.record.statuses[0].status)

    @property
    def ok(self) -> bool:
        return self.status == Status.OK

    @property
    def verdict(self) -> str:
        """``ok``, or ``timeout at turn 3: no direction digit in time``."""
        s = self.record.statuses[0]
        if s.status == Status.OK:
            return "ok"
        return f"{s.status} at turn {s.turn}: {s.detail}"

    def to_json(self) -> dict[str, Any]:
        r = self.record.result
        return {
            "verdict": self.verdict,
            "status": str(self.status),
            "turn": self.record.statuses[0].turn,
            "turns": len(self.record.turns),
            "result": {"winner": r.winner, "reason": r.reason, "detail": r.detail},
            "transcript": [{"direction": d, "text": t} for d, t in self.transcript],
            "stderr": self.stderr,
        }


class _Tap:
    """A bot process seen through: what is written to it and what it answers."""

    def __init__(self, proc: Any, log: list[tuple[str, str]], turns: int) -> None:
        self._proc = proc
        self._log = log
        self._turns = turns
        self._answers = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._proc, name)

    def _keep(self, direction: str, data: bytes) -> None:
        if self._answers < self._turns:
            text = data[:SHOWN_BYTES].decode("utf-8", "replace")
            if len(data) > SHOWN_BYTES:
                text += f"[... {len(data) - SHOWN_BYTES} more bytes]"
            self._log.append((direction, text))

    def write(self, data: bytes, deadline: float) -> None:
        self._keep("sent", data)
        self._proc.write(data, deadline)

    def read_answer(self, parse: Callable[[bytearray], Any], deadline: float, what: str) -> Any:
        got = bytearray()

        def seen(buf: bytearray) -> Any:
            value, used = parse(buf)
            got.extend(buf[:used])
            return value, used

        try:
            return self._proc.read_answer(seen, deadline, what)
        finally:
            self._keep("received", bytes(got))  # the answer's bytes, as one message
            self._answers += 1


def check_bot(
    game: str,
    spec: str,
    game_map: GameMap,
    *,
    time_limit: float = 1.0,
    seed: int = 0,
    turns: int = TRANSCRIPT_TURNS,
    containment: Any = None,
) -> CheckReport:
    """Play ``spec`` (a player spec, see :mod:`atlas.arena.players`) once against the
    random bot on ``game_map``, and report.

    The game is the game's quick one (:attr:`GameInfo.quick_params
    <atlas.sim.base.GameInfo>`, e.g. a short Outpost game); the bot sits in the first
    seat and its opponents are the random bot; ``containment`` says how a program runs
    (:class:`~atlas.arena.sandbox.Containment`).
    """
    info = get_info(game)
    log: list[tuple[str, str]] = []
    bot = make_player(game, parse_player(spec), seed, containment=containment)
    if isinstance(bot, ExternalBot):  # a program: tap what it is told and answers
        program = bot
        start = program.start

        def tapped_start(*args: Any, **kwargs: Any) -> None:
            start(*args, **kwargs)
            if program.process is not None:
                program.process = _Tap(program.process, log, turns)  # type: ignore[assignment]

        program.start = tapped_start  # type: ignore[method-assign]
    players = [bot] + ["random"] * (info.num_players - 1)
    record = play_game(
        game,
        game_map,
        players,
        params=dict(info.quick_params),
        seed=seed,
        time_limit=time_limit,
    )
    return CheckReport(record, log, record.stderr[0] if record.stderr else "")
