"""The ``planner`` Outpost bot: targets by coverage, outposts assigned to them, a short
lookahead over the coming seasons, and moves checked against supply-line cuts.

Each turn (``docs/bots.md`` gives the measured effect of each part):

1. **Values.**  Every board cell is worth 1 (land and water count alike in the final
   result) plus, while the empire grows, a premium on the resource it runs short of
   against ``L`` and ``W``; cells nearer an enemy home than ours are discounted early
   on, since the enemy will claim them first.
2. **Targets** (facility location).  The enemy outposts are held where they are; a
   target cell is worth the value of the cells an outpost there would win (within
   ``r`` and strictly nearer than every enemy outpost).  ``k`` targets -- our
   outposts plus those the coming seasons will build -- are chosen greedily, each
   the best gain given the ones before (lazy greedy on a submodular coverage, so the
   targets spread out by themselves); cells next to an enemy outpost and cells no
   outpost could reach before the end are left out, and last turn's targets get a
   small bonus so that plans do not flicker.  Targets whose supply lines the enemy
   could cut by closing in two steps (every enemy distance two shorter, then the
   supply lines of the targets searched) are dropped and the targets chosen again.
3. **Assignment.**  Our outposts, and the outposts still to be built at home, are
   assigned to distinct targets at least total squared travel (Hungarian method):
   squares favour several short trips over one long one, so an outpost never chases a
   cell another one is heading for and the ones built later take the targets near
   home.
4. **Season lookahead.**  Several plans (value weights for the scarce resource) are
   played forward 30 turns with the enemies held still -- outposts walking to their
   targets, seasons building at home when the land and water afford it -- and the
   plan that builds the most outposts (then holds the most value) is kept.
5. **Moves.**  Each outpost steps along a shortest land path to its target; then a
   few passes of coordinate ascent try every outpost's five options against a score:
   progress to the targets, the value held after the move, outposts that would lose
   their supply line (never allowed), outposts that one enemy step could cut off
   (penalised: defence of the supply lines), enemy outposts our move cuts off
   (rewarded) and, on the turn before a season, whether the counts afford a new
   outpost.

At a disband phase the outpost whose removal costs the least score goes.

References
----------
``outpost-2014-spec.txt`` (the rules); ``docs/outpost.md`` (atlas's statement of them);
the kernels' references in :mod:`atlas.games.outpost.bots.plan_kernels`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ....analysis.distances import bfs_kernel
from ....bots.base import BotBase
from ....bots.search import clock, gc_paused, stop_time
from ..analysis.influence import reach as radius_on
from ..rules.kernels import Position
from .heuristic import moved_steps
from .plan_kernels import (
    FAR,
    Lookahead,
    Weighing,
    assign,
    evaluate,
    evaluate_moved,
    gain_field,
    greedy_from,
    l1_field,
    land_field,
    robust_supply,
    simulate_plan,
)

__all__ = ["PlannerOutpostBot", "PlannerConfig"]

#: Turns between seasons.
SEASON = 10


@dataclass(frozen=True)
class PlannerConfig:
    """What the planner does; each switch removes one part (for the ablations).

    Attributes
    ----------
    targets : bool
        Coverage targets and their assignment (else each outpost climbs the score).
    coordinate : bool
        Assign outposts to distinct targets (else each heads for its nearest target,
        shared or not).
    lookahead : bool
        Choose the resource weights by playing plans forward (else weight 1).
    defend : bool
        Penalise outposts one enemy step could cut off.
    attack : bool
        Reward cutting enemy outposts off.
    season : bool
        On the turn before a season, score whether the counts afford a new outpost.
    home_prior : bool
        Discount cells nearer an enemy home early on.
    guard : bool
        Drop targets whose supply lines the enemy outposts could cut by closing in
        ``guard_steps`` steps, and choose again.
    """

    targets: bool = True
    coordinate: bool = True
    lookahead: bool = True
    defend: bool = True
    attack: bool = True
    season: bool = True
    home_prior: bool = True
    guard: bool = True
    guard_steps: int = 2
    #: Score of one step of progress toward an outpost's target (in cells).
    progress: float = 12.0
    #: Penalty per outpost one enemy step could cut off, reward per enemy outpost cut.
    robust_w: float = 120.0
    cut_w: float = 150.0
    #: Score of affording one more outpost at the coming season (in cells).
    season_w: float = 400.0
    #: Turns the season lookahead plays forward; water/land premiums tried.
    horizon: int = 30
    premiums: tuple[float, ...] = (0.0, 2.0, 6.0)
    #: Bonus of last turn's targets, in cells.
    stick: float = 6.0
    #: Targets keep at least this distance from enemy outposts.
    gap: int = 3
    #: Passes of coordinate ascent over the outposts' options.
    passes: int = 2


_LOST = 1e7

#: Land distance fields to targets kept from turn to turn, at most (a target's field
#: depends on the land alone; a game's targets are a few hundred cells).
FIELDS_KEPT = 1024


class Outposts(NamedTuple):
    """Every outpost of a state: flat cells, empires, and each empire's first index."""

    cells: np.ndarray
    emps: np.ndarray
    starts: np.ndarray


class PlannerOutpostBot(BotBase):
    """Coverage targets, assignment, season lookahead, supply-line defence.

    Parameters
    ----------
    game : str
        ``"outpost"``.
    seed : int
        Unused (the bot is deterministic); kept for the registry's signature.
    margin : float
        Seconds kept in hand before the deadline.
    config : PlannerConfig, optional
        The parts switched on, and their weights.
    """

    name = "planner"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 13.2
    #: Its kernels (``plan_kernels``) are its own: a first game of planners compiles
    #: them in a worker while the game's turn kernel compiles here.
    warm_alone = True

    def __init__(
        self,
        game: str = "outpost",
        seed: int = 0,
        margin: float = 0.03,
        config: PlannerConfig | None = None,
    ) -> None:
        self.margin = margin
        self.config = config or PlannerConfig()
        self._key: Any = None
        self._prev_targets: np.ndarray = np.zeros(0, np.int64)
        self.last_plan: dict[str, Any] = {}
        self._warm = False  # the kernels of a step scored in its box have run

    # ----------------------------------------------------------------- per-map data

    def _setup(self, state: Any, player: int) -> None:
        b = state.board
        key = (id(b), player)
        if key == self._key:
            return
        self._key = key
        size = b.land_flat.shape[0]
        stride = int(b.stride)
        self._stride = stride
        self._bufs = np.zeros((7, size), np.int32)
        self._bufs[6] = -1  # supply_core's clean state (marks 0, bucket heads -1), kept so
        self._owner = np.zeros(size, np.int32)
        self._queue = np.zeros(size, np.int32)
        self._my_dist = np.zeros(size, np.int32)
        homes = np.asarray(b.homes_flat, np.int64)
        self._homes = homes
        r = radius_on(state.params.r, b.water.shape)
        self._pos = Position(b.land_flat, b.board_flat, stride, r, homes, self._bufs)
        self._board = tuple(self._pos)  # what evaluate takes (a plain tuple)
        # land distance from every home; the home prior
        hd = np.zeros((len(homes), size), np.int32)
        for e, h in enumerate(homes):
            land_field(b.land_flat, stride, int(h), hd[e], self._queue)
        self._home_dist = hd
        self._home_field = hd[player]
        mine = hd[player].astype(np.int64)
        others = np.min(np.delete(hd, player, axis=0), axis=0).astype(np.int64)
        self._enemy_side = (b.board_flat != 0) & (mine > others)
        self._land_cells = np.flatnonzero(b.land_flat).astype(np.int64)
        self._cell_value = (b.board_flat != 0).astype(np.float64)  # what the result counts
        self._prev_targets = np.zeros(0, np.int64)
        # land distances to targets, kept from turn to turn (the land never changes)
        self._fields: dict[int, np.ndarray] = {}

    def _arrays(self, state: Any) -> Outposts:
        stride = self._stride
        rc = np.asarray(state.rc, dtype=np.int64)
        cells = (rc[:, 0] + 1) * stride + rc[:, 1] + 1
        starts = np.asarray(state.starts, dtype=np.int64)
        emps = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        return Outposts(cells, emps, starts)

    # ----------------------------------------------------------------- the move

    @gc_paused
    def move(self, state: Any, player: int, deadline: float) -> Any:
        """A disband index at a disband phase, else the steps ``((index, (row, col)), ...)``."""
        self._setup(state, player)
        self.last_info = None  # this move's report, or none (a disband, no outpost)
        if any(state.pending):
            return self.disband(state, player)
        stop = stop_time(deadline, self.margin)
        o = self._arrays(state)
        cells, starts = o.cells, o.starts
        a, b = int(starts[player]), int(starts[player + 1])
        n = b - a
        if n == 0:
            return ()
        plan = self._plan(state, player, o, stop)
        new = self._choose_moves(state, player, o, plan, stop)
        return moved_steps(cells, new, a, n, self._stride)

    # ----------------------------------------------------------------- planning

    def _values(self, state: Any, player: int, premium: float, short_water: bool) -> np.ndarray:
        b = state.board
        value = (b.board_flat != 0).astype(np.float64)
        if premium > 0:
            kind = (b.land_flat == 0) if short_water else (b.land_flat != 0)
            value[kind & (b.board_flat != 0)] += premium
        p = state.params
        if self.config.home_prior and state.turn < p.last_turn // 2:
            value[self._enemy_side] *= 0.5
        return value

    def _plan(self, state: Any, player: int, o: Outposts, stop: float) -> dict[str, Any]:
        """Targets and the target of each of our outposts (``slot``), with the value
        field they were chosen for."""
        cells, emps, starts = o
        cfg = self.config
        b = state.board
        p = state.params
        stride = self._stride
        r = radius_on(p.r, b.water.shape)
        a, e = int(starts[player]), int(starts[player + 1])
        n = e - a
        mine = cells[a:e]
        enemy = np.concatenate([cells[:a], cells[e:]])
        en_dist = np.zeros(len(b.land_flat), np.int32)
        l1_field(b.board_flat, stride, enemy, en_dist, self._queue)
        self._en_dist = en_dist
        land, water = int(state.counts[player, 0]), int(state.counts[player, 1])
        fl = land / p.L if p.L else np.inf
        fw = water / p.W if p.W else np.inf
        short_water = fw <= fl
        if not cfg.targets:
            value = self._values(state, player, 0.0, short_water)
            return {"value": value, "slot": None, "fields": None, "targets": mine}
        left = p.last_turn - state.turn
        # seasons still to come that can build (and leave time to move)
        seasons_left = max(0, (p.last_turn - 1) // SEASON - state.turn // SEASON)
        future = min(2, seasons_left)
        k = n + future
        # candidates: land, not next to an enemy, reachable before the end
        reach = np.zeros(len(b.land_flat), np.int32)
        srcs = np.concatenate([mine, self._homes[player : player + 1]])
        bfs_kernel(b.land_flat, stride, srcs, reach, self._queue)
        lc = self._land_cells
        ok = (en_dist[lc] >= cfg.gap) & (reach[lc] >= 0) & (reach[lc] <= max(left, 1))
        cand = lc[ok]
        bonus = np.zeros(len(cand), np.float64)
        if len(self._prev_targets):
            bonus[np.isin(cand, self._prev_targets)] = cfg.stick
        elim = np.minimum(en_dist, r + 1).astype(np.int32)
        premiums = cfg.premiums if (cfg.lookahead and seasons_left > 0) else (0.0,)
        # every premium's gains from two fields: a cell's gain is linear in the values
        # (sums of halves, exact), and the values are the plain ones plus the premium
        # times those of the scarce resource's cells
        plain = self._values(state, player, 0.0, short_water)
        scarce = self._values(state, player, 1.0, short_water) - plain
        none = np.zeros(len(plain), np.uint8)
        gains = np.empty((2, len(plain)), np.float64)
        gain_field(b.board_flat, stride, r, plain, elim, none, gains[0])
        if len(premiums) > 1 or premiums[0] != 0.0:
            gain_field(b.board_flat, stride, r, scarce, elim, none, gains[1])
        best = None
        took = 0.0
        for prem in premiums:
            start = clock()
            if best is not None and start + took > stop:  # another plan would be late
                break
            value = plain + prem * scarce if prem else plain
            field = gains[0] + prem * gains[1] if prem else gains[0]
            plan = self._targets(
                state, player, o, value, field, elim, cand, bonus, k, n, future, r
            )
            if len(premiums) > 1:
                la = Lookahead(
                    int(p.L),
                    int(p.W),
                    player,
                    int(state.turn),
                    int(cfg.horizon),
                    int(p.last_turn),
                    SEASON,
                    plain,
                    self._owner,
                    np.zeros((4, 3), np.int64),
                )
                built, lost, terr = simulate_plan(
                    self._pos, la, cells, emps, plan["slot"], plan["fields"], plan["future"]
                )
                score = 1000.0 * (built - 2 * lost) + terr
            else:
                score = 0.0
            plan["score"] = score
            plan["premium"] = prem
            took = max(took, clock() - start)
            if best is None or score > best["score"]:
                best = plan
        assert best is not None
        self._prev_targets = best["targets"]
        self.last_plan = best
        return best

    def _targets(
        self,
        state: Any,
        player: int,
        o: Outposts,
        value: np.ndarray,
        field: np.ndarray,
        elim: np.ndarray,
        cand: np.ndarray,
        bonus: np.ndarray,
        k: int,
        n: int,
        future: int,
        r: int,
    ) -> dict[str, Any]:
        cells, starts = o.cells, o.starts
        b = state.board
        stride = self._stride
        a = int(starts[player])
        won = np.zeros(len(b.land_flat), np.uint8)
        out = np.zeros(max(k, 1), np.int64)
        board = (b.board_flat, stride, r, value, elim, won)
        got = greedy_from(field.copy(), *board, cand, bonus, k, 1.0, out) if len(cand) else 0
        if self.config.guard and got > 0:
            bad = ~self._held(state, player, cand[out[:got]], r)
            if bad.any():  # once more without the targets an enemy could cut off
                keep = np.ones(len(cand), bool)
                keep[out[:got][bad]] = False
                cand, bonus = cand[keep], bonus[keep]
                won[:] = 0
                got = (
                    greedy_from(field.copy(), *board, cand, bonus, k, 1.0, out)
                    if len(cand)
                    else 0
                )
        targets = cand[out[:got]]
        mine = cells[a : a + n]
        # outposts without a target hold their cell
        if got < n:
            targets = np.concatenate([targets, mine[: n - got]])
        m = len(targets)
        fields = np.zeros((m, len(b.land_flat)), np.int32)
        for j in range(m):
            t = int(targets[j])
            known = self._fields.get(t)
            if known is None:
                land_field(b.land_flat, stride, t, fields[j], self._queue)
                if len(self._fields) >= FIELDS_KEPT:
                    self._fields.clear()
                self._fields[t] = fields[j].copy()
            else:
                fields[j] = known
        rows = n + min(future, max(0, m - n))
        cost = np.zeros((rows, m), np.float64)
        for i in range(rows):
            if i < n:
                d = fields[:, mine[i]].astype(np.float64)
            else:  # built at home, (i - n + 1) seasons from now
                d = fields[:, self._homes[player]].astype(np.float64) + SEASON * (i - n + 1)
            d = np.minimum(d, 4 * FAR)
            cost[i] = d * d
        if self.config.coordinate:
            col = assign(cost)
        else:
            col = np.argmin(cost, axis=1).astype(np.int64)
        slot = col[:n].astype(np.int64)
        fut = col[n:rows].astype(np.int64)
        return {
            "value": value,
            "slot": slot,
            "fields": fields,
            "targets": targets,
            "future": fut,
        }

    def _held(self, state: Any, player: int, targets: np.ndarray, r: int) -> np.ndarray:
        """Which targets, all occupied, would keep their supply lines however the enemy
        outposts close in by ``guard_steps`` steps."""
        b = state.board
        bufs = self._bufs
        home = self._homes[player : player + 1]
        l1_field(
            b.board_flat,
            self._stride,
            np.concatenate([targets, home]),
            self._my_dist,
            self._queue,
        )
        en = self._en_dist - (self.config.guard_steps - 1)
        alive = np.zeros(len(targets), np.uint8)
        robust_supply(self._pos, self._my_dist, en, player, targets, alive, bufs[2])
        return alive.astype(bool)

    # ----------------------------------------------------------------- moves

    def _choose_moves(
        self, state: Any, player: int, o: Outposts, plan: dict[str, Any], stop: float
    ) -> np.ndarray:
        cells, emps, starts = o
        cfg = self.config
        b = state.board
        p = state.params
        stride = self._stride
        a, e = int(starts[player]), int(starts[player + 1])
        n = e - a
        value = plan["value"]
        slot = plan["slot"]
        fields = plan["fields"]
        season_turn = (
            cfg.season and (state.turn + 2) % SEASON == 0 and state.turn + 2 <= p.last_turn
        )
        robust_w = cfg.robust_w if cfg.defend else 0.0
        cut_w = cfg.cut_w if cfg.attack else 0.0
        land_flat = b.land_flat

        weighing = self._weighing(
            player, value, self._en_dist, len(cells), robust_w, cut_w, _LOST
        )
        counts = weighing.counts
        plain = tuple(weighing)  # what evaluate takes

        scored = 0  # positions scored (the report's nodes)
        boxes = np.zeros((1, 4), np.int64)
        got = np.zeros(2, np.int64)

        def season(s: float, land: int, water: int) -> float:
            if season_turn:
                aff = _afford(land, water, p.L, p.W)
                s += cfg.season_w * max(-3, min(aff - n, 1))
            return s

        def moved(pos: np.ndarray, j: int, src: int, hold: bool = False) -> float:
            """:func:`evaluate_moved` of ``pos`` (``j < 0``: counted anew)."""
            return float(
                evaluate_moved(
                    self._board,
                    plain,
                    pos,
                    emps,
                    starts,
                    fields,
                    slot,
                    a,
                    cfg.progress,
                    j,
                    src,
                    boxes,
                    got,
                    hold,
                )
            )

        def score(pos: np.ndarray, j: int = -1, src: int = -1) -> float:
            """The score of ``pos``: its ownership counted anew and held after, or with
            ``j >= 0``, one step from the position whose ownership is held (outpost
            ``j`` on ``src`` there), the same score at a box's cost."""
            nonlocal scored
            scored += 1
            if fields is None:
                s = evaluate(self._board, plain, pos, emps, starts)
                return season(s, int(counts[player, 0]), int(counts[player, 1]))
            return season(moved(pos, j, src), int(got[0]), int(got[1]))

        pos = cells.copy()
        # first guess: everyone steps toward its target
        if fields is not None:
            for i in range(n):
                f = fields[slot[i]]
                c = int(pos[a + i])
                bestc = c
                for nb in (c - stride, c + 1, c + stride, c - 1):
                    if land_flat[nb] and f[nb] < f[bestc]:
                        bestc = nb
                pos[a + i] = bestc
        cur = score(pos)
        if cur <= -_LOST / 2:  # the first guess cuts one of ours: start from standing still
            pos = cells.copy()
            cur = score(pos)
        # the ownership held is that of pos from here on (score keeps it so)
        if fields is not None and not self._warm and n > 0:
            # a step in place, unscored: its kernels compile now, whatever the clock
            # says (the warm-up's move stops before the passes), not in a later move
            self._warm = True
            moved(pos, a, int(pos[a]))
        for _ in range(cfg.passes):
            improved = False
            for i in range(n):
                if clock() > stop:
                    self._report(player, pos, emps, starts, scored, robust_w, cut_w)
                    return pos
                c0 = int(cells[a + i])
                keep = int(pos[a + i])
                best_c, best_v = keep, cur
                for c in (c0, c0 - stride, c0 + 1, c0 + stride, c0 - 1):
                    if c == keep or not land_flat[c]:
                        continue
                    pos[a + i] = c
                    v = score(pos, a + i, keep)
                    if v > best_v + 1e-9:
                        best_c, best_v = c, v
                pos[a + i] = best_c
                if best_c != keep:
                    cur = best_v
                    improved = True
                    if fields is not None:  # the ownership held becomes the step's
                        moved(pos, a + i, keep, hold=True)
            if not improved:
                break
        self._report(player, pos, emps, starts, scored, robust_w, cut_w)
        return pos

    def _report(
        self,
        player: int,
        pos: np.ndarray,
        emps: np.ndarray,
        starts: np.ndarray,
        scored: int,
        robust_w: float,
        cut_w: float,
    ) -> None:
        """What the move's planning said of it (``last_info``): ``score``, the positions
        it chose scored as :func:`evaluate` scores them but with every board cell worth
        1, as in the final result (the plan's premiums and priors change from turn to
        turn, and the walk to the targets jumps with every new target, so neither
        counts here): the cells held after the move, less ``robust_w`` per outpost of
        ours one enemy step could cut off and ``cut_w`` per one cut off, plus ``cut_w``
        per enemy outpost cut off; and ``nodes``, the positions it scored."""
        weighing = self._weighing(
            player, self._cell_value, self._en_dist, len(pos), robust_w, cut_w, cut_w
        )
        score = evaluate(self._board, tuple(weighing), pos, emps, starts)
        self.last_info = {"score": round(float(score), 1), "nodes": int(scored)}

    def _weighing(
        self, player: int, value: np.ndarray, en_dist: np.ndarray, n: int, *w: float
    ) -> Weighing:
        """What :func:`evaluate` reads besides the board and ``n`` outposts; ``w``: the
        robust, cut and lost weights."""
        counts = np.zeros((4, 3), np.int64)
        alive = np.zeros(n, np.uint8)
        robust_w, cut_w, lost_w = w
        return Weighing(
            player,
            value,
            en_dist,
            self._my_dist,
            self._owner,
            counts,
            alive,
            robust_w,
            cut_w,
            lost_w,
        )

    # ----------------------------------------------------------------- disband

    def disband(self, state: Any, player: int) -> int:
        """Index of the outpost whose removal costs the least score."""
        b = state.board
        stride = self._stride
        cells, emps, starts = self._arrays(state)
        a, e = int(starts[player]), int(starts[player + 1])
        enemy = np.concatenate([cells[:a], cells[e:]])
        en_dist = np.zeros(len(b.land_flat), np.int32)
        l1_field(b.board_flat, stride, enemy, en_dist, self._queue)
        value = (b.board_flat != 0).astype(np.float64)
        best_i, best_v = e - a - 1, -np.inf
        for i in range(e - a):
            keep = np.ones(len(cells), bool)
            keep[a + i] = False
            sub_starts = starts.copy()
            sub_starts[player + 1 :] -= 1
            weighing = self._weighing(
                player, value, en_dist, len(cells) - 1, self.config.robust_w, 0.0, 300.0
            )
            v = evaluate(self._board, tuple(weighing), cells[keep], emps[keep], sub_starts)
            if v > best_v:
                best_i, best_v = i, v
        return best_i


def _afford(land: int, water: int, L: int, W: int) -> int:
    a = land // L if L else 1 << 30
    w = water // W if W else 1 << 30
    return min(a, w) + 1
