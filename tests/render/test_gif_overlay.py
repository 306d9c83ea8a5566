"""GIFs with one overlay (``atlas replay --overlay``, ``Record.gif(overlay=)``): the
overlay's colours where the Python kernels say, the same frames, clear errors."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from render_helpers import play_record

from atlas.analysis.articulation import articulation_points
from atlas.analysis.voronoi import voronoi_partition
from atlas.cli import main
from atlas.errors import ArgumentError
from atlas.maps import parse_map
from atlas.render import palette as P
from atlas.render.gif import record_gif_bytes
from atlas.render.registry import render_of
from atlas.render.replay import record_frames
from atlas.sim.records import replay_states

BAND = 20  # the caption band above the board


def _rgb_frames(data: bytes) -> list[np.ndarray]:
    out = []
    with Image.open(io.BytesIO(data)) as im:
        for i in range(im.n_frames):
            im.seek(i)
            out.append(np.asarray(im.convert("RGB")))
    return out


def _centre(k: int, cell: tuple[int, int]) -> tuple[int, int]:
    return BAND + cell[0] * k + k // 2, cell[1] * k + k // 2


@pytest.fixture()
def tron_game(tron25):
    rec = play_record("tron", tron25, seed=1)
    return rec, replay_states(rec)


def test_tron_voronoi_gif_tints_cells_by_the_kernel(tmp_path, tron25, tron_game):
    rec, states = tron_game
    record = tmp_path / "game.json"
    rec.save(record)
    plain, shaded = tmp_path / "plain.gif", tmp_path / "voronoi.gif"
    assert main(["replay", str(record), str(plain)]) == 0
    assert main(["replay", str(record), str(shaded), "--overlay", "voronoi"]) == 0
    frames = _rgb_frames(shaded.read_bytes())
    assert len(frames) == len(_rgb_frames(plain.read_bytes())) == len(states)
    k = render_of("tron").cell_px(tron25.shape)
    checked = 0
    for t in (5, len(states) // 2):
        state = states[t]
        free = ~np.asarray(state.blocked, dtype=bool)
        heads = [(int(r), int(c)) for r, c in state.heads]
        owner = voronoi_partition(free, heads)
        for seat in (0, 1):
            want = P.hex_to_rgb(P.PALETTE_HEX[P.PLAYER_TINT[seat]])
            cells = np.argwhere(free & (owner == seat))
            assert len(cells) > 0
            for r, c in cells[:: max(1, len(cells) // 12)]:
                y, x = _centre(k, (int(r), int(c)))
                assert tuple(frames[t][y, x]) == want, (t, seat, r, c)
                checked += 1
        # ties stay white
        for r, c in np.argwhere(free & (owner == -2))[:5]:
            y, x = _centre(k, (int(r), int(c)))
            assert tuple(frames[t][y, x]) == P.hex_to_rgb(P.PALETTE_HEX[P.FREE])
    assert checked > 20


def test_tron_articulation_rings_the_cut_cells(tron25, tron_game):
    rec, states = tron_game
    frames = list(record_frames(rec, states, overlay="articulation"))
    assert len(frames) == len(states)
    t = len(states) * 3 // 4
    state = states[t]
    cuts = set(articulation_points(~np.asarray(state.blocked, dtype=bool)))
    rings = {m.cell for m in frames[t].marks if m.shape == "ring"}
    assert rings == cuts and cuts


def test_isolation_reachable_dots():
    iso = parse_map(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n",
        game="isolation",
        name="tiny",
    )
    rec = play_record("isolation", iso, seed=3)
    states = replay_states(rec)
    frames = list(record_frames(rec, states, overlay="reachable"))
    dots = {m.cell for m in frames[0].marks if m.shape == "dot"}
    assert dots == {(int(r), int(c)) for r, c in np.argwhere(~np.asarray(states[0].blocked))}


def test_unknown_overlay_is_a_usage_error_naming_the_choices(tmp_path, tron_game, capsys):
    rec, _ = tron_game
    record = tmp_path / "game.json"
    rec.save(record)
    with pytest.raises(SystemExit) as info:
        main(["replay", str(record), str(tmp_path / "x.gif"), "--overlay", "supply"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "supply" in err and "voronoi, articulation" in err
    assert "Traceback" not in err
    assert not (tmp_path / "x.gif").exists()


def test_unknown_overlay_is_an_argument_error_in_the_api(tmp_path, tron_game):
    rec, _ = tron_game
    with pytest.raises(ArgumentError, match="overlay: .*voronoi, articulation"):
        rec.gif(tmp_path / "x.gif", overlay="supply")
    with pytest.raises(ArgumentError, match="overlay"):
        rec.gif(tmp_path / "x.gif", overlay=3)  # type: ignore[arg-type]
    assert not (tmp_path / "x.gif").exists()
    with pytest.raises(ValueError, match="its overlays"):
        record_gif_bytes(rec, overlay="nope")
    out = rec.gif(tmp_path / "v.gif", overlay="voronoi")
    assert out.stat().st_size > 0


def test_connect5_threat_rings():
    from atlas.games.connect5.painter import threat_cells

    c5 = parse_map("connect5 7 6 4\n", game="connect5", name="small")
    rec = play_record("connect5", c5, seed=4)
    states = replay_states(rec)
    frames = list(record_frames(rec, states, overlay="threats"))
    assert len(frames) == len(states)
    seen = 0
    for frame, state in zip(frames, states):
        want = {cell for cell, _ in threat_cells(state.board, int(state.inarow))}
        rings = {m.cell for m in frame.marks if m.shape == "ring" and m.color != P.WARNING}
        assert rings == want
        seen += len(want)
    assert seen > 0


def test_outpost_supply_lines():
    from atlas.games.outpost.painter import supply_paths

    lines = [f"{x} {y}" for x in range(15, 35) for y in range(15, 40)]
    gm = parse_map("\n".join(lines) + "\n", game="outpost", name="lake")
    rec = play_record("outpost", gm, seed=5, params={"T": 40})
    states = replay_states(rec)
    frames = list(record_frames(rec, states, max_frames=10, overlay="supply"))
    plain = list(record_frames(rec, states, max_frames=10))
    assert len(frames) == len(plain)
    frame, state = frames[-1], states[frames[-1].turn]
    for seat in range(4):
        posts = [(int(r), int(c)) for r, c in state.outposts[seat]]
        want = {c for p in supply_paths(gm, state.owner, posts, seat) if p for c in p}
        dots = {
            m.cell for m in frame.marks if m.shape == "dot" and m.color == P.PLAYER_DARK[seat]
        }
        assert dots == want and want
