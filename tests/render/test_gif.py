"""GIF replays: one frame per turn, the right colours where the game says, small files."""

from __future__ import annotations

import io

import imageio.v3 as iio
import numpy as np
import pytest
from PIL import Image
from render_helpers import play_record

from atlas.maps import parse_map
from atlas.render import palette as P
from atlas.render.frames import sample_turns
from atlas.render.gif import HOLD_LAST_MS, encode_gif, record_gif_bytes, write_gif
from atlas.render.registry import render_of
from atlas.render.replay import record_frames
from atlas.render.viewer import viewer_data
from atlas.sim.records import replay_states
from atlas.sim.registry import get_info

MAX_OUTPOST_FRAMES = get_info("outpost").max_frames


def _frames(data: bytes) -> list[np.ndarray]:
    return list(iio.imread(data, index=None, mode="RGB", extension=".gif"))


def test_encode_gif_round_trips_frames_and_durations():
    a = np.full((8, 10), P.FREE, np.uint8)
    b = a.copy()
    b[2, 3] = P.PLAYER[0]
    c = b.copy()
    c[7, 9] = P.PLAYER[1]
    data = encode_gif([a, b, c], [100, 100, 900])
    frames = _frames(data)
    assert len(frames) == 3
    for got, want in zip(frames, (a, b, c)):
        assert np.array_equal(got, P.to_rgb(want))
    with Image.open(io.BytesIO(data)) as im:
        durations = []
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
    assert durations == [100, 100, 900]


def test_tron_gif_one_frame_per_turn_heads_and_trails(tmp_path, tron25):
    rec = play_record("tron", tron25, seed=1)
    states = replay_states(rec)
    path = tmp_path / "game.gif"
    write_gif(rec, path)
    frames = _frames(path.read_bytes())
    assert len(frames) == len(rec.turns) + 1
    k = render_of("tron").cell_px(tron25.shape)
    band = 20  # caption band above the board
    # the frame before the end (at the end both heads may share one cell)
    t = len(states) - 2
    shown, final = frames[t], states[t]
    heads = {(int(final.heads[s][0]), int(final.heads[s][1])) for s in range(2)}
    assert len(heads) == 2
    for seat in range(2):
        r, c = (int(v) for v in final.heads[seat])
        assert tuple(shown[band + r * k + 1, c * k + 1]) == P.hex_to_rgb(P.PLAYER_HEX[seat])
    # every cell a cycle left is drawn in its trail colour
    for seat in range(2):
        want = P.hex_to_rgb(P.PALETTE_HEX[P.PLAYER_TRAIL[seat]])
        for s in states[:t]:
            r, c = (int(v) for v in s.heads[seat])
            assert tuple(shown[band + r * k + 1, c * k + 1]) == want, (seat, r, c)
    # and free cells nobody visited stay white
    visited = {
        (int(s.heads[p][0]), int(s.heads[p][1])) for s in states[: t + 1] for p in range(2)
    }
    free_rgb = P.hex_to_rgb(P.PALETTE_HEX[P.FREE])
    for r, c in np.argwhere(tron25.free):
        if (int(r), int(c)) not in visited:
            assert tuple(shown[band + r * k + 1, c * k + 1]) == free_rgb
    with Image.open(path) as im:
        im.seek(im.n_frames - 1)
        assert im.info["duration"] == HOLD_LAST_MS


def test_tron_25x25_gif_is_small(tron25):
    rec = play_record("tron", tron25, seed=3)
    assert len(rec.turns) > 100  # a long game, as the size budget means
    data = record_gif_bytes(rec)
    assert len(data) < 300_000

    # the palette is the fixed atlas palette: no colour outside it appears
    def packed(rgb: np.ndarray) -> np.ndarray:
        rgb = rgb.reshape(-1, 3).astype(np.int64)
        return (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]

    allowed = set(packed(P.PALETTE).tolist())
    for frame in _frames(data)[:: max(1, len(rec.turns) // 10)]:
        assert set(np.unique(packed(frame)).tolist()) <= allowed


def test_sample_turns_documented_sampling():
    assert sample_turns(5, None) == [0, 1, 2, 3, 4]
    picks = sample_turns(501, MAX_OUTPOST_FRAMES)
    assert picks[0] == 0 and picks[-1] == 500
    assert len(picks) <= MAX_OUTPOST_FRAMES + 1
    steps = set(np.diff(picks[:-1]).tolist())
    assert steps == {-(-501 // MAX_OUTPOST_FRAMES)}


def test_isolation_and_connect5_frames():
    iso = parse_map(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n",
        game="isolation",
        name="tiny",
    )
    rec = play_record("isolation", iso, seed=3)
    states = replay_states(rec)
    frames = list(record_frames(rec, states))
    assert len(frames) == len(states)
    last = frames[-1]
    burned = np.asarray(states[-1].blocked) & ~iso.blocked
    assert ((last.grid == P.PLAYER_TINT[0]) | (last.grid == P.PLAYER_TINT[1]))[burned].all()
    assert (last.grid[iso.blocked] == P.WALL).all()
    c5 = parse_map("connect5 6 5 4\n", game="connect5", name="small")
    rec = play_record("connect5", c5, seed=4)
    states = replay_states(rec)
    frames = list(record_frames(rec, states))
    board = np.asarray(states[-1].board)
    discs = {(m.cell, m.color) for m in frames[-1].marks if m.shape == "circle"}
    for seat in (0, 1):
        for r, c in np.argwhere(board == seat + 1):
            assert ((int(r), int(c)), P.PLAYER[seat]) in discs


def test_viewer_diffs_rebuild_every_frame(tron25):
    rec = play_record("tron", tron25, seed=2)
    states = replay_states(rec)
    data = viewer_data(rec, states)
    frames = list(record_frames(rec, states))
    assert len(data["frames"]) == len(frames)
    grid = np.array(data["base"], dtype=np.int64)
    for got, want in zip(data["frames"], frames):
        d = np.array(got["d"], dtype=np.int64).reshape(-1, 2)
        grid[d[:, 0]] = d[:, 1]
        assert np.array_equal(grid.reshape(tron25.shape), want.grid)
        assert got["t"] == want.turn
    assert data["last"] == len(rec.turns)


@pytest.mark.slow
def test_outpost_gif_is_sampled_and_bounded():
    lines = [f"{x} {y}" for x in range(15, 35) for y in range(15, 40)]
    gm = parse_map("\n".join(lines) + "\n", game="outpost", name="lake")
    rec = play_record("outpost", gm, seed=5, params={"T": 300})
    data = record_gif_bytes(rec)
    with Image.open(io.BytesIO(data)) as im:
        assert im.n_frames == len(sample_turns(len(rec.turns) + 1, MAX_OUTPOST_FRAMES))
    assert len(data) < 4_000_000
