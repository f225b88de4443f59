"""Presenters: the plug-in lookup, the fallback board and the Mountain Goats presenter (no database)."""

from __future__ import annotations

import random

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string

from engine import get_game
from frontend import presenters
from frontend.jinja import select_template
from frontend.live import move_url
from frontend.presenters import FormError, Player
from frontend.presenters import mountain_goats as mg


def players(n: int, *, you: int | None = 0, to_move: int | None = 0) -> list[Player]:
    return [
        Player(seat=s, name=f"p{s}", is_bot=False, bot_level=None, is_you=s == you, to_move=s == to_move, filled=True)
        for s in range(n)
    ]


def mg_match(state, seat: int | None) -> dict:
    legal = []
    if seat is not None and seat in state.to_move():
        legal = [state.action_to_json(seat, a) for a in state.legal_actions(seat)]
    return {"id": 1, "game": "mountain-goats", "seq": 9, "my_seat": seat, "view": state.observation(seat),
            "legal_actions": legal, "to_move": list(state.to_move())}


def started(players_count: int, roll: list[int], first: int = 0):
    state = get_game("mountain-goats").new_initial_state(players_count)
    state.apply_event({"chance": {"first_player": first}})
    state.apply_event({"chance": {"roll": roll}})
    return state


def test_presenters_are_found_by_game_id_and_a_game_without_one_falls_back():
    assert presenters.get_presenter("mountain-goats") is mg
    assert presenters.get_presenter("no-such-game") is None
    assert select_template(presenters.board_template("mountain-goats")).template.name == "frontend/boards/mountain-goats.html"
    assert select_template(presenters.board_template("no-such-game")).template.name == "frontend/boards/_fallback.html"


def test_the_fallback_board_shows_the_raw_observation_and_each_legal_action_escaped():
    match = {"id": 3, "game": "no-such-game", "seq": 4, "view": {"note": "<b>raw</b>"},
             "legal_actions": [{"pick": "<x>"}, {"pick": 2}]}
    board = presenters.present(match, players(2))
    html = render_to_string("frontend/boards/_fallback.html", {"board": board, "match": match, "move_url": move_url(3)})
    assert "&lt;b&gt;raw&lt;/b&gt;" in html and "<b>raw</b>" not in html
    assert html.count('name="action"') == 2
    assert 'hx-post="/matches/3/move/"' in html


def test_the_board_places_every_goat_once_with_its_seat_number():
    state = started(4, [6, 5, 4, 3])
    state.apply_event({"player": 0, "action": {"climb": [5, 6, 7]}})
    board = mg.present(mg_match(state, 1), players(4, you=1, to_move=None))
    goats = [g for m in board["mountains"] for slot in m["slots"] for g in slot["goats"]]
    assert len(goats) == 24
    assert sorted(g["label"] for g in goats) == sorted(str(s + 1) for s in range(4) for _ in range(6))
    by_mountain = {m["number"]: m for m in board["mountains"]}
    step_one = [g["seat"] for g in by_mountain[5]["slots"][1]["goats"]]
    assert step_one == [0]
    assert [slot["summit"] for slot in by_mountain[10]["slots"]] == [False, False, True]
    assert by_mountain[5]["stack"] == 12


def test_the_climb_list_offers_every_legal_climb_with_its_gain():
    state = started(2, [1, 1, 1, 4])  # worked example 12.1
    match = mg_match(state, 0)
    board = mg.present(match, players(2))
    offered = sorted(tuple(c["climb"]) for c in board["climbs"])
    assert offered == sorted(tuple(a["climb"]) for a in match["legal_actions"])
    assert board["has_adjustable_ones"] and [d["adjustable"] for d in board["dice"]] == [True, True, True, False]
    assert all(c["gain"] == 0 for c in board["climbs"])  # nobody can reach a summit from the foot in one turn


def test_with_extra_ones_to_set_the_builder_stays_closed_and_the_list_offers_the_set_ones():
    """An open builder would push the board off a phone's first screen; the list has those climbs."""
    state = started(2, [1, 1, 1, 4])
    match = mg_match(state, 0)
    board = mg.present(match, players(2))
    html = render_to_string("frontend/boards/mountain-goats.html",
                            {"board": board, "match": match, "move_url": move_url(3)}, using="jinja2")
    assert '<details class="builder">' in html and "<summary>Group the dice yourself</summary>" in html
    assert "set extra 1s to any face" in html  # the caption says the 1s may be set
    assert html.count('class="climb-form"') == len(board["climbs"]) > 0
    assert any(10 in c["climb"] for c in board["climbs"])  # 4 and a 1 set to 6: only a set 1 reaches 10


def test_a_climb_that_reaches_a_summit_shows_its_points_and_the_bump():
    state = started(2, [4, 6, 5, 5], first=0)
    state.apply_event({"player": 0, "action": {"climb": [10]}})  # seat 0: 10 at step 1
    state.apply_event({"chance": {"roll": [5, 5, 4, 6]}})
    state.apply_event({"player": 1, "action": {"climb": [10, 10]}})  # seat 1 on the summit of 10
    state.apply_event({"chance": {"roll": [4, 6, 5, 5]}})
    board = mg.present(mg_match(state, 0), players(2))
    option = next(c for c in board["climbs"] if c["climb"] == [10, 10])
    assert option["gain"] == 20  # example 12.3: arrive (bump) and collect again
    assert "summit 10" in option["notes"] and "knocks off the goat on 10" in option["notes"]


def test_the_builder_turns_groups_and_set_ones_into_record_notation():
    state = started(3, [1, 1, 1, 4])
    match = mg_match(state, 0)
    data = QueryDict(mutable=True)
    data.update({"face-1": "6", "face-2": "6", "group-0": "A", "group-3": "A", "group-1": "B", "group-2": "C"})
    action = mg.action_from_form(data, match)
    assert action == {"climb": [5, 6, 6], "faces": [1, 6, 6, 4], "groups": [[0, 3], [1], [2]]}
    # The engine accepts exactly that (the rules file's example).
    state.apply_event({"player": 0, "action": action})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"face-3": "6", "group-3": "A"}, "Die 4 was rolled as 4; only extra 1s may be set."),
        ({"group-0": "A", "group-1": "A"}, "Group A (dice 1, 2) totals 2, which names no mountain"),
        ({"group-0": "Z"}, "'Z' is not a group"),
        ({"face-0": "x"}, "'x' is not a face"),
    ],
)
def test_the_builder_explains_what_is_wrong(fields, message):
    match = mg_match(started(2, [1, 1, 1, 4]), 0)
    data = QueryDict(mutable=True)
    data.update(fields)
    with pytest.raises(FormError, match=message.replace("(", r"\(").replace(")", r"\)")):
        mg.action_from_form(data, match)


def test_the_event_log_reads_like_the_game():
    people = players(2)
    assert mg.describe_event({"chance": {"first_player": 1}}, people) == "p1 goes first."
    assert mg.describe_event({"chance": {"roll": [3, 2, 5, 6]}}, people) == "Rolled 3 2 5 6."
    assert mg.describe_event({"player": 0, "action": {"climb": [5, 5, 6]}}, people) == "p0 climbed 5, 5, 6."
    assert mg.describe_event({"player": 1, "action": {"climb": []}}, people) == "p1 climbed nothing."


def test_a_random_game_renders_at_every_step_for_players_and_spectators():
    rng = random.Random(7)
    state = get_game("mountain-goats").new_initial_state(3)
    steps = 0
    while not state.is_terminal() and steps < 60:
        for seat in (None, 0, 1, 2):
            board = mg.present(mg_match(state, seat), players(3, you=seat))
            render_to_string("frontend/boards/mountain-goats.html", {"board": board, "match": {"id": 1, "seq": 1}})
        if state.is_chance_node():
            state.apply(-1, state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(state.current_player(), actions[rng.randrange(len(actions))])
        steps += 1


def test_the_event_log_names_who_rolled():
    people = players(3)
    events = [
        {"chance": {"first_player": 2}},
        {"chance": {"roll": [3, 2, 5, 6]}},
        {"player": 2, "action": {"climb": [5]}},
        {"chance": {"roll": [1, 1, 1, 4]}},
    ]
    assert mg.describe_events(events, people) == [
        "p2 goes first.", "p2 rolled 3 2 5 6.", "p2 climbed 5.", "p0 rolled 1 1 1 4."
    ]
