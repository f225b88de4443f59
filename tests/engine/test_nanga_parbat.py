"""Nanga Parbat: every ruling (NP-1 … NP-20), every worked example (§13) and the
example opening (§12) of shared/rules/nanga-parbat.md."""

from __future__ import annotations

import pytest

from engine import (
    CHANCE,
    TERMINAL,
    GameOverError,
    IllegalActionError,
    WrongSeatError,
    get_game,
)
from engine.games.nanga_parbat import (
    ADJ,
    CAMP,
    EDGES,
    HIKER,
    POINTS,
    REQUIREMENTS,
    SECTION_INDEX,
    SECTION_NAMES,
    TYPE_CODE,
    NangaParbatState,
)

GAME = get_game("nanga-parbat")

# §12's example layout, in section order 1.1 .. 6.6.
EXAMPLE_LAYOUT = [
    "snow_leopard", "tahr", "musk_deer", "yak", "bharal", "red_panda",
    "yak", "snow_leopard", "tahr", "red_panda", "bharal", "tahr",
    "red_panda", "tahr", "bharal", "red_panda", "musk_deer", "yak",
    "musk_deer", "yak", "bharal", "musk_deer", "snow_leopard", "snow_leopard",
    "red_panda", "yak", "yak", "bharal", "tahr", "red_panda",
    "snow_leopard", "tahr", "bharal", "musk_deer", "musk_deer", "snow_leopard",
]  # fmt: skip

EXAMPLE_OPENING = [
    {"chance": {"first_player": 0}},
    {"chance": {"animals": EXAMPLE_LAYOUT}},
    {"player": 1, "action": {"guide": 2}},
    {"player": 0, "action": {"trap": "2.4"}},
    {"player": 0, "action": {"end_turn": True}},
    {"player": 1, "action": {"trap": "4.2"}},
    {"player": 1, "action": {"activate": "yak", "guide": 5}},
    {"player": 1, "action": {"end_turn": True}},
    {"player": 0, "action": {"trap": "5.1"}},
    {"player": 0, "action": {"end_turn": True}},
    {"player": 1, "action": {"trap": "1.6"}},
    {"player": 1, "action": {"end_turn": True}},
]

END = {"end_turn": True}


# ---------------------------------------------------------------------- helpers


def dealt(guide: int = 1, first: int = 0, area_scoring: bool = False) -> NangaParbatState:
    """The example layout dealt, the guide placed, ``first`` to move."""
    state = GAME.new_initial_state(2, {"area_scoring": area_scoring})
    state.apply_event({"chance": {"first_player": first}})
    state.apply_event({"chance": {"animals": EXAMPLE_LAYOUT}})
    state.apply_event({"player": 1 - first, "action": {"guide": guide}})
    return state


def put(state: NangaParbatState, **pieces: str) -> None:
    """Set sections: ``put(s, **{"2.4": "h0", "2.5": "c1", "3.1": "yak"})``."""
    for name, piece in pieces.items():
        i = SECTION_INDEX[name]
        if piece in TYPE_CODE:
            state.cells[i] = TYPE_CODE[piece]
        else:
            base = HIKER if piece[0] == "h" else CAMP
            state.cells[i] = base + int(piece[1])
    recount(state)


def recount(state: NangaParbatState) -> None:
    state.derive()


def set_board(state: NangaParbatState, seat: int, animals: list[str]) -> None:
    """Animal board entries: a type name, with a leading ``*`` if activated."""
    state.boards[seat] = [TYPE_CODE[a.lstrip("*")] | (8 if a.startswith("*") else 0) for a in animals]
    state._legal = None


def piece(state: NangaParbatState, name: str) -> str:
    c = state.cells[SECTION_INDEX[name]]
    if c < HIKER:
        from engine.games.nanga_parbat import TYPE_NAMES

        return TYPE_NAMES[c]
    return ("h" if c < CAMP else "c") + str((c - HIKER) % 2)


def act(state: NangaParbatState, seat: int, action: dict) -> None:
    state.apply_event({"player": seat, "action": action})


def legal_json(state: NangaParbatState) -> list[dict]:
    return [state.action_to_json(state.seat, a) for a in state.legal_actions()]


def is_legal(state: NangaParbatState, action: dict) -> bool:
    return action in legal_json(state)


def refuse(state: NangaParbatState, seat: int, action: dict, *words: str) -> str:
    """Assert that the checked path refuses ``action``; the message names it and the reason."""
    before = state.key()
    with pytest.raises(IllegalActionError) as info:
        act(state, seat, action)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert state.key() == before
    return message


def trap_somewhere(state: NangaParbatState) -> None:
    """Make this turn's trap on the first legal trap section (relocating first if needed)."""
    seat = state.seat
    for a in legal_json(state):
        if "relocate" in a:
            act(state, seat, a)
            break
    act(state, seat, next(a for a in legal_json(state) if "trap" in a))


# ---------------------------------------------------------------------- §12 example opening


def test_example_opening_reaches_the_stated_position():
    state = GAME.new_initial_state(2)
    for event in EXAMPLE_OPENING:
        state.apply_event(event)
    assert state.scores() == [1, 2]
    assert state.guide == 5  # region 6
    assert [piece(state, s) for s in ("2.4", "5.1", "4.2", "1.6")] == ["h0", "h0", "h1", "h1"]
    assert state.hikers == [13, 13]
    obs = state.observation(None)
    assert obs["animal_boards"] == [
        [{"type": "red_panda", "activated": False}, {"type": "red_panda", "activated": False}],
        [{"type": "yak", "activated": True}, {"type": "red_panda", "activated": False}],
    ]
    assert state.current_player() == 0 and not state.trapped and not state.claimed
    assert obs["guide"] == 6


def test_example_opening_turn_by_turn():
    state = GAME.new_initial_state(2)
    for event in EXAMPLE_OPENING[:4]:
        state.apply_event(event)
    assert state.scores() == [1, 0] and state.observation(0)["guide"] == 4  # turn 1
    for event in EXAMPLE_OPENING[4:6]:
        state.apply_event(event)
    assert state.observation(0)["guide"] == 2  # yak on 4.2 sends the guide to region 2
    state.apply_event(EXAMPLE_OPENING[6])
    assert state.observation(0)["guide"] == 5
    for event in EXAMPLE_OPENING[7:9]:
        state.apply_event(event)
    assert state.scores() == [1, 0]  # seat 0 was ahead: the red panda on 5.1 gives nothing
    assert state.observation(0)["guide"] == 1


# ---------------------------------------------------------------------- rulings


def test_np1_board_is_the_pyramid_borders_plus_the_nine_dotted_paths():
    inside = {1: {2, 3}, 2: {1, 3, 4, 5}, 3: {1, 2, 5, 6}, 4: {2, 5}, 5: {2, 3, 4, 6}, 6: {3, 5}}
    dotted = {("1.4", "2.1"), ("1.6", "3.1"), ("2.4", "4.1"), ("2.6", "3.4"), ("2.6", "5.1"),
              ("3.4", "5.1"), ("3.6", "6.1"), ("4.6", "5.4"), ("5.6", "6.4")}  # fmt: skip
    expected = set()
    for r in range(1, 7):
        for s, others in inside.items():
            for o in others:
                expected.add(tuple(sorted((f"{r}.{s}", f"{r}.{o}"))))
    expected |= dotted
    edges = {(SECTION_NAMES[a], SECTION_NAMES[b]) for a, b in EDGES}
    assert edges == expected
    assert len(edges) == 63
    for a in range(36):
        for b in ADJ[a]:
            assert a in ADJ[b]


def test_np1_board_has_36_sections_in_section_order():
    assert SECTION_NAMES == tuple(f"{r}.{s}" for r in range(1, 7) for s in range(1, 7))


def test_np2_chart_values_are_the_placeholder_table():
    assert POINTS == ((15, 12, 9, 6, 3), (14, 11, 8, 5, 2), (13, 10, 7, 4, 1))
    state = dealt(guide=1)
    trap_somewhere(state)
    set_board(state, 0, ["yak", "tahr", "bharal"])
    act(state, 0, {"claim": {"row": 2, "column": 5}, "animals": [0, 1, 2]})
    assert state.scores()[0] == 2


def test_np3_column_requirements_and_the_two_three_columns_are_separate_squares():
    assert REQUIREMENTS == (6, 5, 4, 3, 3)
    state = dealt(guide=1)
    trap_somewhere(state)
    set_board(state, 0, ["yak", "yak", "yak", "tahr", "tahr", "tahr"])
    assert is_legal(state, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2]})
    assert is_legal(state, {"claim": {"row": 3, "column": 5}, "animals": [0, 1, 2]})
    act(state, 0, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2]})
    assert state.scores()[0] == 4
    act(state, 0, END)
    trap_somewhere(state)
    act(state, 1, END)
    trap_somewhere(state)
    tahrs = [i for i, e in enumerate(state.boards[0]) if e == TYPE_CODE["tahr"]][:3]
    act(state, 0, {"claim": {"row": 3, "column": 5}, "animals": tahrs})
    assert state.scores()[0] == 4 + 1


def camp_position() -> NangaParbatState:
    """§13.5's position, after seat 0's trap."""
    state = dealt(guide=1)
    trap_somewhere(state)  # seat 0 traps in region 1
    put(state, **{"2.4": "h0", "2.6": "h0", "4.1": "h0", "4.2": "h0", "2.5": "h1"})
    state.score = [0, 2]
    return state


def test_np4_only_own_connected_hikers_become_camps():
    state = camp_position()
    refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "2.5", "2.6"]},
           "2.5", "not a hiker of seat 0")  # fmt: skip
    refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "2.6", "4.1"]}, "not connected")


def test_np4_camps_animals_and_opponent_hikers_never_bridge_a_gap():
    state = camp_position()
    for bridge in ("c0", "h1", "yak"):
        put(state, **{"2.5": bridge, "2.3": "h0"})
        # 2.4 and 2.6 touch only through 2.5; 2.3 does not touch 2.4
        refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.3", "2.4", "2.6"]}, "not connected")
    put(state, **{"2.5": "h0"})
    assert is_legal(state, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "2.5", "2.6"]})


def test_np4_camps_need_enough_camps_in_stock():
    state = camp_position()
    state.camps[0] = 2
    state._legal = None
    refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "4.1", "4.2"]},
           "2 camps in stock", "fewer than 3")  # fmt: skip
    assert not any("sections" in a for a in legal_json(state))


def test_np5_snow_leopard_swaps_adjacent_hikers_of_different_colours_only():
    state = dealt(guide=1)
    set_board(state, 0, ["snow_leopard"])
    put(state, **{"3.1": "h0", "3.2": "h1", "3.3": "h0", "5.5": "h1"})
    assert is_legal(state, {"activate": "snow_leopard", "swap": ["3.1", "3.2"]})
    refuse(state, 0, {"activate": "snow_leopard", "swap": ["3.1", "3.3"]}, "both seat 0's", "NP-5")
    refuse(state, 0, {"activate": "snow_leopard", "swap": ["3.3", "5.5"]}, "not adjacent")
    swaps = [a["swap"] for a in legal_json(state) if a.get("activate") == "snow_leopard"]
    assert swaps == [["3.1", "3.2"], ["3.2", "3.3"]]
    act(state, 0, {"activate": "snow_leopard", "swap": ["3.2", "3.3"]})
    assert (piece(state, "3.2"), piece(state, "3.3")) == ("h0", "h1")


def test_np6_tahr_may_move_an_opponent_hiker_but_never_a_camp():
    state = dealt(guide=1)
    set_board(state, 0, ["tahr", "tahr"])
    put(state, **{"3.1": "h1", "3.5": "c1"})
    assert piece(state, "3.2") == "tahr"
    refuse(state, 0, {"activate": "tahr", "swap": ["3.5", "3.2"]}, "must hold a hiker", "camp of seat 1")
    refuse(state, 0, {"activate": "tahr", "swap": ["3.1", "3.5"]}, "must hold an animal", "camp of seat 1")
    act(state, 0, {"activate": "tahr", "swap": ["3.1", "3.2"]})
    assert (piece(state, "3.1"), piece(state, "3.2")) == ("tahr", "h1")
    assert piece(state, "3.5") == "c1"


def test_np6_tahr_swap_is_ordered_hiker_first():
    state = dealt(guide=1)
    set_board(state, 0, ["tahr"])
    put(state, **{"3.1": "h0"})
    assert is_legal(state, {"activate": "tahr", "swap": ["3.1", "3.2"]})
    refuse(state, 0, {"activate": "tahr", "swap": ["3.2", "3.1"]}, "first section must hold a hiker")


def test_np7_musk_deer_swaps_animals_anywhere_of_different_types():
    state = dealt(guide=1)
    set_board(state, 0, ["musk_deer"])
    assert (piece(state, "1.1"), piece(state, "6.6")) == ("snow_leopard", "snow_leopard")
    refuse(state, 0, {"activate": "musk_deer", "swap": ["1.1", "6.6"]}, "both hold a snow_leopard", "NP-7")
    act(state, 0, {"activate": "musk_deer", "swap": ["1.1", "6.5"]})
    assert (piece(state, "1.1"), piece(state, "6.5")) == ("musk_deer", "snow_leopard")
    assert state.boards[0] == [TYPE_CODE["musk_deer"] | 8]


def test_np8_yak_may_send_the_guide_to_an_empty_region_then_relocation_is_due():
    state = dealt(guide=1)
    set_board(state, 0, ["yak"])
    put(state, **{f"4.{s}": "h1" for s in range(1, 7)})
    refuse(state, 0, {"activate": "yak", "guide": 1}, "already in region 1")
    act(state, 0, {"activate": "yak", "guide": 4})
    actions = legal_json(state)
    assert not any("trap" in a for a in actions)
    assert [a["relocate"] for a in actions if "relocate" in a] == [1, 2, 3, 5, 6]


def test_np8_yak_in_phase_b_makes_the_opponent_face_that_region():
    state = dealt(guide=1)
    act(state, 0, {"trap": "1.1"})  # snow_leopard; guide to region 1
    set_board(state, 0, ["yak"])
    act(state, 0, {"activate": "yak", "guide": 6})
    act(state, 0, END)
    assert state.current_player() == 1
    assert {a["trap"] for a in legal_json(state) if "trap" in a} == {f"6.{s}" for s in range(1, 7)}


def test_np9_relocation_only_from_an_empty_region_in_phase_a_to_a_region_with_an_animal():
    state = dealt(guide=1)
    refuse(state, 0, {"relocate": 2}, "region 1 still holds an animal")
    put(state, **{f"1.{s}": "h1" for s in range(1, 7)})
    put(state, **{f"2.{s}": "c0" for s in range(1, 7)})
    refuse(state, 0, {"relocate": 2}, "region 2 holds no animal")
    act(state, 0, {"relocate": 3})
    refuse(state, 0, {"relocate": 4}, "region 3 still holds an animal")
    act(state, 0, {"trap": "3.1"})
    refuse(state, 0, {"relocate": 4}, "trap has already been made")
    with pytest.raises(WrongSeatError):
        act(state, 1, {"relocate": 4})


def test_np10_red_panda_compares_scores_before_and_only_for_traps():
    state = dealt(guide=3)
    state.score = [3, 4]
    act(state, 0, {"trap": "3.4"})  # red panda
    assert state.scores() == [5, 4]
    # a red panda moved by a swap gives nothing
    state = dealt(guide=1)
    set_board(state, 0, ["tahr"])
    assert piece(state, "2.4") == "red_panda"
    put(state, **{"2.2": "h0"})
    act(state, 0, {"activate": "tahr", "swap": ["2.2", "2.4"]})
    assert state.scores() == [0, 0]


def test_np11_bharals_are_wild_and_six_bharals_pay_for_either_trade():
    state = dealt(guide=1)
    trap_somewhere(state)
    set_board(state, 0, ["bharal"] * 6)
    assert is_legal(state, {"claim": {"row": 3, "column": 1}, "animals": [0, 1, 2, 3, 4, 5]})
    assert is_legal(state, {"claim": {"row": 2, "column": 1}, "animals": [0, 1, 2, 3, 4, 5]})
    set_board(state, 0, ["red_panda", "red_panda", "bharal"])
    assert is_legal(state, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2]})  # red panda is a type
    refuse(state, 0, {"claim": {"row": 2, "column": 4}, "animals": [0, 1, 2]}, "cannot represent different types")


def test_np12_exact_amounts():
    state = camp_position()
    set_board(state, 0, ["yak", "yak", "yak", "yak"])
    refuse(state, 0, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2, 3]}, "exactly 3 animals, not 4")
    refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["4.1", "4.2"]}, "exactly 3 sections, not 2")
    refuse(state, 0, {"claim": {"row": 1, "column": 3}, "sections": ["2.4", "4.1", "4.2"]}, "exactly 4 sections")


def last_turn_position(first: int = 0) -> NangaParbatState:
    """Turn 30: the second player is to move with one hiker left; the first has none."""
    state = dealt(guide=1, first=first)
    second = 1 - first
    state.seat = second
    state.hikers = [0, 0]
    state.hikers[second] = 1
    state.turns = 29
    state._legal = None
    return state


def test_np13_the_turn_that_empties_the_stocks_is_finished_first():
    state = last_turn_position()
    set_board(state, 1, ["snow_leopard", "yak", "yak"])
    put(state, **{"3.1": "h0", "3.2": "h1"})
    act(state, 1, {"trap": "1.4"})  # yak; the last hiker
    assert state.hikers == [0, 0] and not state.is_terminal()
    act(state, 1, {"activate": "snow_leopard", "swap": ["3.1", "3.2"]})
    act(state, 1, {"claim": {"row": 3, "column": 4}, "animals": [1, 2, 3]})
    assert not state.is_terminal()
    act(state, 1, END)
    assert state.is_terminal() and state.current_player() == TERMINAL
    with pytest.raises(GameOverError):
        act(state, 0, {"trap": "1.1"})


def test_np14_the_second_player_places_the_guide_on_any_region():
    for first in (0, 1):
        state = GAME.new_initial_state(2)
        state.apply_event({"chance": {"first_player": first}})
        state.apply_event({"chance": {"animals": EXAMPLE_LAYOUT}})
        assert state.current_player() == 1 - first
        assert legal_json(state) == [{"guide": r} for r in range(1, 7)]
        with pytest.raises(WrongSeatError):
            act(state, first, {"guide": 3})
        refuse(state, 1 - first, {"trap": "1.1"}, "must first place the guide")
        act(state, 1 - first, {"guide": 3})
        assert state.current_player() == first and state.observation(None)["guide"] == 3
        refuse(state, first, {"guide": 4}, "placed only once")


def test_np15_scores_are_unbounded():
    state = dealt(guide=1)
    trap_somewhere(state)
    state.score = [1000, 1009]
    set_board(state, 0, ["yak"] * 6)
    act(state, 0, {"claim": {"row": 3, "column": 1}, "animals": [0, 1, 2, 3, 4, 5]})
    assert state.scores() == [1013, 1009]


def test_np16_equal_scores_are_a_draw():
    state = last_turn_position()
    act(state, 1, {"trap": "1.1"})  # snow_leopard: no points
    act(state, 1, END)
    assert state.is_terminal() and state.scores() == [0, 0]
    assert state.ranking() == [0, 0] and state.winners() == [0, 1]


def test_np17_the_lowest_index_non_activated_animal_is_activated():
    state = dealt(guide=1)
    set_board(state, 0, ["yak", "*tahr", "tahr", "bharal", "tahr"])
    put(state, **{"3.1": "h0"})
    act(state, 0, {"activate": "tahr", "swap": ["3.1", "3.2"]})
    obs = state.observation(0)["animal_boards"][0]
    assert [e["activated"] for e in obs] == [False, True, True, False, False]


def test_np18_activation_in_either_phase_any_order_only_in_ones_own_turn():
    state = dealt(guide=1)
    set_board(state, 0, ["yak", "yak", "yak", "yak"])
    set_board(state, 1, ["yak"])
    act(state, 0, {"activate": "yak", "guide": 2})  # before the trap
    act(state, 0, {"trap": "2.1"})  # a yak; the guide goes to region 1
    act(state, 0, {"activate": "yak", "guide": 3})  # between the trap and the claim
    act(state, 0, {"claim": {"row": 3, "column": 5}, "animals": [0, 1, 2]})
    assert state.boards[0] == [TYPE_CODE["yak"], TYPE_CODE["yak"]]
    act(state, 0, {"activate": "yak", "guide": 4})  # after the claim
    assert state.boards[0] == [TYPE_CODE["yak"] | 8, TYPE_CODE["yak"]]
    with pytest.raises(WrongSeatError):
        act(state, 1, {"activate": "yak", "guide": 5})
    assert state.legal_actions(1) == ()
    # not during setup
    setup = GAME.new_initial_state(2)
    setup.apply_event({"chance": {"first_player": 0}})
    setup.apply_event({"chance": {"animals": EXAMPLE_LAYOUT}})
    setup.boards[1] = [TYPE_CODE["yak"]]
    refuse(setup, 1, {"activate": "yak", "guide": 5}, "must first place the guide")


def test_np19_a_trap_is_always_possible_at_the_start_of_a_turn():
    import random

    for seed in range(40):
        state = GAME.new_initial_state(2)
        rng = random.Random(seed)
        turn_start = False
        while not state.is_terminal():
            if state.current_player() >= 0 and state.phase == 3 and not state.trapped and turn_start:
                t = state.turns + 1
                placed = sum(1 for c in state.cells if c >= HIKER)
                assert placed == t - 1
                assert 36 - placed >= 7 and state.hikers[state.seat] > 0
                actions = legal_json(state)
                assert any("trap" in a or "relocate" in a for a in actions)
                turn_start = False
            if state.current_player() == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            turn_start = action[0] in (0, 10)  # guide placement or end_turn starts a turn
            state.apply(state.seat, action)


def test_np20_claiming_is_optional_and_leftovers_score_nothing():
    state = camp_position()
    assert is_legal(state, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "4.1", "4.2"]})
    assert is_legal(state, END)
    state = last_turn_position()
    set_board(state, 0, ["yak", "yak", "tahr"])
    act(state, 1, {"trap": "1.1"})
    act(state, 1, END)
    assert state.scores() == [0, 0]


# ---------------------------------------------------------------------- worked examples (§13)


def test_13_1_bump_on_the_scoring_path():
    state = dealt(guide=1)
    trap_somewhere(state)  # 1.1, a snow leopard: no points
    state.score = [3, 7]
    set_board(state, 0, ["tahr", "tahr", "tahr"])
    act(state, 0, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2]})
    assert state.scores() == [8, 7]
    state._gain(1, 1)
    assert state.scores() == [8, 9]


def test_13_2_red_panda_behind_ahead_and_level():
    for before, after in (([3, 4], [5, 4]), ([5, 4], [5, 4]), ([0, 0], [1, 0])):
        state = dealt(guide=3)
        state.score = before[:]
        act(state, 0, {"trap": "3.4"})
        assert state.scores() == after
        assert state.boards[0] == [TYPE_CODE["red_panda"]]  # joins the board either way


def test_13_3_guide_movement_after_a_trap():
    state = dealt(guide=2, first=1)
    act(state, 1, {"trap": "2.4"})
    assert piece(state, "2.4") == "h1" and state.observation(0)["guide"] == 4
    set_board(state, 1, ["yak"])
    refuse(state, 1, {"activate": "yak", "guide": 4}, "already in region 4")
    act(state, 1, {"activate": "yak", "guide": 6})
    act(state, 1, END)
    assert {a["trap"][0] for a in legal_json(state) if "trap" in a} == {"6"}
    other = dealt(guide=2, first=1)
    act(other, 1, {"trap": "2.2"})
    assert other.observation(0)["guide"] == 2


def relocation_position() -> NangaParbatState:
    """§13.4: guide in region 5 with no animal; region 3 only 3.2; region 1 none."""
    state = dealt(guide=5)
    put(state, **{"5.1": "h1", "5.2": "h0", "5.3": "c1", "5.4": "c0", "5.5": "h1", "5.6": "h0"})
    put(state, **{f"3.{s}": "h1" for s in (1, 3, 4, 5, 6)})
    put(state, **{f"1.{s}": "c1" for s in range(1, 7)})
    assert piece(state, "2.6") == "tahr" and piece(state, "3.2") == "tahr"
    return state


def test_13_4_relocating_when_the_region_is_empty():
    state = relocation_position()
    refuse(state, 0, {"trap": "5.3"}, '"5.3"', "holds a camp of seat 1, not an animal")
    refuse(state, 0, {"relocate": 1}, "region 1 holds no animal")
    act(state, 0, {"relocate": 3})
    act(state, 0, {"trap": "3.2"})
    assert state.observation(0)["guide"] == 2


def test_13_4_alternative_a_tahr_brings_an_animal_into_the_region():
    state = relocation_position()
    set_board(state, 0, ["tahr"])
    act(state, 0, {"activate": "tahr", "swap": ["5.1", "2.6"]})
    assert (piece(state, "2.6"), piece(state, "5.1")) == ("h1", "tahr")
    refuse(state, 0, {"relocate": 3}, "region 5 still holds an animal")
    act(state, 0, {"trap": "5.1"})
    assert state.observation(0)["guide"] == 1


def test_13_5_building_camps():
    state = camp_position()
    hikers_before = state.hikers[0]
    act(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "4.1", "4.2"]})
    assert [piece(state, s) for s in ("2.4", "4.1", "4.2", "2.6")] == ["c0", "c0", "c0", "h0"]
    assert state.camps[0] == 9 and state.hikers[0] == hikers_before
    assert state.cubes[0] == 4 and state.scores() == [6, 2]
    assert state.chart[3] == 0  # square (1,4)


def test_13_5_illegal_alternatives():
    state = camp_position()
    refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "2.6", "4.1"]}, "not connected")
    refuse(state, 0, {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "2.5", "2.6"]}, "not a hiker of seat 0")
    refuse(state, 0, {"claim": {"row": 1, "column": 3}, "sections": ["2.4", "2.6", "4.1", "4.2"]}, "not connected")


def trade_position() -> NangaParbatState:
    state = dealt(guide=1, first=1)
    trap_somewhere(state)
    set_board(state, 1, ["*yak", "bharal", "tahr", "yak", "red_panda"])
    return state


def test_13_6_same_type_trade_with_a_bharal():
    state = trade_position()
    act(state, 1, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 3]})
    assert state.scores()[1] == 4
    assert state.observation(1)["animal_boards"][1] == [
        {"type": "tahr", "activated": False},
        {"type": "red_panda", "activated": False},
    ]


def test_13_6_different_type_trade_with_a_bharal():
    state = trade_position()
    act(state, 1, {"claim": {"row": 2, "column": 4}, "animals": [1, 2, 4]})
    assert state.scores()[1] == 5


def test_13_6_illegal_trades():
    state = trade_position()
    refuse(state, 1, {"claim": {"row": 2, "column": 4}, "animals": [0, 2, 3]}, "cannot represent different types")
    refuse(state, 1, {"claim": {"row": 3, "column": 4}, "animals": [0, 2, 4]}, "cannot represent a single type")
    refuse(state, 1, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 9]}, "no index 9")


def test_13_7_end_of_game_and_area_scoring():
    for area, expected in ((True, [25, 24]), (False, [20, 22])):
        state = last_turn_position(first=0)  # seat 1 plays turn 30 with its last hiker
        state.area = area
        state.guide = 2  # region 3, where nobody will have 4 pieces
        # region 1: seat 0 has 5 hikers and camps; region 4: seat 1 has 4; region 6: seat 0 has 4
        put(state, **{"1.1": "h0", "1.2": "c0", "1.3": "c0", "1.4": "h0", "1.5": "h0"})
        put(state, **{"4.1": "h1", "4.2": "c1", "4.3": "c1", "4.4": "h1"})
        put(state, **{"6.1": "h0", "6.2": "h0", "6.3": "c0", "6.4": "c0", "5.1": "h0", "5.2": "h1"})
        state.score = [20, 18]
        set_board(state, 1, ["snow_leopard", "yak", "yak", "bharal"])
        act(state, 1, {"trap": "3.2"})  # a tahr, with seat 1's last hiker
        assert state.hikers == [0, 0] and not state.is_terminal()
        act(state, 1, {"activate": "snow_leopard", "swap": ["5.1", "5.2"]})
        act(state, 1, {"claim": {"row": 3, "column": 4}, "animals": [1, 2, 3]})
        assert state.scores() == [20, 22]
        act(state, 1, END)
        assert state.is_terminal()
        assert state.scores() == expected
        assert state.winners() == ([0] if area else [1])


def test_13_8_end_by_cubes_with_hikers_left():
    state = dealt(guide=1, first=0)
    state.cubes = [0, 1]
    act(state, 0, {"trap": "1.1"})
    set_board(state, 0, ["yak", "yak", "yak"])
    assert not any("claim" in a for a in legal_json(state))  # no cube: seat 0 never claims again
    refuse(state, 0, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2]}, "no chart cubes left")
    act(state, 0, END)
    assert not state.is_terminal()
    trap_somewhere(state)
    set_board(state, 1, ["tahr", "tahr", "tahr"])
    act(state, 1, {"claim": {"row": 3, "column": 4}, "animals": [0, 1, 2]})
    assert state.cubes == [0, 0] and state.hikers[0] > 0
    act(state, 1, END)
    assert state.is_terminal() and state.winners() == [1]
