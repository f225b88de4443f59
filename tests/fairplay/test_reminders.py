"""Correspondence reminders: one email to the person to move at half the time left, if they opted in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client

from games import selectors, services
from games.accounts.models import VerifiedEmail
from games.errors import BadRequest
from games.fairplay import reminders, tasks
from games.fairplay.models import CorrespondenceReminder
from games.models import MatchClock

pytestmark = [pytest.mark.django_db,
              pytest.mark.usefixtures("locmem_mail")]

MG = "mountain-goats"


@pytest.fixture
def locmem_mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []


def opt_in(user, address: str, *, verified: bool = True) -> None:
    user.email = address
    user.save()
    if verified:
        VerifiedEmail.objects.create(user=user, email=address)
    reminders.set_reminders(user=user, on=True)


def correspondence(alice, bob, days: int = 2):
    """A 2-player Mountain Goats match by correspondence; the person to move, the other, the deadline."""
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}] * 2, options={},
                                  time_control=f"{days}d")
    match = services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    mover = alice if match.to_move == [selectors.seat_of(match, alice)] else bob
    other = bob if mover is alice else alice
    clock = MatchClock.objects.get(match=match)
    return match, mover, other, clock.deadline


def test_the_person_to_move_gets_one_reminder_at_half_the_time_left_if_they_opted_in(alice, bob):
    opt_in(alice, "alice@example.org")
    opt_in(bob, "bob@example.org")
    match, mover, other, deadline = correspondence(alice, bob, days=2)
    half = deadline - timedelta(days=1)
    assert reminders.send_due(now=half - timedelta(minutes=1)) == {}  # more than half is left
    assert reminders.send_due(now=half + timedelta(minutes=1)) == {"sent": 1}
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [mover.email]
    body = mail.outbox[0].body
    assert f"/matches/{match.pk}/" in body and "half of the time for this move is gone" in body
    assert "2 days per move" in body and "1 day 0 h left" in body
    # Once per turn, however often the beat task runs.
    assert reminders.send_due(now=half + timedelta(minutes=5)) == {}
    assert tasks.send_reminders.apply().get() == {}  # (the real task, now: no reminder is due yet)
    assert len(mail.outbox) == 1
    assert CorrespondenceReminder.objects.get().seq == match.seq
    # The next turn is another turn: the other person is reminded at its own half.
    state = selectors.load_state(match)
    seat = selectors.seat_of(match, mover)
    action = state.action_to_json(seat, state.legal_actions(seat)[0])
    services.submit_action(match_id=match.pk, user=mover, action=action, expected_seq=match.seq)
    clock = MatchClock.objects.get(match=match)
    assert reminders.send_due(now=clock.deadline - timedelta(hours=23)) == {"sent": 1}
    assert [m.to for m in mail.outbox] == [[mover.email], [other.email]]


def test_nobody_is_reminded_who_did_not_opt_in_has_no_verified_address_or_whose_time_is_up(alice, bob):
    match, mover, other, deadline = correspondence(alice, bob, days=1)
    assert reminders.send_due(now=deadline - timedelta(hours=1)) == {}  # not opted in
    opt_in(mover, "mover@example.org", verified=False)
    assert reminders.send_due(now=deadline - timedelta(hours=1)) == {"unverified": 1}
    VerifiedEmail.objects.create(user=mover, email="mover@example.org")
    assert reminders.send_due(now=deadline + timedelta(seconds=1)) == {}  # too late: the clock decides
    reminders.set_reminders(user=mover, on=False)
    assert reminders.send_due(now=deadline - timedelta(hours=1)) == {}
    assert mail.outbox == []


def test_real_time_matches_get_no_reminder(alice, bob):
    opt_in(alice, "alice@example.org")
    opt_in(bob, "bob@example.org")
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}] * 2, options={},
                                  time_control="5+10")
    services.join_match(match_id=match.pk, user=bob)
    deadline = MatchClock.objects.get(match=match).deadline
    assert reminders.send_due(now=deadline - timedelta(seconds=1)) == {}


def test_two_runs_at_once_send_one_email(alice, bob, settings):
    opt_in(alice, "alice@example.org")
    opt_in(bob, "bob@example.org")
    match, mover, _, deadline = correspondence(alice, bob, days=2)
    now = deadline - timedelta(hours=2)
    items = reminders.due(now)
    assert len(items) == 1
    # Both runs found it due; each tries to send it: the unique row lets one through.
    assert [reminders.send(items[0], now), reminders.send(items[0], now)] == ["sent", "already_sent"]
    assert len(mail.outbox) == 1


def test_a_mail_that_fails_to_go_is_tried_again_on_the_next_run(alice, bob, monkeypatch):
    opt_in(alice, "alice@example.org")
    opt_in(bob, "bob@example.org")
    match, mover, _, deadline = correspondence(alice, bob, days=2)
    now = deadline - timedelta(hours=2)

    def broken(*args, **kwargs):
        raise ConnectionError("the mail server is away")

    monkeypatch.setattr(reminders, "send_mail", broken)
    assert reminders.send_due(now) == {"failed": 1}
    assert not CorrespondenceReminder.objects.exists()  # rolled back with the failed mail
    monkeypatch.undo()
    assert reminders.send_due(now) == {"sent": 1}


def test_the_setting_is_on_the_notification_page_and_needs_an_address(alice):
    client = Client()
    client.force_login(alice)
    page = client.get("/settings/notifications/").content.decode()
    assert 'name="correspondence_reminder"' in page and "half the time for my move" in page
    refused = client.post("/settings/notifications/", {"correspondence_reminder": "1", "email": ""})
    assert refused.status_code == 400 and "give an email address to get reminders" in refused.content.decode()
    assert not reminders.wants_reminders(alice)
    client.post("/settings/notifications/", {"correspondence_reminder": "1", "email": "alice@example.org"})
    assert reminders.wants_reminders(alice)
    assert 'name="correspondence_reminder" value="1" checked' in client.get("/settings/notifications/").content.decode()
    with pytest.raises(BadRequest):
        reminders.set_reminders(user=alice, on="yes")


def test_the_beat_schedule_runs_the_task():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["fairplay-correspondence-reminders"]
    assert entry["task"] == tasks.send_reminders.name and entry["schedule"] == timedelta(seconds=300)
