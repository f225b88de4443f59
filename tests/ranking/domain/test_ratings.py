"""The rating maths through the kept libraries: Glicko-2 (glicko2) and OpenSkill Plackett-Luce (openskill)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.ranking.ratings import (
    PERIOD,
    Skill,
    after_inactivity,
    display,
    glicko2_period,
    idle_periods,
    openskill_places,
    rate_match,
)


def test_glickmans_worked_example_gives_the_published_numbers():
    # Glickman, "Example of the Glicko-2 system" (2013): tau 0.5, a 1500/200/0.06 player plays
    # 1400/30 (win), 1550/100 (loss) and 1700/300 (loss) in one rating period.
    after = glicko2_period(Skill(1500, 200, 0.06), [(1400, 30), (1550, 100), (1700, 300)], [1, 0, 0], tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_two_player_win_moves_the_winner_up_and_the_loser_down_by_glicko2():
    system, (winner, loser) = rate_match([Skill(), Skill()], [0, 1])
    assert system == "glicko2"
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 500 and loser.deviation < 500


def test_a_shared_two_player_victory_is_a_draw():
    _, (a, b) = rate_match([Skill(1600, 80, 0.06), Skill(1400, 80, 0.06)], [0, 0])
    assert a.rating < 1600 and b.rating > 1400


def test_openskill_moves_ratings_in_the_right_direction_for_a_four_player_order():
    before = [Skill(), Skill(), Skill(), Skill()]
    system, after = rate_match(before, [0, 1, 2, 3])
    assert system == "openskill-pl"
    assert after[0].rating > after[1].rating > after[2].rating > after[3].rating
    assert after[0].rating > 1500 > after[3].rating
    assert all(a.deviation < b.deviation for a, b in zip(after, before))


def test_openskill_shared_places_are_ties():
    after = openskill_places([Skill(), Skill(), Skill(), Skill()], [0, 0, 2, 3])
    assert after[0].rating == after[1].rating > 1500 > after[3].rating
    # (openskill 6.2's Plackett-Luce gives third place the tied winners' gain here; docs/RANKING.md)
    assert after[2].rating >= after[3].rating
    after = openskill_places([Skill(), Skill(), Skill(), Skill()], [0, 1, 1, 3])
    assert after[0].rating > after[1].rating == after[2].rating > after[3].rating


def test_an_upset_in_a_three_player_match_moves_the_favourite_down():
    after = openskill_places([Skill(1900, 90, 0.06), Skill(1500, 90, 0.06), Skill(1500, 90, 0.06)], [2, 0, 1])
    assert after[0].rating < 1900 and after[1].rating > 1500


def test_deviation_grows_back_with_inactivity_up_to_500():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    assert idle_periods(start, start + PERIOD * 10.5) == 10
    settled = Skill(1700, 60, 0.06)
    rested = after_inactivity(settled, idle_periods(start, start + timedelta(days=365)))
    assert rested.rating == 1700 and 60 < rested.deviation <= 500
    assert after_inactivity(settled, 0) == settled
    assert after_inactivity(Skill(1700, 480, 0.06), 1000).deviation == 500


def test_a_rating_is_provisional_while_its_deviation_is_at_least_110():
    assert display(1500, 500)["text"] == "1500?"
    assert display(1623.4, 110)["provisional"] is True
    shown = display(1623.4, 109.9)
    assert shown["provisional"] is False and shown["full"] == "1623 ± 110"


def test_bot_levels_show_their_fixed_published_rating_per_game(monkeypatch):
    import ai
    from games.ranking.ratings import bot_display

    monkeypatch.setitem(ai.LEVELS, "easy", dict(ai.LEVELS["easy"], rating={"mountain-goats": 1529}))
    shown = bot_display("easy", "mountain-goats")
    assert shown["rating"] == 1529 and shown["full"] == "Easy bot · 1529"
    assert bot_display("easy", "nanga-parbat")["full"] == "Easy bot · no published rating"
    assert bot_display("easy")["text"] == "Mountain Goats 1529"
