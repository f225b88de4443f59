"""Moderation: the queue, hiding, warnings, mutes, suspensions, bans, the audit trail and the moderator group."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.test import Client
from django.utils import timezone

from frontend.table.render import render_push
from games.accounts import moderation, sanctions
from games.accounts.models import ModerationAction
from games.accounts.staff import GROUP, PERMISSIONS
from games.errors import Forbidden
from games.ranking import matchmaking
from games.table import chat, push

from ..frontend.helpers import client_for, two_player_match
from .helpers import moderator

pytestmark = pytest.mark.django_db


def _api(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_only_moderators_see_the_queue_and_act(alice, bob, make_user):
    message = chat.post(user=bob, text="rude words")
    chat.report(user=alice, message_id=message.pk)
    assert client_for(alice).get("/moderation/").status_code == 403
    refused = _api(alice).post("/api/moderation/actions", {"kind": "hide", "message": message.pk, "reason": "x"},
                               format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_a_moderator"
    assert _api(alice).get("/api/moderation/reports").status_code == 403
    assert Client().get("/moderation/").status_code == 302
    mona = moderator(make_user)
    assert client_for(mona).get("/moderation/").status_code == 200


def test_a_reported_message_appears_newest_first_with_its_context_reporter_and_author(alice, bob, carol, make_user):
    mona = moderator(make_user)
    match = two_player_match(alice, bob)
    chat.post(user=alice, text="hello there", match_id=match.pk)
    first = chat.post(user=bob, text="you <b>idiot</b>", match_id=match.pk)
    chat.post(user=alice, text="excuse me?", match_id=match.pk)
    second = chat.post(user=carol, text="spam spam")
    chat.report(user=alice, message_id=first.pk)
    chat.report(user=bob, message_id=second.pk)
    rows = _api(mona).get("/api/moderation/reports").json()
    assert [r["message"]["id"] for r in rows] == [second.pk, first.pk]
    by_bob = rows[1]
    assert by_bob["reported"] == "bob" and [r["user"] for r in by_bob["reporters"]] == ["alice"]
    assert [m["text"] for m in by_bob["context"]] == ["hello there", "you <b>idiot</b>", "excuse me?"]
    filtered = _api(mona).get("/api/moderation/reports", {"reported": "carol"}).json()
    assert [r["message"]["id"] for r in filtered] == [second.pk]
    assert _api(mona).get("/api/moderation/reports", {"status": "nope"}).status_code == 400
    page = client_for(mona).get("/moderation/").content.decode()
    assert "you &lt;b&gt;idiot&lt;/b&gt;" in page and "<b>idiot</b>" not in page
    assert page.index(f'id="report-{second.pk}"') < page.index(f'id="report-{first.pk}"')


def test_hiding_removes_a_message_from_every_reader_and_pushes_its_removal(
        alice, bob, make_user, monkeypatch, django_capture_on_commit_callbacks):
    mona = moderator(make_user)
    match = two_player_match(alice, bob)
    kept = chat.post(user=alice, text="nice move", match_id=match.pk)
    rude = chat.post(user=bob, text="something rude", match_id=match.pk)
    chat.report(user=alice, message_id=rude.pk)
    sent = []
    monkeypatch.setattr(push, "send", lambda group, kind, **ids: sent.append((group, kind, ids)))
    with django_capture_on_commit_callbacks(execute=True):
        answer = _api(mona).post("/api/moderation/actions",
                                 {"kind": "hide", "message": rude.pk, "reason": "insult"}, format="json")
    assert answer.status_code == 201 and answer.json()["subject"] == "bob"
    assert sent == [(push.match_group(match.pk), "chat_hidden", {"id": rude.pk})]
    listed = _api(alice).get("/api/chat/", {"match": match.pk, "channel": "players"}).json()
    assert [m["id"] for m in listed] == [kept.pk]
    assert "something rude" not in client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert render_push({"kind": "chat", "id": rude.pk}, alice, match.pk) is None
    removal = render_push({"kind": "chat_hidden", "id": rude.pk}, alice, match.pk)
    assert f'id="chat-msg-{rude.pk}"' in removal and 'hx-swap-oob="delete"' in removal
    # Handled: it leaves the open queue; the database refuses to change the action.
    assert _api(mona).get("/api/moderation/reports").json() == []
    assert len(_api(mona).get("/api/moderation/reports", {"status": "handled"}).json()) == 1
    with pytest.raises(DatabaseError), transaction.atomic():
        ModerationAction.objects.filter(message=rude).update(reason="changed")


def test_a_muted_person_is_refused_with_the_reason_and_the_end_and_sees_it(alice, bob, make_user):
    mona = moderator(make_user)
    action = moderation.act(moderator=mona, kind="mute", username="bob", reason="spamming the lobby", minutes=60)
    refused = _api(bob).post("/api/chat/", {"text": "hello?"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "chat_muted"
    assert "spamming the lobby" in refused.json()["error"]["message"]
    assert f"{action.until:%Y-%m-%d %H:%M}" in refused.json()["error"]["message"]
    page = client_for(bob).get("/settings/account/").content.decode()
    assert "muted you in chat" in page and "spamming the lobby" in page
    account = _api(bob).get("/api/account/").json()
    assert account["sanctions"][0]["kind"] == "mute" and account["sanctions"][0]["until"]
    assert sanctions.current(bob, "mute", now=timezone.now() + timedelta(hours=2)) is None  # it ends
    moderation.act(moderator=mona, kind="unmute", username="bob", reason="served")
    assert chat.post(user=bob, text="sorry").text == "sorry"


def test_a_suspended_person_cannot_play_rated_but_can_play_casual(alice, make_user):
    mona = moderator(make_user)
    moderation.act(moderator=mona, kind="suspend", username="alice", reason="sandbagging", minutes=1440)
    with pytest.raises(Forbidden, match="sandbagging") as refused:
        matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10", rated=True)
    assert refused.value.code == "suspended"
    casual = matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10", rated=False)
    assert casual.rated is False


def test_a_ban_ends_sessions_tokens_running_matches_and_sign_in(alice, bob, make_user):
    mona = moderator(make_user)
    match = two_player_match(alice, bob)
    session = client_for(bob)
    token_client = _api(bob)
    answer = _api(mona).post("/api/moderation/actions", {"kind": "ban", "user": "bob", "reason": "cheating"},
                             format="json")
    assert answer.status_code == 201
    match.refresh_from_db()
    assert match.status == "finished"
    assert session.get("/settings/account/").status_code == 302
    assert token_client.get("/api/account/").status_code == 401
    assert not Client().login(username="bob", password="correct-horse-battery")
    moderation.act(moderator=mona, kind="unban", username="bob", reason="appeal accepted")
    assert Client().login(username="bob", password="correct-horse-battery")
    log = [a["kind"] for a in _api(mona).get("/api/moderation/actions", {"user": "bob"}).json()]
    assert log == ["unban", "ban"]


@pytest.mark.parametrize("body, code", [
    ({"kind": "mute", "user": "bob", "reason": "x"}, "bad_period"),
    ({"kind": "mute", "user": "bob", "reason": "x", "minutes": 0}, "bad_period"),
    ({"kind": "warn", "user": "bob", "reason": "  "}, "no_reason"),
    ({"kind": "warn", "user": "nobody", "reason": "x"}, "user_not_found"),
    ({"kind": "hide", "user": "bob", "reason": "x"}, "no_message"),
    ({"kind": "explode", "user": "bob", "reason": "x"}, "invalid"),
    ({"kind": "warn", "user": "mona", "reason": "x"}, "bad_subject"),
])
def test_bad_moderation_input_gets_a_clear_4xx(bob, make_user, body, code):
    mona = moderator(make_user)
    answer = _api(mona).post("/api/moderation/actions", body, format="json")
    assert 400 <= answer.status_code < 500 and answer.json()["error"]["code"] == code


def test_a_warning_is_kept_and_shown_to_the_person(bob, make_user):
    mona = moderator(make_user)
    client = client_for(mona)
    answer = client.post("/moderation/act/", {"kind": "warn", "username": "bob", "reason": "mind your language",
                                              "next": "/moderation/log/"})
    assert answer.status_code == 302 and answer["Location"] == "/moderation/log/"
    assert "mind your language" in client_for(bob).get("/settings/account/").content.decode()
    assert "mind your language" in client.get("/moderation/log/").content.decode()


def test_the_moderators_command_makes_a_group_with_only_the_moderation_permissions(bob):
    call_command("moderators", "--add", "bob")
    bob.refresh_from_db()
    assert bob.is_staff and not bob.is_superuser and bob.has_perm(moderation.PERMISSION)
    group = bob.groups.get()
    assert group.name == GROUP
    assert sorted((p.content_type.app_label, p.codename) for p in group.permissions.all()) == sorted(PERMISSIONS)
    assert not bob.has_perm("auth.change_user") and not bob.has_perm("games.change_match")
    assert Permission.objects.filter(codename="moderate").count() == 1


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_hidden_message_leaves_the_open_chat_panels_over_the_socket(alice, bob, make_user):
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async

    from ..frontend.test_consumers import TIMEOUT, connect_as

    mona = moderator(make_user)
    match = two_player_match(alice, bob)
    rude = chat.post(user=bob, text="something rude", match_id=match.pk)

    async def scenario() -> None:
        socket = connect_as(alice, match.pk)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        await socket.receive_from(timeout=TIMEOUT)  # the catch-up push
        await database_sync_to_async(moderation.act)(moderator=mona, kind="hide", message_id=rude.pk, reason="insult")
        pushed = await socket.receive_from(timeout=TIMEOUT)
        await socket.disconnect()
        assert f'id="chat-msg-{rude.pk}"' in pushed and 'hx-swap-oob="delete"' in pushed

    async_to_sync(scenario)()
