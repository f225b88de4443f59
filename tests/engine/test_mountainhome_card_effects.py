"""One test per Mountainhome card effect of treasures, dwarves, buildings and locations (§2, §22), and E9 and E11.

Bids, events and negative effects are in test_mountainhome_bids_and_events.py.
"""

from __future__ import annotations

import random

import pytest

from engine.core import CHANCE, SIMULTANEOUS, IllegalActionError
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


# ---------------------------------------------------------------- treasures and loot


def test_treasure_adds_its_value_of_its_type() -> None:
    state = at_action_step(hands={ADA: ["booze-3#1", "rocks-2#1", "shinies-1#1"]})
    act(state, 0, "play_treasure", card="booze-3#1")
    act(state, 0, "play_treasure", card="rocks-2#1")
    act(state, 0, "play_treasure", card="shinies-1#1")
    assert state.action_pool == [2, 1, 3]
    assert names(state, state.discard[ADA]) == ["booze-3#1", "rocks-2#1", "shinies-1#1"]


def test_mushroom_wine_is_worth_3_while_the_fortress_is_in_play() -> None:
    state = at_action_step(hands={ADA: ["booze-2#1"]})
    put(state, "fortress#1", "area")
    act(state, 0, "play_treasure", card="booze-2#1")
    assert state.action_pool == [0, 0, 3]


def test_dragon_hoard_is_trashed_to_draw_one_and_gain_three_of_a_named_type() -> None:
    state = at_action_step()
    hoard = state.new_instance(__import__("engine.games.mountainhome.tables", fromlist=["HOARD"]).HOARD)
    state.hand[ADA].append(hoard)
    assert state.names[hoard] == "hoard#1"
    act(state, 0, "hoard", card="hoard#1", res="rocks")
    assert state.action_pool == [3, 0, 0] and hoard in state.trash
    assert len(state.hand[ADA]) == 7  # 6 - the Hoard + 1 drawn


def test_hangover_is_minus_one_vp() -> None:
    state = at_action_step()
    before = state.vp(BO)
    hangover = state.new_instance(__import__("engine.games.mountainhome.tables", fromlist=["HANGOVER"]).HANGOVER)
    state.discard[BO].append(hangover)
    assert state.vp(BO) == before - 1


# ---------------------------------------------------------------- dwarves


@pytest.mark.parametrize("dwarf,res,amount", [("ymir#1", 2, 3), ("kartok#1", 0, 3), ("didi#1", 1, 2)])
def test_renowned_dwarf_gains_resources(dwarf: str, res: int, amount: int) -> None:
    state = at_action_step()
    put(state, dwarf, "hand")
    act(state, 0, "dwarf_ability", card=dwarf, option="gain")
    assert state.action_pool[res] == amount and inst(state, dwarf) in state.discard[ADA]


@pytest.mark.parametrize("dwarf,building,res", [("ymir#1", "brewery#1", 2), ("kartok#1", "quarry#1", 0), ("didi#1", "mine#1", 1)])
def test_renowned_dwarf_doubles_its_building_for_the_turn_without_stacking(dwarf: str, building: str, res: int) -> None:
    state = at_action_step()
    put(state, dwarf, "hand")
    put(state, building, "town")
    second = building.replace("#1", "#2")
    put(state, second, "town")
    act(state, 0, "tap", building=building)
    assert state.action_pool[res] == 2  # taps before the ability are not doubled (§6.2)
    act(state, 0, "dwarf_ability", card=dwarf, option="double")
    act(state, 0, "tap", building=second)
    assert state.action_pool[res] == 2 + 4


def test_ori_draws_two_and_goes_to_the_discard_pile_after_the_draw() -> None:
    state = at_action_step(legends=["ori", "marg"], hands={ADA: ["ori#1"]})
    act(state, 0, "dwarf_ability", card="ori#1")
    assert len(state.hand[ADA]) == 7 and state.discard[ADA] == [inst(state, "ori#1")]


def test_marg_builds_two_steps_of_one_building() -> None:
    state = at_action_step(legends=["marg", "ori"], hands={ADA: ["marg#1"]})
    put(state, "ruby-hall#1", "town", steps=0)
    state.action_pool = [5, 5, 0]
    act(state, 0, "dwarf_ability", card="marg#1", steps=["ruby-hall#1", "ruby-hall#1"],
        pay={"rocks": 5, "shinies": 5})
    assert state.steps_done[inst(state, "ruby-hall#1")] == 2 and state.action_pool == [0, 0, 0]


def test_baldur_look_is_private_and_reorders_the_top_five() -> None:
    state = at_action_step(legends=["baldur", "marg"], hands={ADA: ["baldur#1"]},
                           explore=["shinies-2#3", "shinies-3#3", "booze-2#3", "booze-3#3", "rocks-2#3", "rocks-3#3"])
    before_bo = state.observation(BO)
    act(state, 0, "dwarf_ability", card="baldur#1", option="look")
    assert state.prompt == P_CHOOSE and state.to_move() == (ADA,)
    top = ["shinies-2#3", "shinies-3#3", "booze-2#3", "booze-3#3", "rocks-2#3"]
    assert names(state, state.private_knowledge[ADA]["xtop"]) == top
    assert state.observation(ADA)["engine"]["private"]
    new = list(reversed(top))
    act(state, 0, "choose", order=new)
    assert names(state, reversed(state.exploration[-5:])) == new
    assert names(state, state.private_knowledge[ADA]["xtop"]) == new
    after_bo = state.observation(BO)["engine"]
    assert after_bo["private"] == before_bo["engine"]["private"] == []
    for seed in range(3):  # Ada's determinizations keep her knowledge of the top
        det = state.determinize(ADA, random.Random(seed))
        assert names(det, reversed(det.exploration[-5:])) == new


def test_baldur_explores_five_times_then_is_shuffled_into_the_pile() -> None:
    top = ["shinies-2#3", "shinies-3#3", "booze-2#3", "booze-3#3", "rocks-2#3"]
    state = at_action_step(legends=["baldur", "marg"], hands={ADA: ["baldur#1"]}, explore=top)
    vp = state.vp(ADA)
    act(state, 0, "dwarf_ability", card="baldur#1", option="explore")
    assert state.current_player() == CHANCE and state.prompt_data == ("insert", inst(state, "baldur#1"))
    size = len(state.exploration)
    chance(state, {"kind": "insert", "pile": "exploration", "card": "baldur#1", "position": size})
    assert state.exploration[0] == inst(state, "baldur#1")
    assert names(state, state.discard[ADA]) == top
    assert state.vp(ADA) == vp - 3  # he left Ada's cards (MH-41)


def test_thorvald_puts_the_first_event_on_top_and_the_rest_underneath() -> None:
    state = at_action_step(legends=["thorvald", "marg"], hands={ADA: ["thorvald#1"]},
                           explore=["shinies-2#3", "rocks-2#3", "party#1"], events=["party#1"])
    act(state, 0, "dwarf_ability", card="thorvald#1")
    assert state.current_player() == CHANCE and state.prompt_data[0] == "bottom"
    chance(state, {"kind": "bottom_order", "pile": "exploration", "order": ["rocks-2#3", "shinies-2#3"]})
    assert state.exploration[-1] == inst(state, "party#1")
    assert names(state, state.exploration[:2]) == ["shinies-2#3", "rocks-2#3"]  # upper first: rocks above shinies


def test_loki_makes_the_victims_trash_choices() -> None:
    state = new_game(2, legends=["loki", "marg"], hands={ADA: ["loki#1", "shinies-3#1"]},
                     explore=["didi#1"], dwarves=["didi#1"])
    end_turn(state, ADA)
    bo_card = next(c for c in state.hand[BO] if state.kind[c] != state.kind[inst(state, "marg#1")]
                   and not __import__("engine.games.mountainhome.tables", fromlist=["IS_DWARF"]).IS_DWARF[state.kind[c]])
    act(state, 0, "commit_bid", cards=["loki#1", "shinies-3#1"], uses=[])
    act(state, 1, "commit_bid", cards=[state.names[bo_card]], uses=[])
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert state.prompt == P_ONBID
    state.apply_event({"player": 0, "action": {"do": "choose", "seat": 1}})
    assert state.bid.loki_choosers == {1: 0}
    assert state.prompt == P_TRASH and state.to_move() == (0,)  # Ada chooses for both
    act(state, 0, "trash", card="shinies-3#1")
    act(state, 0, "trash", card=state.names[bo_card], **{"for": 1})
    assert bo_card in state.trash


# ---------------------------------------------------------------- buildings


def test_clan_hall_tap_tucks_dwarves_which_stay_usable() -> None:
    state = at_action_step(hands={ADA: ["tobias#1", "tapfa#1"]})
    put(state, "ruby-hall#1", "town")
    act(state, 0, "tap", building="ruby-hall#1", cards=["tobias#1", "tapfa#1"])
    hall = inst(state, "ruby-hall#1")
    assert names(state, state.stored[hall]) == ["tapfa#1", "tobias#1"] or set(names(state, state.stored[hall])) == {"tapfa#1", "tobias#1"}
    act(state, 0, "dwarf_ability", card="tobias#1", res="shinies")
    assert state.action_pool == [0, 1, 0] and inst(state, "tobias#1") in state.discard[ADA]
    end_turn(state, ADA)
    assert inst(state, "tapfa#1") in state.stored[hall]  # not discarded in the Prepare step (MH-59)


def test_ferry_boat_draws_then_discards_one() -> None:
    state = at_action_step()
    put(state, "boat#1", "town")
    act(state, 0, "tap", building="boat#1")
    assert state.prompt == P_CHOOSE and len(state.hand[ADA]) == 7
    card = state.names[state.hand[ADA][0]]
    act(state, 0, "choose", card=card)
    assert len(state.hand[ADA]) == 6 and state.discard[ADA][-1] == inst(state, card)


def test_witchs_hut_extra_draws_cost_random_trashes_after_the_bid() -> None:
    state = new_game(2, explore=["didi#1"], dwarves=["didi#1"])
    put(state, "hut#1", "town")
    act(state, 0, "end_action_step")
    assert state.prompt == 8 and state.to_move() == (ADA,)  # hut_draw after Ada's 2 bid cards
    act(state, 0, "hut_draw", n=2)
    settle(state)
    assert state.bid.hut_extras[ADA] == 2
    act(state, 0, "ready")
    act(state, 1, "ready")
    for _ in range(2):
        assert state.current_player() == CHANCE and state.prompt_data == ("rtrash", ADA)
        card = state.sample_chance(random.Random(0))
        state.apply(CHANCE, card)
        assert card[2] in state.trash


def test_warehouse_stores_a_resource_card_that_can_be_played_later() -> None:
    state = at_action_step(hands={ADA: ["booze-3#1"]}, explore=["shinies-2#3", "shinies-2#4"])
    put(state, "warehouse#1", "town")
    act(state, 0, "tap", building="warehouse#1", card="booze-3#1")
    end_turn(state, ADA)
    end_turn(state, BO)
    act(state, 0, "play_treasure", card="booze-3#1")
    assert state.action_pool == [0, 0, 3]


def test_dark_dungeon_puts_a_discarded_card_on_top_in_public_view() -> None:
    state = at_action_step(hands={ADA: ["shinies-3#1", "rocks-3#1"]})
    put(state, "dungeon#1", "town")
    act(state, 0, "play_treasure", card="shinies-3#1")
    act(state, 0, "play_treasure", card="rocks-3#1")
    act(state, 0, "tap", building="dungeon#1", card="shinies-3#1")
    assert state.draw[ADA][-1] == inst(state, "shinies-3#1") and state.action_pool == [3, 1, 0]
    assert state.observation(BO)["engine"]["dblocks"][ADA][-1] == [[inst(state, "shinies-3#1")], 1]


def test_dark_dungeon_cannot_tap_with_an_empty_discard_pile_mh_93() -> None:
    state = at_action_step()
    put(state, "dungeon#1", "town")
    state.action_pool = [0, 5, 0]
    assert not [a for a in state.legal_actions(ADA) if a[0] == 5 and a[1] == inst(state, "dungeon#1")]


def test_pawn_shop_pawns_for_shinies_and_sells_back_to_anyone() -> None:
    state = at_action_step(hands={ADA: ["booze-3#1", "rocks-2#1"]}, explore=["shinies-2#3"])
    put(state, "pawnshop#1", "town")
    act(state, 0, "tap", building="pawnshop#1", card="booze-3#1")
    assert state.action_pool == [0, 3, 0]
    shop = inst(state, "pawnshop#1")
    assert state.stored[shop] == [inst(state, "booze-3#1")]
    base = state.vp(ADA)
    state.stored[shop] = [inst(state, "rocks-2#1")]
    state.hand[ADA].remove(inst(state, "rocks-2#1"))
    assert state.vp(ADA) == base - 3 + 2
    end_turn(state, ADA)
    state.action_pool = [0, 2, 0]
    act(state, 1, "pawn_buyback", building="pawnshop#1")
    assert inst(state, "rocks-2#1") in state.hand[BO] and state.action_pool == [0, 0, 0]


@pytest.mark.parametrize("building,res", [("brewery#1", 2), ("mine#1", 1), ("quarry#1", 0)])
def test_producing_buildings_give_two(building: str, res: int) -> None:
    state = at_action_step()
    put(state, building, "town")
    act(state, 0, "tap", building=building)
    assert state.action_pool[res] == 2


@pytest.mark.parametrize("building,res,mult", [("distillery#1", 2, 3), ("forge#1", 1, 2), ("guild#1", 0, 2)])
def test_variable_taps_pay_n_to_gain_a_multiple_mh_79(building: str, res: int, mult: int) -> None:
    state = at_action_step()
    put(state, building, "town")
    state.action_pool[res] = 3
    pay = {("rocks", "shinies", "booze")[res]: 2}
    with pytest.raises(IllegalActionError):
        act(state, 0, "tap", building=building, n=2, pay={("rocks", "shinies", "booze")[res]: 1})
    act(state, 0, "tap", building=building, n=2, pay=pay)
    assert state.action_pool[res] == 3 - 2 + 2 * mult


def test_hillock_dwelling_stores_a_dwarf_and_builds_with_it() -> None:
    state = at_action_step(hands={ADA: ["tobias#1", "booze-1#1"]})
    put(state, "dwelling#1", "town")
    put(state, "mine#1", "town", steps=0)
    act(state, 0, "play_treasure", card="booze-1#1")
    act(state, 0, "tap", building="dwelling#1", card="tobias#1")
    assert state.action_pool == [0, 0, 0]
    state.action_pool = [4, 0, 0]
    act(state, 0, "dwelling_build", building="dwelling#1", target="mine#1", pay={"rocks": 4})
    assert state.steps_done[inst(state, "mine#1")] == 1 and inst(state, "tobias#1") in state.discard[ADA]


def test_a_full_dwelling_takes_only_an_empty_tap() -> None:
    state = at_action_step(hands={ADA: ["tobias#1"]})
    put(state, "dwelling#1", "town")
    store(state, "dwelling#1", "tapfa#1")
    state.action_pool = [0, 0, 1]
    with pytest.raises(IllegalActionError):
        act(state, 0, "tap", building="dwelling#1", card="tobias#1")
    act(state, 0, "tap", building="dwelling#1", card=None)  # legal, and still costs 1 B (MH-93)
    assert state.action_pool == [0, 0, 0]


def test_distillery_adds_three_booze_to_booze_bids() -> None:
    state = new_game(2, explore=["didi#1"], dwarves=["didi#1"])
    put(state, "distillery#1", "town", seat=BO)
    act(state, 0, "end_action_step")
    settle(state)
    act(state, 0, "ready")
    act(state, 1, "ready")
    assert inst(state, "didi#1") in state.discard[BO] and state.dwarves_found == 1  # 0 + 3 beats 0


def test_workshop_builds_for_four_any_or_untaps_another_building() -> None:
    state = at_action_step()
    put(state, "workshop#1", "town")
    put(state, "workshop#2", "town")
    put(state, "mine#1", "town")
    put(state, "quarry#1", "town", steps=0)
    state.action_pool = [4, 0, 0]
    act(state, 0, "tap", building="workshop#1", mode="build", target="quarry#1", pay={"rocks": 4})
    assert state.steps_done[inst(state, "quarry#1")] == 1
    act(state, 0, "tap", building="mine#1")
    act(state, 0, "tap", building="workshop#2", mode="untap", target="mine#1")
    assert state.upright(inst(state, "mine#1"))


def test_projects_score_per_step_and_when_finished() -> None:
    state = at_action_step(options={"shop_profile": "tiered"})
    base = state.vp(ADA)
    put(state, "garden#1", "town", steps=2)
    assert state.vp(ADA) == base + 2
    state.steps_done[inst(state, "garden#1")] = 4
    assert state.vp(ADA) == base + 4 + 2
    put(state, "adventurers#1", "town", seat=BO, steps=2)
    assert state.vp(BO) == 3  # Marg; unfinished Adventurers Guild scores nothing


# ---------------------------------------------------------------- locations


def test_e9_the_expansive_cavern() -> None:
    state = new_game(2, explore=["shinies-2#3"])
    put(state, "cavern#1", "area")
    put(state, "kartok#1", "cavern", seat=BO)
    put(state, "ymir#1", "cavern", seat=BO)
    put(state, "quarry#1", "town", seat=BO, steps=1)
    assert state.prompt == P_ACTION  # the Cavern came into play after Ada's step began
    end_turn(state, ADA)
    state.hand[BO].append(inst(state, "erik#1")) if inst(state, "erik#1") not in state.hand[BO] else None
    for z in state.draw + state.discard:
        if inst(state, "erik#1") in z:
            z.remove(inst(state, "erik#1"))
    assert state.prompt == 3 and state.to_move() == (BO,)  # cavern_place
    for entry in [
        {"player": 1, "action": {"do": "cavern_place", "card": "erik#1"}},
        {"chance": {"kind": "roll", "die": 6, "card": "kartok#1", "value": 5}},
        {"player": 1, "action": {"do": "choose", "res": "rocks"}},
        {"chance": {"kind": "roll", "die": 6, "card": "ymir#1", "value": 6}},
        {"player": 1, "action": {"do": "choose", "building": "quarry#1"}},
        {"chance": {"kind": "roll", "die": 6, "card": "erik#1", "value": 3}},
    ]:
        state.apply_event(entry)
    quarry = inst(state, "quarry#1")
    assert state.action_pool == [4, 0, 0] and state.finished(quarry) and state.upright(quarry)
    assert inst(state, "erik#1") in state.discard[BO] and names(state, state.cavern_dwarves) == ["kartok#1", "ymir#1"]
    act(state, 1, "tap", building="quarry#1")
    assert state.action_pool == [6, 0, 0]


def test_cavern_place_is_offered_even_without_a_dwarf_mh_74() -> None:
    state = new_game(2, explore=["shinies-2#3"])
    put(state, "cavern#1", "area")
    end_turn(state, ADA)
    for c in list(state.hand[BO]):
        if state.kind[c] in (inst(state, "erik#1") and state.kind[inst(state, "erik#1")], state.kind[inst(state, "marg#1")]):
            state.hand[BO].remove(c)
            state.discard[BO].append(c)
    assert state.prompt == 3 and state.legal_actions(BO) == [(16,)]  # pass only
    act(state, 1, "pass")
    assert state.prompt == P_ACTION


def test_dwarf_fortress_capture_and_release() -> None:
    state = new_game(2, hands={ADA: ["booze-3#1", "booze-2#1", "shinies-3#1"]}, explore=["didi#1"], dwarves=["didi#1"])
    put(state, "fortress#1", "area")
    act(state, 0, "play_treasure", card="shinies-3#1")
    act(state, 0, "end_action_step")
    assert state.prompt == P_CHOOSE and state.to_move() == (ADA,)
    act(state, 0, "choose", option="fortress", sources=[{"card": "booze-3#1"}, {"card": "booze-2#1"}])  # 3 + 3 (Fortress wine)
    assert names(state, state.fortress_dwarves) == ["didi#1"] and state.dwarves_found == 0 and state.bid is None
    settle(state)
    state.action_pool = [0, 0, 3]
    act(state, 1, "fortress_release", card="didi#1")
    assert state.exploration[-1] == inst(state, "didi#1") and state.action_pool == [0, 0, 0]


def test_fortress_capture_declined_means_a_bid() -> None:
    state = new_game(2, explore=["didi#1"], dwarves=["didi#1"])
    put(state, "fortress#1", "area")
    act(state, 0, "end_action_step")
    act(state, 0, "pass")
    settle(state)
    assert state.current_player() == SIMULTANEOUS


def test_dragon_lair_discards_a_dwarf_for_a_hoard_on_top_once_per_turn() -> None:
    state = at_action_step(hands={ADA: ["tobias#1", "tapfa#1"]})
    put(state, "lair#1", "area")
    act(state, 0, "lair", card="tobias#1")
    assert state.names[state.draw[ADA][-1]] == "hoard#1" and inst(state, "tobias#1") in state.discard[ADA]
    with pytest.raises(IllegalActionError):
        act(state, 0, "lair", card="tapfa#1")


def test_e11_a_marketplace_trade() -> None:
    state = new_game(3, hands={ADA: ["rocks-3#1"], BO: ["booze-3#2"]})
    put(state, "marketplace#1", "area")
    for entry in [
        {"player": 0, "action": {"do": "trade_offer", "to": 2, "give": "rocks-3#1", "want": "any"}},
        {"player": 2, "action": {"do": "trade_decline"}},
        {"player": 0, "action": {"do": "trade_offer", "to": 1, "give": "rocks-3#1", "want": "booze-3"}},
        {"player": 1, "action": {"do": "trade_accept"}},
    ]:
        state.apply_event(entry)
    assert inst(state, "rocks-3#1") in state.hand[BO] and inst(state, "booze-3#2") in state.hand[ADA]
    assert inst(state, "booze-3#2") in state.hand_known[ADA] and inst(state, "rocks-3#1") in state.hand_known[BO]
    assert not [a for a in state.legal_actions(ADA) if a[0] == 13]  # used up for this turn
