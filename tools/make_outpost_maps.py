"""Author atlas's own Outpost maps (maps/outpost/): lakes and rivers, not noise.

Run from the repository root: ``python tools/make_outpost_maps.py``.  Each map is drawn
on the 50x50 quarter from a few features whose random details come from a seeded
``numpy.random.Generator``, so the same script writes the same files:

* a *lake* is a smooth blob: an ellipse whose radius wobbles with a few low harmonics
  of the angle (no pixel noise);
* a *river* is a meandering course (a sine-generated curve, the classic model of river
  meanders), drawn with a width that changes downstream; rivers start at the board's
  outer edge or at a lake and end inland, so they never cut the land in two.

Rivers are drawn first and kept whole; the lakes then fill exactly the rest of the 500
water cells (the lake cells deepest inside their blob win).  A pocket of land shut in by
water is flooded and the shallowest lake shore gives the cells back, so the quarter's
land stays 4-connected; the corners of the quarter and the land around the home are
kept dry.  Every map is checked with ``atlas validate``'s rules and must pass without a
single warning; a draw that does not is redrawn from the same generator.

References
----------
W. B. Langbein and L. B. Leopold, "River meanders: theory of minimum variance",
U.S. Geological Survey Professional Paper 422-H (1966): the sine-generated curve.
"Project 4: Outpost", COMS 4444 (Columbia University), fall 2014: 500 water cells, corners
land, land never partitioned, "lakes and rivers".
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from atlas.analysis.components import label_components  # noqa: E402
from atlas.games.outpost.format import HOMES as OUTPOST_HOMES  # noqa: E402
from atlas.games.outpost.format import QUARTER as OUTPOST_QUARTER  # noqa: E402
from atlas.games.outpost.format import full_water as outpost_full_water  # noqa: E402
from atlas.games.outpost.validation import OUTPOST_WATER_CELLS, validate_text  # noqa: E402
from atlas.maps import GameMap, format_map  # noqa: E402

N = OUTPOST_QUARTER
SEED = 2014
#: Cells within this Manhattan distance of the home (x=0, y=0) stay land.
HOME_DRY = 14
#: Cells within this Chebyshev distance of the other three corners stay land.
CORNER_DRY = 2
#: A draw whose shut-in land exceeds this many cells is redrawn, not flooded.
MAX_FLOODED = 40
ATTEMPTS = 200

_Y, _X = np.mgrid[0:N, 0:N].astype(np.float64)


def lake(
    cx: float,
    cy: float,
    radius: float,
    rng: np.random.Generator,
    *,
    stretch: float = 1.0,
    angle: float | None = None,
    wobble: float = 0.18,
) -> np.ndarray:
    """Depth of a smooth blob lake: 1 at its centre, 0 on its shore, negative outside.

    Depths are relative, so when the lakes must give up area they all shrink alike."""
    a = rng.uniform(0, np.pi) if angle is None else angle
    dx, dy = _X - cx, _Y - cy
    u = (dx * np.cos(a) + dy * np.sin(a)) / stretch
    v = -dx * np.sin(a) + dy * np.cos(a)
    phi = np.arctan2(v, u)
    r = np.hypot(u, v)
    shore = np.ones_like(phi)
    for k in (2, 3, 4):
        shore += rng.uniform(0, wobble / (k - 1)) * np.cos(k * phi + rng.uniform(0, 2 * np.pi))
    return 1.0 - r / (radius * shore)


def meander(
    start: tuple[float, float],
    heading: float,
    length: float,
    rng: np.random.Generator,
    *,
    amplitude: float = 0.9,
    wavelength: float = 14.0,
    step: float = 0.5,
) -> np.ndarray:
    """Points (x, y) of a meandering course, ``length`` cells long at most.

    The course is a sine-generated curve (Langbein and Leopold's model of river
    meanders): its direction is ``heading + amplitude * sin(2 pi s / wavelength)`` at
    distance ``s`` along it, with a random phase, a wavelength that drifts by up to a
    fifth and a heading that wanders slowly.  It stops at the edge of the quarter.
    """
    x, y = start
    phase = rng.uniform(0, 2 * np.pi)
    rate = 2 * np.pi / wavelength
    drift = 0.0
    pts = [(x, y)]
    for _ in range(int(length / step)):
        phase += step * rate * (1.0 + 0.2 * np.sin(phase / 3.0 + drift))
        drift = float(np.clip(drift + rng.normal(0.0, 0.03), -0.35, 0.35))
        theta = heading + drift + amplitude * np.sin(phase)
        x, y = x + step * np.cos(theta), y + step * np.sin(theta)
        if not (0.0 <= x <= N - 1 and 0.0 <= y <= N - 1):
            break
        pts.append((x, y))
    return np.array(pts)


def river(points: np.ndarray, width: tuple[float, float]) -> np.ndarray:
    """Depth of a river along ``points`` whose half-width grows from width[0] to
    width[1]; 0.75 at least keeps a diagonal course 4-connected."""
    d = np.hypot(_X[..., None] - points[:, 0], _Y[..., None] - points[:, 1])
    nearest = d.argmin(axis=2)
    half = np.linspace(width[0], width[1], len(points))[nearest]
    return half - d.min(axis=2)


def _dry_mask() -> np.ndarray:
    dry = (_X + _Y) <= HOME_DRY
    for cx, cy in ((N - 1, 0), (N - 1, N - 1), (0, N - 1)):
        dry |= (np.abs(_X - cx) <= CORNER_DRY) & (np.abs(_Y - cy) <= CORNER_DRY)
    return dry


def compose(rivers: list[np.ndarray], lakes: list[np.ndarray]) -> np.ndarray | None:
    """Exactly 500 water cells ``[row, col]`` from river and lake depths, or None."""
    dry = _dry_mask()
    water = np.zeros((N, N), dtype=bool)
    for depth in rivers:
        water |= depth >= 0
    water &= ~dry
    streams = water.copy()
    budget = OUTPOST_WATER_CELLS - int(water.sum())
    if budget < 0 or not lakes:
        return None
    lake_depth = np.max(lakes, axis=0)
    lake_depth[dry | water] = -np.inf
    order = np.argsort(-lake_depth, axis=None, kind="stable")[:budget]
    if not np.all(np.isfinite(lake_depth.ravel()[order])):
        return None
    water.ravel()[order] = True
    # Flood land shut in by water, then give the shallowest lake shore back.
    labels, n = label_components(~water)
    if n > 1:
        pocket = (labels != labels[0, 0]) & ~water
        if pocket.sum() > MAX_FLOODED or (pocket & dry).any():
            return None
        water |= pocket
        for _ in range(int(water.sum()) - OUTPOST_WATER_CELLS):
            land = ~water
            touch = np.zeros_like(water)
            touch[1:] |= land[:-1]
            touch[:-1] |= land[1:]
            touch[:, 1:] |= land[:, :-1]
            touch[:, :-1] |= land[:, 1:]
            cand = np.where(water & touch & ~streams, lake_depth, np.inf)
            i = np.unravel_index(np.argmin(cand), cand.shape)
            if not np.isfinite(cand[i]):
                return None
            water[i] = False
    return water


# --------------------------------------------------------------------------- the maps


def lakes_map(rng: np.random.Generator) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Lake country: six smooth lakes of different sizes, two of them joined by a brook."""
    centres = [
        (32, 11, 6.0),
        (43, 29, 5.0),
        (20, 33, 6.5),
        (37, 42, 4.0),
        (9, 42, 3.5),
        (24, 20, 3.0),
    ]
    lakes = [
        lake(
            cx + rng.uniform(-1.5, 1.5),
            cy + rng.uniform(-1.5, 1.5),
            r * rng.uniform(0.9, 1.1),
            rng,
            stretch=rng.uniform(1.0, 1.7),
        )
        for cx, cy, r in centres
    ]
    brook = meander((24.0, 34.0), np.arctan2(8, 13), 16, rng, amplitude=0.7, wavelength=9.0)
    return [river(brook, (0.75, 0.8))], lakes


def meander_map(rng: np.random.Generator) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Meander: one long river winds down from the board's top edge and ends in a lake
    near the centre, with oxbow lakes left beside its bends."""
    course = meander(
        (rng.uniform(22, 26), 0.0),
        np.pi / 2 - 0.2,
        52,
        rng,
        amplitude=1.1,
        wavelength=rng.uniform(14, 17),
    )
    end_x, end_y = course[-1]
    lakes = [lake(end_x + 2.0, end_y + 3.5, 4.5, rng, stretch=1.4)]
    for k, side in ((len(course) // 4, 1.0), (len(course) // 2, -1.0)):
        x, y = course[k]
        lakes.append(
            lake(x + side * 8.0, y, 2.8, rng, stretch=2.0, angle=np.pi / 2, wobble=0.1)
        )
    lakes.append(lake(42, 12, 3.0, rng, stretch=1.5))
    return [river(course, (0.8, 1.6))], lakes


def delta_map(rng: np.random.Generator) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Delta: a broad river comes in from the board's left edge and splits twice, into
    four channels fanning out toward the centre, each ending in a small lagoon."""
    trunk = meander((0.0, rng.uniform(30, 33)), -0.15, 17, rng, amplitude=0.4, wavelength=12.0)
    rivers = [river(trunk, (1.6, 1.4))]
    lakes = []
    fork = (float(trunk[-1, 0]), float(trunk[-1, 1]))
    for first in (-0.6, 0.6):
        arm = meander(fork, -0.15 + first, 9, rng, amplitude=0.3, wavelength=10.0)
        rivers.append(river(arm, (1.2, 1.0)))
        split = (float(arm[-1, 0]), float(arm[-1, 1]))
        for second in (-0.45, 0.45):
            direction = -0.15 + first + second
            channel = meander(
                split, direction, rng.uniform(11, 15), rng, amplitude=0.45, wavelength=9.0
            )
            rivers.append(river(channel, (0.95, 0.75)))
            ex, ey = channel[-1]
            lakes.append(
                lake(
                    ex + 2.0 * np.cos(direction),
                    ey + 2.0 * np.sin(direction),
                    3.0,
                    rng,
                    stretch=1.5,
                    angle=direction + np.pi / 2,
                )
            )
    lakes.append(lake(34, 9, 3.5, rng, stretch=1.6))
    return rivers, lakes


def fjords_map(rng: np.random.Generator) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Fjords: narrow winding inlets cut in from the board's outer edges, each ending in
    a small basin, with a few lakes between them."""
    rivers = []
    lakes = []
    inlets = [
        ((rng.uniform(20, 23), 0.0), np.pi / 2),
        ((rng.uniform(36, 40), 0.0), np.pi / 2),
        ((0.0, rng.uniform(20, 23)), 0.0),
        ((0.0, rng.uniform(36, 40)), 0.0),
    ]
    for start, heading in inlets:
        course = meander(
            start,
            heading + rng.uniform(-0.15, 0.15),
            rng.uniform(16, 22),
            rng,
            amplitude=0.6,
            wavelength=rng.uniform(8, 11),
        )
        rivers.append(river(course, (1.4, 0.75)))
        ex, ey = course[-1]
        lakes.append(lake(ex, ey, 2.2, rng, stretch=1.3))
    lakes.append(lake(36, 33, 4.5, rng, stretch=1.4))
    lakes.append(lake(26, 43, 3.0, rng, stretch=1.6))
    lakes.append(lake(44, 45, 2.0, rng))
    return rivers, lakes


MAPS: dict[str, Callable[[np.random.Generator], tuple[list[np.ndarray], list[np.ndarray]]]]
MAPS = {"lakes": lakes_map, "meander": meander_map, "delta": delta_map, "fjords": fjords_map}


def make(name: str, seed: int = SEED) -> str:
    """The text of map ``name``: the first draw that passes every rule with no warning."""
    rng = np.random.default_rng([seed, list(MAPS).index(name)])
    for _ in range(ATTEMPTS):
        water = compose(*MAPS[name](rng))
        if water is None:
            continue
        full = outpost_full_water(water)
        text = format_map(GameMap("outpost", name, full, OUTPOST_HOMES))
        report = validate_text(text, name)
        if report.valid and not report.warnings:
            return text
    raise RuntimeError(f"no valid draw of {name!r} in {ATTEMPTS} attempts")


def write_all(folder: Path = ROOT / "maps" / "outpost", seed: int = SEED) -> list[Path]:
    """Write every map into ``folder``; return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in MAPS:
        path = folder / f"{name}.txt"
        path.write_bytes(make(name, seed).encode("ascii"))
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write_all():
        print(p.relative_to(ROOT))
