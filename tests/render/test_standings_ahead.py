"""A season's standings worked out ahead, in a forked child, while the build draws and
pages its games (:mod:`atlas.render.site.ahead`): the same tables, taken only for the
same games, and a child that fails or dies costs nothing but the time."""

from __future__ import annotations

import os
import re
import signal
import time
from types import SimpleNamespace

import numpy as np
import pytest
from render_helpers import build_records_site, play_record

from atlas.maps import parse_map
from atlas.render.site import pages
from atlas.render.site.ahead import Ahead, can_fork, in_two
from atlas.render.site.entries import RecordHead
from atlas.sim.records import save_record
from atlas.sim.registry import get_game

pytestmark = pytest.mark.skipif(not can_fork(), reason="a forked child: Linux only")

SMALL = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"


def _boom() -> None:
    raise ValueError("the child's own error")


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_child_sends_its_result_back_once():
    job = Ahead(sorted, [3, 1, 2])
    assert job.result() == [1, 2, 3]
    assert job.result() is None  # asked twice: nothing more comes


def test_a_child_that_fails_or_is_killed_gives_none_and_prints_nothing(capfd):
    assert Ahead(_boom).result() is None
    assert Ahead(_killed).result() is None
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # no traceback from the child


def test_stop_ends_a_child_without_waiting_for_it():
    job = Ahead(time.sleep, 60)
    t = time.monotonic()
    job.stop()
    assert not job._proc.is_alive()
    assert time.monotonic() - t < 30  # ended, not waited for (a minute)
    assert job.result() is None


def test_a_child_that_does_not_answer_in_time_is_ended():
    job = Ahead(time.sleep, 60)
    assert job.result(wait=0.2) is None  # it sleeps a minute: no answer in 0.2 s
    assert not job._proc.is_alive()


def _rows_by(parent: int, fail: str = ""):
    """``work`` for :func:`in_two`: row ``s`` is ``[s, s * s, pid]``, the pid 0 in
    this process; in a child it fails as ``fail`` says (raises, dies, or sends rows of
    another shape)."""

    def work(first: int, end: int) -> np.ndarray:
        child = os.getpid() != parent
        if child and fail == "raise":
            raise ValueError("the child's own error")
        if child and fail == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        if child and fail == "shape":
            return np.zeros((1, 3))
        rows = [[s, s * s, os.getpid() if child else 0] for s in range(first, end)]
        return np.array(rows, dtype=np.float64).reshape(-1, 3)

    return work


def test_in_two_works_the_second_half_out_in_a_child(monkeypatch):
    monkeypatch.setattr("atlas.render.site.ahead.can_fork", lambda: True)
    rows = in_two(_rows_by(os.getpid()), 9)
    assert rows[:, 0].tolist() == list(range(9)) and rows[:, 1].tolist() == [
        s * s for s in range(9)
    ]
    here, there = rows[:4, 2], rows[4:, 2]
    assert set(here.tolist()) == {0} and 0 not in set(there.tolist())  # a child's half
    assert in_two(_rows_by(os.getpid()), 1)[:, 2].tolist() == [0]  # nothing to split


@pytest.mark.parametrize("fail", ["raise", "die", "shape"])
def test_in_two_works_a_failed_childs_half_out_itself(monkeypatch, capfd, fail):
    monkeypatch.setattr("atlas.render.site.ahead.can_fork", lambda: True)
    rows = in_two(_rows_by(os.getpid(), fail), 7)
    assert rows.tolist() == [[s, s * s, 0] for s in range(7)]
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # no traceback from the child


_ORPHAN = """
import os, sys, time
import numpy as np
from atlas.render.site.ahead import in_two

def work(first, end):
    if first > 0:  # the child's half: say where it is, then work on for a minute
        with open(sys.argv[1] + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(sys.argv[1] + ".tmp", sys.argv[1])
        time.sleep(60)
    else:
        time.sleep(60)
    return np.zeros((end - first, 1))

in_two(work, 4)
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")  # ended, unreaped
    except OSError:
        return True


def test_in_twos_child_ends_when_its_parent_is_killed(tmp_path):
    import subprocess
    import sys

    said = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", _ORPHAN, str(said)])
    try:
        for _ in range(600):  # the child says its pid within a minute
            if said.exists() or parent.poll() is not None:
                break
            time.sleep(0.1)
        child = int(said.read_text())
        assert not _gone(child)
    finally:
        parent.kill()
        parent.wait()
    for _ in range(100):  # the kernel ends the child with its parent, within seconds
        if _gone(child):
            break
        time.sleep(0.1)
    assert _gone(child)


def test_standings_with_refits_in_two_are_the_same(monkeypatch):
    from atlas.arena.tournament import standings as table_of

    monkeypatch.setattr("atlas.render.site.ahead.can_fork", lambda: True)
    heads = [e.head for e in _entries(60)]
    here = table_of(heads, samples=40)
    spread = table_of(heads, samples=40, spread=in_two)
    assert spread == here
    assert spread.rows[0].low < spread.rows[0].rating < spread.rows[0].high


def _entries(n: int, seed: int = 0) -> list[SimpleNamespace]:
    """``n`` games of six players on a small room, as the build's entries."""
    gm = parse_map(SMALL, game="tron", name="room")
    rng = np.random.default_rng(seed)
    names = [f"p{k}" for k in range(6)]
    out = []
    for s in range(n):
        a, b = rng.choice(len(names), 2, replace=False)
        rec = play_record("tron", gm, seed=s, players=(names[a], names[b]))
        out.append(
            SimpleNamespace(
                head=RecordHead.of(rec), digest=f"{s:064x}", origin="imported", event=None
            )
        )
    return out


def _fork_anyway(monkeypatch):
    """Fork beside the threads other tests leave in the suite's process (Dask's, which
    stay once a cluster ran): the children here take none of their locks."""
    monkeypatch.setattr(pages, "can_fork", lambda: True)
    monkeypatch.setattr(pages, "AHEAD_GAMES", 1)


def test_the_tables_worked_out_ahead_are_taken_for_the_same_games_only(monkeypatch):
    entries = _entries(40)
    _fork_anyway(monkeypatch)
    job = pages.standings_ahead(entries, samples=50)
    import threading

    assert job is not None, [
        (t.name, t.daemon, getattr(t, "_target", None)) for t in threading.enumerate()
    ]
    tables = job.result()
    slug = lambda game, name, event=None: f"{game}-{name}"  # noqa: E731
    here = pages.standings(entries, slug, samples=50)
    assert pages.standings(entries, slug, samples=50, ahead=tables) == here

    from atlas.arena import tournament

    def not_here(*args, **kwargs):
        raise AssertionError("worked out again")

    # the same games: the child's table, not worked out again
    with monkeypatch.context() as m:
        m.setattr(tournament, "standings", not_here)
        assert pages.standings(entries, slug, samples=50, ahead=tables) == here
        with pytest.raises(AssertionError, match="worked out again"):  # one game fewer
            pages.standings(entries[:-1], slug, samples=50, ahead=tables)
    fewer = pages.standings(entries[:-1], slug, samples=50, ahead=tables)
    assert fewer == pages.standings(entries[:-1], slug, samples=50)
    assert fewer != here


def _season(tmp, names, flip: bool = False):
    """A folder of records among ``names``: the first beats the second (or, flipped,
    loses to it) in every game of theirs."""
    (tmp / "maps" / "tron").mkdir(parents=True)
    (tmp / "maps" / "tron" / "room.txt").write_text(SMALL)
    gm = parse_map(SMALL, game="tron", name="room")
    recs = tmp / "records"
    recs.mkdir()
    tron = get_game("tron")
    k = 0
    for seed in range(60):
        rec = play_record(
            "tron",
            gm,
            seed=seed,
            players=(names[seed % 2], names[1 - seed % 2]),
            chooser=lambda state, seat, rng: tron.random_move(state, seat, rng),
        )
        if rec.result.winner is None:
            continue
        winner = rec.players[rec.result.winner].name
        if (winner == names[0]) != flip:
            save_record(rec, recs / f"g{k:02d}.json")
            k += 1
    assert k >= 4
    return tmp / "maps", recs


def _build(maps, recs, site, cache):
    return build_records_site(maps, recs, site, cache)[0]


def test_a_season_built_with_its_standings_ahead_is_the_same_site(tmp_path, monkeypatch):
    maps, recs = _season(tmp_path / "in", ["ann", "bob"])
    alone = _build(maps, recs, tmp_path / "alone", tmp_path / "c1")
    pids = tmp_path / "pids"

    from atlas.arena import tournament

    table_of = tournament.standings

    def counted(*args, **kwargs):
        with open(pids, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        return table_of(*args, **kwargs)

    monkeypatch.setattr(tournament, "standings", counted)
    _fork_anyway(monkeypatch)
    assert _build(maps, recs, tmp_path / "ahead", tmp_path / "c2") == alone
    # worked out by the child, not by the build's own process
    assert {int(p) for p in pids.read_text().split()} - {os.getpid()}
    assert str(os.getpid()) not in pids.read_text().split()


def test_two_names_of_one_slug_keep_their_pages_whatever_the_ratings(tmp_path):
    names = ["bot-a", "Bot A"]  # both "tron-bot-a" as a page's name
    pages_of = []
    for flip in (False, True):
        maps, recs = _season(tmp_path / f"in{flip}", names, flip)
        site = _build(maps, recs, tmp_path / f"site{flip}", tmp_path / f"cache{flip}")
        mine = {}
        for rel in ("bots/tron-bot-a.html", "bots/tron-bot-a-2.html"):
            text = site[rel].decode()
            mine[rel] = "Bot A" if "<title>Bot A" in text else "bot-a"
        pages_of.append(mine)
    assert pages_of[0] == pages_of[1]  # the ratings flipped, the pages did not
    assert pages_of[0]["bots/tron-bot-a.html"] == "Bot A"  # "B" sorts before "b"


def test_players_of_one_name_in_two_games_link_to_their_own_game_pages(tmp_path):
    """A season's index shares one players' tuple among games of every kind whose
    players are the same: a game's page still links to its own game's player pages,
    and keeps the key it had (a key made of another game's slugs rewrote the page at
    every build)."""
    (tmp_path / "maps" / "tron").mkdir(parents=True)
    (tmp_path / "maps" / "tron" / "room.txt").write_text(SMALL)
    (tmp_path / "maps" / "isolation").mkdir(parents=True)
    (tmp_path / "maps" / "isolation" / "box.txt").write_text(
        "isolation 5 5 queen\n1....\n.....\n.....\n.....\n....2\n"
    )
    recs = tmp_path / "records"
    recs.mkdir()
    for game, rel in (("tron", "tron/room.txt"), ("isolation", "isolation/box.txt")):
        gm = parse_map((tmp_path / "maps" / rel).read_text(), game=game, name=rel)
        for seed in range(3):
            rec = play_record(game, gm, seed=seed, players=("ann", "bob"))
            save_record(rec, recs / f"{game}{seed}.json")
    manifests = []
    for _ in range(2):  # cold, then warm: heads read from the build's index
        site = _build(tmp_path / "maps", recs, tmp_path / "site", tmp_path / "cache")
        manifests.append(site[".atlas-manifest.json"])
        links = 0
        for rel, data in site.items():
            if rel.startswith("games/") and rel.endswith(".html"):
                game = rel.split("/")[1].split("-")[0]
                found = set(re.findall(r"bots/([a-z0-9-]+)\.html", data.decode()))
                assert found == {f"{game}-ann", f"{game}-bob"}, rel
                links += 1
        assert links == 6
    assert manifests[0] == manifests[1]  # the pages' keys: the same games, the same keys


def test_no_fork_beside_other_threads_and_atlas_bars_start_none(monkeypatch):
    import io
    import threading

    from atlas.progress import progress_bar_of

    bar = progress_bar_of(total=3, file=io.StringIO(), disable=False)
    bar.update(3)
    bar.close()
    assert "tqdm_monitor" not in [t.name for t in threading.enumerate()]
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, args=(60,))
    other.start()
    try:
        assert not can_fork()  # a thread beside this one: the build works it out itself
        monkeypatch.setattr(pages, "AHEAD_GAMES", 1)
        assert pages.standings_ahead(_entries(4)) is None
    finally:
        stop.set()
        other.join()


def test_a_fork_refused_leaves_the_tables_to_the_build(monkeypatch):
    from atlas.render.site import ahead

    def no_fork(self, *args):
        raise OSError(11, "Resource temporarily unavailable")

    _fork_anyway(monkeypatch)
    monkeypatch.setattr(ahead.Ahead, "__init__", no_fork)
    entries = _entries(6)
    assert pages.standings_ahead(entries, samples=20) is None
    slug = lambda game, name, event=None: f"{game}-{name}"  # noqa: E731
    assert pages.standings(entries, slug, samples=20)["tron"]["rows"]


def test_the_site_index_made_ahead_is_the_one_made_here(tmp_path, monkeypatch):
    maps, recs = _season(tmp_path / "in", ["ann", "bob", "cy"])
    monkeypatch.setattr(pages, "can_fork", lambda: False)
    alone = _build(maps, recs, tmp_path / "alone", tmp_path / "c1")
    assert "site-index.js" in alone and "index/games-0.js" in alone
    parent, made_by = os.getpid(), []
    index_of = pages._index_of

    def counted(*args):
        made_by.append(os.getpid())  # the child's list is its own: seen in the parent only
        if os.getpid() != parent:
            with open(tmp_path / "pids", "a") as fh:
                fh.write(f"{os.getpid()}\n")
        return index_of(*args)

    monkeypatch.setattr(pages, "_index_of", counted)
    _fork_anyway(monkeypatch)
    assert _build(maps, recs, tmp_path / "ahead", tmp_path / "c2") == alone
    assert made_by == [] and (tmp_path / "pids").read_text().strip()  # by the child alone

    def fails_in_a_child(*args):
        if os.getpid() != parent:
            raise MemoryError("the child's own trouble")
        made_by.append(parent)
        return index_of(*args)

    monkeypatch.setattr(pages, "_index_of", fails_in_a_child)
    assert _build(maps, recs, tmp_path / "again", tmp_path / "c3") == alone
    assert made_by == [parent]  # made here after the child failed
