"""Rematch and new match, the watch list, the spectator count and delay, and the "your turn" email."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings

from games import selectors, services
from games.accounts.models import VerifiedEmail
from games.errors import Conflict, Forbidden
from games.models import Match, Seat
from games.table import notifications, rematch, watch
from games.table.models import TurnEmail

from ..frontend.helpers import MG, client_for, two_player_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _finished(match: Match, user) -> Match:
    services.resign(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def _seats(match: Match) -> list[tuple]:
    return [(s.index, s.user_id, s.bot_level) for s in Seat.objects.filter(match=match).order_by("index")]


def test_a_rematch_needs_the_other_person_and_keeps_seats_options_and_clock(alice, bob, carol):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}],
                                  options={}, time_control="3d")
    services.join_match(match_id=match.pk, user=bob)
    _finished(match, alice)
    with pytest.raises(Forbidden):
        rematch.offer(user=carol, match_id=match.pk)
    offer = rematch.offer(user=bob, match_id=match.pk)
    assert offer.status == "pending" and offer.new_match is None
    assert rematch.state(match, alice)["must_answer"] and not rematch.state(match, bob)["must_answer"]
    with pytest.raises(Conflict):
        rematch.offer(user=alice, match_id=match.pk)
    offer = rematch.answer(user=alice, match_id=match.pk, accept=True)
    new = offer.new_match
    new.refresh_from_db()
    assert offer.status == "accepted" and new.status == "active"
    assert [(i, u) for i, u, _ in _seats(new)] == [(i, u) for i, u, _ in _seats(match)]
    assert (new.game_id, new.options, new.time_control, new.rated) == (match.game_id, match.options,
                                                                          match.time_control, match.rated)
    with pytest.raises(Conflict):
        rematch.answer(user=alice, match_id=match.pk, accept=True)


def test_a_declined_rematch_creates_nothing(alice, bob):
    match = _finished(two_player_match(alice, bob), bob)
    rematch.offer(user=alice, match_id=match.pk)
    offer = rematch.answer(user=bob, match_id=match.pk, accept=False)
    assert offer.status == "declined" and offer.new_match is None
    assert rematch.state(match, alice)["declined_by"] == ["bob"]


def test_bots_accept_a_rematch_at_once(alice):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}], options={})
    _finished(match, alice)
    response = client_for(alice).post(f"/matches/{match.pk}/rematch/", **HX)
    assert response.status_code == 201
    new = Match.objects.get(pk=int(response["HX-Redirect"].strip("/").split("/")[-1]))
    assert new.status == "active" and _seats(new)[1][2] == "random" and _seats(new)[0][1] == alice.pk


def test_a_rematch_of_a_match_in_play_is_refused(alice, bob):
    match = two_player_match(alice, bob)
    response = client_for(alice).post(f"/matches/{match.pk}/rematch/", **HX)
    assert response.status_code == 409 and "once the match is over" in response.content.decode()


def test_new_match_keeps_the_settings_and_opens_the_other_seats(alice, bob):
    match = _finished(two_player_match(alice, bob), alice)
    new = rematch.new_match(user=bob, match_id=match.pk)
    assert new.status == "waiting" and _seats(new) == [(0, bob.pk, ""), (1, None, "")]


def test_the_result_card_offers_a_rematch_to_players_only(alice, bob, carol):
    match = _finished(two_player_match(alice, bob), alice)
    assert 'data-rematch="offer"' in client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-rematch="offer"' not in client_for(carol).get(f"/matches/{match.pk}/").content.decode()


def test_the_watch_list_shows_matches_in_play_filtered_by_game_and_kind(alice, bob):
    people = two_player_match(alice, bob)
    against_bot = services.create_match(user=alice, game_id="nanga-parbat", seats=[{"human": True}, {"bot": "random"}],
                                        options={})
    waiting = services.create_match(user=bob, game_id=MG, seats=[{"human": True}, {"human": True}], options={})
    ids = lambda **kw: [row["id"] for row in watch.watch_list(**kw)]
    assert set(ids()) == {people.pk, against_bot.pk} and waiting.pk not in ids()
    assert ids(game="nanga-parbat") == [against_bot.pk]
    assert ids(kind="bots") == [against_bot.pk] and ids(kind="people") == [people.pk]
    page = client_for(alice).get("/watch/?game=nanga-parbat").content.decode()
    assert f'data-watch="{against_bot.pk}"' in page and f'data-watch="{people.pk}"' not in page
    assert client_for(alice).get("/watch/?game=chess").status_code == 400


def test_spectators_are_counted_in_redis(alice, bob):
    match = two_player_match(alice, bob)
    assert watch.spectator_joined(match.pk, "chan-a") == 1
    assert watch.spectator_joined(match.pk, "chan-b") == 2
    assert watch.spectator_count(match.pk) == 2
    assert watch.spectator_left(match.pk, "chan-a") == 1
    watch.spectator_left(match.pk, "chan-b")
    assert watch.spectator_count(match.pk) == 0


def test_spectators_of_a_rated_match_see_it_moves_behind(alice, bob, carol):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}], options={},
                                  rated=True, time_control="3d")
    services.join_match(match_id=match.pk, user=bob)
    for _ in range(3):
        match.refresh_from_db()
        view = selectors.match_view(match, alice)
        user = alice if view["to_move"] == [0] else bob
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=match.seq)
    match.refresh_from_db()
    with override_settings(CAIRN_SPECTATOR_DELAY="2 moves"):
        shown = selectors.spectator_seq(match)
        actions = list(match.events.filter(type="action").order_by("seq").values_list("seq", flat=True))
        assert shown == actions[-2] - 1
        page = client_for(carol).get(f"/matches/{match.pk}/").content.decode()
        assert f'data-seq="{shown}"' in page
        assert f'data-seq="{match.seq}"' in client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert selectors.spectator_seq(match) == match.seq  # no delay configured: live


@override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
def test_a_turn_email_is_sent_once_in_correspondence_matches(alice, bob, django_capture_on_commit_callbacks):
    bob.email = "bob@example.org"
    bob.save()
    VerifiedEmail.objects.create(user=bob, email="bob@example.org")  # mail goes only to a verified address
    notifications.update(user=bob, sound=False, browser=False, email_turn=True, email="bob@example.org")
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}], options={},
                                  time_control="2d")
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    bob_seat = selectors.seat_of(match, bob)
    if match.to_move != [bob_seat]:
        services.submit_action(match_id=match.pk, user=alice, action={"climb": []}, expected_seq=match.seq)
        match.refresh_from_db()
    assert notifications.send_turn_email(match.pk, match.seq, bob.pk) == "sent"
    assert notifications.send_turn_email(match.pk, match.seq, bob.pk) == "already_sent"
    assert notifications.send_turn_email(match.pk, match.seq - 1, bob.pk) == "stale"
    assert notifications.send_turn_email(match.pk, match.seq, alice.pk) in ("not_to_move", "opted_out")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bob@example.org"]
    assert f"/matches/{match.pk}/" in mail.outbox[0].body and "2 days per move" in mail.outbox[0].body
    assert TurnEmail.objects.filter(match=match, user=bob).count() == 1


def test_the_save_queues_a_turn_email_after_commit(alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr(notifications, "_queue", lambda m, s, u: queued.append((m, s, u)))
    notifications.update(user=bob, sound=False, browser=False, email_turn=True, email="bob@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}],
                                      options={}, time_control="1d")
        services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    bob_seat = selectors.seat_of(match, bob)
    with django_capture_on_commit_callbacks(execute=True):
        if match.to_move != [bob_seat]:
            services.submit_action(match_id=match.pk, user=alice, action={"climb": []}, expected_seq=match.seq)
    match.refresh_from_db()
    assert (match.pk, match.seq, bob.pk) in queued
    assert all(u == bob.pk for _, _, u in queued)  # alice did not opt in


def test_the_settings_page_saves_the_opt_ins(alice):
    client = client_for(alice)
    assert client.get("/settings/notifications/").status_code == 200
    refused = client.post("/settings/notifications/", {"email_turn": "1", "email": ""})
    assert refused.status_code == 400 and "give an email address" in refused.content.decode()
    client.post("/settings/notifications/", {"sound": "1", "email_turn": "1", "email": "a@example.org"})
    prefs = notifications.settings_of(alice)
    assert prefs.sound and prefs.email_turn and not prefs.browser
    assert 'data-notify-sound="1"' in client.get("/").content.decode()


def test_a_watch_row_says_the_score_and_whose_turn_it_is(alice, bob):
    match = services.create_match(user=alice, game_id="nanga-parbat", seats=[{"human": True}, {"bot": "easy"}], options={})
    row = next(r for r in watch.watch_list() if r["id"] == match.pk)
    view = selectors.match_view(match, None)
    assert row["scores"] == [{"seat": i, "name": n, "score": v}
                             for i, (n, v) in enumerate(zip(["alice", "Easy bot"], view["view"]["scores"]))]
    assert row["to_move"] == [{"seat": s, "name": ["alice", "Easy bot"][s]} for s in view["to_move"]]
    page = client_for(bob).get("/watch/").content.decode()
    text = " ".join(page.split())
    assert "to move: alice" in text or "to move: Easy bot" in text
    assert 'class="watch-score">Score' in page


def test_a_mountainhome_watch_row_scores_the_public_victory_points(alice):
    match = services.create_match(user=alice, game_id="mountainhome", seats=[{"human": True}, {"bot": "random"}], options={})
    row = next(r for r in watch.watch_list() if r["id"] == match.pk)
    assert [s["score"] for s in row["scores"]] == [seat["vp"] for seat in selectors.match_view(match, None)["view"]["seats"]]


def test_a_real_time_match_left_by_its_players_for_ten_minutes_is_not_listed_as_in_play(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    match = two_player_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(time_control={"kind": "realtime", "base": 300, "increment": 10})
    stale = timezone.now() - timedelta(seconds=watch.IDLE_SECONDS + 60)
    assert match.pk in [r["id"] for r in watch.watch_list()]
    Match.objects.filter(pk=match.pk).update(updated_at=stale)
    assert match.pk not in [r["id"] for r in watch.watch_list()]
    # A player's socket still open: the match is attended, so it is in play.
    watch.player_joined(match.pk, "specific.test-channel")
    try:
        assert match.pk in [r["id"] for r in watch.watch_list()]
    finally:
        watch.player_left(match.pk, "specific.test-channel")
    assert match.pk not in [r["id"] for r in watch.watch_list()]
    # By correspondence, days between moves are normal: still listed.
    Match.objects.filter(pk=match.pk).update(time_control={"kind": "correspondence", "days": 1}, updated_at=stale)
    assert match.pk in [r["id"] for r in watch.watch_list()]
