"""The last move on the Mountain Goats and Nanga Parbat boards: the marks and the legend, from match["recent"] (no database).

The events are built exactly as the projection lists them (``seq``, ``type``,
``payload``) and cut with :func:`frontend.recent.window`, as the pages do.
"""

from __future__ import annotations

import random
import re

from django.template.loader import render_to_string

from engine import get_game
from frontend import recent
from frontend.presenters import Player
from frontend.presenters import mountain_goats as mg
from frontend.presenters import nanga_parbat as np
from frontend.presenters.nanga_parbat.last_move import _boards
from tests.engine.test_nanga_parbat import EXAMPLE_OPENING


def players(n: int, you: int | None) -> list[Player]:
    return [
        Player(seat=s, name=f"p{s}", is_bot=False, bot_level=None, is_you=s == you, to_move=False, filled=True)
        for s in range(n)
    ]


def as_events(entries: list[dict]) -> list[dict]:
    """Record entries as the projection lists them, after a 'created' event."""
    events = [{"seq": 1, "type": "created", "payload": {}}]
    for seq, entry in enumerate(entries, start=2):
        events.append({"seq": seq, "type": "chance" if "chance" in entry else "action", "payload": entry})
    return events


def match_for(state, seat: int | None, events: list[dict], game: str) -> dict:
    legal = []
    if seat is not None and not state.is_terminal() and seat in state.to_move():
        legal = [state.action_to_json(seat, a) for a in state.legal_actions(seat)]
    return {"id": 1, "game": game, "seq": len(events), "my_seat": seat, "view": state.observation(seat),
            "legal_actions": legal, "recent": recent.window(events, seat)[0]}


def render(board: dict, match: dict, template: str) -> str:
    return render_to_string(template, {"board": board, "match": match})


# ---------------------------------------------------------------- Mountain Goats

MG_ENTRIES = [  # worked example 12.3 set up: seat 1 arrives on the summit of 10 and takes a token
    {"chance": {"first_player": 0}},
    {"chance": {"roll": [4, 6, 5, 5]}},
    {"player": 0, "action": {"climb": [10]}},
    {"chance": {"roll": [5, 5, 4, 6]}},
    {"player": 1, "action": {"climb": [10, 10]}},
    {"chance": {"roll": [4, 6, 5, 5]}},
]


def mg_state(entries: list[dict]):
    state = get_game("mountain-goats").new_initial_state(2)
    for entry in entries:
        state.apply_event(entry)
    return state


def test_mountain_goats_marks_the_goats_that_climbed_the_token_taken_and_the_roll():
    events = as_events(MG_ENTRIES)
    match = match_for(mg_state(MG_ENTRIES), 0, events, "mountain-goats")
    board = mg.present(match, players(2, 0))
    marks = board["last_move"]
    assert marks["moved"] == {(1, 10): 2} and marks["taken"] == {(1, 10)}
    (turn,) = marks["turns"]
    assert turn["seat"] == 1 and [d["face"] for d in turn["dice"]] == [5, 5, 4, 6]
    assert turn["text"] == "climbed 10, 10; took 10-tokens on the summit"
    html = render(board, match, "frontend/boards/mountain-goats.html")
    legend = re.search(r'<div class="last-move".*?</div>', html, re.S).group(0)
    assert "Last move" in legend and "p1" in legend and "climbed 10, 10" in legend
    assert legend.count('class="die mini"') == 4
    # exactly one goat ringed: seat 1's on 10; seat 0's goat on 10 (moved before the window) is not
    assert html.count('class="goat seat-1 last"') == 1 and 'class="goat seat-0 last"' not in html
    assert "(last move: climbed 2 steps)" in html
    assert html.count('<g class="stack last">') == 1 and 'title="Last move: took a 10-token"' in html


def test_mountain_goats_marks_a_goat_knocked_off_after_it_climbed_and_nothing_without_a_move():
    entries = [
        {"chance": {"first_player": 0}},
        {"chance": {"roll": [5, 5, 4, 6]}},
        {"player": 0, "action": {"climb": [10, 10]}},  # seat 0 on the summit of 10
        {"chance": {"roll": [4, 6, 5, 5]}},
        {"player": 1, "action": {"climb": [10, 10]}},  # seat 1 arrives and knocks seat 0 off
        {"chance": {"roll": [6, 6, 6, 6]}},
    ]
    events = as_events(entries)
    spectator = match_for(mg_state(entries), None, events, "mountain-goats")
    board = mg.present(spectator, players(2, None))
    assert board["last_move"]["moved"] == {(1, 10): 2}  # a spectator sees the last turn only
    seat_1 = match_for(mg_state(entries), 1, events, "mountain-goats")
    board = mg.present(dict(seat_1, recent=[e for e in events if e["seq"] >= 3]), players(2, 1))
    goats = {(g["seat"], m["number"]): g for m in board["mountains"] for s in m["slots"] for g in s["goats"]}
    assert goats[(0, 10)]["last"] and goats[(0, 10)]["title"].endswith("then knocked off)")
    nothing = mg.present(dict(seat_1, recent=[]), players(2, 1))
    assert not nothing["last_move"]["any"]
    assert 'id="last-move"' not in render(nothing, seat_1, "frontend/boards/mountain-goats.html")


def test_mountain_goats_renders_the_last_move_at_every_step_of_a_random_game_for_every_viewer():
    rng = random.Random(11)
    state = get_game("mountain-goats").new_initial_state(3)
    entries: list[dict] = []
    while not state.is_terminal() and len(entries) < 30:
        events = as_events(entries)
        for seat in (None, 0, 1, 2):
            match = match_for(state, seat, events, "mountain-goats")
            board = mg.present(match, players(3, seat))
            for (s, m), k in board["last_move"]["moved"].items():
                assert 1 <= k <= 4 and 5 <= m <= 10 and 0 <= s < 3
            render(board, match, "frontend/boards/mountain-goats.html")
        if state.is_chance_node():
            outcome = state.sample_chance(rng)
            entries.append({"chance": state.chance_to_json(outcome)})
            state.apply(-1, outcome)
        else:
            seat = state.current_player()
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            entries.append({"player": seat, "action": state.action_to_json(seat, action)})
            state.apply(seat, action)


# ---------------------------------------------------------------- Nanga Parbat


def np_state(entries: list[dict]):
    state = get_game("nanga-parbat").new_initial_state(2, {"area_scoring": False})
    for entry in entries:
        state.apply_event(entry)
    return state


def test_nanga_parbat_marks_the_hiker_placed_and_the_animal_captured_in_the_rules_example():
    events = as_events(EXAMPLE_OPENING)
    match = match_for(np_state(EXAMPLE_OPENING), 0, events, "nanga-parbat")
    board = np.present(match, players(2, 0))
    marks = board["last_move"]
    assert marks["sections"] == {"1.6": "trap"}  # seat 1's last turn: the red panda on 1.6
    assert marks["new_animals"] == {1: {1}}  # [yak (activated), red panda]: the red panda is new
    assert [t["text"] for t in marks["turns"]] == ["trapped a red panda on 1.6"]
    html = render(board, match, "frontend/boards/nanga-parbat.html")
    assert re.search(r'class="np-cell piece-hiker[^"]* last last-trap" data-section="1.6"', html)
    assert html.count("np-last-ring") == 1
    assert html.count('np-animal-chip last"') == 1
    assert "p1 trapped a red panda on 1.6." in html
    # seat 1, in the middle of its next turn... here: waiting; a spectator sees seat 1's last turn too
    spectator = match_for(np_state(EXAMPLE_OPENING), None, events, "nanga-parbat")
    assert np.present(spectator, players(2, None))["last_move"]["sections"] == {"1.6": "trap"}


def test_nanga_parbat_marks_swaps_camps_and_claimed_squares_with_their_points():
    view = np_state(EXAMPLE_OPENING).observation(0)
    recent_events = as_events([
        {"player": 0, "action": {"activate": "tahr", "swap": ["2.4", "2.5"]}},
        {"player": 0, "action": {"claim": {"row": 1, "column": 4}, "sections": ["2.4", "4.1", "4.2"]}},
        {"player": 0, "action": {"end_turn": True}},
    ])[1:]
    match = {"view": view, "recent": recent_events, "my_seat": 1, "legal_actions": []}
    marks = np.present(match, players(2, 1))["last_move"]
    assert marks["sections"] == {"2.4": "camp", "2.5": "swap", "4.1": "camp", "4.2": "camp"}
    assert marks["squares"] == {(1, 4)}
    (turn,) = marks["turns"]
    assert turn["text"] == (
        "activated a tahr: swapped 2.4 and 2.5; claimed row 1, column 4: camps on 2.4, 4.1, 4.2 (6 points)"
    )


def test_nanga_parbat_rings_the_guide_when_the_last_move_placed_it():
    state = np_state(EXAMPLE_OPENING)
    view = state.observation(0)
    placed = as_events([{"player": 1, "action": {"guide": view["guide"]}}])[1:]
    for recent_events, ringed in ((placed, True), ([], False)):
        match = {"view": view, "recent": recent_events, "my_seat": 0, "legal_actions": []}
        board = np.present(match, players(2, 0))
        assert board["last_move"]["guide"] is ringed
        html = render(board, match, "frontend/boards/nanga-parbat.html")
        assert ('class="np-guide last"' in html) is ringed
    assert [t["text"] for t in board["last_move"]["turns"]] == []


def test_nanga_parbat_follows_a_trade_that_renumbers_the_board():
    view = {"animal_boards": [[], [{"type": "tahr"}, {"type": "yak"}, {"type": "red_panda"}]]}
    actions = [(1, {"trap": "2.4"}), (1, {"claim": {"row": 3, "column": 5}, "animals": [0, 1]})]
    # before: 4 old entries; the trap appends a fifth; the trade removes 0 and 1: the trapped one is now #2
    assert _boards(view, actions) == ({1: {2}}, {0: "red_panda"})
    traded_away = [(1, {"trap": "2.4"}), (1, {"claim": {"row": 3, "column": 5}, "animals": [1, 2, 3]})]
    view = {"animal_boards": [[], [{"type": "tahr"}]]}
    assert _boards(view, traded_away) == ({}, {})  # the trapped animal was traded: nothing to mark


def test_nanga_parbat_renders_the_last_move_at_every_step_of_a_random_game_for_every_viewer():
    rng = random.Random(5)
    state = get_game("nanga-parbat").new_initial_state(2, {"area_scoring": True})
    entries: list[dict] = []
    marked = 0
    while not state.is_terminal():
        events = as_events(entries)
        if state.observation(None)["sections"] is not None:
            for seat in (None, 0, 1):
                match = match_for(state, seat, events, "nanga-parbat")
                board = np.present(match, players(2, seat))
                for seat_index, indices in board["last_move"]["new_animals"].items():
                    assert indices <= set(range(len(match["view"]["animal_boards"][seat_index])))
                marked += len(board["last_move"]["sections"])
                if len(entries) % 5 == 0:  # rendering is the slow part: every fifth step
                    render(board, match, "frontend/boards/nanga-parbat.html")
        if state.is_chance_node():
            outcome = state.sample_chance(rng)
            entries.append({"chance": state.chance_to_json(outcome)})
            state.apply(-1, outcome)
        else:
            seat = state.current_player()
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            entries.append({"player": seat, "action": state.action_to_json(seat, action)})
            state.apply(seat, action)
    assert marked > 0


def test_nanga_parbat_every_move_form_disables_elements_that_exist():
    """htmx logs an error when an hx-disabled-elt selector matches nothing (it did on every map click)."""
    events = as_events(EXAMPLE_OPENING)
    match = match_for(np_state(EXAMPLE_OPENING), 0, events, "nanga-parbat")
    html = render(np.present(match, players(2, 0)), match, "frontend/boards/nanga-parbat.html")
    assert re.search(r'<form id="np-move-form"[^>]*hx-disabled-elt="#match-live \.np-controls button"', html)
    controls = re.search(r'<section class="card np-controls".*?</section>', html, re.S).group(0)
    assert "<button" in controls
    for form in re.findall(r"<form[^>]*hx-disabled-elt=\"find button\"[^>]*>.*?</form>", html, re.S):
        assert "<button" in form
