"""The replay page: step through a match event by event, seeing only what the viewer's seat saw then."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from engine import get_game
from games import selectors, services
from games.models import Match

from .helpers import client_for, climb_buttons, two_player_match

pytestmark = pytest.mark.django_db

def replay_url(match: Match, seq: int | None = None) -> str:
    return f"/matches/{match.pk}/replay/" + (f"?seq={seq}" if seq is not None else "")


def play(match: Match, users: tuple, *, moves: int = 10_000) -> None:
    """Whoever may act plays their last legal action, ``moves`` times or to the end."""
    for _ in range(moves):
        match.refresh_from_db()
        if match.status == "finished":
            return
        for user in users:
            view = selectors.match_view(match, user)
            if view["legal_actions"]:
                services.submit_action(
                    match_id=match.pk, user=user, action=view["legal_actions"][-1], expected_seq=view["seq"]
                )
                break
        else:
            raise AssertionError("nobody could act in an active match")


def banner(page: str) -> str:
    found = re.search(r"<strong>Event (\d+) of (\d+)\.</strong>", page)
    assert found, "no 'Event N of M' banner"
    return found.group(0)


def engine_state_at(match: Match, seq: int):
    """The engine state after event ``seq``, rebuilt here from the stored record, not by the page's code."""
    record = selectors.record(match, None)
    game = get_game(record["game"])
    state = game.new_initial_state(record["players"], record["options"])
    game_events = [e for e in selectors.visible_events(match, None) if e["type"] in ("chance", "action")]
    for event, notation in zip(game_events, record["events"]):
        if event["seq"] > seq:
            break
        state.apply_event(notation)
    return state


def test_a_finished_match_steps_event_by_event_with_the_position_of_each_step(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob))
    match.refresh_from_db()
    assert match.status == "finished"
    last = match.seq
    client = client_for(alice)

    page = client.get(replay_url(match)).content.decode()
    assert banner(page) == f"<strong>Event {last} of {last}.</strong>"
    assert "<h2 id=\"result-title\">" in page  # the last step shows the result
    # your matches: Replay opens at the last event, not at event 1
    assert f'href="/matches/{match.pk}/replay/">Replay</a>' in client.get("/").content.decode()

    rolls = [
        e for e in selectors.visible_events(match, alice)
        if e["type"] == "chance" and "roll" in (e["payload"].get("chance") or {})
    ]
    roll = rolls[len(rolls) // 2]
    seq = roll["seq"]
    page = client.get(replay_url(match, seq)).content.decode()
    assert banner(page) == f"<strong>Event {seq} of {last}.</strong>"
    assert 'id="result-title"' not in page
    faces = " ".join(str(d) for d in roll["payload"]["chance"]["roll"])
    assert f"rolled {faces}" in page  # the dice of that moment
    # Back and forward go one event either way; the replay offers no moves, even on alice's turn.
    assert f'href="/matches/{match.pk}/replay/?seq={seq - 1}"' in page
    assert f'href="/matches/{match.pk}/replay/?seq={seq + 1}"' in page
    assert climb_buttons(client.get(replay_url(match, seq + 1)).content.decode()) == []
    assert "submit_move" not in page and f"/matches/{match.pk}/move/" not in page


def test_each_step_is_the_viewers_observation_of_the_engine_state_after_that_event(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob), moves=60)
    match.refresh_from_db()
    client = client_for(bob)
    seen = set()
    for seq in range(3, match.seq + 1, 7):
        view = selectors.match_view_at(match, bob, seq)
        state = engine_state_at(match, seq)
        assert view["view"] == state.observation(1)
        assert view["seq"] == seq
        assert view["legal_actions"] == []
        seen.add(tuple(state.scores()))
        page = client.get(replay_url(match, seq)).content.decode()
        assert banner(page) == f"<strong>Event {seq} of {match.seq}.</strong>"
    assert len(seen) > 1  # the steps really show different positions


def test_steps_are_clamped_to_the_match_and_a_bad_seq_is_refused(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob), moves=5)
    match.refresh_from_db()
    client = client_for(alice)
    assert banner(client.get(replay_url(match, 0)).content.decode()) == f"<strong>Event 1 of {match.seq}.</strong>"
    assert banner(client.get(replay_url(match, 10_000)).content.decode()) == (
        f"<strong>Event {match.seq} of {match.seq}.</strong>"
    )
    refused = client.get(f"/matches/{match.pk}/replay/?seq=twelve")
    assert refused.status_code == 400
    assert "seq must be a whole number" in html.unescape(refused.content.decode())
    assert client.get("/matches/999999/replay/").status_code == 404


def test_an_anonymous_visitor_can_replay_a_match_as_a_spectator(alice, bob):
    match = two_player_match(alice, bob)
    play(match, (alice, bob), moves=4)
    page = Client().get(replay_url(match, 3)).content.decode()
    assert "spectator could see" in page
    assert banner(page).startswith("<strong>Event 3 of")


def test_the_match_page_links_to_the_replay(alice, bob):
    match = two_player_match(alice, bob)
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/replay/"' in page


def test_a_mountainhome_replay_shows_each_viewer_only_what_their_seat_saw(alice, bob, carol):
    match = services.create_match(
        user=alice, game_id="mountainhome", seats=[{"human": True}, {"human": True}], options={}
    )
    services.join_match(match_id=match.pk, user=bob)
    play(match, (alice, bob), moves=25)
    match.refresh_from_db()
    checked = 0
    for seq in range(1, match.seq + 1):
        alice_view = selectors.match_view_at(match, alice, seq)
        if alice_view["status"] != "active":
            continue
        hand = alice_view["view"]["seats"][0]["hand"] or []
        bob_view = selectors.match_view_at(match, bob, seq)
        assert bob_view["view"]["seats"][0]["hand"] is None  # bob never sees alice's hand
        bob_knows = json.dumps(bob_view["view"])
        secret = [card for card in hand if card not in bob_knows]
        if not secret:
            continue
        alice_page = client_for(alice).get(replay_url(match, seq)).content.decode()
        for viewer in (bob, carol, None):
            page = (client_for(viewer) if viewer else Client()).get(replay_url(match, seq)).content.decode()
            for card in secret:
                assert card in alice_page  # she sees her own hand: the check below can fail
                assert card not in page, f"{card} from alice's hand leaked into a replay at seq {seq}"
        checked += 1
    assert checked >= 3


def test_the_log_lists_a_window_of_events_around_the_current_one(alice, bob, monkeypatch):
    from frontend import live

    monkeypatch.setattr(live, "REPLAY_LOG_WINDOW", 3)
    match = two_player_match(alice, bob)
    play(match, (alice, bob), moves=10)
    match.refresh_from_db()
    page = client_for(alice).get(replay_url(match, 10)).content.decode()
    listed = [int(n) for n in re.findall(r'<span class="seq">(\d+)</span>', page)]
    assert listed == [7, 8, 9, 10, 11, 12, 13]
    assert "earlier events (to 6)" in page and "later events (from 14)" in page
    assert f'aria-current="step"><a href="/matches/{match.pk}/replay/?seq=10"' in page.replace("\n          ", "")
