"""The Mountainhome table: cards as cards, moves on the cards, the step tracker, reasons,
last-move marks and the How to play fragment - presenter and templates, no database.
"""

from __future__ import annotations

import random
import re

from django.template.loader import render_to_string

from engine import get_game
from engine.core import CHANCE
from frontend.jinja import select_template
from frontend.presenters import board_template, get_presenter
from frontend.presenters.mountainhome import recent as recent_marks
from frontend.presenters.mountainhome.texts import BID_ONLY

from .test_mountainhome_page import match_dict, players_for

MH = "mountainhome"
PRESENTER = get_presenter(MH)


def play_until(players: int, seed: int, stop) -> tuple:
    """A random game until ``stop(state)``; also the record entries as each viewer may see them (oldest first)."""
    game = get_game(MH)
    state = game.new_initial_state(players, game.normalize_options({}))
    rng = random.Random(seed)
    shown: dict[int | None, list[dict]] = {v: [] for v in [None, *range(players)]}
    seq = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = state.sample_chance(rng)
            payload = {"chance": state.chance_to_json(outcome)}
            seat, move = CHANCE, outcome
        else:
            if stop(state):
                break
            seat = state.to_move()[0]
            acts = state.legal_actions(seat)
            move = acts[rng.randrange(len(acts))]
            payload = {"player": seat, "action": state.action_to_json(seat, move)}
        seq += 1
        for viewer, events in shown.items():
            seen = state.redact_event(payload, viewer)
            if "player" in seen or "chance" in seen:
                events.append({"seq": seq, "type": "engine", "payload": seen})
        state.apply(seat, move)
    return state, shown


def render(state, seat, recent=None):
    match = match_dict(state, seat, 5)
    match["recent"] = recent or []
    players = players_for(state.players, seat, tuple(match["to_move"]))
    board = PRESENTER.present(match, players)
    html = select_template(board_template(MH)).render({"board": board, "match": match, "players": players})
    return match, board, html


def first_action_step(state) -> bool:
    return state.observation(None)["prompt"] == "action_step" and state.observation(None)["round"] >= 2


def test_cards_print_cost_value_vp_and_effect_without_hovering():
    state, _ = play_until(2, 1, first_action_step)
    seat = state.to_move()[0]
    _, board, html = render(state, seat)
    shop = [c for c in board["shop"] if c]
    assert shop and all(c["price"] and c["steps"] and c["text"] for c in shop)
    assert 'class="mh-step' in html and 'class="mh-res res-shinies"' in html and 'class="mh-vp"' in html
    for c in shop:  # the effect text is printed on the card itself, not only in a title
        assert c["text_short"].rstrip("…")[:30] in html
    hand = board["me"]["hand"]
    treasure = next(c for c in hand if c["value"])
    assert treasure["value"][0]["amt"] > 0 and "Play:" in treasure["text"]


def test_moves_sit_on_the_cards_and_every_legal_move_is_also_in_the_fallback_list():
    state, _ = play_until(2, 1, first_action_step)
    seat = state.to_move()[0]
    match, board, html = render(state, seat)
    played = [c for c in board["me"]["hand"] if c["menu"] and c["menu"][0]["verb"] == "play_treasure"]
    assert played and all(c["single"] for c in played)  # a treasure plays with one click
    assert 'data-verb="play_treasure"' in html and 'class="mh-face" type="submit"' in html
    assert all(c["menu"] and not c.get("single") for c in board["shop"] if c and c["menu"])  # buying opens a menu
    assert board["answers"] and board["answers"][-1]["verb"] == "end_action_step"
    assert '<details class="mh-fallback">' in html and '<details class="mh-json">' in html  # list and JSON folded
    assert "<details class=\"mh-fallback\" open" not in html


def test_cards_that_cannot_be_used_say_why():
    state, _ = play_until(2, 1, first_action_step)
    seat = state.to_move()[0]
    # an action card that works only in a bid, in the viewer's hand
    fools = state.layout.index["fools#1"]
    state.hand[seat].append(fools)
    _, board, html = render(state, seat)
    card = next(c for c in board["me"]["hand"] if c["id"] == "fools#1")
    assert card["menu"] is None and card["reason"] == BID_ONLY
    assert 'class="mh-why" role="note"' in html and 'aria-disabled="true"' in html
    pool = match_dict(state, seat, 1)["view"]["action_pool"]["shinies"]
    unbuyable = [c for c in board["shop"] if c and not c["menu"]]
    if pool < 3:
        assert unbuyable and all("Costs 3 S" in c["reason"] or "already bought" in c["reason"] for c in unbuyable)


def test_the_step_tracker_follows_the_turn_and_the_bid():
    state, _ = play_until(2, 3, lambda s: s.observation(None)["prompt"] == "bid_commit")
    seat = state.to_move()[0]
    _, board, html = render(state, seat)
    tracker = board["tracker"]
    assert [s["key"] for s in tracker["steps"] if s["current"]] == ["bid"]
    assert [s["key"] for s in tracker["bid_steps"] if s["current"]] == ["commit"]
    assert 'aria-current="step"' in html and board["builder"] is not None
    assert 'class="mh-card mh-pickable' in html and 'data-verb="commit_bid"' in html and 'data-verb="ready"' in html
    state, _ = play_until(2, 1, first_action_step)
    _, board, _ = render(state, state.to_move()[0])
    assert [s["key"] for s in board["tracker"]["steps"] if s["current"]] == ["action"]


def test_the_legendary_pick_shows_every_legendary_with_its_power():
    state, _ = play_until(3, 5, lambda s: s.observation(None)["prompt"] == "setup_pick" and s.to_move() == (1,))
    _, board, html = render(state, 1)
    assert len(board["legends"]) == 8
    taken = [c for c in board["legends"] if c["taken_by"]]
    assert len(taken) == 1 and taken[0]["menu"] is None
    assert all(c["single"] and c["text"] for c in board["legends"] if not c["taken_by"])
    assert "secretly look at the top 5" in html  # Baldur's power, printed on his card


def test_last_moves_are_marked_from_the_recent_events():
    state, _ = play_until(2, 1, first_action_step)
    seat = state.to_move()[0]
    other = 1 - seat
    view = state.observation(seat)
    top = view["seats"][other]["discard"][-1]
    recent = [
        {"seq": 10, "type": "engine", "payload": {"player": other, "action": {"do": "play_treasure", "card": top}}},
        {"seq": 11, "type": "engine", "payload": {"player": other, "action": {"do": "buy", "slot": 1, "consultants": False}}},
        {"seq": 12, "type": "engine", "payload": {"player": other, "action": {"do": "commit_bid", "sealed": True}}},
        {"seq": 13, "seat": other, "action": {"do": "end_action_step"}},  # the flat shape works too
    ]
    _, board, html = render(state, seat, recent)
    others = [o for o in board["others"] if o["seat"] == other][0]
    assert others["discard_top"]["recent"]["player"]["seat"] == other
    if board["shop"][1]:
        assert board["shop"][1]["recent"] is not None
    lines = [line["text"] for line in board["recent"]["lines"]]
    assert len(lines) == 4 and "commits to the bid (sealed)" in lines[2]
    assert 'class="mh-card' in html and "mh-new" in html and "Since your last turn" in html


def test_last_move_marks_reveal_nothing_hidden_to_any_viewer():
    """Marks come from the viewer's own visible events: no other seat's hand card reaches the page (§20)."""
    for players, seed in ((2, 11), (3, 12)):
        stops = iter(range(40, 4000, 37))
        target = next(stops)
        count = {"n": 0}

        def stop(state, target=target, count=count):
            count["n"] += 1
            return count["n"] >= target

        state, shown = play_until(players, seed, stop)
        for viewer in [None, *range(players)]:
            _, board, html = render(state, viewer, shown[viewer][-30:])
            hidden = set()
            for s in range(players):
                if s != viewer:
                    hidden |= {state.names[c] for c in state.hand[s]}
            public = set(str(state.observation(viewer)).replace("'", " ").split())
            on_page = set(re.findall(r"[a-z0-9-]+#\d+", html))
            assert not (on_page & hidden - public), (viewer, on_page & hidden - public)
            for instance in board["recent"]["cards"]:
                assert instance not in hidden - public
            sealed_by_others = [e for e in shown[viewer][-30:] if e["payload"].get("player") not in (None, viewer)
                                and e["payload"]["action"].get("do") == "commit_bid"]
            lines = board["recent"]["lines"]
            assert sum("commits to the bid (sealed)" in line["text"] for line in lines) >= min(
                len(sealed_by_others), len(lines)) or not sealed_by_others or len(shown[viewer]) > 30
            assert not any("Commit:" in line["text"] for line in lines if line["seat"] not in (None, viewer))


def test_recent_marks_need_a_card_on_the_table():
    players = players_for(2, 0, ())
    marked = recent_marks.marks({"recent": [{"seat": 1, "action": {"do": "trash", "card": "gems#9"}}]}, players)
    assert marked["cards"] == {"gems#9": 1}
    card = {"id": "shinies-2#1", "recent": None}
    recent_marks.apply_marks(card, marked, players)
    assert card["recent"] is None  # a mark lands only on a card the page draws anyway


def test_match_events_are_not_listed_as_moves_since_the_last_turn():
    players = players_for(2, 0, ())
    recent = [
        {"seq": 1, "type": "created", "payload": {"players": 2}},
        {"seq": 2, "type": "started", "payload": {}},
        {"seq": 3, "type": "action", "payload": {"player": 1, "action": {"do": "choose_legendary", "card": "thorvald"}}},
    ]
    marked = recent_marks.marks({"recent": recent}, players)
    assert [line["seq"] for line in marked["lines"]] == [3]  # never a "None: ?." line for a match event
    assert marked["cards"] == {"thorvald#1": 1}  # the setup pick marks the legendary's card


def test_how_to_play_is_written_for_a_newcomer():
    html = render_to_string("frontend/help/mountainhome.html")
    for words in ("deck-building", "Action step", "Explore", "Prepare", "Sealed bids", "trash one card", "End of the game",
                  "Seal", "Ready"):
        assert words in html
