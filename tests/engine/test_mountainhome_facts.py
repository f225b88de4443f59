"""The public facts API of the Mountainhome engine (engine/games/mountainhome/facts.py), read by the page."""

from __future__ import annotations

from engine.games.mountainhome import facts
from engine.games.mountainhome.cards import BY_ID

from .test_mountainhome_support import act, new_game, put, settle


def test_card_facts_come_from_the_card_data():
    hall = facts.card_facts("ruby-hall#1")
    assert hall["name"] == "Ruby Clan Hall" and hall["type"] == "clan_hall" and hall["vp"] == 3
    assert hall["steps"] == [{"rocks": 2, "shinies": 2}, {"rocks": 3, "shinies": 3}, {"booze": 5}]
    assert facts.card_facts("shinies-3")["value"] == {"res": "shinies", "amt": 3}
    garden = facts.card_facts("garden")
    assert (garden["vp"], garden["vp_per_step"]) == (2, 1)
    assert facts.card_facts("pawnshop")["vp_rule"] == "stored_card_value"
    assert facts.card_facts("golems")["resolve_vp"] == 1
    assert set(facts.CARD_IDS) == set(BY_ID) and len(facts.LEGENDARIES) == 8
    facts.card_facts("ruby-hall")["steps"].clear()  # a copy: the data stays as it is
    assert len(facts.card_facts("ruby-hall")["steps"]) == 3


def test_kind_of_and_shop_prices_section_3_4():
    assert facts.kind_of("shinies-3#12") == "shinies-3" and facts.kind_of("forge") == "forge"
    assert facts.shop_price("forge#2") == 3 and facts.shop_price("mine") == 3
    assert facts.shop_price("forge", "tiered") == 4 and facts.shop_price("vault", "tiered") == 5
    assert facts.shop_price("shinies-2") is None


def test_pending_choice_names_the_choose_prompt():
    state = new_game(2, explore=["kartok#1"], dwarves=["kartok#1"])
    assert facts.pending_choice(state.observation(0)) is None  # the action step
    put(state, "golems#1", "area")
    put(state, "rocks-1#2", "draw", seat=1)
    act(state, 0, "end_action_step")
    settle(state)
    seen = {facts.pending_choice(state.observation(v)) for v in (None, 0, 1)}
    assert seen == {"golems"}
