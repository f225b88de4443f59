"""Mountainhome rules: setup, the turn, economy, construction, bids, scoring (worked examples E1-E3, E5-E7)."""

from __future__ import annotations

import pytest

from engine.core import CHANCE, SIMULTANEOUS, IllegalActionError, WrongSeatError
from engine.games.mountainhome.constants import P_ACTION, P_TRASH

from .test_mountainhome_support import GAME, act, chance, ev, give, inst, names, new_game, put, settle

ADA, BO, CY = 0, 1, 2


# ---------------------------------------------------------------- setup (§3, §23.2, §23.3)


def test_instance_ids_follow_the_creation_order_of_23_2() -> None:
    state = GAME.new_initial_state(2)
    lay = state.layout
    assert [lay.names[c] for c in lay.deck[0]][:2] == ["shinies-1#1", "shinies-2#1"]
    assert lay.names[lay.deck[1][1]] == "shinies-2#2"
    assert lay.names[lay.explore_resources[0]] == "shinies-2#3"
    assert lay.names[lay.explore_resources[1]] == "shinies-2#4"
    assert lay.names[lay.legendary_inst[lay.kinds[lay.index["marg#1"]]]] == "marg#1"
    assert lay.names[lay.explore_resources[-1]] == "rocks-4#2"  # no start-deck copies: #1 and #2
    assert "sapphire-hall#1" not in lay.index  # only the seats' Clan Halls exist


def test_legendaries_are_picked_publicly_in_reverse_seat_order_and_exclusively() -> None:
    state = GAME.new_initial_state(3)
    assert state.to_move() == (2,)
    act(state, 2, "choose_legendary", card="karina")
    assert state.to_move() == (1,)
    with pytest.raises(IllegalActionError):
        act(state, 1, "choose_legendary", card="karina")  # MH-3: exclusive
    with pytest.raises(WrongSeatError):
        act(state, 0, "choose_legendary", card="marg")
    act(state, 1, "choose_legendary", card="marg")
    act(state, 0, "choose_legendary", card="loki")
    assert state.current_player() == CHANCE
    assert state.chance_to_json(state.sample_chance(__import__("random").Random(1)))["pile"] == "draw:0"


def test_random_legendaries_are_one_chance_entry() -> None:
    state = GAME.new_initial_state(2, {"legendaries": "random"})
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 8 * 7
    chance(state, {"kind": "assign_legendaries", "cards": ["ori", "baldur"]})
    assert names(state, [state.layout.legendary_inst[k] for k in state.legendaries]) == ["ori#1", "baldur#1"]


@pytest.mark.parametrize("players,size,shop", [(2, 42, 16), (3, 59, 24), (4, 76, 32)])
def test_setup_builds_piles_of_the_right_size(players: int, size: int, shop: int) -> None:
    state = new_game(players)
    assert len(state.exploration) == size
    assert len(state.shop_deck) + 3 == shop
    assert all(c >= 0 for c in state.shop_slots)
    assert [len(h) for h in state.hand] == [6] * players
    assert [len(d) for d in state.draw] == [6] * players
    assert state.current_player() == ADA and state.prompt == P_ACTION and state.round == 1


def test_tiered_shop_stacks_three_tiers_basic_on_top() -> None:
    state = new_game(2, options={"shop_profile": "tiered"})
    assert len(state.shop_deck) + 3 == 20
    kinds = [state.kind[c] for c in state.shop_slots + list(reversed(state.shop_deck))]
    types = [__import__("engine.games.mountainhome.tables", fromlist=["KTYPE"]).KTYPE[k] for k in kinds]
    assert types == ["basic"] * 8 + ["advanced"] * 8 + ["project"] * 4


def test_a_forced_selection_is_still_a_chance_entry_mh_75() -> None:
    state = GAME.new_initial_state(4, {"legendaries": "random"})
    chance(state, {"kind": "assign_legendaries", "cards": ["ori", "baldur", "loki", "marg"]})
    for seat in range(4):
        order = [state.names[c] for c in state.prompt_data[2]]
        chance(state, {"kind": "shuffle", "pile": f"draw:{seat}", "order": order})
    # the dwarf pool at X=4 is 4 legendaries + 3 renowned + 3 generic labourers: all 10 are drawn
    assert state.current_player() == CHANCE and state.prompt_data[0] == "select"
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1 and outcomes[0][1] == 1.0
    assert len(outcomes[0][0][2]) == 10


def test_sample_chance_uses_only_randrange() -> None:
    class OnlyRandrange:
        def __init__(self) -> None:
            self.calls = 0

        def randrange(self, n: int) -> int:
            self.calls += 1
            return self.calls % n

    state = GAME.new_initial_state(2, {"legendaries": "random"})
    rng = OnlyRandrange()
    while state.current_player() == CHANCE:
        state.apply(CHANCE, state.sample_chance(rng))
    assert rng.calls > 0 and state.prompt == P_ACTION


# ---------------------------------------------------------------- E1: a full turn


E1_HAND = ["tobias#1", "shinies-3#1", "shinies-2#1", "rocks-2#1", "rocks-3#1", "ruby-hall#1"]


def e1_game() -> object:
    return new_game(
        2,
        legends=["tapfa", "marg"],
        hands={ADA: E1_HAND},
        explore=["rocks-4#1"],
        shop=["mine#1", "quarry#1", "forge#1"],
    )


def test_e1_a_full_turn() -> None:
    state = e1_game()
    assert names(state, state.shop_slots) == ["mine#1", "quarry#1", "forge#1"]
    for entry in [
        ev(0, "place_blueprint", card="ruby-hall#1"),
        ev(0, "play_treasure", card="rocks-2#1"),
        ev(0, "play_treasure", card="shinies-3#1"),
        ev(0, "play_treasure", card="shinies-2#1"),
    ]:
        state.apply_event(entry)
    assert state.action_pool == [2, 5, 0]
    act(state, 0, "commit_dwarf", card="tobias#1", building="ruby-hall#1", pay={"rocks": 2, "shinies": 2})
    assert state.action_pool == [0, 3, 0]
    act(state, 0, "buy", slot=0)
    assert state.action_pool == [0, 0, 0]
    assert state.shop_slots[0] >= 0 and state.shop_slots[0] != inst(state, "mine#1")
    act(state, 0, "end_action_step")
    hall = inst(state, "ruby-hall#1")
    assert state.steps_done[hall] == 1 and not state.finished(hall)
    assert len(state.hand[ADA]) == 6 and len(state.draw[ADA]) == 0
    assert names(state, state.discard[ADA]) == [
        "rocks-2#1", "shinies-3#1", "shinies-2#1", "tobias#1", "mine#1", "rocks-4#1", "rocks-3#1",
    ]
    assert sorted(names(state, state.hand[ADA])) == sorted(
        ["tapfa#1", "shinies-1#1", "booze-1#1", "booze-2#1", "booze-3#1", "rocks-1#1"]
    )
    assert state.vp(ADA) == 3
    assert state.current_player() == BO and state.prompt == P_ACTION


def test_the_action_pool_is_emptied_when_the_step_ends_mh_7() -> None:
    state = e1_game()
    act(state, 0, "play_treasure", card="shinies-3#1")
    act(state, 0, "end_action_step")
    assert state.action_pool == [0, 0, 0]


def test_a_typed_step_needs_exactly_its_types_and_pay_may_be_left_out() -> None:
    state = e1_game()
    act(state, 0, "place_blueprint", card="ruby-hall#1")
    act(state, 0, "play_treasure", card="shinies-3#1")
    act(state, 0, "play_treasure", card="rocks-3#1")
    with pytest.raises(IllegalActionError):
        act(state, 0, "commit_dwarf", card="tobias#1", building="ruby-hall#1", pay={"rocks": 3, "shinies": 1})
    act(state, 0, "commit_dwarf", card="tobias#1", building="ruby-hall#1")  # fully typed: pay optional (§5.2)
    assert state.action_pool == [1, 1, 0]


def test_an_any_cost_needs_a_pay_object() -> None:
    state = e1_game()
    give(state, ADA, "mine#2")
    act(state, 0, "place_blueprint", card="mine#2")
    act(state, 0, "play_treasure", card="shinies-3#1")
    act(state, 0, "play_treasure", card="rocks-3#1")
    from engine.core import NotationError

    with pytest.raises(NotationError):
        act(state, 0, "commit_dwarf", card="tobias#1", building="mine#2")
    with pytest.raises(IllegalActionError):  # overpaying is impossible (§5.2)
        act(state, 0, "commit_dwarf", card="tobias#1", building="mine#2", pay={"rocks": 3, "shinies": 2})
    act(state, 0, "commit_dwarf", card="tobias#1", building="mine#2", pay={"rocks": 3, "shinies": 1})
    assert state.action_pool == [0, 2, 0]


def test_a_finished_building_is_upright_at_once_and_tappable_mh_9() -> None:
    state = e1_game()
    mine = give(state, ADA, "mine#2")
    act(state, 0, "place_blueprint", card="mine#2")
    state.steps_done[mine] = 1
    state.action_pool = [5, 0, 0]
    act(state, 0, "commit_dwarf", card="tobias#1", building="mine#2", pay={"rocks": 5})
    assert state.finished(mine) and state.upright(mine)
    act(state, 0, "tap", building="mine#2")
    assert state.action_pool == [0, 2, 0]
    with pytest.raises(IllegalActionError):
        act(state, 0, "tap", building="mine#2")  # tapped until the next Prepare step


def test_labourer_ability_gains_one_resource_and_the_dwarf_is_discarded_mh_8() -> None:
    state = e1_game()
    act(state, 0, "dwarf_ability", card="tobias#1", res="booze")
    assert state.action_pool == [0, 0, 1]
    assert inst(state, "tobias#1") in state.discard[ADA]
    with pytest.raises(IllegalActionError):
        act(state, 0, "dwarf_ability", card="tobias#1", res="rocks")


def test_buying_costs_3_shinies_once_per_turn_mh_6() -> None:
    state = e1_game()
    act(state, 0, "play_treasure", card="shinies-3#1")
    act(state, 0, "play_treasure", card="shinies-2#1")
    with pytest.raises(IllegalActionError):
        act(state, 0, "buy", slot=0, consultants=True)  # Consultants is not in play
    act(state, 0, "buy", slot=2)
    assert inst(state, "forge#1") in state.discard[ADA]
    assert state.action_pool == [0, 2, 0]
    with pytest.raises(IllegalActionError):
        act(state, 0, "buy", slot=0)


# ---------------------------------------------------------------- bids: E2, E3


def e2_game() -> object:
    # Ada's second six cards (her hand on Bo's turn) hold Gold Coins, Mushroom Wine, Mossy Rocks.
    ada = ["tobias#1", "shinies-1#1", "shinies-2#1", "booze-1#1", "rocks-2#1", "rocks-3#1",
           "shinies-3#1", "booze-2#1", "rocks-1#1", "booze-3#1", "ruby-hall#1", "tapfa#1"]
    bo = ["shinies-2#2", "booze-3#2", "erik#1", "rocks-2#2", "rocks-3#2", "emerald-hall#1"]
    state = new_game(2, legends=["tapfa", "marg"], decks={ADA: ada}, hands={BO: bo},
                     explore=["shinies-2#3", "kartok#1"], dwarves=["kartok#1"])
    act(state, 0, "end_action_step")
    act(state, 1, "end_action_step")  # Bo explores Kartok: a dwarf bid
    settle(state)  # Ada's bid draw reshuffles her discard pile
    return state


def test_e2_dwarf_bid_tie_broken_by_trashed_value() -> None:
    state = e2_game()
    assert state.current_player() == SIMULTANEOUS and state.to_move() == (0, 1)
    assert len(state.hand[BO]) == 6 + 2 - 0 and len(state.hand[ADA]) == 8
    for entry in [
        ev(1, "commit_bid", cards=["shinies-2#2", "booze-3#2"], uses=[]),
        ev(0, "commit_bid", cards=["shinies-3#1", "booze-2#1", "rocks-1#1"], uses=[]),
        ev(1, "ready"),
    ]:
        state.apply_event(entry)
    assert state.to_move() == (0,)
    act(state, 0, "ready")
    assert state.prompt == P_TRASH and state.bid.values == [5, 5]
    act(state, 0, "trash", card="shinies-3#1")
    assert state.to_move() == (1,)
    act(state, 1, "trash", card="shinies-2#2")
    assert sorted(names(state, state.trash)) == ["shinies-2#2", "shinies-3#1"]
    assert state.discard[ADA][-3:] == [inst(state, "booze-2#1"), inst(state, "rocks-1#1"), inst(state, "kartok#1")]
    assert inst(state, "booze-3#2") in state.discard[BO]
    assert state.dwarves_found == 1 and state.bid is None
    assert state.vp(ADA) == 3 + 2


def test_e2_variant_ties_continue_until_no_eligible_card_then_no_winner() -> None:
    state = e2_game()
    act(state, 1, "commit_bid", cards=["shinies-2#2", "booze-3#2"], uses=[])
    act(state, 0, "commit_bid", cards=["shinies-3#1", "booze-2#1", "rocks-1#1"], uses=[])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 1, "trash", card="booze-3#2")
    act(state, 0, "trash", card="shinies-3#1")
    assert state.prompt == P_TRASH and state.bid.rounds == 1
    assert [a for a in state.legal_actions(1)] == [(23, inst(state, "shinies-2#2"), -1)]
    act(state, 1, "trash", card="shinies-2#2")
    act(state, 0, "trash", card="booze-2#1")
    assert state.bid.rounds == 2 and state.to_move() == (0,)  # Bo has nothing left: counts 0
    act(state, 0, "trash", card="rocks-1#1")
    assert state.bid is None and state.dwarves_found == 0
    assert state.exploration[0] == inst(state, "kartok#1")  # unwon: to the bottom, not found
    assert len(state.trash) == 5


def test_e3_nobody_really_bids() -> None:
    ada = ["rocks-2#1", "tobias#1", "shinies-1#1", "shinies-2#1", "booze-1#1", "rocks-3#1"]
    state = new_game(2, legends=["tapfa", "marg"], hands={ADA: ada}, explore=["didi#1"], dwarves=["didi#1"])
    act(state, 0, "end_action_step")
    hands = [len(h) for h in state.hand]
    act(state, 0, "commit_bid", cards=["rocks-2#1"], uses=[])
    act(state, 0, "ready")
    act(state, 1, "ready")  # ready without a commitment commits nothing (MH-80)
    assert state.bid.values == [0, 0]
    assert state.to_move() == (0,)  # the trash still happens (MH-14)
    act(state, 0, "trash", card="rocks-2#1")
    assert state.bid is None and state.dwarves_found == 0
    # the Prepare step then ran for Ada; Bo's net change is +2
    assert len(state.hand[BO]) == hands[BO] + 0 and hands[BO] == 8


def test_a_commitment_is_sealed_and_replaceable_until_ready_mh_50() -> None:
    state = e2_game()
    other = state.clone()
    act(state, 0, "commit_bid", cards=["shinies-3#1"], uses=[])
    act(other, 0, "commit_bid", cards=["shinies-3#1", "booze-2#1", "rocks-1#1"], uses=[])
    assert state.observation(1) == other.observation(1)  # nothing about the commitment shows
    assert state.observation(None) == other.observation(None)
    act(state, 0, "commit_bid", cards=["shinies-3#1", "booze-2#1"], uses=[])
    assert state.observation(0)["bid"]["my_commit"]["cards"] == ["shinies-3#1", "booze-2#1"]
    act(state, 0, "ready")
    with pytest.raises(WrongSeatError):
        act(state, 0, "commit_bid", cards=[], uses=[])
    with pytest.raises(IllegalActionError):
        act(state, 1, "commit_bid", cards=["shinies-3#1"], uses=[])  # not Bo's card


def test_any_legal_commitment_is_accepted_though_only_neighbours_are_listed() -> None:
    state = e2_game()
    listed = state.legal_actions(1)
    big = ev(1, "commit_bid", cards=["shinies-2#2", "booze-3#2", "erik#1"], uses=[])
    seat, action = state.decode_event(big)
    assert action not in listed
    state.apply(seat, action)
    assert state.bid.commit[1][0] == tuple(inst(state, c) for c in ["shinies-2#2", "booze-3#2", "erik#1"])


def test_dwarves_and_politics_and_ygg_are_never_trash_eligible_mh_53() -> None:
    state = e2_game()
    act(state, 1, "commit_bid", cards=["erik#1"], uses=[])
    act(state, 0, "commit_bid", cards=["tapfa#1"], uses=[])  # Tapfa's On Bid is not the point here
    state.bid.commit[0] = ((), ())
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.bid is None  # no eligible card: no trash prompt; 0 bids: no winner
    assert inst(state, "erik#1") in state.discard[BO]


def test_the_action_pool_survives_a_bid_untouched_mh_63() -> None:
    state = e2_game()
    state.action_pool = [1, 2, 3]
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.action_pool == [1, 2, 3]


# ---------------------------------------------------------------- uses in a bid (B4)


def test_bid_uses_tap_buildings_and_count_by_currency() -> None:
    state = e2_game()
    mine = give(state, BO, "mine#1")
    give(state, BO, "forge#1")
    forge = inst(state, "forge#1")
    state.hand[BO].remove(mine)
    state.hand[BO].remove(forge)
    for b in (mine, forge):
        state.town[BO].append(b)
        state.steps_done[b] = len(__import__("engine.games.mountainhome.tables", fromlist=["KSTEPS"]).KSTEPS[state.kind[b]])
        state.tapped[b] = False
    with pytest.raises(IllegalActionError):  # the Forge's n must come from earlier uses
        act(state, 1, "commit_bid", cards=[], uses=[{"tap": "forge#1", "n": 1}, {"tap": "mine#1"}])
    act(state, 1, "commit_bid", cards=[], uses=[{"tap": "mine#1"}, {"tap": "forge#1", "n": 2}])
    act(state, 1, "ready")
    act(state, 0, "ready")
    # the bid is over and Bo's Prepare step has untapped both buildings again
    assert state.dwarves_found == 1 and inst(state, "kartok#1") in state.discard[BO]  # 2 + 2 shinies = 4 > 0


# ---------------------------------------------------------------- E7: Karina


def e7_game(lagertha: bool) -> object:
    legends = ["karina", "marg"]
    ada = ["shinies-1#1", "shinies-2#1", "shinies-3#1", "booze-1#1", "booze-2#1", "booze-3#1", "karina#1"]
    state = new_game(2, legends=legends, hands={ADA: ada}, explore=["shinies-2#3"],
                     decks={BO: ["marg#1", "erik#1", "shinies-1#2", "shinies-2#2", "shinies-3#2", "rocks-1#2",
                                 "booze-1#2", "booze-2#2", "booze-3#2", "rocks-2#2", "rocks-3#2", "emerald-hall#1"]})
    act(state, 0, "end_action_step")
    forge, quarry = give(state, BO, "forge#1", "discard"), give(state, BO, "quarry#1", "discard")
    for b, p in ((forge, 0), (quarry, 1)):
        state.discard[BO].remove(b)
        state.town[BO].append(b)
        state.steps_done[b] = p
        state.tapped[b] = True
    state.hand[BO] = [inst(state, "marg#1"), inst(state, "erik#1")]
    if lagertha:
        lag = inst(state, "lagertha#1")
        hall = inst(state, "emerald-hall#1")
        for z in state.draw + state.discard + state.hand:
            if hall in z:
                z.remove(hall)
        state.town[BO].append(hall)
        state.steps_done[hall] = 3
        state.tapped[hall] = False
        state.stored[hall] = [lag]
        state.exploration.remove(lag) if lag in state.exploration else None
    state.action_pool = [4, 6, 0]
    return state


def test_e7_karina_cancels_a_dwarf_use() -> None:
    state = e7_game(lagertha=False)
    act(state, 1, "dwarf_ability", card="marg#1", steps=["forge#1", "quarry#1"], pay={"rocks": 4, "shinies": 6})
    assert state.to_move() == (0,)
    act(state, 0, "react", card="karina#1")
    assert inst(state, "karina#1") in state.discard[ADA] and inst(state, "marg#1") in state.discard[BO]
    assert state.action_pool == [4, 6, 0]
    assert state.steps_done[inst(state, "forge#1")] == 0 and state.steps_done[inst(state, "quarry#1")] == 1
    act(state, 1, "commit_dwarf", card="erik#1", building="forge#1", pay={"rocks": 4, "shinies": 2})
    assert state.steps_done[inst(state, "forge#1")] == 1  # Karina is gone: no window


def test_e7_variant_lagertha_undoes_the_cancel() -> None:
    state = e7_game(lagertha=True)
    act(state, 1, "dwarf_ability", card="marg#1", steps=["forge#1", "quarry#1"], pay={"rocks": 4, "shinies": 6})
    act(state, 0, "react", card="karina#1")
    assert state.to_move() == (1,)
    act(state, 1, "react", card="lagertha#1")
    quarry = inst(state, "quarry#1")
    assert state.action_pool == [0, 0, 0]
    assert state.steps_done[inst(state, "forge#1")] == 1 and state.finished(quarry) and state.upright(quarry)
    assert inst(state, "karina#1") in state.discard[ADA] and inst(state, "lagertha#1") in state.discard[BO]


def test_a_karina_pass_lets_the_use_resolve() -> None:
    state = e7_game(lagertha=False)
    act(state, 1, "dwarf_ability", card="erik#1", res="rocks")
    act(state, 0, "pass")
    assert state.action_pool == [5, 6, 0]


def test_the_karina_window_is_hidden_from_others_mh_58() -> None:
    import random

    state = e7_game(lagertha=False)
    act(state, 1, "dwarf_ability", card="erik#1", res="rocks")
    view_bo = state.observation(1)
    assert view_bo["prompt"] == "waiting" and view_bo["to_move"] == []
    assert state.observation(None)["prompt"] == "waiting"
    assert state.observation(0)["prompt"] == "karina" and state.observation(0)["to_move"] == [0]
    for seed in range(5):  # Bo's determinizations keep a window open for a seat that can hold Karina
        det = state.determinize(1, random.Random(seed))
        assert det.observation(1) == view_bo
        assert det.to_move() == (0,) and inst(det, "karina#1") in det.hand[0]


# ---------------------------------------------------------------- the end (§18): E5, E6


def end_game(bo_extra_vp: int):
    ada = ["shinies-3#1", "shinies-1#1", "shinies-2#1", "booze-1#1", "booze-2#1", "booze-3#1"]
    state = new_game(2, legends=["tapfa", "marg"], hands={ADA: ada}, explore=["ymir#1", "shinies-2#3"],
                     dwarves=["ymir#1"])
    state.dwarves_found = 3
    state.vp_tokens[BO] = bo_extra_vp
    act(state, 0, "end_action_step")
    settle(state)
    act(state, 0, "commit_bid", cards=["shinies-3#1"], uses=[])
    act(state, 0, "ready")
    act(state, 1, "ready")
    act(state, 0, "trash", card="shinies-3#1")
    settle(state)
    return state


def test_e5_the_game_ends_after_the_turn_of_the_x_plus_2th_dwarf_mh_22() -> None:
    state = end_game(bo_extra_vp=0)
    assert state.dwarves_found == 4
    assert state.is_terminal() and state.current_player() == -4
    assert state.scores() == [3 + 2, 3] and state.winners() == [ADA]
    assert state.ranking() == [0, 1]
    assert len(state.hand[ADA]) == 6  # Ada's Prepare step ran before the end


def test_e6_a_vp_tie_plays_on_until_a_check_point_with_one_leader_mh_23() -> None:
    state = end_game(bo_extra_vp=2)
    assert not state.is_terminal() and state.vp_tie_play
    assert state.to_move() == (BO,) and state.scores() == [5, 5]
    state.action_pool = [0, 0, 0]
    put(state, "quarry#1", "town", seat=BO, steps=1)
    put(state, "erik#1", "hand", seat=BO)
    state.action_pool = [4, 0, 0]
    act(state, 1, "commit_dwarf", card="erik#1", building="quarry#1", pay={"rocks": 4})
    assert state.is_terminal() and state.winners() == [BO] and state.scores() == [5, 6]


def test_ten_extra_rounds_without_a_single_leader_share_the_win() -> None:
    state = end_game(bo_extra_vp=2)
    state.exploration.clear()  # nothing left to explore: nobody's VP can change
    state.exploration_blocks = []
    turns = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        assert state.prompt == P_ACTION
        act(state, seat, "end_action_step")
        settle(state)
        turns += 1
    assert turns == 10 * 2 and state.winners() == [0, 1] and state.ranking() == [0, 0]


def test_the_hard_cap_ends_the_game_after_round_60_mh_24() -> None:
    state = new_game(2, explore=["shinies-2#3", "shinies-2#4"])
    state.round = 60
    act(state, 0, "end_action_step")
    settle(state)
    act(state, 1, "end_action_step")
    settle(state)
    assert state.is_terminal()


def test_labourers_score_one_under_the_option_mh_25() -> None:
    plain = new_game(2)
    counted = new_game(2, options={"labourer_vp": 1})
    assert counted.vp(ADA) == plain.vp(ADA) + 1
