"""Tournament plans (TOML and flags), output folders that atlas alone writes, resuming."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from atlas.arena.competition import (
    MARKER,
    OutputFolderError,
    PlanError,
    load_plan,
    plan_from_flags,
    run_plan,
)
from atlas.arena.players import Player, check_unique, parse_player
from atlas.arena.standings import standings
from atlas.errors import BotError
from atlas.sim.records import load_record, verify_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
BOX = "isolation 4 4 queen\n1...\n..#.\n....\n...2\n"


def test_player_specs_and_their_names():
    assert parse_player("frontline") == Player("frontline", builtin="frontline")
    assert parse_player("fast=frontline") == Player("fast", builtin="frontline")
    assert parse_player("cmd:./my-engine --level 3").name == "my-engine"
    assert parse_player("cmd:python3 bots/alice.py --deep").name == "alice"
    assert parse_player("cmd:python3 -u bots/bob.py").name == "bob"
    assert parse_player("carol=cmd:python3 bot.py").name == "carol"
    assert parse_player("carol=cmd:python3 bot.py").command == "python3 bot.py"
    assert parse_player("fast=frontline").spec == "fast=frontline"
    with pytest.raises(BotError, match="empty command line"):
        parse_player("cmd:  ")
    with pytest.raises(BotError, match="cannot split"):
        parse_player("cmd:python3 'unclosed")
    with pytest.raises(BotError, match="bad player name"):
        parse_player("a b=frontline")
    with pytest.raises(BotError, match="two players are called 'bot'"):
        check_unique(
            [parse_player("cmd:python3 a/bot.py"), parse_player("cmd:python3 b/bot.py")]
        )


def test_records_carry_identity_and_a_name_cannot_take_a_row(tmp_path):
    prog = tmp_path / "voronoi.py"
    prog.write_text((EXAMPLES / "tron_bot.py").read_text())
    ext = parse_player(f"cmd:{sys.executable} {prog}")
    assert ext.name == "voronoi"
    entry = ext.entry()
    assert entry.kind == "external" and len(entry.digest) == 64
    assert entry.identity == f"external:voronoi:{entry.digest}"
    builtin = parse_player("voronoi").entry()
    assert builtin.identity == "builtin:voronoi"
    assert parse_player("house=voronoi").entry().identity == "builtin:voronoi=house"
    # the same program entered under two names is two players
    twin = parse_player(f"twin=cmd:{sys.executable} {prog}").entry()
    assert twin.digest == entry.digest and twin.identity != entry.identity
    from atlas.arena.tournament import run_games, schedule_games
    from atlas.maps import parse_map

    tron = parse_map("7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n", game="tron")
    # one tournament cannot hold two players of one name ...
    with pytest.raises(BotError, match="two players are called 'voronoi'"):
        schedule_games("tron", [tron], ["voronoi", ext])
    # ... and records of two tournaments keep them apart: same name, two identities
    records = []
    for player in ("voronoi", ext):
        records += run_games(
            schedule_games("tron", [tron], [player, "random"], time_limit=2.0),
            jobs=1,
            progress=False,
        )
    assert {p.identity for r in records for p in r.players if p.name == "voronoi"} == {
        builtin.identity,
        entry.identity,
    }
    table = standings(records)
    assert sorted(r.bot for r in table.rows) == [
        "random",
        "voronoi (built-in)",
        f"voronoi (program {entry.digest[:8]})",
    ]
    assert table.row("random").games == 4


def _write_plan(folder: Path, text: str) -> Path:
    (folder / "maps").mkdir(exist_ok=True)
    (folder / "maps" / "box.txt").write_text(BOX)
    (folder / "maps" / "open.txt").write_text("isolation 3 3 queen\n1..\n...\n..2\n")
    path = folder / "cup.toml"
    path.write_text(text)
    return path


PLAN = f"""# a small cup
game = "isolation"
maps = ["maps/*.txt"]
seeds = 1
time = 1.0
schedule = "round-robin"

[[bots]]
name = "ex"
command = "{sys.executable} isolation_bot.py"
cwd = "{EXAMPLES}"

[[bots]]
name = "rnd"
builtin = "random"

[[bots]]
name = "seed"
builtin = "phased"
time = 0.5
limits = {{ memory = "2G", cpu = 120 }}
env = {{ SEED_LEVEL = "3" }}
"""


def test_a_plan_file_is_read_and_checked(tmp_path):
    plan = load_plan(_write_plan(tmp_path, PLAN))
    assert plan.game == "isolation" and [m.name for m in plan.maps] == ["box", "open"]
    assert [p.name for p in plan.players] == ["ex", "rnd", "seed"]
    assert plan.players[2].time == 0.5 and plan.players[0].cwd == str(EXAMPLES)
    assert plan.players[2].limits == (("cpu", "120"), ("memory", "2G"))
    run = plan.players[2].containment(sandbox=True)
    assert run.limits.memory == 2 * 1024**3 and run.limits.cpu == 120 and run.sandbox
    assert run.env == {"SEED_LEVEL": "3"}
    specs = plan.specs()
    assert len(specs) == 2 * 6
    assert specs[0].seat_times in ((1.0, 1.0), (1.0, 0.5), (0.5, 1.0))


@pytest.mark.parametrize(
    "change, message, line",
    [
        (("seeds = 1", 'seeds = "two"'), "seeds should be int, got str 'two'", 4),
        (("seeds = 1", "rounds = 1"), "unknown key 'rounds'", 4),
        (('schedule = "round-robin"', 'schedule = "swiss"'), "schedule should be one of", 6),
        (('builtin = "random"', 'builtin = "nobody"'), "has no built-in bot 'nobody'", 15),
        (("time = 0.5", "tiem = 0.5"), "unknown key bots[2].'tiem'", 20),
        (('name = "rnd"', 'name = "ex"'), "two players are called 'ex'", None),
        (('maps = ["maps/*.txt"]', 'maps = ["nothing/*.txt"]'), "no map matches", 3),
        (('game = "isolation"', 'game = "chess"'), "unknown game 'chess'", 2),
        (("cpu = 120", 'cpu = "lots"'), "bot limit cpu should be a whole number", 21),
    ],
)
def test_a_bad_plan_names_the_file_the_line_and_the_key(tmp_path, change, message, line):
    path = _write_plan(tmp_path, PLAN.replace(*change))
    with pytest.raises(PlanError, match=message.replace("[", r"\[").replace("]", r"\]")) as err:
        load_plan(path)
    assert str(err.value).startswith(str(path))
    if line is not None:
        assert err.value.line == line


def test_run_write_refuse_and_resume(tmp_path):
    plan = load_plan(_write_plan(tmp_path, PLAN))
    out = tmp_path / "out"
    first = run_plan(plan, out, jobs=1)
    files = sorted(p.name for p in (out / "records").iterdir())
    assert len(files) == 12 and (out / MARKER).is_file()
    assert (out / "tournament.toml").read_text() == PLAN
    results = json.loads((out / "results.json").read_text())
    assert results["format"] == "atlas-tournament" and len(results["games"]) == 12
    rows = results["standings"]["rows"]
    assert {r["bot"] for r in rows} == {"ex", "rnd", "seed"}
    assert all(r["low"] <= r["rating"] <= r["high"] for r in rows)
    assert rows[-1]["los_next"] is None and 0 <= rows[0]["los_next"] <= 1
    for name in files:
        rec = load_record(out / "records" / name)
        verify_record(rec)
        assert {p.name for p in rec.players} <= {"ex", "rnd", "seed"}
    # the same folder again: refused unless resumed; nothing touched
    with pytest.raises(OutputFolderError, match="--resume"):
        run_plan(plan, out, jobs=1)
    # lose two records; resuming plays only those
    (out / "records" / files[3]).unlink()
    (out / "records" / files[7]).write_bytes(b"damaged")
    again = run_plan(plan, out, jobs=1, resume=True)
    assert again.resumed == 10
    assert len(list((out / "records").iterdir())) == 12
    assert [r.players for r in again.records] == [r.players for r in first.records]
    # a folder that holds the user's own files is refused, and left as it was
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(OutputFolderError, match="did not write"):
        run_plan(plan, mine, jobs=1)
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_flag_form_is_the_same_plan(tmp_path):
    _write_plan(tmp_path, PLAN)
    plan = plan_from_flags(
        "isolation", [tmp_path / "maps"], ["rnd=random", "seed=phased"], seeds=1, time=1.0
    )
    assert [s.players for s in plan.specs()][0] == (
        Player("rnd", builtin="random"),
        Player("seed", builtin="phased"),
    )
    with pytest.raises(BotError, match="two players are called"):
        plan_from_flags("isolation", [tmp_path / "maps"], ["random", "random"])
