"""One test per Mountainhome card effect of bids and events (§9, §13, §14, §10, §22), and the worked examples E4, E8, E10 and E12.

The treasures, dwarves, buildings and locations are in test_mountainhome_card_effects.py.
"""

from __future__ import annotations

import random

import pytest

from engine.core import CHANCE, IllegalActionError
from engine.games.mountainhome.constants import P_ACTION, P_CHOOSE, P_ONBID, P_TRASH

from .test_mountainhome_support import (
    act,
    at_action_step,
    chance,
    end_turn,
    inst,
    names,
    new_game,
    put,
    settle,
    store,
)

ADA, BO, CY = 0, 1, 2


# ---------------------------------------------------------------- bids: action cards


def bid_game(ada: list[str], bo: list[str], legends=("tapfa", "marg"), players: int = 2, cy: list[str] | None = None):
    hands = {ADA: ada, BO: bo}
    if cy is not None:
        hands[CY] = cy
    state = new_game(players, legends=list(legends), hands=hands, explore=["kartok#1"], dwarves=["kartok#1"],
                     events=["fools#1", "minecarts#1", "mishap#1", "piling#1", "politics#1", "ygg#1", "ygg#2"])
    act(state, 0, "end_action_step")
    settle(state)
    return state


def commit(state, seat: int, cards: list[str]) -> None:
    act(state, seat, "commit_bid", cards=cards, uses=[])


def test_e12_tapfa_and_fools_gold() -> None:
    state = new_game(2, legends=["tapfa", "marg"], hands={ADA: ["tapfa#1", "rocks-3#1"], BO: ["shinies-3#2", "booze-3#2"]},
                     explore=["kartok#1"], dwarves=["kartok#1"], events=["fools#1"])
    put(state, "shinies-4#1", "hand", ADA)
    put(state, "fools#1", "hand", BO)
    act(state, 0, "end_action_step")
    settle(state)
    commit(state, 0, ["tapfa#1", "rocks-3#1", "shinies-4#1"])
    commit(state, 1, ["fools#1", "shinies-3#2", "booze-3#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.prompt == P_ONBID and state.to_move() == (BO,)  # Tapfa resolved silently first
    act(state, 1, "choose", card="shinies-4#1")
    assert state.bid.values == [3, 6]
    act(state, 0, "trash", card="rocks-3#1")
    act(state, 1, "trash", card="fools#1")
    assert inst(state, "kartok#1") in state.discard[BO] and state.dwarves_found == 1
    assert {inst(state, "tapfa#1"), inst(state, "shinies-4#1")} <= set(state.discard[ADA])


def test_strategic_piling_played_turns_the_next_rocks_into_shinies() -> None:
    state = at_action_step(hands={ADA: ["rocks-3#1", "rocks-2#1"]})
    put(state, "piling#1", "hand")
    act(state, 0, "play_action", card="piling#1")
    act(state, 0, "play_treasure", card="rocks-3#1")
    act(state, 0, "play_treasure", card="rocks-2#1")
    assert state.action_pool == [2, 3, 0]


def test_strategic_piling_on_bid_converts_one_own_rocks_card() -> None:
    state = bid_game(["rocks-3#1"], [])
    put(state, "piling#1", "hand", ADA)
    commit(state, 0, ["piling#1", "rocks-3#1"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 0, "choose", card="rocks-3#1")
    assert state.bid.values[ADA] == 3


def test_faulty_minecarts_cuts_every_pool_to_three_resource_cards() -> None:
    state = bid_game(["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1"], ["shinies-2#2", "booze-3#2"])
    put(state, "minecarts#1", "hand", BO)
    commit(state, 0, ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1"])
    commit(state, 1, ["minecarts#1", "shinies-2#2", "booze-3#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    # in turn order from the active player (Ada explored): Ada keeps first, then Bo
    assert state.to_move() == (ADA,)
    act(state, 0, "choose", keep=["shinies-2#1", "shinies-3#1", "booze-1#1"])
    act(state, 1, "choose", keep=["shinies-2#2", "booze-3#2"])
    assert inst(state, "shinies-1#1") in state.discard[ADA]
    assert state.bid.values == [6, 5]


def test_logistical_mishap_deals_the_pools_out() -> None:
    state = bid_game(["shinies-2#1", "booze-2#1"], ["shinies-3#2"])
    put(state, "mishap#1", "hand", BO)
    commit(state, 0, ["shinies-2#1", "booze-2#1"])
    commit(state, 1, ["mishap#1", "shinies-3#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 0, "trash", card="shinies-2#1")
    act(state, 1, "trash", card="mishap#1")
    assert state.current_player() == CHANCE and state.prompt_data[0] == "deal"
    cards = [state.names[c] for c in state.prompt_data[1]]
    assert sorted(cards) == ["booze-2#1", "shinies-3#2"]
    chance(state, {"kind": "deal_order", "order": ["shinies-3#2", "booze-2#1"]})
    # dealt from the active player (Ada): Ada gets the first card, Bo the second
    assert inst(state, "shinies-3#2") in state.discard[ADA] and inst(state, "booze-2#1") in state.discard[BO]


def test_ygg_stops_cuttbeard_politics_and_goes_home() -> None:
    state = bid_game(["shinies-3#1"], ["shinies-2#2"])
    put(state, "ygg#1", "hand", ADA)
    put(state, "politics#1", "hand", BO)
    commit(state, 0, ["ygg#1", "shinies-3#1"])
    commit(state, 1, ["politics#1", "shinies-2#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 1, "choose", card="shinies-3#1")
    assert inst(state, "shinies-3#1") in state.bid.pool[ADA] and state.bid.ygg_stopped[ADA]
    assert state.to_move() == (0, 1)
    act(state, 0, "trash", card="shinies-3#1")
    act(state, 1, "trash", card="shinies-2#2")
    assert inst(state, "ygg#1") in state.discard[ADA] and inst(state, "politics#1") in state.trash


def test_cuttbeard_politics_steals_a_card_for_good_and_ygg_unused_is_trashed() -> None:
    state = bid_game(["shinies-3#1", "booze-1#1"], ["shinies-2#2"])
    put(state, "politics#1", "hand", BO)
    put(state, "ygg#1", "hand", BO)
    commit(state, 0, ["shinies-3#1", "booze-1#1"])
    commit(state, 1, ["politics#1", "ygg#1", "shinies-2#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 1, "choose", card="shinies-3#1")
    assert inst(state, "shinies-3#1") in state.bid.pool[BO]
    act(state, 0, "trash", card="booze-1#1")
    act(state, 1, "trash", card="shinies-2#2")
    assert inst(state, "shinies-3#1") in state.discard[BO]
    assert inst(state, "ygg#1") in state.trash and inst(state, "politics#1") in state.trash


def test_ori_on_bid_adds_the_top_two_cards_to_the_pool() -> None:
    state = bid_game(["ori#1"], [], legends=("ori", "marg"))
    top = state.draw[ADA][-2:]
    commit(state, 0, ["ori#1"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert set(top) <= set(state.bid.pool[ADA])  # not a draw: taken into the pool (MH-55)
    assert state.prompt == P_TRASH


def test_wizard_auctioneer_moves_a_building_to_the_winner() -> None:
    state = at_action_step(hands={ADA: ["shinies-3#1"]})
    put(state, "wizard#1", "hand")
    put(state, "mine#1", "town", seat=BO)
    act(state, 0, "play_action", card="wizard#1", building="mine#1")
    settle(state)
    assert state.bid.kind == 2 and state.bid.owner == BO
    commit(state, 0, ["shinies-3#1"])
    act(state, 0, "ready")
    act(state, 1, "ready")  # Bo has +2 S of bid value, Ada 3
    act(state, 0, "trash", card="shinies-3#1")
    assert inst(state, "mine#1") in state.town[ADA] and inst(state, "wizard#1") in state.discard[ADA]
    assert state.prompt == P_ACTION and state.to_move() == (ADA,)


def test_trash_panda_rescues_cards_and_a_hangover_for_another_player() -> None:
    state = at_action_step()
    put(state, "panda#1", "hand")
    put(state, "shinies-4#1", "trash")
    hangover = state.new_instance(__import__("engine.games.mountainhome.tables", fromlist=["HANGOVER"]).HANGOVER)
    state.trash.append(hangover)
    act(state, 0, "play_action", card="panda#1",
        moves=[{"card": "shinies-4#1", "to": 0}, {"card": "hangover#1", "to": 1}])
    assert inst(state, "shinies-4#1") in state.discard[ADA] and hangover in state.discard[BO]
    assert inst(state, "panda#1") in state.discard[ADA]


# ---------------------------------------------------------------- immediate events


def test_dwarven_grace_charity_gives_each_player_a_resource_card() -> None:
    state = new_game(2, explore=["charity#1", "party#2", "shinies-2#3", "rocks-4#1"], events=["charity#1", "party#2"])
    act(state, 0, "end_action_step")
    assert state.current_player() == CHANCE and state.prompt_data[0] == "xshuffle"
    assert inst(state, "shinies-2#3") in state.hand[ADA] and inst(state, "rocks-4#1") in state.hand[BO]
    assert set(state.prompt_data[1]) == {inst(state, "party#2"), inst(state, "charity#1")}
    state.apply(CHANCE, state.sample_chance(random.Random(0)))
    assert inst(state, "charity#1") in state.exploration and inst(state, "party#2") in state.exploration


def test_turn_order_starts_with_the_given_seat_and_wraps_section_0() -> None:
    state = new_game(4)
    assert state.turn_order(0) == [0, 1, 2, 3]
    assert state.turn_order(2) == [2, 3, 0, 1]


def _party_won_by_bo(explore_after_party: list[str]):
    """3 players, Ada active: Ada explores a Party that Bo wins (finished Distillery, +3 B)."""
    state = new_game(3, explore=["party#1"] + explore_after_party, events=["party#1", "party#2", "charity#1"],
                     dwarves=["kartok#1"])
    put(state, "distillery#1", "town", seat=BO)
    act(state, ADA, "end_action_step")
    settle(state)
    for seat in range(3):
        act(state, seat, "ready")
    assert state.bid.winner == BO and state.to_move() == (BO,)
    return state


def test_charity_deals_in_turn_order_from_the_active_player_section_0_and_14() -> None:
    """Bo (seat 1) is active, so the deal goes Bo, Cy, Ada (§0 "in turn order", §14)."""
    state = new_game(3, explore=["shinies-2#4", "charity#1", "shinies-3#4", "booze-3#4", "rocks-3#4"],
                     events=["charity#1"])
    end_turn(state, ADA)
    assert state.active == BO and state.prompt == P_ACTION
    act(state, BO, "end_action_step")
    assert state.current_player() == CHANCE and state.prompt_data[0] == "xshuffle"
    assert inst(state, "shinies-3#4") in state.hand[BO]
    assert inst(state, "booze-3#4") in state.hand[CY]
    assert inst(state, "rocks-3#4") in state.hand[ADA]


def test_charity_explored_by_a_party_winner_deals_from_the_active_player_mh_61() -> None:
    """Bo wins Ada's Party and explores Charity; Ada is still active, so Ada is dealt first (§0, §14, MH-61)."""
    state = _party_won_by_bo(["charity#1", "shinies-2#4", "booze-2#4", "party#2", "rocks-2#4"])
    act(state, BO, "choose", explore=True)
    assert state.active == ADA
    assert state.current_player() == CHANCE and state.prompt_data[0] == "xshuffle"
    assert inst(state, "shinies-2#4") in state.hand[ADA]
    assert inst(state, "booze-2#4") in state.hand[BO]
    assert inst(state, "rocks-2#4") in state.hand[CY]  # after the set-aside Party #2
    assert set(state.prompt_data[1]) == {inst(state, "party#2"), inst(state, "charity#1")}


def test_dwarf_bid_from_a_party_winner_exploration_draws_from_the_active_player_mh_61() -> None:
    """The dwarf bid the Party winner's exploration starts still draws in turn order from Ada (§9.2 B2)."""
    state = _party_won_by_bo(["kartok#1"])
    golems = put(state, "golems#1", "area")
    for seat in range(3):  # a printed-Rocks card on top of every draw pile
        put(state, f"rocks-1#{seat + 1}", "draw", seat=seat)
    act(state, BO, "choose", explore=True)
    asked = []
    while state.prompt == P_CHOOSE and state.prompt_data[0] == 2:  # C_GOLEMS
        asked.append(state.to_move()[0])
        act(state, asked[-1], "choose", card=state.names[state.prompt_data[1]], option="discard")
        settle(state)
    assert list(dict.fromkeys(asked)) == [ADA, BO, CY] and state.counters[golems] == []


def test_e10_party_at_the_dining_hall() -> None:
    state = new_game(3, hands={ADA: ["booze-2#1", "shinies-3#1"], CY: ["booze-1#3"]},
                     explore=["party#1", "shinies-2#4"], events=["party#1"])
    put(state, "distillery#1", "town", seat=BO)
    act(state, 0, "end_action_step")
    settle(state)
    commit(state, 0, ["booze-2#1", "shinies-3#1"])
    commit(state, 2, ["booze-1#3"])
    for seat in range(3):
        act(state, seat, "ready")
    assert state.bid.values == [2, 3, 1]
    act(state, 0, "trash", card="shinies-3#1")
    act(state, 2, "trash", card="booze-1#3")
    assert state.bid.losers == [CY]
    assert state.names[state.discard[CY][-1]] == "hangover#1"
    assert state.to_move() == (BO,)
    act(state, 1, "choose", explore=True)
    assert inst(state, "shinies-2#4") in state.discard[BO]
    assert state.current_player() == CHANCE and state.prompt_data == ("insert", inst(state, "party#1"))


def test_lagertha_stops_a_party_hangover_n9() -> None:
    state = new_game(2, legends=["lagertha", "marg"], hands={ADA: ["lagertha#1"]},
                     explore=["party#1"], events=["party#1"])
    act(state, 0, "end_action_step")
    settle(state)
    act(state, 1, "commit_bid", cards=[state.names[c] for c in state.hand[BO] if state.kind[c] == inst(state, "booze-1#2") and False], uses=[])
    state.bid.commit[BO] = ((), ())
    put(state, "booze-3#2", "hand", BO)
    act(state, 1, "commit_bid", cards=["booze-3#2"], uses=[])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 1, "trash", card="booze-3#2")
    assert state.to_move() == (ADA,) and state.prompt == 6  # Lagertha window for the worst loser
    act(state, 0, "react", card="lagertha#1")
    assert not any(state.names[c].startswith("hangover") for c in state.discard[ADA])


# ---------------------------------------------------------------- recurring events


def test_consultants_puts_the_bought_blueprint_in_town_with_a_step_done() -> None:
    state = at_action_step(shop=["mine#1", "quarry#1", "forge#1"])
    put(state, "consultants#1", "area")
    state.action_pool = [0, 7, 0]
    act(state, 0, "buy", slot=0, consultants=True)
    mine = inst(state, "mine#1")
    assert mine in state.town[ADA] and state.steps_done[mine] == 1 and state.action_pool == [0, 0, 0]
    assert state.counters[inst(state, "consultants#1")] == [ADA]


def test_e4_golems_resolve_at_x_counters() -> None:
    state = new_game(3, explore=["shinies-2#4", "shinies-2#5", "shinies-2#6"])
    golems = put(state, "golems#1", "area")
    state.counters[golems] = [0]
    put(state, "rocks-2#3", "draw", seat=CY)
    put(state, "rocks-4#1", "draw", seat=CY)
    end_turn(state, ADA)
    while not (state.prompt == P_CHOOSE and state.to_move() == (CY,)):
        seat = state.to_move()[0]
        if state.prompt == P_CHOOSE:
            act(state, seat, "choose", card=state.names[state.prompt_data[1]], option="discard")
        else:
            act(state, seat, "end_action_step")
        settle(state)
    act(state, 2, "choose", card="rocks-4#1", option="trash")
    act(state, 2, "choose", card="rocks-2#3", option="trash")
    assert golems in state.trash and state.vp_tokens[0] == 1 and state.vp_tokens[2] == 2


def test_e8_golems_with_a_reshuffle() -> None:
    state = new_game(2, hands={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1", "booze-2#1", "booze-3#1"]},
                     decks={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1", "booze-2#1", "booze-3#1",
                                  "rocks-3#1", "rocks-1#1", "tapfa#1", "tobias#1", "ruby-hall#1", "rocks-2#1"]},
                     explore=["shinies-2#3"])
    golems = put(state, "golems#1", "area")
    state.counters[golems] = [BO]
    state.draw[ADA] = state.draw[ADA][2:]  # 4 cards left: rocks-2, ruby-hall, tobias... (top is the end)
    state.discard[ADA].extend(state.layout.index[n] for n in ["rocks-3#1", "rocks-1#1"])
    act(state, 0, "end_action_step")
    assert state.prompt == P_CHOOSE and state.prompt_data[0] == 2
    act(state, 0, "choose", card=state.names[state.prompt_data[1]], option="trash")
    assert golems in state.trash and state.vp_tokens == [1, 1]
    assert state.current_player() == CHANCE and state.prompt_data[0] == "shuffle"


def test_dragon_attack_discard_a_dwarf_or_lose_a_step() -> None:
    state = new_game(2, hands={ADA: ["shinies-1#1"]}, decks={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1",
                     "booze-2#1", "booze-3#1", "tobias#1", "rocks-1#1", "rocks-2#1", "rocks-3#1", "tapfa#1", "ruby-hall#1"]},
                     explore=["shinies-2#3"])
    dragon = put(state, "dragon#1", "area")
    put(state, "mine#1", "town", steps=2)
    act(state, 0, "end_action_step")
    assert state.prompt == P_CHOOSE and state.prompt_data == (3, dragon)
    act(state, 0, "choose", option="damage", building="mine#1")
    mine = inst(state, "mine#1")
    assert state.steps_done[mine] == 1 and not state.finished(mine)
    state2 = new_game(2, explore=["shinies-2#3"], decks={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1",
                      "booze-2#1", "booze-3#1", "tobias#1", "rocks-1#1", "rocks-2#1", "rocks-3#1", "tapfa#1", "ruby-hall#1"]})
    dragon = put(state2, "dragon#1", "area")
    act(state2, 0, "end_action_step")
    act(state2, 0, "choose", option="discard", card="tobias#1")
    assert state2.counters[dragon] == [ADA]


def test_dragon_attack_resolution_brings_the_lair_into_play_mh_57() -> None:
    state = at_action_step()
    dragon = put(state, "dragon#1", "area")
    lair = inst(state, "lair#1")
    assert lair in state.exploration
    state.counters[dragon] = [BO]
    state._add_counter(dragon, ADA)
    assert lair in state.shared_area and lair not in state.exploration and state.vp_tokens == [2, 2]


def test_goblins_add_a_counter_then_ask_for_an_option() -> None:
    state = new_game(2, explore=["shinies-2#3"])
    goblins = put(state, "goblins#1", "area")
    put(state, "mine#1", "town")
    act(state, 0, "end_action_step")
    assert state.counters[goblins] == [ADA] and state.prompt == P_CHOOSE
    options = {state.action_to_json(ADA, a)["option"] for a in state.legal_actions(ADA)}
    assert "tap" in options and "discard" in options
    act(state, 0, "choose", option="tap", building="mine#1")
    assert state.tapped[inst(state, "mine#1")]


def test_reorganisation_draws_k_and_puts_k_back_privately() -> None:
    state = new_game(2, explore=["shinies-2#3"], recurring=["reorg#1"])
    reorg = put(state, "reorg#1", "area")
    act(state, 0, "end_action_step")
    settle(state)
    assert state.prompt == P_CHOOSE and state.counters[reorg] == [ADA]
    act(state, 0, "choose", n=2)
    settle(state)
    back = [state.names[c] for c in state.hand[ADA][:2]]
    hand_before = len(state.hand[ADA])
    view_bo = state.observation(BO)
    act(state, 0, "choose", order=back)
    assert len(state.hand[ADA]) == hand_before - 2
    assert [state.names[c] for c in reversed(state.draw[ADA][-2:])] == back
    assert state.private_knowledge[ADA]["top"] == tuple(inst(state, c) for c in back)
    assert view_bo["engine"]["private"] == []
    det = state.determinize(ADA, random.Random(3))
    assert [det.names[c] for c in reversed(det.draw[ADA][-2:])] == back


# ---------------------------------------------------------------- negative effects (§10)


def test_lagertha_keeps_a_building_the_wizard_would_move_n7() -> None:
    state = at_action_step(legends=["tapfa", "lagertha"], hands={ADA: ["shinies-3#1"], BO: ["lagertha#1"]})
    put(state, "wizard#1", "hand")
    put(state, "mine#1", "town", seat=BO)
    act(state, 0, "play_action", card="wizard#1", building="mine#1")
    settle(state)
    commit(state, 0, ["shinies-3#1"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 0, "trash", card="shinies-3#1")
    assert state.prompt == 6 and state.to_move() == (BO,)  # Ada won 3 to 2: Bo's Lagertha window
    assert state.observation(ADA)["prompt"] == "waiting"
    act(state, 1, "react", card="lagertha#1")
    assert inst(state, "mine#1") in state.town[BO] and state.prompt == P_ACTION


def test_ygg_keeps_a_player_out_of_the_mishap_deal_n6() -> None:
    state = bid_game(["shinies-2#1", "booze-2#1"], ["shinies-3#2"])
    put(state, "ygg#2", "hand", ADA)
    put(state, "mishap#1", "hand", BO)
    commit(state, 0, ["ygg#2", "shinies-2#1", "booze-2#1"])
    commit(state, 1, ["mishap#1", "shinies-3#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 0, "trash", card="shinies-2#1")
    act(state, 1, "trash", card="mishap#1")
    assert state.bid.protected[ADA] and state.bid.ygg_stopped[ADA]
    assert state.current_player() == CHANCE and names(state, state.prompt_data[1]) == ["shinies-3#2"]
    chance(state, {"kind": "deal_order", "order": ["shinies-3#2"]})
    assert inst(state, "booze-2#1") in state.discard[ADA] and inst(state, "ygg#2") in state.discard[ADA]
    assert inst(state, "shinies-3#2") in state.discard[BO]  # the only unprotected player


def test_ygg_stops_loki_n2() -> None:
    state = bid_game(["loki#1", "shinies-3#1"], ["shinies-2#2"], legends=("loki", "marg"))
    put(state, "ygg#1", "hand", BO)
    commit(state, 0, ["loki#1", "shinies-3#1"])
    commit(state, 1, ["ygg#1", "shinies-2#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    state.apply_event({"player": 0, "action": {"do": "choose", "seat": 1}})
    assert state.bid.loki_choosers == {} and state.bid.ygg_stopped[BO]
    assert state.to_move() == (0, 1)  # Bo makes his own trash choice


def test_lagertha_stops_fools_gold_n4() -> None:
    state = bid_game(["shinies-3#1", "lagertha#1"], ["shinies-2#2"], legends=("lagertha", "marg"))
    put(state, "fools#1", "hand", BO)
    commit(state, 0, ["shinies-3#1"])
    commit(state, 1, ["fools#1", "shinies-2#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 1, "choose", card="shinies-3#1")
    assert state.prompt == 6 and state.to_move() == (ADA,)
    act(state, 0, "react", card="lagertha#1")
    assert state.bid.values == [3, 2]


def test_lagertha_stops_dragon_damage_n10() -> None:
    state = new_game(2, legends=["lagertha", "marg"], explore=["shinies-2#3"],
                     decks={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1", "booze-2#1", "booze-3#1",
                                  "lagertha#1", "rocks-1#1", "rocks-2#1", "rocks-3#1", "tobias#1", "ruby-hall#1"]})
    put(state, "dragon#1", "area")
    put(state, "mine#1", "town", steps=2)
    act(state, 0, "end_action_step")
    act(state, 0, "choose", option="damage", building="mine#1")
    assert state.prompt == 6
    act(state, 0, "react", card="lagertha#1")
    assert state.finished(inst(state, "mine#1")) and state.counters[inst(state, "dragon#1")] == []


# ---------------------------------------------------------------- resource windows (§8.3, §5.4)


def test_a_hoard_used_in_a_bid_draws_at_reveal_too_late_to_commit_mh_50() -> None:
    state = bid_game([], [])
    hoard = state.new_instance(__import__("engine.games.mountainhome.tables", fromlist=["HOARD"]).HOARD)
    state.hand[BO].append(hoard)
    size = len(state.hand[BO])
    act(state, 1, "commit_bid", cards=[], uses=[{"hoard": "hoard#1", "res": "shinies"}])
    act(state, 0, "ready")
    act(state, 1, "ready")
    settle(state)
    assert hoard in state.trash and len(state.hand[BO]) == size  # -1 Hoard +1 drawn
    assert inst(state, "kartok#1") in state.discard[BO]  # 3 shinies of bid resources won


def test_a_pawn_shop_use_in_a_bid_stores_the_card_and_counts_its_value() -> None:
    state = bid_game([], ["booze-3#2"])
    put(state, "pawnshop#1", "town", seat=BO)
    act(state, 1, "commit_bid", cards=[], uses=[{"pawn": "pawnshop#1", "card": "booze-3#2"}])
    with pytest.raises(IllegalActionError):  # a card cannot be both committed and used
        act(state, 1, "commit_bid", cards=["booze-3#2"], uses=[{"pawn": "pawnshop#1", "card": "booze-3#2"}])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.stored[inst(state, "pawnshop#1")] == [inst(state, "booze-3#2")]
    assert inst(state, "kartok#1") in state.discard[BO]


def test_doubling_covers_taps_in_resource_windows_mh_88() -> None:
    state = new_game(2, explore=["didi#1"], dwarves=["didi#1", "ymir#1"])
    put(state, "ymir#1", "hand")
    put(state, "brewery#1", "town")
    act(state, 0, "dwarf_ability", card="ymir#1", option="double")
    act(state, 0, "end_action_step")
    settle(state)
    act(state, 0, "commit_bid", cards=[], uses=[{"tap": "brewery#1"}])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert inst(state, "didi#1") in state.discard[ADA]
    assert state.dwarves_found == 1


def test_goblins_payment_window_takes_a_booze_card_and_piling_does_not_apply() -> None:
    state = new_game(2, explore=["shinies-2#3"],
                     decks={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "rocks-1#1", "rocks-2#1", "rocks-3#1",
                                  "booze-3#1", "tobias#1", "tapfa#1", "ruby-hall#1", "booze-1#1", "booze-2#1"]})
    goblins = put(state, "goblins#1", "area")
    act(state, 0, "end_action_step")
    assert state.prompt == P_CHOOSE and state.prompt_data == (4, goblins)
    listed = [state.action_to_json(ADA, a) for a in state.legal_actions(ADA)]
    assert {"do": "choose", "option": "pay", "sources": [{"card": "booze-1#1"}]} in listed
    assert {"do": "choose", "option": "discard", "card": "booze-3#1"} in listed  # the highest value only
    assert {"do": "choose", "option": "discard", "card": "booze-1#1"} not in listed
    # a longer source list than needed is still legal (leftovers are lost)
    act(state, 0, "choose", option="pay", sources=[{"card": "booze-1#1"}, {"card": "booze-2#1"}])
    assert {inst(state, "booze-1#1"), inst(state, "booze-2#1")} <= set(state.discard[ADA])
    with pytest.raises(IllegalActionError):
        state.check(ADA, (24, 4, 2, ((0, inst(state, "booze-3#1")),), state.actions_applied - 1))


def test_fools_gold_may_pick_nothing_mh_52() -> None:
    state = bid_game(["shinies-3#1"], ["shinies-2#2"])
    put(state, "fools#1", "hand", ADA)
    commit(state, 0, ["fools#1", "shinies-3#1"])
    commit(state, 1, ["shinies-2#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.prompt == P_ONBID and state.to_move() == (ADA,)
    act(state, 0, "pass")
    assert state.bid.conversions == {} and state.bid.values == [3, 2]


def test_politics_with_nothing_to_take_is_skipped() -> None:
    state = bid_game(["tapfa#1"], ["shinies-2#2"])
    put(state, "politics#1", "hand", BO)
    commit(state, 0, ["tapfa#1"])
    commit(state, 1, ["politics#1", "shinies-2#2"])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.prompt == P_TRASH and state.to_move() == (BO,)
    act(state, 1, "trash", card="shinies-2#2")
    assert inst(state, "politics#1") in state.trash


# ---------------------------------------------------------------- more rulings


def test_pawning_again_returns_the_old_card_to_the_discard_pile_mh_28() -> None:
    state = at_action_step(hands={ADA: ["booze-3#1", "rocks-2#1"]}, explore=["shinies-2#3"])
    put(state, "pawnshop#1", "town")
    act(state, 0, "tap", building="pawnshop#1", card="booze-3#1")
    state.tapped[inst(state, "pawnshop#1")] = False  # as after a Workshop untap
    act(state, 0, "tap", building="pawnshop#1", card="rocks-2#1")
    assert state.stored[inst(state, "pawnshop#1")] == [inst(state, "rocks-2#1")]
    assert inst(state, "booze-3#1") in state.discard[ADA] and state.action_pool == [0, 5, 0]


def test_dragon_damage_unfinishing_a_building_returns_its_stored_cards_mh_29() -> None:
    state = new_game(2, explore=["shinies-2#3"], decks={ADA: ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1",
                     "booze-2#1", "booze-3#1", "rocks-1#1", "rocks-2#1", "rocks-3#1", "tapfa#1", "tobias#1", "ruby-hall#1"]})
    put(state, "dragon#1", "area")
    put(state, "warehouse#1", "town")
    store(state, "warehouse#1", "rocks-3#1")
    act(state, 0, "end_action_step")
    settle(state)  # 5 cards left in the draw pile: the discard pile is reshuffled for the sixth
    act(state, 0, "choose", option="damage", building="warehouse#1")
    w = inst(state, "warehouse#1")
    assert state.steps_done[w] == 1 and not state.finished(w) and state.tapped[w]
    assert inst(state, "rocks-3#1") in state.discard[ADA] and not state.stored.get(w)


def test_a_recurring_event_applies_in_the_revealing_turns_prepare_step_mh_62() -> None:
    state = new_game(2, explore=["goblins#1"], recurring=["goblins#1"])
    act(state, 0, "end_action_step")
    settle(state)
    goblins = inst(state, "goblins#1")
    assert goblins in state.shared_area and state.counters[goblins] == [ADA]


def test_golems_applies_to_bid_draws_too_mh_36() -> None:
    state = new_game(2, explore=["kartok#1"], dwarves=["kartok#1"],
                     decks={BO: ["erik#1", "shinies-1#2", "shinies-2#2", "shinies-3#2", "booze-1#2", "booze-2#2",
                                 "rocks-1#2", "rocks-2#2", "rocks-3#2", "marg#1", "booze-3#2", "emerald-hall#1"]})
    put(state, "golems#1", "area")
    act(state, 0, "end_action_step")
    settle(state)
    # Ada drew first (she is active); then Bo's first bid card is Mossy Rocks
    while not (state.prompt == P_CHOOSE and state.prompt_data[1] == inst(state, "rocks-1#2")):
        act(state, state.to_move()[0], "choose", card=state.names[state.prompt_data[1]], option="discard")
        settle(state)
    act(state, 1, "choose", card="rocks-1#2", option="discard")
    assert inst(state, "rocks-1#2") in state.discard[BO] and state.counters[inst(state, "golems#1")] == []


def test_non_active_players_keep_their_hands_between_turns_mh_20() -> None:
    state = new_game(2, explore=["shinies-2#3"])
    bo_hand = list(state.hand[BO])
    act(state, 0, "end_action_step")
    assert state.hand[BO] == bo_hand and state.current_player() == BO
