"""Two cold builds of one atlas, one worker and two, each with its own cache, write the
same site byte for byte (issue 33: no timestamps, no seconds of games played at fixed
effort, no worker order, no machine paths)."""

from __future__ import annotations

from pathlib import Path

from atlas.render.site.build import build_site

# both seats' first moves are forced (a search that does not run must not report the
# warm-up's figures, which only the first bot of a process plays)
TRON = "9 5\n#########\n#1#     #\n# #  #  #\n#     #2#\n#########\n"
ISOLATION = "isolation 5 5 knight\n1....\n.....\n..#..\n.....\n....2\n"
CONNECT = "connect5 6 5 4\n......\n......\n......\n......\n......\n"

BOTS = {
    "tron": ["wallhugger", "voronoi", "apex"],
    "isolation": ["random", "strong"],
    "connect5": [],
    "outpost": [],
}


def _maps(root: Path) -> Path:
    maps = root / "maps"
    for game, name, text in (
        ("tron", "box", TRON),
        ("isolation", "tiny", ISOLATION),
    ):
        (maps / game).mkdir(parents=True, exist_ok=True)
        (maps / game / f"{name}.txt").write_text(text)
    return maps


def _files(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file()
    }


def test_two_cold_builds_write_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    maps = _maps(tmp_path)
    sites = []
    for jobs in (1, 2):
        out = tmp_path / f"site{jobs}"
        result = build_site(
            maps,
            out,
            cache_dir=tmp_path / f"cache{jobs}",
            progress=False,
            games=1,
            jobs=jobs,
            bots=BOTS,
            log=lambda m: None,
        )
        assert result.built_anything and not result.problems, result.problems
        sites.append(_files(out))
    one, two = sites
    assert sorted(one) == sorted(two)
    differ = [name for name in one if one[name] != two[name]]
    assert not differ, differ
    assert any(name.startswith("games/") for name in one)  # games were played
