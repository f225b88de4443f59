"""The arena's statistics and a tiny reproducible tournament."""

from __future__ import annotations

import pytest

from benchmarks.arena import chain_ratings, elo_gap, run_match, wilson


def test_wilson_interval_matches_a_known_value() -> None:
    low, high = wilson(95, 100)
    assert low == pytest.approx(0.8883, abs=1e-4) and high == pytest.approx(0.9785, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ratings_chain_from_random_and_stay_finite_for_a_sweep() -> None:
    ratings = chain_ratings([
        {"a": "hard", "b": "easy", "a_points": 150, "games": 200},
        {"a": "easy", "b": "random", "a_points": 100, "games": 100},
    ])
    assert ratings["random"] == 800
    assert ratings["easy"] - 800 == round(elo_gap(100, 100))
    assert ratings["hard"] > ratings["easy"]
    assert elo_gap(50, 100) == pytest.approx(0.0)


def test_a_tournament_is_reproducible_and_rotates_seats() -> None:
    first = run_match("mountain-goats", "mcts:it=20", "random", games=4, seed=3)
    again = run_match("mountain-goats", "mcts:it=20", "random", games=4, seed=3)
    assert first["a_points"] == again["a_points"] and first["games"] == 4


def test_three_player_tables_rate_from_the_pairwise_score() -> None:
    summary = run_match("mountain-goats", "mcts:it=10", "random", games=3, players=3, seed=5)
    assert summary["players"] == 3 and summary["games"] == 3 and summary["pairs"] == 6
    assert 0 <= summary["pair_points"] <= 6 and summary["a_points"] <= summary["pair_points"]
    # a third of the wins is par at three seats: the rating uses the pairwise score instead
    par = {"a": "x", "b": "random", "players": 3, "games": 30, "a_points": 10, "pairs": 60, "pair_points": 30}
    assert chain_ratings([par])["x"] == 800
