"""Mountain Goats: every ruling (MG-1 … MG-16) and worked example (§11, §12) of
shared/rules/mountain-goats.md, plus property tests."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CHANCE,
    TERMINAL,
    ChanceExpectedError,
    GameOverError,
    IllegalActionError,
    NotationError,
    WrongSeatError,
    get_game,
)
from engine.games.mountain_goats import (
    HEIGHT,
    LEGAL_CLIMBS,
    MountainGoatsState,
    adjusted_faces,
    climbs_from_faces,
)
from engine.record import make_record, replay, summary

GAME = get_game("mountain-goats")


def new_state(players: int = 3, first: int = 0) -> MountainGoatsState:
    state = GAME.new_initial_state(players)
    state.apply_event({"chance": {"first_player": first}})
    return state


def pos(state: MountainGoatsState, seat: int, mountain: int) -> int:
    return state.pos[6 * seat + mountain - 5]


def set_pos(state: MountainGoatsState, seat: int, mountain: int, p: int) -> None:
    i = mountain - 5
    state.pos[6 * seat + i] = p
    if p == HEIGHT[i]:
        state.summit[i] = seat


def give_tokens(state: MountainGoatsState, seat: int, counts: dict[int, int]) -> None:
    for mountain, count in counts.items():
        i = mountain - 5
        state.hold[6 * seat + i] += count
        state.stacks[i] -= count
        state.score[seat] += mountain * count
        if state.stacks[i] == 0:
            state.empty += 1


def turn(state: MountainGoatsState, roll: list[int], action: dict) -> None:
    state.apply_event({"chance": {"roll": roll}})
    state.apply_event({"player": state.seat, "action": action})


def reachable(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    return set(LEGAL_CLIMBS[roll])


# ------------------------------------------------------------------ setup and metadata


def test_metadata_names_the_game_and_its_player_counts():
    meta = GAME.metadata()
    assert meta["id"] == "mountain-goats"
    assert meta["player_counts"] == [2, 3, 4]
    assert meta["options"] == []


@pytest.mark.parametrize(
    "players, stacks",
    [(2, [10, 9, 8, 7, 6, 5]), (3, [11, 10, 9, 8, 7, 6]), (4, [12, 11, 10, 9, 8, 7])],
)
def test_setup_stacks_depend_on_player_count(players, stacks):
    state = GAME.new_initial_state(players)
    assert state.stacks == stacks
    assert state.current_player() == CHANCE
    assert state.observation(None)["bonus_pile"] == [15, 12, 9, 6]


def test_mg1_goats_start_at_the_foot_and_heights_are_4_4_3_3_2_2():
    state = new_state(2)
    assert state.pos == [0] * 12
    assert HEIGHT == (4, 4, 3, 3, 2, 2)
    # Mountain 10 needs two steps to reach the summit, not one.
    turn(state, [5, 5, 2, 3], {"climb": [10]})
    assert pos(state, 0, 10) == 1 and state.hold[5] == 0
    turn(state, [1, 2, 2, 6], {"climb": []})
    turn(state, [5, 5, 2, 3], {"climb": [10]})
    assert pos(state, 0, 10) == 2 and state.hold[5] == 1


@pytest.mark.parametrize("players", [1, 5, 0])
def test_mg14_only_two_to_four_players(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        GAME.new_initial_state(players)


def test_mg15_first_player_is_a_uniform_chance_event():
    state = GAME.new_initial_state(4)
    assert state.chance_outcomes() == [(k, 0.25) for k in range(4)]
    counts = [0] * 4
    rng = random.Random(5)
    for _ in range(4000):
        counts[state.sample_chance(rng)] += 1
    assert all(900 < c < 1100 for c in counts)
    state.apply_event({"chance": {"first_player": 2}})
    assert state.current_player() == CHANCE  # the roll comes next
    state.apply_event({"chance": {"roll": [2, 3, 4, 5]}})
    assert state.current_player() == 2


# ------------------------------------------------------------------ the ones rule


def test_example_12_1_roll_1_1_1_4_reachable_climbs():
    climbs = reachable((1, 1, 1, 4))
    assert climbs_from_faces((1, 1, 1, 4)) == {(), (5,), (6,), (7,)}
    singles = {(m,) for m in range(5, 11)}
    pairs = {(a, b) for a in (5, 6, 7) for b in range(a, 11)}
    triples = {(5, 5, 5), (5, 5, 6), (5, 6, 6)}
    assert climbs == {()} | singles | pairs | triples
    for missing in [(8, 8), (8, 9), (8, 10), (9, 9), (9, 10), (10, 10)]:
        assert missing not in climbs
    assert not any(len(c) == 4 for c in climbs)


def test_example_12_1_faces_and_groups_are_accepted():
    state = new_state(3, first=2)
    state.apply_event({"chance": {"roll": [1, 1, 1, 4]}})
    action = state.action_from_json(2, {"climb": [5, 6, 6], "faces": [1, 6, 6, 4], "groups": [[0, 3], [1], [2]]})
    assert action == (5, 6, 6)
    assert state.action_from_json(2, {"climb": [7, 10], "faces": [1, 6, 6, 4], "groups": [[0, 1], [2, 3]]}) == (7, 10)


def test_mg2_extra_ones_are_set_not_rerolled():
    # Any face may be chosen for an extra 1; nothing is random.
    faces = adjusted_faces((1, 1, 3, 3))
    assert (6, 1, 3, 3) in faces and (1, 6, 3, 3) in faces
    assert all(f[2:] == (3, 3) for f in faces)


def test_mg3_changing_ones_is_optional_but_one_must_stay():
    state = new_state(2)
    state.apply_event({"chance": {"roll": [1, 1, 2, 5]}})
    # Leaving both 1s is fine.
    assert state.action_from_json(0, {"climb": [5], "faces": [1, 1, 2, 5], "groups": [[3]]}) == (5,)
    # Changing every 1 is not.
    with pytest.raises(IllegalActionError, match="at least one of the rolled 1s"):
        state.action_from_json(0, {"climb": [6], "faces": [4, 6, 2, 5]})
    # Only rolled 1s may change.
    with pytest.raises(IllegalActionError, match="only extra 1s may be set"):
        state.action_from_json(0, {"climb": [6], "faces": [1, 1, 6, 5]})


def test_mg3_a_single_one_cannot_be_changed():
    state = new_state(2)
    state.apply_event({"chance": {"roll": [1, 2, 3, 4]}})
    with pytest.raises(IllegalActionError, match="fewer than two 1s"):
        state.action_from_json(0, {"climb": [10], "faces": [6, 2, 3, 4]})
    assert (10,) in reachable((1, 2, 3, 4))  # 1+2+3+4 = 10 without changing


def test_mg4_unused_dice_and_non_counting_groups():
    climbs = reachable((6, 6, 6, 6))
    assert (6,) in climbs and () in climbs  # three dice unused; all unused
    state = new_state(2)
    state.apply_event({"chance": {"roll": [6, 6, 6, 6]}})
    with pytest.raises(IllegalActionError, match="names no mountain"):
        state.action_from_json(0, {"climb": [], "faces": [6, 6, 6, 6], "groups": [[0, 1]]})
    with pytest.raises(IllegalActionError, match="share a die"):
        state.action_from_json(0, {"climb": [6, 6], "faces": [6, 6, 6, 6], "groups": [[0], [0]]})


def test_mg5_any_sub_multiset_of_a_reachable_climb_is_reachable():
    for roll, climbs in LEGAL_CLIMBS.items():
        climb_set = set(climbs)
        for climb in climbs:
            for k in range(len(climb)):
                assert climb[:k] + climb[k + 1 :] in climb_set, (roll, climb)


def test_example_12_2_a_rejected_climb():
    assert reachable((6, 6, 6, 6)) == {(), (6,), (6, 6), (6, 6, 6), (6, 6, 6, 6)}
    state = new_state(2)
    state.apply_event({"chance": {"roll": [6, 6, 6, 6]}})
    with pytest.raises(IllegalActionError, match=r"climb \[10\] cannot be reached from roll \[6, 6, 6, 6\]"):
        state.apply_event({"player": 0, "action": {"climb": [10]}})
    assert state.current_player() == 0  # nothing was applied


def test_mg16_every_roll_allows_a_counting_group():
    for roll, climbs in LEGAL_CLIMBS.items():
        assert any(len(c) >= 1 for c in climbs), roll
        assert () in climbs  # climbing nothing stays legal


# ------------------------------------------------------------------ climbing


def test_mg6_several_steps_move_the_single_goat():
    state = new_state(2)
    turn(state, [6, 6, 6, 1], {"climb": [6, 6, 6]})
    assert pos(state, 0, 6) == 3


def test_example_12_3_arrival_bump_and_further_collection():
    state = new_state(3, first=0)
    set_pos(state, 1, 10, 2)
    set_pos(state, 0, 10, 1)
    give_tokens(state, 1, {10: 0})
    state.stacks[5] = 6
    seat1_tokens = state.hold[6:12][:]
    state.apply_event({"chance": {"roll": [4, 6, 5, 5]}})
    state.apply_event(
        {"player": 0, "action": {"climb": [10, 10], "faces": [4, 6, 5, 5], "groups": [[0, 1], [2, 3]]}}
    )
    assert pos(state, 0, 10) == 2 and state.summit[5] == 0
    assert pos(state, 1, 10) == 0
    assert state.hold[5] == 2 and state.score[0] == 20
    assert state.stacks[5] == 4
    assert state.hold[6:12] == seat1_tokens


def test_mg7_a_goat_on_the_summit_collects_for_every_further_group():
    state = new_state(2)
    set_pos(state, 0, 9, 2)
    turn(state, [4, 5, 3, 6], {"climb": [9, 9]})
    assert state.hold[4] == 2 and state.stacks[4] == 4


def test_mg8_collecting_on_the_summit_bumps_nobody_and_a_bumped_player_keeps_tokens():
    state = new_state(2)
    set_pos(state, 0, 8, 3)
    give_tokens(state, 0, {8: 1})
    set_pos(state, 1, 8, 2)
    turn(state, [4, 4, 2, 2], {"climb": [8]})  # seat 0 collects on its own summit
    assert pos(state, 1, 8) == 2 and state.hold[3] == 2
    turn(state, [4, 4, 2, 2], {"climb": [8]})  # seat 1 arrives and bumps seat 0
    assert pos(state, 1, 8) == 3 and pos(state, 0, 8) == 0
    assert state.hold[3] == 2 and state.score[0] == 16  # seat 0 keeps its tokens
    assert state.hold[6 + 3] == 1


def test_mg9_an_empty_stack_can_be_climbed_and_still_bumps():
    state = new_state(2)
    set_pos(state, 1, 10, 2)
    set_pos(state, 0, 10, 1)
    state.stacks[5] = 0
    state.empty = 1
    turn(state, [5, 5, 1, 2], {"climb": [10]})
    assert pos(state, 0, 10) == 2 and pos(state, 1, 10) == 0
    assert state.hold[5] == 0 and state.score[0] == 0


def test_formula_5_2_many_steps_from_below():
    state = new_state(2)
    set_pos(state, 0, 7, 1)
    turn(state, [1, 6, 3, 4], {"climb": [7, 7]})  # 1+6 and 3+4: p=1, k=2, H=3 -> 1 take
    assert pos(state, 0, 7) == 3 and state.hold[2] == 1


# ------------------------------------------------------------------ bonus tokens


def test_example_12_4_bonus_tokens_in_order_15_12_9_6():
    state = new_state(2, first=0)
    give_tokens(state, 0, {5: 1, 6: 1, 7: 1, 8: 1, 9: 1})
    set_pos(state, 0, 10, 1)
    turn(state, [5, 5, 2, 2], {"climb": [10]})
    assert state.bonuses[0] == [15]
    assert state.observation(None)["bonus_pile"] == [12, 9, 6]
    # Seat 1 completes its first set.
    give_tokens(state, 1, {5: 1, 6: 1, 7: 1, 8: 1, 9: 1})
    set_pos(state, 1, 10, 1)
    turn(state, [5, 5, 2, 2], {"climb": [10]})  # arrives, bumps seat 0, takes a 10
    assert state.bonuses[1] == [12]
    # Seat 0: two of 5..9, one 10, goat back on the summit of 10.
    give_tokens(state, 0, {5: 1, 6: 1, 7: 1, 8: 1, 9: 1})
    set_pos(state, 1, 10, 0)
    set_pos(state, 0, 10, 2)
    turn(state, [5, 5, 4, 6], {"climb": [10, 10]})
    assert state.hold[5] == 3 and state.bonuses[0] == [15, 9]
    assert state.observation(None)["bonus_pile"] == [6]
    assert not state.ended


def test_mg10_double_bonus_in_one_turn():
    state = new_state(2)
    give_tokens(state, 0, {5: 2, 6: 2, 7: 2, 8: 2, 9: 2})
    set_pos(state, 0, 10, 2)
    turn(state, [5, 5, 4, 6], {"climb": [10, 10]})
    assert state.bonuses[0] == [15, 12]
    assert state.score[0] == 2 * (5 + 6 + 7 + 8 + 9) + 20 + 27


def test_mg10_no_bonus_when_bonuses_equal_sets():
    state = new_state(2)
    give_tokens(state, 0, {5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
    state.bonuses[0] = [15]
    state.bonus_next = 1
    set_pos(state, 0, 9, 2)
    turn(state, [4, 5, 1, 1], {"climb": [9]})
    assert state.bonuses[0] == [15]


# ------------------------------------------------------------------ the end


def _trigger_by_stacks(state: MountainGoatsState, seat_to_act: int) -> None:
    # Mountains 10, 9 and 8 about to be emptied by one climb on 8.
    for i in (4, 5):
        state.stacks[i] = 0
    state.empty = 2
    state.stacks[3] = 1
    set_pos(state, seat_to_act, 8, 3)
    state.summit[3] = seat_to_act


def test_example_12_5_trigger_then_finish_the_round():
    state = new_state(3, first=1)
    turn(state, [2, 2, 2, 2], {"climb": []})  # seat 1
    _trigger_by_stacks(state, 2)
    turn(state, [4, 4, 2, 2], {"climb": [8]})  # seat 2 empties a third stack
    assert state.ended and state.current_player() == CHANCE
    turn(state, [2, 2, 2, 2], {"climb": []})  # seat 0 still plays
    assert state.current_player() == TERMINAL
    assert state.turns == 3


def test_example_12_5_trigger_on_the_last_seat_ends_at_once():
    state = new_state(3, first=1)
    turn(state, [2, 2, 2, 2], {"climb": []})
    turn(state, [2, 2, 2, 2], {"climb": []})
    _trigger_by_stacks(state, 0)
    turn(state, [4, 4, 2, 2], {"climb": [8]})
    assert state.is_terminal()


def test_example_12_5_trigger_on_the_first_player_finishes_the_round():
    state = new_state(3, first=1)
    _trigger_by_stacks(state, 1)
    turn(state, [4, 4, 2, 2], {"climb": [8]})
    turn(state, [2, 2, 2, 2], {"climb": []})
    assert not state.is_terminal()
    turn(state, [2, 2, 2, 2], {"climb": []})
    assert state.is_terminal()


def test_mg11_bonus_pile_empty_triggers_the_end_and_the_turn_is_played_in_full():
    state = new_state(2, first=0)
    state.bonus_next = 3
    state.bonuses[1] = [15, 12, 9]
    give_tokens(state, 0, {5: 1, 6: 1, 7: 1, 8: 1, 9: 1})
    set_pos(state, 0, 10, 1)
    turn(state, [5, 5, 5, 5], {"climb": [10, 10]})  # arrives, takes, then takes again
    assert state.hold[5] == 2 and state.bonuses[0] == [6]
    assert state.ended and not state.is_terminal()  # seat 1 still moves
    turn(state, [2, 2, 2, 2], {"climb": []})
    assert state.is_terminal()


def test_mg12_equal_turns_for_everyone():
    rng = random.Random(3)
    for players in (2, 3, 4):
        for _ in range(20):
            state = GAME.new_initial_state(players)
            state.random_playout(rng)
            assert state.is_terminal()
            assert state.turns % players == 0


# ------------------------------------------------------------------ tie-breaks


def test_example_12_6_final_score_and_tie_break():
    state = new_state(2)
    give_tokens(state, 0, {5: 2, 6: 1, 7: 1, 8: 1, 9: 1, 10: 2})
    state.bonuses[0] = [15]
    state.score[0] += 15
    state.score[1] = 75
    assert state.score[0] == 75
    for m in (6, 8):
        set_pos(state, 0, m, HEIGHT[m - 5])
    for m in (5, 9):
        set_pos(state, 1, m, HEIGHT[m - 5])
    state.phase = 3
    assert state.winners() == [1]
    assert state.ranking() == [1, 0]
    set_pos(state, 0, 7, 3)  # three summit goats beat two
    assert state.winners() == [0]


def test_mg13_shared_victory_only_without_summit_goats():
    state = new_state(3)
    state.score[:] = [40, 40, 10]
    state.phase = 3
    assert state.winners() == [0, 1]
    assert state.ranking() == [0, 0, 2]


# ------------------------------------------------------------------ notation and errors


def test_record_example_opening_section_11():
    events = [
        {"chance": {"first_player": 1}},
        {"chance": {"roll": [3, 2, 5, 6]}},
        {"player": 1, "action": {"climb": [5, 5, 6]}},
        {"chance": {"roll": [1, 1, 1, 4]}},
        {"player": 2, "action": {"climb": [5, 6, 6], "faces": [1, 6, 6, 4], "groups": [[0, 3], [1], [2]]}},
        {"chance": {"roll": [6, 6, 6, 6]}},
        {"player": 0, "action": {"climb": [6, 6, 6, 6]}},
    ]
    state = replay(make_record("mountain-goats", 3, {}, events))
    assert (pos(state, 1, 5), pos(state, 1, 6)) == (2, 1)
    assert (pos(state, 2, 5), pos(state, 2, 6)) == (1, 2)
    assert pos(state, 0, 6) == 4 and state.hold[1] == 1 and state.stacks[1] == 9
    others = [p for i, p in enumerate(state.pos) if i not in (6 + 0, 6 + 1, 12 + 0, 12 + 1, 1)]
    assert others == [0] * len(others)


@pytest.mark.parametrize(
    "event, error, text",
    [
        ({"chance": {"roll": [1, 2, 3]}}, NotationError, "exactly 4"),
        ({"chance": {"roll": [1, 2, 3, 7]}}, NotationError, "outside 1..6"),
        ({"chance": {"roll": [0, 2, 3, 4]}}, NotationError, "outside 1..6"),
        ({"player": 0, "action": {"climb": [5]}}, ChanceExpectedError, "chance event is due"),
        ({"chance": {"first_player": 0}}, IllegalActionError, "roll is due"),
    ],
)
def test_it_rejects_bad_chance_events(event, error, text):
    state = new_state(2, first=0)
    with pytest.raises(error, match=text):
        state.apply_event(event)


def test_it_rejects_a_move_out_of_turn_and_a_chance_event_where_a_move_is_due():
    state = new_state(2, first=0)
    state.apply_event({"chance": {"roll": [2, 3, 4, 5]}})
    with pytest.raises(WrongSeatError, match="seat 0 to move"):
        state.apply_event({"player": 1, "action": {"climb": [5]}})
    with pytest.raises(ChanceExpectedError, match="a move by seat 0 is due"):
        state.apply_event({"chance": {"roll": [2, 3, 4, 5]}})


@pytest.mark.parametrize(
    "action, text",
    [
        ({"climb": [6, 5]}, "sorted"),
        ({"climb": [4]}, "5 to 10"),
        ({"climb": [5, 5, 5, 5, 5]}, "0 to 4"),
        ({"climb": "5"}, "5 to 10"),
        ({"mountains": [5]}, "'climb'"),
        ({"climb": [5], "groups": [[0, 1]]}, "only together with 'faces'"),
        ({"climb": [5], "extra": 1}, "unknown field"),
    ],
)
def test_it_rejects_malformed_climbs(action, text):
    state = new_state(2, first=0)
    state.apply_event({"chance": {"roll": [2, 3, 4, 5]}})
    with pytest.raises(NotationError, match=text):
        state.apply_event({"player": 0, "action": action})


def test_it_rejects_anything_after_the_end():
    state = GAME.new_initial_state(2)
    state.random_playout(random.Random(1))
    with pytest.raises(GameOverError, match="after the game has ended"):
        state.apply_event({"chance": {"roll": [1, 2, 3, 4]}})


def test_replay_summary_names_the_first_bad_event():
    events = [
        {"chance": {"first_player": 0}},
        {"chance": {"roll": [6, 6, 6, 6]}},
        {"player": 0, "action": {"climb": [10]}},
    ]
    verdict = summary(make_record("mountain-goats", 2, {}, events))
    assert verdict["ok"] is False and verdict["index"] == 2
    assert "cannot be reached" in verdict["error"]


# ------------------------------------------------------------------ property tests

rolls = st.lists(st.integers(1, 6), min_size=4, max_size=4).map(tuple)


@given(rolls)
def test_property_legal_climbs_are_exactly_what_some_adjustment_and_grouping_gives(roll):
    expected = set()
    for faces in adjusted_faces(roll):
        expected |= climbs_from_faces(faces)
    assert set(LEGAL_CLIMBS[roll]) == expected
    assert len(LEGAL_CLIMBS[roll]) == len(set(LEGAL_CLIMBS[roll]))
    for climb in LEGAL_CLIMBS[roll]:
        assert list(climb) == sorted(climb) and len(climb) <= 4


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6))
def test_property_random_games_conserve_tokens_and_respect_one_goat_per_summit(players, seed):
    state = GAME.new_initial_state(players)
    rng = random.Random(seed)
    total = sum(state.stacks)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(state.seat, actions[rng.randrange(len(actions))])
        assert sum(state.stacks) + sum(state.hold) == total
        for i, h in enumerate(HEIGHT):
            on_top = [s for s in range(players) if state.pos[6 * s + i] == h]
            assert len(on_top) <= 1
            assert state.summit[i] == (on_top[0] if on_top else -1) or (not on_top and state.summit[i] == -1)
        tokens = [sum(state.hold[6 * s + i] * (5 + i) for i in range(6)) + sum(state.bonuses[s]) for s in range(players)]
        assert tokens == state.scores()
