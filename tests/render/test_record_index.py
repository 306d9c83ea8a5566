"""The records folder's index in the build's cache (:func:`load_records`): a file read
once, its head and content key kept between builds as a base and a small delta, and
whatever the cache holds, the same records as a build without one."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from render_helpers import TRON25, play_record

from atlas.maps import parse_map
from atlas.render.site import sources
from atlas.render.site.cache import Cache, KeptMapping
from atlas.render.site.entries import RecordHead
from atlas.sim.records import PlayerEntry, save_record


@pytest.fixture(scope="module")
def games():
    gm = parse_map(TRON25, game="tron", name="a")
    return [play_record("tron", gm, seed=seed) for seed in range(8)]


def _seen(found):
    return [(Path(r.source).name, r.head, r.digest) for r in found]


def _load(folder, cache=None):
    problems: list[str] = []
    found = sources.load_records(folder, problems, cache, "v1")
    assert problems == []
    return _seen(found)


class Counting:
    """Counts the records parsed and the index entries written."""

    def __init__(self, monkeypatch):
        self.parsed = 0
        self.writes: list[str] = []
        import atlas.sim.records as records  # load_records imports it when called

        real = records.record_from_bytes

        def parse(raw, path):
            self.parsed += 1
            return real(raw, path)

        monkeypatch.setattr(records, "record_from_bytes", parse)
        real_put = Cache.put_json

        def put(cache, kind, key, value):
            if kind == "record-heads":
                self.writes.append("delta" if "base" in value else "base")
            return real_put(cache, kind, key, value)

        monkeypatch.setattr(Cache, "put_json", put)


def test_a_head_comes_back_from_its_row_as_it_was(games):
    rec = games[0]
    players = (
        PlayerEntry("apex", effort=100),
        PlayerEntry("prog", "external", "./prog", None, "ab" * 32),
    )
    rec = dataclasses.replace(rec, players=players)
    head = RecordHead.of(rec)
    parts: dict = {}
    row = head.to_row("d" * 64, parts)
    assert len(parts) == 4 and all(key in parts for key in row[2:5] + row[7:])
    index = json.loads(json.dumps({"x" * 64: row, **parts}))  # as the cache keeps it
    made: dict = {}
    again, digest = RecordHead.from_row(index["x" * 64], index, made)
    assert again == head and digest == "d" * 64 and again.players[0].effort == 100
    assert vars(again) == vars(head)  # every field, as the dataclass's __init__ sets them
    # another game of the same players on the same map shares their parts
    other = RecordHead.of(games[1])
    other = dataclasses.replace(other, players=players)
    other_row = other.to_row("e" * 64, parts)
    assert other_row[2:5] == row[2:5] and len(parts) <= 5
    twice = RecordHead.from_row(json.loads(json.dumps(other_row)), index | parts, made)
    assert twice is not None and twice[0].players is again.players
    # another pairing of the same players shares each player (what counts by player)
    swapped = dataclasses.replace(other, players=players[::-1])
    third = RecordHead.from_row(swapped.to_row("f" * 64, parts), index | parts, made)
    assert third is not None and third[0].players == players[::-1]
    assert [id(p) for p in third[0].players] == [id(p) for p in again.players[::-1]]
    # parts keep their types: scores of 1 and of 1.0 print apart, and are parts apart
    ints = dataclasses.replace(head, result=dataclasses.replace(head.result, scores=(1, 0)))
    floats = dataclasses.replace(
        ints, result=dataclasses.replace(ints.result, scores=(1.0, 0.0))
    )
    rows = [h.to_row("d" * 64, parts) for h in (ints, floats)]
    assert rows[0][7] != rows[1][7]
    index = json.loads(json.dumps(parts))
    back = [RecordHead.from_row(r, index, made)[0] for r in rows]
    assert [type(s) for s in back[0].result.scores] == [int, int]
    assert [type(s) for s in back[1].result.scores] == [float, float]


@pytest.mark.parametrize(
    "damage",
    [
        lambda row, index: row[:7],  # too short
        lambda row, index: [5, *row[1:]],  # the digest not a text
        lambda row, index: [*row[:5], "1", *row[6:]],  # the seed not a number
        lambda row, index: index.pop(row[4]) and row,  # a part gone
        lambda row, index: index.update({row[2]: [1, 2]}) or row,  # a map of numbers
        lambda row, index: index.update({row[4]: ["abcdef", "ghijkl"]}) or row,  # players
        lambda row, index: [*row[:2], row[4], row[3], row[2], *row[5:]],  # parts swapped
        lambda row, index: [*row[:3], "players", *row[4:]],  # not a part's key
        lambda row, index: index.update({row[7]: [[0, "nonsense", [1], ""], []]}) or row,
    ],
)
def test_a_damaged_row_or_part_is_no_head(games, damage):
    parts: dict = {}
    row = RecordHead.of(games[0]).to_row("d" * 64, parts)
    index = json.loads(json.dumps(parts))
    assert RecordHead.from_row(json.loads(json.dumps(row)), index, {}) is not None
    row = damage(json.loads(json.dumps(row)), index)
    assert RecordHead.from_row(row, index, {}) is None


def test_the_index_reads_each_file_once_and_writes_only_what_changed(
    games, tmp_path, monkeypatch
):
    folder = tmp_path / "recs"
    (folder / "sub").mkdir(parents=True)
    for k, rec in enumerate(games[:5]):
        save_record(rec, folder / ("sub" if k % 2 else "") / f"g{k}.json")
    cache = Cache(tmp_path / "cache")
    count = Counting(monkeypatch)
    first = _load(folder, cache)
    assert first == _load(folder) and count.parsed == 10  # with and without a cache
    assert count.writes == ["base", "base"]  # the heads and the files

    count.parsed, count.writes = 0, []
    assert _load(folder, cache) == first
    assert count.parsed == 0 and count.writes == []  # nothing read, nothing written

    # three more games, one gone: a delta over the base, the base kept as it was
    base = sorted((tmp_path / "cache" / "record-heads").rglob("*"))
    base_bytes = {p: p.read_bytes() for p in base if p.is_file()}
    for k, rec in enumerate(games[5:8]):
        save_record(rec, folder / "sub" / f"new{k}.json")
    (folder / "g0.json").unlink()
    later = _load(folder, cache)
    assert later == _load(folder)
    assert {name for name, _, _ in later} == {"g1.json", "g2.json", "g3.json", "g4.json"} | {
        f"new{k}.json" for k in range(3)
    }
    assert count.writes == ["delta", "delta"] and count.parsed == 3 + 7
    assert all(p.read_bytes() == b for p, b in base_bytes.items())

    # the delta is read over its base: nothing parsed, nothing written
    count.parsed, count.writes = 0, []
    assert _load(folder, cache) == later and count.parsed == 0 and count.writes == []

    # a file rewritten with other bytes under its name is read again
    save_record(games[0], folder / "sub" / "new0.json")
    os.utime(folder / "sub" / "new0.json", ns=(1, 1))
    count.parsed, count.writes = 0, []
    assert _load(folder, cache) == _load(folder) and count.writes == ["delta", "delta"]


def test_a_big_change_folds_the_delta_into_a_new_base(games, tmp_path, monkeypatch):
    folder = tmp_path / "recs"
    folder.mkdir()
    save_record(games[0], folder / "g0.json")
    cache = Cache(tmp_path / "cache")
    count = Counting(monkeypatch)
    _load(folder, cache)
    monkeypatch.setattr(KeptMapping, "DELTA_MIN", 2)
    monkeypatch.setattr(KeptMapping, "DELTA_SHARE", 0.0)
    for k in range(1, 4):
        save_record(games[k], folder / f"g{k}.json")
    count.writes = []
    assert _load(folder, cache) == _load(folder)
    assert count.writes == ["base", "base"]  # three changes, more than a delta may hold
    count.parsed, count.writes = 0, []
    assert _load(folder, cache) == _load(folder) and count.writes == []


@pytest.mark.parametrize(
    "damage",
    [
        {"heads": [], "files": {}},
        {"stamp": "s", "heads": {"x": 1}, "files": {"g0.json": [1, 2]}},
        {"stamp": "s", "heads": {}, "files": {"g0.json": [0, 0, 0, 0, ["not", "a", "sha"]]}},
        "the index as a string",
    ],
)
def test_a_damaged_index_reads_the_files_again(games, tmp_path, damage):
    folder = tmp_path / "recs"
    folder.mkdir()
    for k in range(3):
        save_record(games[k], folder / f"g{k}.json")
    cache = Cache(tmp_path / "cache")
    good = _load(folder, cache)
    for p in (tmp_path / "cache" / "record-heads").rglob("*"):
        if p.is_file():
            p.write_text(json.dumps(damage))
    assert _load(folder, cache) == good
    # entries that parse but hold nonsense for a file's own bytes
    damaged = False
    for p in (tmp_path / "cache" / "record-heads").rglob("*"):
        if p.is_file():
            data = json.loads(p.read_text())
            if isinstance(data, dict) and isinstance(data.get("items"), dict):
                items = data["items"]
                if all(key.endswith(".json") for key in items):  # the files: other bytes
                    data["items"] = {rel: [1, 2, 3, 4, "0" * 64] for rel in items}
                else:  # the heads: rows and parts of nonsense
                    data["items"] = {key: [{"game": 1}, 5] for key in items}
                p.write_text(json.dumps(data))
                damaged = True
    assert damaged and _load(folder, cache) == good


def test_a_delta_over_another_base_is_not_read(tmp_path):
    cache = Cache(tmp_path / "cache")
    kept = KeptMapping(cache, "index", "k" * 64)
    kept.save({"a": 1})
    kept.save({"a": 1, "b": 2})  # a delta now names the base's stamp
    assert KeptMapping(cache, "index", "k" * 64).load() == {"a": 1, "b": 2}
    cache.put_json("index", "k" * 64, {"stamp": "other", "items": {"z": 0}})
    assert KeptMapping(cache, "index", "k" * 64).load() == {"z": 0}
    # damage reads as nothing; a value that is not an object keeps nothing either
    for damage in (["items"], {"stamp": 1, "items": []}, "text"):
        cache.put_json("index", "k" * 64, damage)
        assert KeptMapping(cache, "index", "k" * 64).load() == {}


def test_a_kept_mapping_writes_a_delta_until_it_grows_then_a_new_base(tmp_path, monkeypatch):
    monkeypatch.setattr(KeptMapping, "DELTA_MIN", 3)
    cache = Cache(tmp_path / "cache")
    written = []
    real_put = Cache.put_json
    monkeypatch.setattr(
        Cache,
        "put_json",
        lambda c, kind, key, value: (
            written.append(sorted(value)) or real_put(c, kind, key, value)
        ),
    )
    items: dict = {}
    for k in range(8):
        kept = KeptMapping(cache, "index", "k" * 64)
        assert kept.load() == items
        kept.save(items)  # unchanged: nothing written
        items = {**items, f"key{k}": [k]}
        if k == 2:  # a key of the base gone counts as a change
            items.pop("key0")
        kept.save(items)
    assert KeptMapping(cache, "index", "k" * 64).load() == items
    base, delta = ["items", "stamp"], ["base", "gone", "set"]
    assert written == [base, delta, delta, base, delta, delta, delta, base]


def _two_golden_games(tmp_path):
    """A records folder of two golden games (one tron, one Outpost) and no maps; the
    options of build_site that build it quietly, with a cache of its own."""
    golden = Path(__file__).resolve().parents[1] / "sim" / "golden"
    (tmp_path / "maps").mkdir()
    (tmp_path / "recs").mkdir()
    for name in ("tron-cross-voronoi-chambers", "outpost-lakes-random"):
        (tmp_path / "recs" / f"{name}.json.gz").write_bytes(
            (golden / f"{name}.json.gz").read_bytes()
        )
    return dict(
        records_dir=tmp_path / "recs",
        cache_dir=tmp_path / "cache",
        games=0,
        progress=False,
        log=lambda m: None,
    )


def test_a_page_written_from_the_index_of_meta_data_is_the_page_first_written(tmp_path):
    """The index of every game's meta data keeps only what lists and keys need; a game
    page written again from it (its file gone from the site) reads the rest from the
    game's own cache entry, and comes out byte for byte as it was, turning points,
    turns and all."""
    from atlas.render.site.build import build_site
    from atlas.render.site.entries import INDEXED_META

    options = _two_golden_games(tmp_path)
    first = build_site(tmp_path / "maps", tmp_path / "site", **options)
    pages = {g.page: (tmp_path / "site" / g.page).read_bytes() for g in first.games}
    assert len(pages) == 2  # with what only the page needs: turning points, overlays
    assert any(b'id="v-turning"' in page for page in pages.values())
    assert any(b'id="v-overlays"' in page for page in pages.values())
    for rel in pages:
        (tmp_path / "site" / rel).unlink()
    again = build_site(tmp_path / "maps", tmp_path / "site", **options)
    assert again.cache_misses == 0
    assert {g.page: (tmp_path / "site" / g.page).read_bytes() for g in again.games} == pages
    # what the build keeps of each game afterwards is the index's part alone
    assert all(set(g.meta) <= set(INDEXED_META) and g.meta_part for g in again.games)


def test_a_featured_games_sentence_reads_its_measure_from_the_games_own_entry(tmp_path):
    """A season's index keeps only what picks the featured game: the sentence on why a
    map features it names the charted measure, read from the game's own cache entry."""
    from atlas.render.site.cache import Cache
    from atlas.render.site.entries import INDEXED_META, GameEntry
    from atlas.render.site.pages import _why_featured

    whole = {
        "interest": {"clean": True, "comeback": 0.25, "decisive": True, "turns": 9},
        "series": [{"name": "Territory", "phrase": "Voronoi territory", "unit": "cells"}],
        "has_cpu": True,
        "record_bytes": 700,
    }
    cache = Cache(tmp_path / "cache")
    cache.put_json("meta", "k" * 64, whole)
    part = {k: whole[k] for k in INDEXED_META}
    assert "series" not in part
    e = GameEntry("g", None, meta=part, replay_key="k" * 64, _cache=cache, meta_part=True)
    said = _why_featured(e)
    assert "25 % of the total in Voronoi territory" in said
    assert said == _why_featured(GameEntry("g", None, meta=dict(whole)))


def test_the_meta_index_keeps_rows_that_give_back_each_games_part(tmp_path):
    """Each game's row in the index of meta data gives back what the game's own entry
    holds of INDEXED_META (its interest as atlas.render.viewer.interest made it); a
    damaged row sends the build to the game's own entry, with the same pages."""
    from atlas.render.site.build import build_site
    from atlas.render.site.cache import Cache
    from atlas.render.site.entries import INDEXED_META, meta_of_row

    options = _two_golden_games(tmp_path)
    first = build_site(tmp_path / "maps", tmp_path / "site", **options)
    cache = Cache(tmp_path / "cache")
    [index_file] = [p for p in (tmp_path / "cache" / "replay-metas").rglob("*") if p.is_file()]
    items = json.loads(index_file.read_text())["items"]
    assert len(items) == 2
    for g in first.games:
        whole = cache.get_json("meta", g.replay_key)
        assert meta_of_row(items[g.replay_key]) == {k: whole[k] for k in INDEXED_META}
        assert whole["interest"]["key"][3] == whole["interest"]["turns"] > 0
    pages = {g.page: (tmp_path / "site" / g.page).read_bytes() for g in first.games}
    damaged = {k: "not a row" for k in items}
    index_file.write_text(json.dumps({"stamp": "s", "items": damaged}))
    for rel in pages:
        (tmp_path / "site" / rel).unlink()
    again = build_site(tmp_path / "maps", tmp_path / "site", **options)
    assert {g.page: (tmp_path / "site" / g.page).read_bytes() for g in again.games} == pages
    assert [g.meta_part for g in again.games] == [False, False]  # read whole instead
