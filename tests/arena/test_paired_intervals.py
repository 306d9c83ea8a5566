"""Intervals over seat-swapped pairs (atlas.arena.standings, atlas.arena.rating):
games that share a map, a seed and the players are drawn together in the bootstrap.

On pairs where the seat decides every game (each pair one win of each bot) the paired
interval is narrower than the one that draws games apart; on games that share nothing
the two agree within sampling error; rank ranges and the sentences on bots the games
cannot separate follow the refits."""

from __future__ import annotations

import numpy as np
import pytest

from atlas.arena.rating import bootstrap_ratings, bradley_terry, duel_fit
from atlas.arena.standings import pair_key, standings
from atlas.sim.base import Outcome, Reason
from atlas.sim.records import MapRef, PlayerEntry, Record, SeatStatus

A, B, C = PlayerEntry("a"), PlayerEntry("b"), PlayerEntry("c")


def game(seed, players, winner, map_hash="h"):
    """A finished two-seat game (no turns: the standings read only the result)."""
    scores = (0.5, 0.5) if winner is None else (1.0, 0.0) if winner == 0 else (0.0, 1.0)
    reason = Reason.DRAW if winner is None else Reason.WIN
    return Record(
        "tron",
        MapRef("m", map_hash, ""),
        {},
        players,
        seed,
        (),
        Outcome(winner, reason, scores, ""),
        (SeatStatus(), SeatStatus()),
        {},
    )


def width(table, name="a"):
    row = table.row(name)
    return row.high - row.low


def seat_pairs(n):
    """n pairs, each won by seat 1 both times: one win of each bot a pair."""
    out = []
    for k in range(n):
        out.append(game(k, (A, B), 0))
        out.append(game(k, (B, A), 0))
    return out


def test_a_pure_seat_effect_gives_a_narrower_paired_interval():
    games = seat_pairs(40)
    paired = standings(games, samples=200)
    apart = standings(games, samples=200, paired=False)
    # every refit of pairs is 40 wins each: the ratings never move
    assert width(paired) == pytest.approx(0.0, abs=1e-6)
    assert width(apart) > 60  # 80 games drawn one by one: wins and losses mixed at random
    assert paired.interval.units == "pairs" and paired.interval.pairs == 40
    assert paired.interval.singles == 0
    assert apart.interval.units == "games" and apart.interval.singles == 80
    assert "seat-swapped pairs" in paired.interval.text
    assert "40 pairs" in paired.interval.text
    assert "one by one" in apart.interval.text


def test_on_independent_games_paired_and_unpaired_agree():
    ratios = []
    for seed in range(6):
        rng = np.random.default_rng(seed)
        games = []
        for k in range(150):
            for players in ((A, B), (B, A)):
                a_wins = rng.random() < 0.6  # whatever the seat
                games.append(game(k, players, players.index(A if a_wins else B)))
        paired = standings(games, samples=400)
        apart = standings(games, samples=400, paired=False)
        assert paired.row("a").rating == pytest.approx(apart.row("a").rating)
        ratios.append(width(paired) / width(apart))
    assert all(0.75 < r < 1.3 for r in ratios), ratios
    assert 0.9 < float(np.mean(ratios)) < 1.1, ratios


def test_pair_key_joins_swapped_seats_only():
    one, two = game(3, (A, B), 0), game(3, (B, A), 1)
    assert pair_key(one) == pair_key(two)
    assert pair_key(game(4, (A, B), 0)) != pair_key(one)  # another seed
    assert pair_key(game(3, (A, B), 0, map_hash="x")) != pair_key(one)  # another map
    assert pair_key(game(3, (A, C), 0)) != pair_key(one)  # other players


def test_a_lone_game_is_its_own_unit():
    games = seat_pairs(5) + [game(99, (A, B), 1)]
    table = standings(games, samples=50)
    assert (table.interval.pairs, table.interval.singles) == (5, 1)
    assert "and 1 other game one by one" in table.interval.text
    data = table.to_json()["interval"]
    assert data["units"] == "pairs" and data["pairs"] == 5 and data["singles"] == 1
    assert data["samples"] == 50 and data["method"] == "bootstrap"


def test_clusters_of_the_generic_path_draw_games_together():
    # the same pure seat effect through a fit without a fast path
    games = [[("a", "b", 1.0)], [("a", "b", 0.0)]] * 30

    def fit(names, gs):
        return bradley_terry(names, [c for g in gs for c in g])

    labels = [k // 2 for k in range(len(games))]
    paired = bootstrap_ratings(["a", "b"], games, fit, samples=60, clusters=labels)
    apart = bootstrap_ratings(["a", "b"], games, fit, samples=60)
    assert paired.high["a"] - paired.low["a"] == pytest.approx(0.0, abs=1e-6)
    assert apart.high["a"] - apart.low["a"] > 40
    assert (paired.units, paired.groups, paired.singles) == ("groups", 30, 0)
    # the fast path draws the same games: the same refits
    fast = bootstrap_ratings(["a", "b"], games, duel_fit, samples=60, clusters=labels)
    assert np.allclose(fast.draws, paired.draws)
    with pytest.raises(ValueError, match="2 cluster labels for 60 games"):
        bootstrap_ratings(["a", "b"], games, fit, samples=5, clusters=[0, 1])


def test_rank_ranges_and_the_bots_the_games_cannot_separate():
    games = []
    k = 0
    for winner, loser, times in ((A, C, 30), (B, C, 30)):
        for _ in range(times):  # a and b beat c every time, and never meet
            games.append(game(k, (winner, loser), 0))
            games.append(game(k, (loser, winner), 1))
            k += 1
    games.append(game(k, (A, B), 0))  # one game between a and b
    games.append(game(k, (B, A), 0))  # and its mirror: one win each
    table = standings(games, samples=200)
    top, second, last = table.rows
    assert last.bot == "c" and (last.rank_low, last.rank_high) == (3, 3)
    assert {top.bot, second.bot} == {"a", "b"}
    assert (top.rank_low, top.rank_high) == (1, 2)
    assert (second.rank_low, second.rank_high) == (1, 2)
    assert table.inseparable() == [(top.bot, second.bot)]
    assert table.separation_text()[0].startswith(
        f"the games cannot separate {top.bot} and {second.bot}"
    )
    text = table.format_table()
    assert "1-2" in text and "cannot separate" in text
    assert table.to_json()["inseparable"] == [[top.bot, second.bot]]
    # c is separated from the second row: LOS 100 %
    assert second.los_next == pytest.approx(1.0)


def test_without_a_bootstrap_nothing_is_claimed():
    table = standings(seat_pairs(3), samples=0)
    assert table.inseparable() == []
    assert table.interval.samples == 0 and "no bootstrap" in table.interval.text
    assert all(r.rank_low == r.rank_high for r in table.rows)
