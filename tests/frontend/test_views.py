"""The pages: accounts, the lobby, the match page and moves over hx-post."""

from __future__ import annotations

import html
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import selectors, services
from games.models import Match

from .helpers import MG, client_for, climb_buttons, data_seq, mover, play_until, two_player_match

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def move_url(match: Match) -> str:
    return f"/matches/{match.pk}/move/"


# ---------------------------------------------------------------- accounts


def test_sign_up_creates_the_account_and_logs_in():
    client = Client()
    response = client.post(
        "/signup/", {"username": "dora", "password1": "goats-on-summits-9", "password2": "goats-on-summits-9"}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert get_user_model().objects.filter(username="dora").exists()
    lobby = client.get("/")
    assert b"dora" in lobby.content and b"Create match" in lobby.content


def test_sign_up_shows_why_a_password_is_refused():
    response = Client().post("/signup/", {"username": "eve", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert b"too short" in response.content
    assert not get_user_model().objects.filter(username="eve").exists()


def test_log_in_and_log_out(alice):
    client = Client()
    assert client.get("/login/").status_code == 200
    response = client.post("/login/", {"username": "alice", "password": "correct-horse-battery"})
    assert response.status_code == 302
    assert b"alice" in client.get("/").content
    response = client.post("/logout/")
    assert response.status_code == 302
    assert b"Sign up to play" in client.get("/").content


# ---------------------------------------------------------------- the lobby


def test_the_lobby_invites_an_anonymous_visitor_to_sign_up():
    response = Client().get("/")
    assert response.status_code == 200
    assert b"Sign up to play" in response.content
    assert b"create-form" not in response.content


def test_the_lobby_offers_every_game_and_bot_level(alice):
    import ai

    content = client_for(alice).get("/").content.decode()
    assert 'value="mountain-goats"' in content
    for level in ai.LEVELS:
        assert f'value="bot:{level}"' in content
    # Each level shows its published strength next to its name, per game (the script relabels on a game change).
    hard = ai.LEVELS["hard"]["rating"]["mountain-goats"]
    assert f">Hard bot · {hard}</option>" in content
    import json
    import re

    labels = json.loads(re.search(r'<script id="bot-labels" type="application/json">(.*?)</script>', content).group(1))
    assert labels["nanga-parbat"]["bot:hard"] == f"Hard bot · {ai.LEVELS['hard']['rating']['nanga-parbat']}"
    assert labels["mountain-goats"]["bot:random"] == "Random bot · 800"


def test_creating_a_match_against_a_bot_starts_it_and_opens_the_match_page(alice):
    client = client_for(alice)
    response = client.post("/matches/new/", {"game": MG, "players": "2", "seat_1": "bot:random"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.status == "active"
    assert [(s.user_id, s.bot_level) for s in match.seats.order_by("index")] == [(alice.pk, ""), (None, "random")]
    page = client.get(response["Location"]).content.decode()
    assert f'ws-connect="/ws/matches/{match.pk}/?seq={match.seq}&amp;client=' in page
    assert 'class="mg-svg"' in page  # the Mountain Goats board, not the fallback
    assert "Random bot" in page


def test_creating_an_open_match_lists_it_for_others_who_can_join(alice, bob):
    client = client_for(alice)
    client.post("/matches/new/", {"game": MG, "players": "3", "seat_1": "person", "seat_2": "bot:random"})
    match = Match.objects.get()
    assert match.status == "waiting" and match.players == 3
    bob_client = client_for(bob)
    lobby = bob_client.get("/").content.decode()
    assert f'action="/matches/{match.pk}/join/"' in lobby
    response = bob_client.post(f"/matches/{match.pk}/join/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == "active"
    assert "Your matches" in bob_client.get("/").content.decode()


def test_the_lobby_lists_refresh_alone_for_htmx(alice):
    response = client_for(alice).get("/?part=lists", **HX)
    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<div id="lobby-lists"') and "<html" not in content


def test_a_bad_player_count_is_refused_with_a_message(alice):
    response = client_for(alice).post("/matches/new/", {"game": MG, "players": "7", "seat_1": "bot:random"})
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_creating_a_match_needs_an_account():
    response = Client().post("/matches/new/", {"game": MG, "players": "2", "seat_1": "bot:random"})
    assert response.status_code == 302 and response["Location"].startswith("/login/")


# ---------------------------------------------------------------- the match page


def test_a_waiting_match_offers_its_open_seat_to_a_visitor_with_an_account(alice, bob):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}], options={})
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "Waiting for players." in page
    assert f'hx-post="/matches/{match.pk}/join/"' in page
    response = client_for(bob).post(f"/matches/{match.pk}/join/", **HX)
    assert response["HX-Redirect"] == f"/matches/{match.pk}/"


def test_an_unknown_match_is_a_404_page(alice):
    response = client_for(alice).get("/matches/999999/")
    assert response.status_code == 404
    assert b"no match 999999" in response.content


def test_the_player_to_move_is_offered_exactly_the_legal_climbs(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice
    view = selectors.match_view(match, player)
    page = client_for(player).get(f"/matches/{match.pk}/").content.decode()
    offered = sorted(json.loads(html.unescape(a))["climb"] for a in climb_buttons(page))
    assert offered == sorted(a["climb"] for a in view["legal_actions"])
    assert "Your turn." in page
    assert climb_buttons(client_for(other).get(f"/matches/{match.pk}/").content.decode()) == []


def test_a_spectator_sees_the_board_without_moves(alice, bob, carol):
    match = two_player_match(alice, bob)
    page = client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    assert 'class="mg-svg"' in page and "spectating" in page
    assert climb_buttons(page) == []


# ---------------------------------------------------------------- moves


def test_a_legal_climb_is_accepted_and_answered_with_the_new_fragment(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    view = selectors.match_view(match, player)
    action = view["legal_actions"][-1]
    response = client_for(player).post(
        move_url(match), {"action": json.dumps(action), "expected_seq": view["seq"]}, **HX
    )
    assert response.status_code == 201
    content = response.content.decode()
    match.refresh_from_db()
    assert match.seq > view["seq"]
    assert data_seq(content) == match.seq
    assert 'hx-swap-oob="true"' in content
    assert "climbed" in content  # the event log shows the move


def test_a_stale_move_is_refused_with_409_and_the_current_position(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    seq = match.seq
    client = client_for(player)
    assert client.post(move_url(match), {"action": '{"climb": []}', "expected_seq": seq}, **HX).status_code == 201
    response = client.post(move_url(match), {"action": '{"climb": []}', "expected_seq": seq}, **HX)
    assert response.status_code == 409
    content = response.content.decode()
    assert "stale expected_seq" in content and 'role="alert"' in content
    match.refresh_from_db()
    assert data_seq(content) == match.seq


def test_an_illegal_climb_is_refused_with_400_naming_it(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    view = selectors.match_view(match, player)
    legal = {tuple(a["climb"]) for a in view["legal_actions"]}
    illegal = next(c for c in ([10, 10, 10, 10], [9, 9, 9, 9], [5, 5, 5, 5]) if tuple(c) not in legal)
    response = client_for(player).post(
        move_url(match), {"action": json.dumps({"climb": illegal}), "expected_seq": view["seq"]}, **HX
    )
    assert response.status_code == 400
    assert f"climb {illegal}" in html.unescape(response.content.decode())


def test_a_move_out_of_turn_is_refused_with_403(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    other = bob if player == alice else alice
    response = client_for(other).post(
        move_url(match), {"action": '{"climb": []}', "expected_seq": match.seq}, **HX
    )
    assert response.status_code == 403
    assert "not your turn" in response.content.decode()


def test_a_move_without_an_account_is_refused(alice, bob):
    match = two_player_match(alice, bob)
    response = Client().post(move_url(match), {"action": '{"climb": []}', "expected_seq": match.seq}, **HX)
    assert response.status_code == 403
    assert "Log in to play." in response.content.decode()


def test_unreadable_move_json_is_refused_with_400(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    response = client_for(player).post(move_url(match), {"action": "{climb", "expected_seq": match.seq}, **HX)
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()


def test_without_htmx_a_refused_move_redirects_back_with_the_message(alice, bob):
    match = two_player_match(alice, bob)
    player = mover(match, alice, bob)
    client = client_for(player)
    response = client.post(move_url(match), {"action": '{"climb": []}', "expected_seq": match.seq + 5})
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert "stale expected_seq" in client.get(response["Location"]).content.decode()


# ---------------------------------------------------------------- the group builder (faces and groups)


def _builder_post(match: Match, faces: dict[int, int], groups: dict[int, str]) -> dict[str, str]:
    data = {"expected_seq": str(match.seq)}
    for i, face in faces.items():
        data[f"face-{i}"] = str(face)
    for i in range(4):
        data[f"group-{i}"] = groups.get(i, "")
    return data


def test_grouping_the_dice_sends_climb_faces_and_groups(alice, bob):
    match = two_player_match(alice, bob)
    # A roll whose dice 0 and 1 make a mountain together.
    view = play_until(match, (alice, bob), lambda v: 5 <= v["view"]["roll"][0] + v["view"]["roll"][1] <= 10)
    player = mover(match, alice, bob)
    roll = view["view"]["roll"]
    response = client_for(player).post(move_url(match), _builder_post(match, {}, {0: "A", 1: "A"}), **HX)
    assert response.status_code == 201, response.content.decode()
    last = [e for e in selectors.visible_events(match, player) if e["type"] == "action"][-1]
    assert last["payload"]["action"]["climb"] == [roll[0] + roll[1]]


def test_a_group_that_names_no_mountain_is_refused_with_a_message(alice, bob):
    match = two_player_match(alice, bob)
    view = play_until(match, (alice, bob), lambda v: sum(v["view"]["roll"]) > 10 or sum(v["view"]["roll"]) < 5)
    player = mover(match, alice, bob)
    total = sum(view["view"]["roll"])
    response = client_for(player).post(
        move_url(match), _builder_post(match, {}, {0: "B", 1: "B", 2: "B", 3: "B"}), **HX
    )
    assert response.status_code == 400
    assert f"Group B (dice 1, 2, 3, 4) totals {total}, which names no mountain" in response.content.decode()


def test_extra_ones_can_be_set_to_other_faces(alice, bob):
    match = two_player_match(alice, bob)
    view = play_until(match, (alice, bob), lambda v: v["view"]["roll"].count(1) >= 2)
    player = mover(match, alice, bob)
    roll = view["view"]["roll"]
    ones = [i for i, f in enumerate(roll) if f == 1]
    page = client_for(player).get(f"/matches/{match.pk}/").content.decode()
    for i in ones:
        assert f'name="face-{i}"' in page  # each rolled 1 can be set
    # Keep the first 1, turn the second into a 6: that die alone climbs mountain 6.
    response = client_for(player).post(
        move_url(match), _builder_post(match, {ones[1]: 6}, {ones[1]: "A"}), **HX
    )
    assert response.status_code == 201, response.content.decode()
    last = [e for e in selectors.visible_events(match, player) if e["type"] == "action"][-1]
    assert last["payload"]["action"]["climb"] == [6]


def test_setting_every_rolled_one_away_is_refused(alice, bob):
    match = two_player_match(alice, bob)
    view = play_until(match, (alice, bob), lambda v: v["view"]["roll"].count(1) >= 2)
    player = mover(match, alice, bob)
    ones = [i for i, f in enumerate(view["view"]["roll"]) if f == 1]
    response = client_for(player).post(
        move_url(match), _builder_post(match, dict.fromkeys(ones, 5), {ones[0]: "A"}), **HX
    )
    assert response.status_code == 400
    assert "at least one of the rolled 1s" in response.content.decode()


def test_a_die_that_was_not_a_one_cannot_be_set(alice, bob):
    match = two_player_match(alice, bob)
    view = play_until(match, (alice, bob), lambda v: any(f != 1 for f in v["view"]["roll"]))
    player = mover(match, alice, bob)
    roll = view["view"]["roll"]
    i = next(k for k, f in enumerate(roll) if f != 1)
    other = 5 if roll[i] != 5 else 6
    response = client_for(player).post(move_url(match), _builder_post(match, {i: other}, {i: "A"}), **HX)
    assert response.status_code == 400
    assert f"Die {i + 1} was rolled as {roll[i]}; only extra 1s may be set." in response.content.decode()


# ---------------------------------------------------------------- bots and the result


def test_the_page_says_the_bot_is_thinking_while_a_bot_is_to_move(alice):
    for _ in range(40):  # the first player is drawn at random: find a match the bot starts
        match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}], options={})
        if selectors.match_view(match, alice)["to_move"] == [1]:
            break
    else:
        pytest.fail("the bot never moved first in 40 matches")
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "Random bot</strong> is thinking" in page
    assert climb_buttons(page) == []


def test_a_finished_match_shows_the_result_with_every_score(alice, bob):
    match = two_player_match(alice, bob)
    for _ in range(500):
        match.refresh_from_db()
        if match.status == "finished":
            break
        user = mover(match, alice, bob)
        view = selectors.match_view(match, user)
        services.submit_action(match_id=match.pk, user=user, action=view["legal_actions"][-1], expected_seq=view["seq"])
    match.refresh_from_db()
    assert match.status == "finished"
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    result = match.result
    assert "Game over." in page
    for _seat, score in enumerate(result["scores"]):
        assert f"{score} points" in page
    headline = "You won!" if result["winners"] == [0] else "A shared victory!" if 0 in result["winners"] else "You lost."
    assert f'<h2 id="result-title">{headline}</h2>' in page
    assert climb_buttons(page) == []


def test_an_anonymous_visitor_can_watch_a_match(alice, bob):
    match = two_player_match(alice, bob)
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert 'class="mg-svg"' in page and "spectating" in page
    assert climb_buttons(page) == []
    assert f'ws-connect="/ws/matches/{match.pk}/?seq={match.seq}&amp;client=' in page


def test_opening_a_match_page_requeues_a_stalled_bot_turn(alice, monkeypatch):
    from datetime import timedelta

    from games import dispatch

    queued = []
    monkeypatch.setattr(dispatch, "bot_turn", lambda *args, **options: queued.append(args))
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}], options={})
    client = client_for(alice)
    while not selectors.get_match(match.pk).bot_to_move:
        match = selectors.get_match(match.pk)
        state = selectors.load_state(match)
        action = state.action_to_json(0, state.legal_actions(0)[0])
        services.submit_action(match_id=match.pk, user=alice, action=action, expected_seq=match.seq)
    match = selectors.get_match(match.pk)
    queued.clear()
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    assert queued == []  # a fresh bot turn is left to the worker
    Match.objects.filter(pk=match.pk).update(updated_at=match.updated_at - timedelta(minutes=5))
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    assert queued == [(match.pk, match.seq)]


def test_a_lobby_match_always_has_a_clock(alice):
    client = client_for(alice)
    lobby = client.get("/")
    assert b'name="time_control"' in lobby.content and b"1d" in lobby.content
    response = client.post("/matches/new/", {"game": MG, "players": "2", "seat_1": "bot:random"})
    match = Match.objects.latest("pk")
    assert response.status_code == 302 and match.time_control == {"kind": "correspondence", "days": 1}
    client.post("/matches/new/", {"game": MG, "players": "2", "seat_1": "bot:random", "time_control": "5+10"})
    assert Match.objects.latest("pk").time_control["kind"] == "realtime"


@pytest.mark.parametrize(
    "path",
    [
        "/matches/{id}/", "/matches/{id}/live/", "/matches/{id}/replay/", "/matches/{id}/verify/",
        "/matches/{id}/spectators/", "/help/chess/",
    ],
)
@pytest.mark.parametrize("match_id", [0, 2**63, 10**30])
def test_a_page_of_a_match_id_out_of_range_is_a_404_not_a_server_error(alice, path, match_id):
    response = client_for(alice).get(path.format(id=match_id))
    assert response.status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/matches/{id}/move/", "/matches/{id}/join/", "/matches/{id}/chat/", "/matches/{id}/rematch/",
        "/matches/{id}/again/", "/chat/{id}/report/",
    ],
)
def test_a_post_to_a_match_id_out_of_range_is_a_404_not_a_server_error(alice, path):
    response = client_for(alice).post(path.format(id=2**63), {"text": "hi"})
    assert response.status_code == 404
