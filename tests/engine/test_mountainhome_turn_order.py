"""Every "in turn order" sweep starts with the active player (§0), also when the active player is not seat 0.

The card-effect tests mostly run in seat 0's turn, where a sweep that wrongly starts at seat 0 (or at
whoever explored) cannot be told from a correct one.  These run in Bo's turn (seat 1 of 3), so the
correct order is Bo, Cy, Ada.  The Charity cases (§14, MH-61) are in test_mountainhome_bids_and_events.py.
"""

from __future__ import annotations

from engine.core import CHANCE
from engine.games.mountainhome.constants import P_ACTION, P_CHOOSE, P_ONBID

from .test_mountainhome_support import act, chance, end_turn, inst, new_game, put, settle

ADA, BO, CY = 0, 1, 2
BOS_TURN = [BO, CY, ADA]


def in_bos_turn(explore_for_bo: list[str], **kwargs):
    """3 players; Ada's exploration takes a Silver Coins, then Bo is active in his action step."""
    state = new_game(3, explore=["shinies-2#4", *explore_for_bo], **kwargs)
    end_turn(state, ADA)
    assert state.active == BO and state.prompt == P_ACTION
    return state


def test_bid_draws_go_in_turn_order_from_the_active_player_b2() -> None:
    """§9.2 B2: "In turn order, each player draws 2" - Golems asks Bo, then Cy, then Ada."""
    state = in_bos_turn(["kartok#1"], dwarves=["kartok#1"])
    golems = put(state, "golems#1", "area")
    for seat in range(3):
        put(state, f"rocks-1#{seat + 1}", "draw", seat=seat)
    act(state, BO, "end_action_step")
    asked = []
    while state.prompt == P_CHOOSE and state.prompt_data[0] == 2:  # C_GOLEMS
        asked.append(state.to_move()[0])
        act(state, asked[-1], "choose", card=state.names[state.prompt_data[1]], option="discard")
        settle(state)
    assert list(dict.fromkeys(asked)) == BOS_TURN and state.counters[golems] == []


def _bid_in_bos_turn(action: str, pools: dict[int, list[str]]):
    state = in_bos_turn(["kartok#1"], dwarves=["kartok#1"], events=["minecarts#1", "mishap#1"])
    put(state, action, "hand", BO)
    for seat, cards in pools.items():
        for card in cards:
            put(state, card, "hand", seat)
    act(state, BO, "end_action_step")
    settle(state)
    act(state, BO, "commit_bid", cards=[action, *pools[BO]], uses=[])
    for seat in (ADA, CY):
        act(state, seat, "commit_bid", cards=pools[seat], uses=[])
    for seat in range(3):
        act(state, seat, "ready")
    return state


def test_faulty_minecarts_keeps_are_chosen_in_turn_order_from_the_active_player_mh_69() -> None:
    state = _bid_in_bos_turn("minecarts#1", {ADA: ["shinies-2#1"], BO: ["shinies-2#2"], CY: ["shinies-2#3"]})
    asked = []
    while state.prompt == P_ONBID:
        seat = state.to_move()[0]
        asked.append(seat)
        act(state, seat, "choose", keep=[])
    assert asked == BOS_TURN


def test_the_mishap_deal_starts_with_the_active_player_mh_68() -> None:
    state = _bid_in_bos_turn("mishap#1", {ADA: ["shinies-3#1", "booze-2#1"], BO: ["booze-3#2"],
                                          CY: ["shinies-2#3", "booze-2#3"]})
    act(state, ADA, "trash", card="shinies-3#1")  # Ada wins 5 to 4 and 3
    act(state, BO, "trash", card="mishap#1")
    act(state, CY, "trash", card="shinies-2#3")
    assert state.current_player() == CHANCE and state.prompt_data[0] == "deal"
    chance(state, {"kind": "deal_order", "order": ["booze-2#1", "booze-3#2", "booze-2#3"]})
    assert inst(state, "booze-2#1") in state.discard[BO]
    assert inst(state, "booze-3#2") in state.discard[CY]
    assert inst(state, "booze-2#3") in state.discard[ADA]


def test_party_hangovers_go_to_the_worst_losers_in_turn_order_from_the_active_player_n9() -> None:
    """Bo explores a Party that he wins; Cy and Ada tie as worst losers: Cy is served first (hangover#1)."""
    state = in_bos_turn(["party#1"], events=["party#1"])
    put(state, "distillery#1", "town", seat=BO)
    act(state, BO, "end_action_step")
    settle(state)
    for seat in range(3):
        act(state, seat, "ready")
    assert state.bid.winner == BO and sorted(state.bid.losers) == [ADA, CY]
    assert state.names[state.discard[CY][-1]] == "hangover#1"
    assert state.names[state.discard[ADA][-1]] == "hangover#2"
