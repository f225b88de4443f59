"""Post-game analysis (ai/analysis.py): reproducible, honest, and its marks mean something."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai import analysis
from ai.analysis import Budget, analyse_record, judge_decision, mark_for, move_accuracy, position_value
from ai.bots import choose_action
from engine import get_game
from engine.core import CHANCE, TERMINAL

SMALL = Budget(decision=60, played=30, luck=12)


def _play(game_id: str, levels: list[str], seed: int, *, stop: int | None = None) -> tuple[list[dict[str, Any]], Any]:
    """A bot game's record (and its state), stopped after ``stop`` events if given."""
    game = get_game(game_id)
    state = game.new_initial_state(len(levels))
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    k = 0
    while state.current_player() != TERMINAL and (stop is None or len(events) < stop):
        player = state.current_player()
        if player == CHANCE:
            outcome = state.sample_chance(rng)
            events.append(state.event_to_json(CHANCE, outcome))
            state.apply(CHANCE, outcome)
            continue
        seat = player if player >= 0 else state.to_move()[0]
        action = choose_action(game, state.observation(seat), seat, level=levels[seat], seed=seed * 1000 + k)
        k += 1
        events.append(state.event_to_json(seat, action))
        state.apply(seat, action)
    return events, state


def test_lichess_accuracy_formula_and_thresholds() -> None:
    assert move_accuracy(0) == pytest.approx(99.9999, abs=1e-3)
    assert move_accuracy(10) == pytest.approx(103.1668 * 0.6470 - 3.1669, abs=0.05)
    assert move_accuracy(100) == 0.0
    assert [mark_for("mountain-goats", loss) for loss in (4.9, 5, 10, 15, 40)] == [
        None, "inaccuracy", "mistake", "blunder", "blunder"]


def test_the_same_record_and_seed_give_the_same_analysis() -> None:
    events, _ = _play("mountain-goats", ["easy", "random"], 3, stop=30)
    one = analyse_record("mountain-goats", 2, None, events, seed=11, budget=SMALL)
    two = analyse_record("mountain-goats", 2, None, events, seed=11, budget=SMALL)
    assert one == two
    assert len(one["events"]) == 30
    kinds = {entry["kind"] for entry in one["events"]}
    assert kinds == {"move", "chance"}


def test_a_resumed_analysis_equals_one_computed_in_one_go() -> None:
    events, _ = _play("nanga-parbat", ["random", "random"], 4, stop=24)
    whole = analyse_record("nanga-parbat", 2, None, events, seed=2, budget=SMALL)
    resumed = analyse_record("nanga-parbat", 2, None, events, seed=2, budget=SMALL,
                             start=10, done=whole["events"][:10])
    assert resumed == whole
    with pytest.raises(ValueError, match="first 10 entries"):
        analyse_record("nanga-parbat", 2, None, events, seed=2, budget=SMALL, start=10, done=[])


def assert_len(entries: list[Any], count: int) -> None:
    assert len(entries) == count


def test_progress_is_reported_after_every_event() -> None:
    events, _ = _play("mountain-goats", ["random", "random"], 5, stop=8)
    seen: list[tuple[int, int]] = []
    analyse_record("mountain-goats", 2, None, events, seed=1, budget=SMALL, progress=lambda d, t, entries: seen.append((d, t)) or assert_len(entries, d))
    assert seen == [(i, 8) for i in range(1, 9)]


def test_a_move_with_no_alternative_is_forced_and_not_judged() -> None:
    events, _ = _play("nanga-parbat", ["random", "random"], 7)
    result = analyse_record("nanga-parbat", 2, None, events[:40], seed=1, budget=SMALL)
    forced = [e for e in result["events"] if e["kind"] == "move" and e["forced"]]
    assert forced, "a Nanga Parbat game has moves with a single legal choice"
    assert all(e["legal"] == 1 and e["mark"] is None and "loss" not in e for e in forced)
    judged = [e for e in result["events"] if e["kind"] == "move" and not e["forced"]]
    assert all(e["legal"] > 1 and 0 <= e["loss"] <= 100 and "best" in e for e in judged)


def test_a_random_player_is_marked_more_and_scores_lower_accuracy_than_a_searching_one() -> None:
    events, _ = _play("mountain-goats", ["medium", "random"], 1)
    result = analyse_record("mountain-goats", 2, None, events, seed=4, budget=Budget(400, 200, 20))
    searching, random_ = result["seats"]
    assert searching["accuracy"] > random_["accuracy"]
    marks = ("mistake", "blunder")
    assert sum(searching[m] for m in marks) < sum(random_[m] for m in marks)


def _mountainhome_decisions(limit: int) -> list[tuple[Any, Any, int, Any]]:
    """(true state, alternative state, seat, move played) at seat 0's first decisions of a Mountainhome game."""
    game = get_game("mountainhome")
    events, _ = _play("mountainhome", ["easy", "easy"], 2, stop=120)
    state = game.new_initial_state(2)
    found = []
    for index, event in enumerate(events):
        seat, action = state.decode_event(event)
        if seat == 0 and len(state.legal_actions(0)) > 1 and index % 3 == 0:
            # Another true state that agrees with all seat 0 knows: the other seat's hidden cards dealt anew.
            for attempt in range(20):
                other = game.state_from_observation(state.observation(0), 0, random.Random(100 + attempt))
                if other.key() != state.key():
                    break
            assert other.key() != state.key() and other.observation(0) == state.observation(0)
            found.append((state.clone(), other, seat, action))
            if len(found) == limit:
                break
        state.apply(seat, action)
    return found


def test_a_mountainhome_seats_moves_are_judged_alike_whatever_the_other_seats_hidden_cards() -> None:
    game = get_game("mountainhome")
    decisions = _mountainhome_decisions(4)
    assert len(decisions) == 4
    for truth, other, seat, played in decisions:
        a = judge_decision(game, truth.observation(seat), seat, played, budget=SMALL, seed=9)
        b = judge_decision(game, other.observation(seat), seat, played, budget=SMALL, seed=9)
        assert a == b
        assert position_value(game, truth.observation(seat), seat, iterations=20, seed=3) == position_value(
            game, other.observation(seat), seat, iterations=20, seed=3)


def test_the_analysis_of_a_mountainhome_record_sees_only_each_seats_observation(monkeypatch) -> None:
    game = get_game("mountainhome")
    events, _ = _play("mountainhome", ["easy", "easy"], 6, stop=60)
    # What each seat could know at each point of the game.
    state = game.new_initial_state(2)
    known: dict[int, set[str]] = {0: set(), 1: set()}
    for event in events:
        for s in (0, 1):
            known[s].add(repr(sorted(state.observation(s).items())))
        state.apply_event(event)
    for s in (0, 1):
        known[s].add(repr(sorted(state.observation(s).items())))
    calls: list[tuple[int, str]] = []
    cls = type(game)
    real_from, real_det = cls.state_from_observation, cls.determinizer

    def spy_from(self, observation, seat, rng):
        assert isinstance(observation, dict)
        calls.append((seat, repr(sorted(observation.items()))))
        return real_from(self, observation, seat, rng)

    def spy_det(self, observation, seat):
        calls.append((seat, repr(sorted(observation.items()))))
        return real_det(self, observation, seat)

    monkeypatch.setattr(cls, "state_from_observation", spy_from)
    monkeypatch.setattr(cls, "determinizer", spy_det)
    analyse_record("mountainhome", 2, None, events, seed=1, budget=Budget(8, 4, 2))
    assert calls
    # Every search started from an observation its seat really had, and nothing else.
    assert all(text in known[seat] for seat, text in calls)


def test_analysis_settings_are_fixed_per_game() -> None:
    for game_id in ("mountain-goats", "nanga-parbat", "mountainhome"):
        budget = analysis.budget_for(game_id)
        assert budget.decision > 0 and budget.played > 0 and budget.luck > 0
        config = analysis.search_config(game_id, budget.decision)
        assert config.seconds is None and config.margin_weight == 0.0


def test_the_luck_budget_per_seat_shrinks_with_more_players() -> None:
    two, four = analysis.budget_for("mountainhome", 2), analysis.budget_for("mountainhome", 4)
    assert two == analysis.BUDGETS["mountainhome"]
    assert four.decision == two.decision and four.played == two.played and four.luck == two.luck // 2
