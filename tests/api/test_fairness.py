"""``atlas.fairness``: the reports ``atlas fairness`` gives, as Python values.

Games are played in this process (``jobs=1``) by bots that search nothing, on the
injected clock (``tick_clock``: a deadline is a budget of clock reads), so every result
is the same on any machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import atlas
from atlas.cli import main

#: Seat 1 has a room of 18 cells, seat 2 one of 9: whoever sits in seat 1 outlasts.
LOPSIDED = "12 5\n############\n#1     #  2#\n#      #   #\n#      #   #\n############\n"
#: A one-wide shaft: the documented rules draw head to head, the official engine lets
#: seat 1 step onto seat 2's head first.
SHAFT = "3 6\n###\n#2#\n# #\n# #\n#1#\n###\n"
#: A course's Outpost map whose quarters rotate.
OUTPOST = Path(__file__).resolve().parents[1] / "data" / "outpost-maps" / "map1.txt"


def _files(tmp_path: Path) -> tuple[Path, Path]:
    lopsided = tmp_path / "lopsided.txt"
    lopsided.write_text(LOPSIDED)
    shaft = tmp_path / "shaft.txt"
    shaft.write_text(SHAFT)
    return lopsided, shaft


class North:
    """Always north (move 1): up the shaft from seat 1, into the wall from seat 2."""

    def move(self, state, player, deadline):
        return 1


def test_the_reports_are_those_atlas_fairness_json_prints(tmp_path, capsys, tick_clock):
    lopsided, shaft = _files(tmp_path)
    options = dict(bots=["wallhugger", "random"], games=2, opening=1, compat="official")
    reports = atlas.fairness([lopsided, shaft], **options, jobs=1)
    argv = ["fairness", str(lopsided), str(shaft), "--bots", "wallhugger", "random"]
    argv += ["--games", "2", "--opening", "1", "--compat", "official", "--jobs", "1"]
    assert main([*argv, "--no-cache", "--json"]) == 0
    assert reports.to_json() == json.loads(capsys.readouterr().out)
    assert main([*argv, "--no-cache"]) == 0
    assert reports.text() == capsys.readouterr().out.rstrip("\n")
    lop, sh = reports
    assert isinstance(lop, atlas.FairnessReport) and len(reports) == 2
    assert (lop.map, lop.symmetries, lop.games) == ("lopsided", (), 4)
    assert sh.symmetries == ("rot180", "flip-ud") and sh.params["compat"] == "official"
    assert [p.players for p in sh.evidence.pairings] == [("wallhugger", "random")]
    assert sh.evidence.group_size == 2 and sh.evidence.groups == 2
    for report in reports:
        for seat in report.seats:
            assert seat.score is not None and 0 <= seat.low <= seat.score <= seat.high <= 1


def test_a_single_map_a_folder_and_a_map_s_text_are_maps(tmp_path, tick_clock):
    lopsided, shaft = _files(tmp_path)
    assert [r.map for r in atlas.fairness(tmp_path, games=0)] == ["lopsided", "shaft"]
    assert [r.map for r in atlas.fairness(str(shaft), games=0)] == ["shaft"]
    (one,) = atlas.fairness(SHAFT, games=0)
    assert (one.map, one.path, one.symmetries) == ("map", None, ("rot180", "flip-ud"))
    given = atlas.read_map(LOPSIDED, game="tron", name="mine")
    assert [r.map for r in atlas.fairness([given, shaft], games=0)] == ["mine", "shaft"]


def test_a_python_bot_plays_in_this_process(tick_clock):
    shaft = atlas.read_map(SHAFT, name="shaft")
    # alone, it sits in both seats: seat 2 drives into the wall on the first turn
    (alone,) = atlas.fairness(shaft, bots=[North()], games=3, opening=0, jobs=1)
    assert [(s.seat, s.score, s.wins) for s in alone.seats] == [(1, 1.0, 3), (2, 0.0, 0)]
    assert alone.evidence.length == (1.0, 1, 1)
    assert alone.to_json()["players"][0]["seats"] == ["North", "North"]
    # against the wall hugger, each seat in turn: with North in seat 1 both climb into
    # the middle and swap cells head on (both crash: a draw); with North in seat 2 it
    # drives into the wall and the hugger wins from seat 1
    (pair,) = atlas.fairness(shaft, bots=[North(), "wallhugger"], games=2, opening=0, jobs=1)
    assert pair.evidence.group_size == 2 and pair.games == 4 and pair.evidence.draws == 2
    assert [p.players for p in pair.evidence.pairings] == [("North", "wallhugger")]
    assert [(s.score, s.wins) for s in pair.seats] == [(0.75, 2), (0.25, 0)]
    # two objects of one class stay two players
    (two,) = atlas.fairness(shaft, bots=[North(), North()], games=1, opening=0, jobs=1)
    assert two.to_json()["players"][0]["seats"] == ["North", "North'"]
    assert two.evidence.group_size == 2


def test_jupyter_shows_a_table_and_repr_reads(tmp_path, tick_clock):
    lopsided, _ = _files(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("7 3\n#######\n#1 x 2#\n#######\n")
    reports = atlas.fairness(
        [lopsided, bad], bots=["wallhugger"], games=6, opening=0, compat="official", jobs=1
    )
    (lop,) = reports
    s1, s2 = lop.seats
    page = reports._repr_html_()
    assert page.count("<tr>") == 2  # the header and one map
    for cell in ("lopsided", "tron", "none", "favours seat 1", ">6<", "seat 2"):
        assert cell in page, cell
    assert f"{s1.score:.3f} [{s1.low:.3f}, {s1.high:.3f}]" in page
    assert f"{s2.score:.3f} [{s2.low:.3f}, {s2.high:.3f}]" in page
    assert f"<li>{bad}:3:" in page and "pentanomial" in page
    assert lop._repr_html_().count("<tr>") == 2 and "Not reported" not in lop._repr_html_()
    text = repr(reports)
    assert text.startswith("<atlas.FairnessReports 1 map, 1 problem:\n")
    assert "tron map 'lopsided': favours seat 1 (6 games); symmetries none; seat 1 1.00" in text
    assert f"  problem: {bad}:3:" in text and text.endswith(">")
    assert repr(lop).startswith("<atlas.FairnessReport tron map 'lopsided': favours seat 1")
    assert repr(atlas.fairness([], games=0)) == "<atlas.FairnessReports 0 maps>"
    # outpost: four seats, each its column
    four = atlas.fairness(OUTPOST, games=0)
    assert four._repr_html_().count("<th>seat ") == 4 and four[0].symmetries == (
        "rot90",
        "rot180",
    )


def test_a_cache_plays_nothing_twice(tmp_path, monkeypatch, tick_clock):
    _, shaft = _files(tmp_path)
    cache = tmp_path / "cache"
    options = dict(bots=["wallhugger"], games=2, opening=0, jobs=1, cache=cache)
    first = atlas.fairness(shaft, **options).to_json()

    def played(*args, **kwargs):
        raise AssertionError("a game was played again")

    monkeypatch.setattr("atlas.arena.tournament.run_games", played)
    assert atlas.fairness(shaft, **options).to_json() == first
    assert first[0]["games"] == 2
