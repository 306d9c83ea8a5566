"""Intervals over seat-swapped pairs (atlas.arena.standings, atlas.arena.rating):
games that share a map, a seed and the players are drawn together in the bootstrap.

On pairs where the seat decides every game (each pair one win of each bot) the paired
interval is narrower than the one that draws games apart; on games that share nothing
the two agree within sampling error; rank ranges and the sentences on bots the games
cannot separate follow the refits.  Each row's score takes the pentanomial interval of
atlas.arena.paired over the same groups."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from atlas.arena.paired import paired_interval
from atlas.arena.rating import bootstrap_ratings, bradley_terry, duel_fit
from atlas.arena.standings import SCORE_METHOD as METHOD
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


def test_pair_key_tells_parameters_apart_by_type_and_value():
    def with_params(params):
        return dataclasses.replace(game(3, (A, B), 0), params=params)

    keys = [
        pair_key(with_params(p))
        for p in ({}, {"x": 1}, {"x": True}, {"x": 1.0}, {"x": "1"}, {"x": None}, {"x": [1]})
    ]
    assert len(set(keys)) == len(keys)
    # the same parameters in any order, held in any mapping, are one key
    assert pair_key(with_params({"a": 1, "b": None})) == pair_key(
        with_params({"b": None, "a": 1})
    )
    assert pair_key(with_params({"x": [1]})) == pair_key(with_params({"x": [1]}))


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


def wilson(wins, n, z=1.959963984540054):
    """Wilson's score interval for ``wins`` successes of ``n``, by its textbook formula."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_scores_take_the_pentanomial_interval_over_pairs():
    # ten pairs, one win of each bot a pair: ten even pairs (the pentanomial's 1 point)
    paired = standings(seat_pairs(10), samples=0)
    row = paired.row("a")
    assert row.score == pytest.approx(0.5)
    # paired.py's docstring case, computed by hand: ten pairs drawn or split
    assert (row.score_low, row.score_high) == pytest.approx((0.3612, 0.6388), abs=5e-5)
    assert paired.interval.score_text == METHOD
    data = paired.to_json()
    assert data["interval"]["score_method"] == METHOD
    assert data["rows"][0]["score_low"] == pytest.approx(0.3612, abs=1e-4)
    assert f"scores: {METHOD}" in paired.format_table()
    # the same 20 games drawn apart are 10 wins and 10 losses: Wilson's interval
    apart = standings(seat_pairs(10), samples=0, paired=False)
    low, high = wilson(10, 20)
    assert (apart.row("a").score_low, apart.row("a").score_high) == pytest.approx((low, high))
    assert high - low > 0.39 > row.score_high - row.score_low + 0.1
    assert "each game one observation" in apart.interval.score_text


def test_mixed_pairs_score_their_pair_means():
    games = []
    for k in range(10):  # 3 pairs won twice by a, 5 split, 2 lost twice
        a_wins = 2 if k < 3 else 1 if k < 8 else 0
        games.append(game(k, (A, B), 0 if a_wins >= 1 else 1))
        games.append(game(k, (B, A), 1 if a_wins == 2 else 0))
    table = standings(games, samples=0)
    want = paired_interval([1.0] * 3 + [0.5] * 5 + [0.0] * 2)
    a = table.row("a")
    assert a.score == pytest.approx(0.55) == pytest.approx(a.points / a.games)
    assert (a.score_low, a.score_high) == pytest.approx((want.low, want.high))
    b = table.row("b")  # b's values are a's reflected
    assert (b.score, b.score_low, b.score_high) == pytest.approx(
        (0.45, 1 - want.high, 1 - want.low)
    )


def test_four_seat_rotations_are_one_group():
    players = [PlayerEntry(n) for n in "abcd"]

    def table_game(seed, seats):  # seat 0 first, seats 1 and 2 tied, seat 3 last
        return Record(
            "outpost",
            MapRef("m", "h", ""),
            {},
            tuple(seats),
            seed,
            (),
            Outcome(0, Reason.WIN, (3.0, 2.0, 2.0, 0.0), ""),
            (SeatStatus(),) * 4,
            {},
        )

    games = [table_game(seed, players[r:] + players[:r]) for seed in range(6) for r in range(4)]
    table = standings(games, samples=0)
    want = paired_interval([0.5] * 6)  # each bot takes every seat once in each group
    for name in "abcd":
        row = table.row(name)
        assert (row.score, row.score_low, row.score_high) == pytest.approx(
            (0.5, want.low, want.high)
        )
    assert table.interval.pairs == 6 and table.interval.seats == 4


def test_bots_tied_in_every_refit_share_their_ranks():
    # every pair is one win each: every refit rates a and b the same, so either may be
    # first; a rank of 1 for both would claim more than the games say
    table = standings(seat_pairs(10), samples=100)
    assert table.row("a").rating == pytest.approx(table.row("b").rating)
    for name in "ab":
        row = table.row(name)
        assert (row.rank_low, row.rank_high) == (1, 2)
    # a bot ahead in every refit keeps a single rank
    games = seat_pairs(10) + [
        g for k in range(10) for g in (game(50 + k, (A, C), 0), game(50 + k, (C, A), 1))
    ]
    table = standings(games, samples=100)
    assert (table.row("c").rank_low, table.row("c").rank_high) == (3, 3)
