"""Replay records: round trips, replays, refusals of damaged or foreign files."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import numpy as np
import pytest

from atlas.errors import RecordError
from atlas.fsutil import default_mode
from atlas.maps import read_map
from atlas.sim import get_game
from atlas.sim.base import Outcome
from atlas.sim.records import (
    STDERR_LIMIT,
    PlayerEntry,
    Record,
    RecordBuilder,
    load_record,
    record_from_json,
    replay_states,
    save_record,
    truncate_stderr,
    utc_timestamp,
    verify_record,
)

REPO = Path(__file__).resolve().parents[2]
MAPS = {
    "tron": "tron/duel.txt",
    "isolation": "isolation/knight7.txt",
    "connect5": "connect5/connect4.txt",
}


def play_record(
    game_name: str, seed: int, *, none_at: int | None = None, params: dict | None = None
) -> tuple[Record, list]:
    """A random game recorded with the builder; ``none_at``: seat 0 answers nothing then."""
    game = get_game(game_name)
    game_map = read_map(REPO / "maps" / MAPS[game_name])
    rng = np.random.default_rng(seed)
    builder = RecordBuilder(
        game_name,
        game_map,
        params,
        ["random", {"name": "mybot", "kind": "external", "command": ["python", "bot.py"]}],
        seed,
    )
    state = game.initial_state(game_map, params)
    states = [state]
    while game.outcome(state) is None:
        moves = {p: game.random_move(state, p, rng) for p in game.to_move(state)}
        if none_at is not None and len(builder.turns) == none_at and 0 in moves:
            moves[0] = None
            builder.set_status(0, "timeout", none_at, "no answer in 1.0 s")
        builder.add_turn(moves, {p: 0.001 * (p + 1) for p in moves})
        state = game.apply(state, moves)
        states.append(state)
    builder.set_stderr(1, "warming up\n")
    return builder.finish(state, game.outcome(state)), states


@pytest.mark.parametrize("game_name", sorted(MAPS))
@pytest.mark.parametrize("suffix", [".json", ".json.gz"])
def test_round_trip_and_replay(tmp_path, game_name, suffix):
    record, states = play_record(game_name, seed=3)
    path = tmp_path / f"game{suffix}"
    save_record(record, path)
    assert path.stat().st_mode & 0o777 == default_mode()  # not mkstemp's private 0600
    if suffix.endswith(".gz"):
        assert path.read_bytes()[:2] == b"\x1f\x8b"
    loaded = load_record(path)
    assert loaded == record
    assert loaded.players[1] == PlayerEntry("mybot", "external", "python bot.py")
    assert loaded.stderr == ("", "warming up\n")
    verify_record(loaded)
    game = get_game(game_name)
    replayed = replay_states(loaded)
    assert len(replayed) == len(record.turns) + 1 == len(states)
    for a, b in zip(replayed, states):
        assert game.summary(a) == game.summary(b)
    assert game.outcome(replayed[-1]) == record.result


@pytest.mark.parametrize("game_name", sorted(MAPS))
def test_no_answer_is_recorded_as_null_and_replays(tmp_path, game_name):
    record, _ = play_record(game_name, seed=5, none_at=0)
    data = json.loads(json.dumps(record.to_json()))
    assert data["turns"][0]["moves"]["0"] is None
    assert data["statuses"][0] == {
        "status": "timeout",
        "turn": 0,
        "detail": "no answer in 1.0 s",
    }
    assert record.result.winner == 1 and record.result.scores == (0.0, 1.0)
    assert len(record.turns) == 1
    verify_record(record_from_json(data))


def test_params_are_stored_with_defaults_and_used_on_replay(tmp_path):
    record, states = play_record("tron", seed=9, params={"compat": "official"})
    assert record.params["compat"] == "official" and "max_turns" in record.params
    assert replay_states(record)[-1].compat == "official"
    record, _ = play_record("connect5", seed=9)
    assert record.params == {"inarow": None}
    assert replay_states(record)[-1].inarow == 4  # from the embedded map


def test_same_seed_same_bytes_and_created_is_not_compared(tmp_path):
    a, _ = play_record("tron", seed=4)
    b, _ = play_record("tron", seed=4)
    save_record(a, tmp_path / "a.json.gz")
    save_record(b, tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()
    stamped = record_from_json({**a.to_json(), "created": utc_timestamp()})
    assert stamped.created is not None and stamped == a
    c, _ = play_record("tron", seed=5)
    assert c != a


def test_public_json_drops_stderr(tmp_path):
    record, _ = play_record("isolation", seed=1)
    public = record.public_json()
    assert "stderr" not in public and "warming up" not in json.dumps(public)
    save_record(record, tmp_path / "p.json", public=True)
    assert "warming up" not in (tmp_path / "p.json").read_text()
    loaded = load_record(tmp_path / "p.json")
    assert loaded.stderr == ("", "")
    verify_record(loaded)


def test_stderr_is_truncated_keeping_head_and_tail():
    text = "A" * 3000 + "B" * 5000 + "C" * 3000
    cut = truncate_stderr(text)
    assert len(cut.encode()) <= STDERR_LIMIT + 64
    assert cut.startswith("A" * 2048) and cut.endswith("C" * 2048)
    assert f"[... {11000 - STDERR_LIMIT} bytes cut ...]" in cut
    assert truncate_stderr("short") == "short"
    assert truncate_stderr("é" * 3000).count("\ufffd") == 0  # no broken characters
    b = RecordBuilder(
        "connect5", read_map(REPO / "maps/connect5/standard.txt"), None, ["random", "random"], 0
    )
    b.set_stderr(0, text)
    assert b.stderr[0] == cut


def test_builder_refuses_bad_values():
    game_map = read_map(REPO / "maps/connect5/standard.txt")
    with pytest.raises(ValueError, match="2 seats"):
        RecordBuilder("connect5", game_map, None, ["random"], 0)
    b = RecordBuilder("connect5", game_map, None, ["random", "random"], 0)
    with pytest.raises(ValueError, match="unknown status"):
        b.set_status(0, "lost")
    with pytest.raises(ValueError, match="unknown reason"):
        b.finish(get_game("connect5").initial_state(game_map), Outcome(0, "luck", (1, 0)))


def test_a_record_that_does_not_replay_is_refused():
    record, _ = play_record("tron", seed=2)
    data = record.to_json()
    data["final"] = {**data["final"], "turn": data["final"]["turn"] + 1}
    with pytest.raises(RecordError, match="does not replay.*'turn'"):
        verify_record(record_from_json(data))
    data = record.to_json()
    first = data["turns"][0]["moves"]
    first["0"] = 4 if first["0"] != 4 else 2
    with pytest.raises(RecordError, match="turn 1: moves recorded after the game ended"):
        verify_record(record_from_json(data))
    data = record.to_json()
    data["turns"].append(data["turns"][-1])
    with pytest.raises(RecordError, match="after the game ended"):
        replay_states(record_from_json(data))
    record, _ = play_record("connect5", seed=2)
    data = record.to_json()
    data["turns"][0]["moves"] = {"1": 3}
    with pytest.raises(RecordError, match=r"turn 0: moves for seats \[1\]"):
        replay_states(record_from_json(data))
    data["turns"][0]["moves"] = {"0": "three"}
    with pytest.raises(RecordError, match="turn 0: seat 0"):
        replay_states(record_from_json(data))
    data["turns"][0]["moves"] = {"0": 99}
    with pytest.raises(RecordError, match="turn 0: column 99"):
        replay_states(record_from_json(data))


def _mutations(good: dict) -> list[tuple[str, object, str]]:
    """(name, document, expected message fragment)."""

    def changed(path: str, value: object) -> dict:
        doc = json.loads(json.dumps(good))
        *parents, last = path.split(".")
        node = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is KeyError:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return doc

    return [
        ("array", [good], "not a JSON object"),
        ("format", changed("format", "kaggle"), "not a replay record"),
        ("version", changed("version", 2), "unsupported record version 2"),
        ("game", changed("game", "chess"), "unknown game 'chess'"),
        ("no turns", changed("turns", KeyError), "missing field 'turns'"),
        ("seed type", changed("seed", "7"), "field 'seed' should be int"),
        ("map text", changed("map.text", 5), "field map.'text' should be str"),
        ("hash", changed("map.hash", "0" * 64), "map hash mismatch"),
        ("map parse", changed("map.text", "connect5 x\n"), "embedded map does not parse"),
        ("seat", changed("turns.0.moves", {"7": 1}), "seats are 0..1"),
        ("time", changed("turns.0.times", {"0": "fast"}), "number of seconds"),
        ("status", changed("statuses.0.status", "won"), "status is 'won'"),
        ("statuses", changed("statuses", []), "statuses has 0 entries"),
        ("reason", changed("result.reason", "luck"), "result.reason is 'luck'"),
        ("winner", changed("result.winner", 3), "result.winner is seat 3"),
        ("scores", changed("result.scores", [1]), "result.scores should be 2 numbers"),
        ("player kind", changed("players.0.kind", "human"), "'kind' is 'human'"),
        ("bool seed", changed("seed", True), "field 'seed' should be int"),
    ]


def test_foreign_or_damaged_documents_are_refused_naming_the_file_and_problem(tmp_path):
    record, _ = play_record("connect5", seed=6)
    good = record.to_json()
    for name, doc, fragment in _mutations(good):
        path = tmp_path / f"{name.replace(' ', '_')}.json"
        path.write_text(json.dumps(doc))
        with pytest.raises(RecordError) as info:
            load_record(path)
        message = str(info.value)
        assert message.startswith(str(path)), (name, message)
        assert fragment in message, (name, message)
        assert isinstance(info.value, ValueError)


def test_damaged_files_are_refused(tmp_path):
    record, _ = play_record("isolation", seed=6)
    good = tmp_path / "good.json.gz"
    save_record(record, good)
    raw = good.read_bytes()
    cases = {
        "truncated.json.gz": (raw[: len(raw) // 2], "damaged gzip data"),
        "plain.json.gz": (b'{"format": "atlas-replay"}', "not gzip data"),
        "garbage.json": (b"{not json", "not JSON"),
        "binary.json": (b"\xff\xfe\x00", "not UTF-8"),
        "inner.json.gz": (gzip.compress(b"[1, 2"), "not JSON"),
    }
    for name, (data, fragment) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(RecordError, match=fragment) as info:
            load_record(path)
        assert str(path) in str(info.value)
    with pytest.raises(RecordError, match="cannot read file"):
        load_record(tmp_path / "missing.json")


# --------------------------------------------------------------------------- claims


def _runner_record(seed: int = 3):
    """A tron game played by the runner, in which seat 1 times out at turn 2."""
    from atlas.arena.runner import play_game

    class Late:
        name = "late"

        def __init__(self):
            self.turns = 0

        def move(self, state, player, deadline):
            self.turns += 1
            if self.turns == 3:
                raise TimeoutError("thinking")  # recorded as a crash at turn 2
            return get_game("tron").legal_moves(state, player)[0]

    game_map = read_map(REPO / "maps" / "tron" / "duel.txt")
    return play_game("tron", game_map, ["random", Late()], seed=seed)


def test_verify_record_checks_the_result_and_the_statuses():
    record = _runner_record()
    assert record.statuses[1].status == "crashed" and record.statuses[1].turn == 2
    assert record.turns[2].moves[1] is None
    verify_record(record)
    good = record.to_json()

    def claims(change) -> str:
        doc = json.loads(json.dumps(good))
        change(doc)
        with pytest.raises(RecordError) as info:
            verify_record(record_from_json(doc))
        return str(info.value)

    def winner(d):
        d["result"]["winner"] = 1

    assert "claims result.winner 1, but its moves give 0" in claims(winner)

    def scores(d):
        d["result"]["scores"] = [0.5, 0.5]

    assert "result.scores" in claims(scores)

    def reason(d):
        d["result"]["reason"] = "timeout"

    assert "claims result.reason 'timeout', but its moves give 'crash'" in claims(reason)

    def all_ok(d):  # a failure hidden: the null move shows it
        d["statuses"][1] = {"status": "ok", "turn": None, "detail": ""}

    assert "statuses[1] is 'ok', but seat 1 gave no valid move (null) at turn 2" in claims(
        all_ok
    )

    def wrong_turn(d):
        d["statuses"][1]["turn"] = 1

    assert "first null move is at turn 2" in claims(wrong_turn)

    def blamed(d):  # a seat blamed that played every move
        d["statuses"][0] = {"status": "timeout", "turn": 0, "detail": "made up"}

    assert (
        "statuses[0] says 'timeout' at turn 0, but seat 0 gave a move on every turn"
        in claims(blamed)
    )

    def early(d):  # a record cut before the end
        d["turns"] = d["turns"][:2]
        d["statuses"][1] = {"status": "ok", "turn": None, "detail": ""}

    message = claims(early)
    assert "does not replay" in message or "before the game is over" in message


def test_a_record_that_stops_early_is_refused():
    record, _ = play_record("connect5", seed=4)
    cut = RecordBuilder(
        "connect5", record.game_map(), dict(record.params), list(record.players), record.seed
    )
    game = get_game("connect5")
    state = game.initial_state(record.game_map(), dict(record.params))
    for turn in record.turns[:3]:
        moves = {s: game.move_from_json(m) for s, m in turn.moves.items()}
        cut.add_turn(moves)
        state = game.apply(state, moves)
    fake = cut.finish(state, record.result)
    with pytest.raises(RecordError, match="stops after 3 turns, before the game is over"):
        verify_record(fake)


def test_a_failure_before_the_first_turn_of_its_seat_verifies():
    """A bot that cannot start fails 'at turn 0'; in an alternating game its first null
    move comes at its first turn, turn 1."""
    from atlas.arena.runner import play_game

    game_map = read_map(REPO / "maps" / "connect5" / "standard.txt")
    record = play_game("connect5", game_map, ["random", "cmd:./no-such-bot"])
    assert record.statuses[1].turn == 0 and record.turns[1].moves[1] is None
    verify_record(record)


# --------------------------------------------------------------------------- limits


def test_records_beyond_the_limits_are_refused_naming_the_file(tmp_path):
    from atlas.limits import MAX_RECORD_BYTES

    record, _ = play_record("connect5", seed=6)
    good = json.dumps(record.to_json())
    cases = {
        "deep.json": ('{"a": ' * 100_000, "JSON nested 100000 deep, more than 64"),
        "digits.json": (
            good.replace('"seed": 6', '"seed": 1' + "0" * 5000),
            "a number of 5001 digits, more than 20",
        ),
        "nan.json": (good.replace('"seed": 6', '"seed": NaN'), "NaN is not a JSON number"),
        "seat.json": (good.replace('"moves": {"0"', '"moves": {"²"', 1), "seat '²'"),
        "players.json": (
            good.replace('"players": [', '"players": [{"name": "x", "kind": "builtin"}, ', 1),
            "the record has 3 players; connect5 is played by 2",
        ),
        "turn.json": (
            good.replace('"turn": null', '"turn": 99999', 1),
            "statuses[0].turn is 99999; the record has",
        ),
    }
    for name, (text, fragment) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(RecordError) as info:
            load_record(path)
        assert str(info.value).startswith(str(path)) and fragment in str(info.value), (
            name,
            str(info.value),
        )
    # a gzip bomb: 33 MB of spaces in 33 KB, refused without being unpacked whole
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (MAX_RECORD_BYTES + 1_000_000)))
    assert bomb.stat().st_size < 100_000
    with pytest.raises(RecordError, match="more than 33,554,432 bytes once decompressed"):
        load_record(bomb)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="not a regular file: a FIFO"):
        load_record(fifo)


def test_per_move_info_round_trips_and_old_records_load(tmp_path):
    game = get_game("tron")
    game_map = read_map(REPO / "maps" / MAPS["tron"])
    builder = RecordBuilder("tron", game_map, None, ["a", "b"], 0)
    state = game.initial_state(game_map, None)
    rng = np.random.default_rng(1)
    moves = {p: game.random_move(state, p, rng) for p in game.to_move(state)}
    # numpy numbers become plain ones; unknown keys and infinite values are left out
    builder.add_turn(
        moves,
        {0: 0.01, 1: 0.02},
        {
            0: {"depth": np.int64(7), "score": 12.25, "nodes": 4.0e3, "x": 1},
            1: {"score": float("-inf")},
        },
    )
    rec = builder.finish(state, Outcome(None, "draw", (0.5, 0.5)))
    assert rec.turns[0].info == {0: {"depth": 7, "score": 12.25, "nodes": 4000}}
    data = rec.to_json()
    assert data["turns"][0]["info"] == {"0": {"depth": 7, "score": 12.25, "nodes": 4000}}
    save_record(rec, tmp_path / "g.json")
    assert load_record(tmp_path / "g.json") == rec
    # a record written before per-move info existed has no "info" key and loads as before
    old = json.loads(json.dumps(data))
    del old["turns"][0]["info"]
    assert record_from_json(old).turns[0].info == {}
    # and a turn without info writes none
    b2 = RecordBuilder("tron", game_map, None, ["a", "b"], 0)
    b2.add_turn(moves)
    assert (
        "info" not in b2.finish(state, Outcome(None, "draw", (0.5, 0.5))).to_json()["turns"][0]
    )
    bad = json.loads(json.dumps(data))
    bad["turns"][0]["info"]["0"]["depth"] = "deep"
    with pytest.raises(RecordError, match=r"turns\[0\]\.info\['0'\]"):
        record_from_json(bad)
    bad["turns"][0]["info"]["0"] = {"depth": 3, "mood": 1}  # only depth, score, nodes
    with pytest.raises(RecordError, match="depth, score, nodes"):
        record_from_json(bad)
