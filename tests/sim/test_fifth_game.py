"""A fifth game joins atlas by the documented path, and every layer takes it in.

Tic-tac-toe (``tests/sim/toygame/``) is one package whose modules are named by role (a
map ``format`` of its own, ``rules``, ``bots``, ``painter``, ``validation``) and one
``register_game`` call (``toygame.register``); nothing of atlas is edited.  Its maps are
read, recognised and written by atlas's map functions through its format.  It is played
by the built-in random bot, replayed and verified, drawn as a GIF and in the viewer's
data, served over the JSON-lines protocol, and published by ``atlas build``.  Its
submitted boards are checked by ``atlas validate``, :func:`atlas.validate` and the site's
validation page, which name no game.
"""

from __future__ import annotations

import io
import json

import pytest
import toygame
from PIL import Image

import atlas
from atlas.arena.protocols import serve_builtin_bot
from atlas.arena.runner import play_game
from atlas.bots.registry import bot_names, make_bot
from atlas.cli import main
from atlas.errors import MapFormatError
from atlas.games import register_game
from atlas.maps import format_map, map_format, parse_map, read_map
from atlas.maps.validation import NoValidationError, validating_games
from atlas.render.gif import record_gif_bytes
from atlas.render.site.build import build_site
from atlas.render.viewer import viewer_data
from atlas.sim.records import verify_record
from atlas.sim.registry import game_names, get_game

BOARD = "tictactoe 3\n...\n...\n...\n"


@pytest.fixture
def tictactoe():
    toygame.register()
    yield get_game("tictactoe")
    toygame.unregister()


def test_the_toy_game_s_maps_are_read_through_its_own_format(tictactoe, tmp_path):
    gm = parse_map("; four in a row\ntictactoe 4\n....\n.#..\n....\n....\n", name="big")
    assert gm.game == "tictactoe" and gm.meta["inarow"] == 4 and gm.shape == (4, 4)
    assert gm.blocked.sum() == 1 and gm.blocked[1, 1] and gm.starts == ()
    assert format_map(gm) == "tictactoe 4\n....\n.#..\n....\n....\n"
    assert parse_map(format_map(gm), name="big") == gm
    assert map_format("tictactoe").first_line == "'tictactoe N'"
    bad = tmp_path / "bad.txt"
    bad.write_text("tictactoe 9\n...\n...\n")
    with pytest.raises(MapFormatError, match=r"bad.txt:1: 9 in a row cannot be made on a 3x2"):
        read_map(bad)
    with pytest.raises(MapFormatError, match=r"'x y' \(outpost\), 'tictactoe N' or 'GAME W H'"):
        parse_map("what is this\n")
    # four in a row is what the rules play to, from the map
    assert tictactoe.initial_state(gm).inarow == 4


def test_the_toy_game_is_one_folder_of_role_modules_and_one_registry_line():
    from pathlib import Path

    from atlas.games import ROLES, game_modules

    folder = Path(toygame.__file__).parent
    files = sorted(p.name for p in folder.glob("*.py"))
    assert files == [
        "__init__.py",
        "bots.py",
        "format.py",
        "painter.py",
        "rules.py",
        "validation.py",
    ]
    assert {f.removesuffix(".py") for f in files} - {"__init__"} <= set(ROLES)
    toygame.register()
    try:
        found = game_modules("tictactoe")
    finally:
        toygame.unregister()
    assert (found.format, found.rules, found.bots, found.painter, found.validation) == (
        "toygame.format",
        "toygame.rules",
        "toygame.bots",
        "toygame.painter",
        "toygame.validation",
    )
    assert (found.analysis, found.protocol) == (None, None)
    # nothing of atlas names it
    atlas_dir = Path(__file__).resolve().parents[2] / "atlas"
    assert not [p for p in atlas_dir.rglob("*.py") if "tictactoe" in p.read_text()]


def test_without_its_registry_line_the_toy_game_is_unknown():
    assert "tictactoe" not in game_names() and map_format("tictactoe") is None
    with pytest.raises(MapFormatError, match="cannot tell which game"):
        parse_map(BOARD)


def test_the_toy_game_is_played_replayed_and_drawn(tictactoe):
    assert "tictactoe" in game_names() and bot_names("tictactoe") == ["random", "first"]
    gm = parse_map(BOARD, name="board")
    assert gm.game == "tictactoe"
    record = play_game("tictactoe", gm, ["first", "random"], seed=3, time_limit=1.0)
    verify_record(record)
    assert record.result.reason in ("win", "draw")
    assert [s.status for s in record.statuses] == ["ok", "ok"]
    # "first" takes the first free cell in reading order on every move it makes
    assert record.turns[0].moves[0] == [0, 0]
    gif = record_gif_bytes(record)
    with Image.open(io.BytesIO(gif)) as im:
        assert im.n_frames == len(record.turns) + 1
    data = viewer_data(record)
    assert data["w"] == 3 and len(data["frames"]) == len(record.turns) + 1
    # seat 1's marks are circles (shape 0), seat 2's crosses (shape 6)
    last_marks = {(m[0], m[1]): m[2] for m in data["frames"][-1]["m"]}
    for turn in record.turns:
        ((seat, cell),) = turn.moves.items()
        assert last_marks[tuple(cell)] == (0 if seat == 0 else 6)


def test_the_toy_game_speaks_json_lines(tictactoe):
    gm = parse_map(BOARD, name="board")
    state = tictactoe.initial_state(gm)
    lines = [
        {
            "type": "start",
            "game": "tictactoe",
            "seat": 0,
            "players": 2,
            "map_name": "board",
            "map": BOARD,
            "params": {},
        },
        {
            "type": "turn",
            "turn": 0,
            "seat": 0,
            "time": 1.0,
            "state": tictactoe.state_to_json(state),
            **tictactoe.turn_json(state, 0),
        },
        {"type": "end"},
    ]
    out = io.BytesIO()
    feed = io.BytesIO("".join(json.dumps(m) + "\n" for m in lines).encode())
    assert serve_builtin_bot("tictactoe", "first", stdin=feed, stdout=out) == 0
    assert json.loads(out.getvalue()) == {"move": [0, 0]}
    assert tictactoe.turn_json(state, 0)["legal"][:2] == [[0, 0], [0, 1]]
    assert make_bot("tictactoe", "random").name == "random"


def test_atlas_build_publishes_the_toy_game(tictactoe, tmp_path):
    folder = tmp_path / "maps" / "tictactoe"
    folder.mkdir(parents=True)
    (folder / "board.txt").write_text(BOARD)
    assert read_map(folder / "board.txt").game == "tictactoe"
    result = build_site(
        tmp_path / "maps",
        tmp_path / "site",
        jobs=1,
        games=1,
        cache_dir=None,
        progress=False,
        log=lambda m: None,
    )
    assert result.problems == []
    assert len(result.games) == 2  # random and first, in both seats
    index = (tmp_path / "site" / "index.html").read_text()
    assert "Tic-tac-toe" in index
    page = (tmp_path / "site" / result.maps[0].page).read_text()
    assert "board" in page and "free cells" in page.replace("_", " ")
    for entry in result.games:
        assert (tmp_path / "site" / entry.page).is_file()
    # the map's featured game has its GIF (the others' pages make theirs in the browser)
    featured = result.maps[0].featured
    assert featured is not None and featured.gif is not None
    assert (tmp_path / "site" / featured.gif).stat().st_size > 100
    assert [e for e in result.games if e.gif] == [featured]
    standings = (tmp_path / "site" / "standings.html").read_text()
    assert "first" in standings and "random" in standings


SQUASHED = "tictactoe 3\n##.#\n#..#\n"  # 4x2, and five of its eight cells blocked
ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def test_atlas_validate_checks_the_toy_game_s_boards(tictactoe, tmp_path, capsys):
    assert validating_games() == ("outpost", "tictactoe")
    folder = tmp_path / "maps" / "tictactoe"
    folder.mkdir(parents=True)
    (folder / "board.txt").write_text(BOARD)
    (folder / "squashed.txt").write_text(SQUASHED)
    (folder / "garbled.txt").write_text("tictactoe 3\n..x\n")
    # the folder names the game; a sibling folder of another validating game is
    # checked by that game's rules
    (tmp_path / "maps" / "outpost").mkdir()
    outpost = (ROOT / "maps" / "outpost" / "lakes.txt").read_text()
    (tmp_path / "maps" / "outpost" / "lakes.txt").write_text(outpost)
    assert main(["validate", str(tmp_path / "maps")]) == 1
    out = capsys.readouterr().out
    assert "lakes.txt: valid" in out and "board.txt: valid" in out
    assert "squashed.txt: invalid (2 errors)" in out
    assert "squashed.txt: error [square] the board is 4x2" in out
    assert "squashed.txt: error [blocked] 5 of the 8 cells are blocked" in out
    assert "garbled.txt:2: error [format]" in out
    assert out.rstrip().endswith("4 files: 2 valid, 2 invalid")
    # outside a game's folder the file's format tells which rules apply
    loose = tmp_path / "loose.txt"
    loose.write_text(SQUASHED)
    assert main(["validate", "--json", str(loose)]) == 1
    (data,) = json.loads(capsys.readouterr().out)
    assert [e["rule"] for e in data["errors"]] == ["square", "blocked"]
    assert data["errors"][1]["cell"] == [0, 0] and len(data["errors"][1]["region"]) == 5
    # a file no validating game's format claims: say which game
    odd = tmp_path / "odd.txt"
    odd.write_text("what is this\n")
    with pytest.raises(SystemExit) as exc:
        main(["validate", str(odd)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "cannot tell which game's map" in err and "one of outpost, tictactoe" in err
    assert main(["validate", "--game", "tictactoe", str(odd)]) == 1
    assert "odd.txt:1: error [format]" in capsys.readouterr().out


def test_atlas_validate_from_python_checks_the_toy_game(tictactoe, tmp_path):
    report = atlas.validate(SQUASHED)
    assert report.game == "tictactoe" and not report.valid
    assert [p.rule for p in report.errors] == ["square", "blocked"]
    assert report.picture()[:4] == b"\x89PNG"
    assert "data:image/png" in report._repr_html_()
    good = tmp_path / "board.txt"
    good.write_text(BOARD)
    assert atlas.validate(good).valid and atlas.validate(good).game == "tictactoe"
    # Outpost's boards are still Outpost's, by their format
    lakes = (ROOT / "maps" / "outpost" / "lakes.txt").read_text()
    assert atlas.validate(lakes).game == "outpost"


def test_the_validation_page_shows_the_toy_game(tictactoe, tmp_path):
    folder = tmp_path / "maps" / "tictactoe"
    folder.mkdir(parents=True)
    (folder / "board.txt").write_text(BOARD)
    (folder / "squashed.txt").write_text("tictactoe 3\n#.#\n...\n#.#\n")
    result = build_site(
        tmp_path / "maps",
        tmp_path / "site",
        jobs=1,
        games=1,
        cache_dir=None,
        progress=False,
        log=lambda m: None,
    )
    page = (tmp_path / "site" / "validation.html").read_text()
    assert "<h1>Outpost and Tic-tac-toe map validation</h1>" in page
    assert "<code>blocked</code>" in page and "4 of the 9 cells are blocked" in page
    bad = next(m for m in result.maps if m.name == "squashed")
    assert bad.validation is not None and not bad.validation["valid"]
    assert (tmp_path / "site" / bad.images["validation"]).stat().st_size > 100
    assert "The board, the cells of its problems ringed" in page
    assert any("invalid Tic-tac-toe map" in p for p in result.problems)


def test_a_game_without_validation_rules_says_so(tictactoe, tmp_path, capsys):
    tron = sorted((ROOT / "maps" / "tron").glob("*.txt"))[0]
    with pytest.raises(SystemExit) as exc:
        main(["validate", str(tron)])
    assert exc.value.code == 2
    assert f"{tron}: tron maps have no validation rules" in capsys.readouterr().err
    with pytest.raises(NoValidationError, match="^tron maps have no validation rules"):
        atlas.validate(tron.read_text(), "tron")
    with pytest.raises(atlas.UnknownNameError, match="tron maps have no validation rules"):
        atlas.validate(tron)
    with pytest.raises(SystemExit):  # a folder named after the game: the folder is named
        main(["validate", str(tron.parent)])
    assert f"{tron.parent}: tron maps have no validation rules" in capsys.readouterr().err
    # the folder of maps of games without rules is left out of a folder's check
    assert main(["validate", str(ROOT / "maps")]) == 0
    assert "rings.txt" not in capsys.readouterr().out
    # a game registered as not validating its maps has no rules, whatever its package
    register_game("tictactoe", "toygame", validates=False)
    with pytest.raises(NoValidationError, match="^tictactoe maps have no validation rules"):
        atlas.validate(BOARD, "tictactoe")
