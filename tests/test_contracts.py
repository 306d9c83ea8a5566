"""The contracts as code: what a game, a render module and a bot must provide fails when
the class is made, not when a caller first needs it; the hooks are documented no-ops
the runner calls plainly; plain objects with ``move`` still play (wrapped); reasons and
statuses are enums end to end while records keep their words."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from atlas.arena.runner import bot_info, make_player, play_game
from atlas.bots.base import BotBase, as_bot
from atlas.bots.registry import make_bot
from atlas.games.tron.bots.common import TronBot
from atlas.maps import GameMap, parse_map
from atlas.maps.validation import (
    NoValidationError,
    Validator,
    validating_games,
    validator_of,
)
from atlas.render.painter import GameRender, Painter
from atlas.render.registry import render_of
from atlas.sim import get_game
from atlas.sim.base import GameBase, GameInfo, Outcome, Reason, Status
from atlas.sim.records import SeatStatus, load_record, record_from_json, save_record

ROOT = Path(__file__).resolve().parents[1]
BOX = parse_map("7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n", game="tron", name="box")


# --------------------------------------------------------------------------- games


def _rules(**missing: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "info": GameInfo("demo", "Demo", 2, False),
        "initial_state": lambda self, game_map, params=None: None,
        "to_move": lambda self, state: (),
        "legal_moves": lambda self, state, player: [],
        "apply": lambda self, state, moves: state,
        "outcome": lambda self, state: None,
        "move_to_json": lambda self, move: move,
        "move_from_json": lambda self, data: data,
        "summary": lambda self, state: {},
    }
    return {k: v for k, v in body.items() if k not in missing}


def test_a_game_without_a_rule_cannot_be_made():
    complete = type("Demo", (GameBase,), _rules())
    assert complete().legal_moves(None, 0) == []
    for rule in ("legal_moves", "move_to_json", "apply", "summary"):
        partial = type("Demo", (GameBase,), _rules(**{rule: True}))
        with pytest.raises(TypeError, match=rule):
            partial()


def test_is_legal_compares_moves_as_json():
    isolation = get_game("isolation")
    gm = parse_map("isolation 3 3 queen\n1..\n.#.\n..2\n", game="isolation")
    state = isolation.initial_state(gm)
    first = isolation.legal_moves(state, 0)[0]
    assert isolation.is_legal(state, 0, first)
    assert isolation.is_legal(state, 0, list(first))  # a list is the same cell
    assert not isolation.is_legal(state, 1, first)  # not seat 1's turn
    assert not isolation.is_legal(state, 0, (1, 1))  # blocked
    assert not isolation.is_legal(state, 0, "nonsense")
    assert not isolation.is_legal(state, 0, None)


def test_outpost_is_legal_checks_combined_steps():
    outpost = get_game("outpost")
    gm = parse_map("10 10\n11 10\n30 5\n", game="outpost", name="lake")
    state = outpost.initial_state(gm, {"T": 5})
    assert outpost.is_legal(state, 0, ())  # every outpost stays
    assert outpost.is_legal(state, 0, ((0, (0, 1)),))
    assert not outpost.is_legal(state, 0, ((0, (0, 1)), (0, (1, 0))))  # one outpost twice
    assert not outpost.is_legal(state, 0, ((0, (5, 5)),))  # more than one step
    assert not outpost.is_legal(state, 0, ((3, (0, 1)),))  # no outpost 3


# --------------------------------------------------------------------------- renders


def test_a_render_without_a_painter_cannot_be_made():
    class NoPainter(GameRender):
        pass

    with pytest.raises(TypeError, match="painter"):
        NoPainter()

    class NoCall(Painter):
        pass

    with pytest.raises(TypeError, match="__call__"):
        NoCall()


def test_a_validator_must_validate_and_only_validating_games_have_one():
    class HalfValidator(Validator):
        def validate_file(self, path):
            raise AssertionError

    with pytest.raises(TypeError, match="validate_text"):
        HalfValidator()
    assert validating_games() == ("outpost",)
    assert isinstance(validator_of("outpost"), Validator)
    for game in validating_games():  # what messages call a game's maps is its title
        assert validator_of(game).title == get_game(game).info.title
    # one definition of each: the API's names are the contract's classes
    import atlas
    import atlas.maps.validation as contract

    assert atlas.Problem is contract.Problem
    assert atlas.ValidationReport is contract.ValidationReport
    # the render module draws a validating game's reports; a game without rules, none
    assert render_of("outpost").validation_caption
    assert render_of("tron").validation_picture("0 0\n", {"errors": []}) is None
    with pytest.raises(NoValidationError, match="^tron maps have no validation rules"):
        validator_of("tron")
    with pytest.raises(LookupError, match="maps/tron/duel.txt: tron maps have no valid"):
        validator_of("tron", "maps/tron/duel.txt")


# --------------------------------------------------------------------------- bots


class OnlyMove(BotBase):
    name = "only-move"

    def move(self, state: Any, player: int, deadline: float) -> Any:
        return 2


def test_a_bot_needs_move_and_its_hooks_are_no_ops():
    with pytest.raises(TypeError, match="move"):
        BotBase()  # type: ignore[abstract]
    bot = OnlyMove()
    assert bot.start(BOX, {}, 0) is None and bot.close() is None
    assert bot.stderr_text() is None and bot.first_move_time is None
    assert bot_info(bot) == {}
    assert as_bot(bot) is bot
    assert isinstance(make_bot("tron", "random"), BotBase)

    class NoChoose(TronBot):
        pass

    with pytest.raises(TypeError, match="choose"):
        NoChoose()


class PlainBot:
    """A user's bot that knows nothing of atlas's classes: move, and a few hooks."""

    name = "plain"

    def __init__(self, say: bool = True) -> None:
        self.started: list[int] = []
        self.closed = 0
        self.say = say
        self.rng = np.random.default_rng(0)

    def start(self, game_map: GameMap, params: Any, player: int) -> None:
        self.started.append(player)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        if self.say:
            self.last_depth, self.last_nodes = 3, 40
        return get_game("tron").random_move(state, player, self.rng)

    def close(self) -> None:
        self.closed += 1

    def stderr_text(self) -> str:
        return "plain says hello\n"


class BareBot:
    """Nothing but move."""

    def move(self, state: Any, player: int, deadline: float) -> Any:
        return 1


def test_plain_objects_still_play_and_their_hooks_are_called():
    plain = PlainBot()
    record = play_game("tron", BOX, [plain, BareBot()], seed=1, time_limit=5.0)
    assert plain.started == [0] and plain.closed == 1
    assert record.stderr == ("plain says hello\n", "")
    assert record.turns[0].info == {0: {"depth": 3.0, "nodes": 40.0}}
    assert [p.name for p in record.players] == ["plain", "BareBot"]


def test_the_wrapper_reads_and_writes_the_object():
    plain = PlainBot(say=False)
    bot = make_player("tron", plain)
    assert isinstance(bot, BotBase) and bot is not plain and bot.name == "plain"
    bot.fixed_depth = 4  # written to the object, where the user's code reads it
    assert plain.fixed_depth == 4 and bot.fixed_depth == 4  # type: ignore[attr-defined]
    assert bot.rng is plain.rng  # any other attribute is the object's
    bare = as_bot(BareBot())
    assert bare.stderr_text() is None and bare.first_move_time is None
    assert bare.start(BOX, {}, 1) is None and bare.close() is None


# --------------------------------------------------------------------------- enums


def test_reasons_and_statuses_are_enums_and_records_keep_their_words(tmp_path):
    golden = ROOT / "tests" / "sim" / "golden" / "tron-duel-random.json.gz"
    record = load_record(golden)
    assert record.result.reason is Reason.CRASH
    assert all(s.status is Status.OK for s in record.statuses)
    path = tmp_path / "again.json.gz"
    save_record(record, path)
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert data["result"]["reason"] == "crash" and type(data["result"]["reason"]) is str
    assert [s["status"] for s in data["statuses"]] == ["ok", "ok"]
    assert record_from_json(data).result.reason is Reason.CRASH
    # a game may give the word; it becomes the enum, and an unknown word is an error
    assert Outcome(0, "win", (1.0, 0.0)).reason is Reason.WIN
    with pytest.raises(ValueError, match="unknown reason 'luck'"):
        Outcome(0, "luck", (1.0, 0.0))
    assert SeatStatus("timeout", 2).status is Status.TIMEOUT
    played = play_game("tron", BOX, [BareBot(), "random"], seed=0, time_limit=5.0)
    assert isinstance(played.result.reason, Reason)
