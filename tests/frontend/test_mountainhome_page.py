"""The Mountainhome board: presenter and template, rendered for every viewer at every step of random games.

No database: the match dict is built from the engine state exactly as
``games.selectors.match_view`` builds it (observation + legal actions of the viewer).
"""

from __future__ import annotations

import html as htmllib
import json
import random
import re

import pytest
from django.http import QueryDict

from engine import get_game
from engine.games.mountainhome.cards import CARDS
from frontend.jinja import select_template
from frontend.presenters import FormError, Player, board_template, get_presenter, mountainhome
from frontend.presenters.mountainhome.texts import TEXT

MH = "mountainhome"


def players_for(n: int, viewer: int | None, to_move: tuple[int, ...]) -> list[Player]:
    return [
        Player(seat=s, name=f"P{s + 1}", is_bot=s != 0, bot_level="random" if s else None, is_you=viewer == s,
               to_move=s in to_move, filled=True)
        for s in range(n)
    ]


def match_dict(state, seat: int | None, seq: int) -> dict:
    to_move = state.to_move() if not state.is_terminal() else ()
    legal = [state.action_to_json(seat, a) for a in state.legal_actions(seat)] if seat in to_move else []
    return {
        "id": 7, "game": MH, "status": "active", "seq": seq, "players": state.players, "seats": [],
        "to_move": list(to_move), "my_seat": seat, "view": state.observation(seat), "legal_actions": legal, "result": None,
    }


def render(state, seat, seq):
    match = match_dict(state, seat, seq)
    players = players_for(state.players, seat, tuple(match["to_move"]))
    board = get_presenter(MH).present(match, players)
    html = select_template(board_template(MH)).render({"board": board, "match": match, "players": players})
    return match, board, html


def _unescape(v: str) -> str:
    return htmllib.unescape(v)


def offered_actions(html: str) -> list[dict]:
    values = re.findall(r'name="action" value="([^"]*)"', html)
    values += re.findall(r'<option value="([^"]*)"(?: selected)?>', html)
    return [json.loads(_unescape(v)) for v in values]


def split_fallback(html: str) -> tuple[str, str]:
    """(the table without the fallback list, the fallback list)."""
    start = html.find('<details class="mh-fallback">')
    if start < 0:
        return html, ""
    end = html.find('<details class="mh-json">', start)
    return html[:start] + html[end:], html[start:end]


def test_the_board_is_the_mountainhome_template_and_presenter():
    assert select_template(board_template(MH)).template.name == "frontend/boards/mountainhome.html"
    assert get_presenter(MH) is mountainhome
    assert mountainhome.__file__.endswith("mountainhome/__init__.py")  # a package by job


def test_every_card_has_a_paraphrased_text_with_its_data():
    for data in CARDS:
        text = mountainhome.card_text(data["id"])
        assert text.startswith(mountainhome.FAMILY_LABEL[data["family"]])
        if data.get("steps"):
            assert "Steps: S1" in text
        if data["family"] not in ("treasure",) and data["type"] not in ("project",):
            assert data["id"] in TEXT, data["id"]
    assert "2R+2S" in mountainhome.card_text("ruby-hall") and "3 VP" in mountainhome.card_text("ruby-hall")
    assert "+3 Shinies" in mountainhome.card_text("shinies-3")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_renders_for_every_viewer_at_every_step_offering_exactly_the_legal_moves(players):
    game = get_game(MH)
    state = game.new_initial_state(players, game.normalize_options({}))
    rng = random.Random(players)
    seq = 0
    seen_prompts = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(-1, state.sample_chance(rng))
            continue
        seq += 1
        # every viewer at every step in 2-player games; with more players (slower to render) the seat to move at
        # every step and every viewer at every third step
        viewers = [None, *range(players)] if players == 2 or seq % 3 == 0 else list(state.to_move())
        for viewer in viewers:
            match, board, html = render(state, viewer, seq)
            hidden = set()
            for s in range(players):
                if s != viewer:
                    hidden |= {state.names[c] for c in state.hand[s]} - set(match["view"]["seats"][s]["hand_known"])
            shown = set(re.findall(r'data-card="([a-z0-9-]+#\d+)"', html))
            public = set(json.dumps(match["view"]).replace('"', " ").split())
            assert not (shown & hidden - public), f"viewer {viewer} sees another seat's hand card"
            if match["legal_actions"]:
                seen_prompts.add(match["view"]["prompt"])
                table, fallback = split_fallback(html)
                legal = [json.dumps(a, sort_keys=True) for a in match["legal_actions"]]
                on_table = [json.dumps(a, sort_keys=True) for a in offered_actions(table)]
                in_list = [json.dumps(a, sort_keys=True) for a in offered_actions(fallback)]
                # the cards and prompt answers offer each legal move once; the fallback list offers them all again
                assert all(a in legal for a in on_table + in_list)
                if match["view"]["prompt"] != "bid_commit":
                    assert sorted(on_table) == sorted(legal)
                    assert sorted(in_list) == sorted(legal)
                else:
                    assert board["builder"] is not None and 'name="bid_card"' in html or not board["builder"]["cards"]
        seat = state.to_move()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    assert {"action_step", "bid_commit", "bid_trash"} <= seen_prompts
    match, board, html = render(state, 0, seq + 1)
    assert not board["my_turn"]


def test_the_bid_builder_turns_ticked_cards_and_uses_into_a_commit_bid():
    data = QueryDict(mutable=True)
    data.update({"mh_form": "commit"})
    data.setlist("bid_card", ["shinies-2#2", "booze-3#2"])
    data.setlist("bid_use", [json.dumps({"tap": "mine#1"}), json.dumps({"hoard": "hoard#1", "res": "booze"})])
    action = mountainhome.action_from_form(data, {})
    assert action == {
        "do": "commit_bid", "cards": ["shinies-2#2", "booze-3#2"],
        "uses": [{"tap": "mine#1"}, {"hoard": "hoard#1", "res": "booze"}],
    }
    empty = QueryDict("mh_form=commit")
    assert mountainhome.action_from_form(empty, {}) == {"do": "commit_bid", "cards": [], "uses": []}
    with pytest.raises(FormError):
        mountainhome.action_from_form(QueryDict(""), {})
    bad = QueryDict("mh_form=commit&bid_use=%7Bnot", mutable=False)
    with pytest.raises(FormError, match="could not be read"):
        mountainhome.action_from_form(bad, {})


def test_moves_that_differ_only_in_payment_are_one_row_with_a_list_of_variants():
    players = players_for(2, 0, (0,))
    actions = [
        {"do": "commit_dwarf", "card": "didi#1", "building": "dwelling#2", "pay": {"shinies": 3}},
        {"do": "commit_dwarf", "card": "didi#1", "building": "dwelling#2", "pay": {"rocks": 1, "shinies": 2}},
        {"do": "play_treasure", "card": "shinies-3#1"},
    ]
    groups = mountainhome.group_moves(actions, players, [None, None, None])
    assert len(groups) == 2
    commit = groups[0]
    assert commit["single"] is None and commit["label"] == "Commit Didi on Hillock Dwelling"
    assert [v["label"] for v in commit["variants"]] == ["pay 3 S", "pay 1 R + 2 S"]
    assert groups[1]["single"] and groups[1]["label"] == "Play Gold Coins"


def test_the_event_log_names_players_and_keeps_sealed_entries_sealed():
    players = players_for(2, 0, ())
    describe = mountainhome.describe_event
    assert describe({"player": 1, "action": {"do": "commit_bid", "sealed": True}}, players) == "P2 commits to the bid (sealed)."
    assert describe({"player": 0, "action": {"do": "play_treasure", "card": "shinies-3#1"}}, players) == "P1: Play Gold Coins."
    assert describe({"chance": {"kind": "shuffle", "pile": "draw:1", "sealed": True}}, players) == "P2 shuffles their draw pile."
    assert describe({"chance": {"kind": "shuffle", "pile": "shop", "sealed": True}}, players) == "The shop deck is shuffled."
    assert describe({"chance": {"kind": "shuffle", "pile": "shop:advanced", "sealed": True}}, players) == (
        "The advanced shop deck is shuffled."
    )
    assert describe({"chance": {"kind": "shuffle", "pile": "exploration", "sealed": True}}, players) == (
        "The exploration pile is shuffled."
    )
    assert describe({"chance": {"kind": "roll", "die": 6, "card": "kartok#1", "value": 5}}, players) == "Cavern roll for Kartok: 5."


@pytest.mark.parametrize("building", ["warehouse#1", "dwelling#1", "pawnshop#1", "dungeon#1"])
def test_a_tap_that_stores_nothing_is_described_in_the_log_and_the_move_list(building):
    # MH-93: a Warehouse tap may tuck no card; its notation then has "card": null.
    players = players_for(2, 0, (0,))
    action = {"do": "tap", "building": building, "card": None}
    text = mountainhome.describe_event({"player": 0, "action": action}, players)
    assert text.startswith("P1: ") and mountainhome.short_name(building.split("#")[0]) in text
    assert "None" not in text
    assert mountainhome.move_label(action, players) == text[len("P1: "):-1]
