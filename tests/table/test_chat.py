"""Chat (games.table.chat and its pages): channels, limits, escaping, mute, report, turning it off."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction
from django.test import Client, override_settings

from frontend.table.render import render_chat_message, render_push
from games.errors import BadRequest, Forbidden
from games.table import chat
from games.table.models import ChatMessage, ChatReport

from ..frontend.helpers import client_for, two_player_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def test_players_write_in_the_players_channel_and_spectators_in_theirs(alice, bob, carol):
    match = two_player_match(alice, bob)
    mine = chat.post(user=alice, text="good luck", match_id=match.pk)
    theirs = chat.post(user=carol, text="go alice", match_id=match.pk)
    assert (mine.channel, theirs.channel) == ("players", "spectators")
    with pytest.raises(Forbidden):
        chat.post(user=carol, text="let me in", match_id=match.pk, channel="players")
    with pytest.raises(Forbidden):
        chat.post(user=bob, text="psst", match_id=match.pk, channel="spectators")
    assert [m.text for m in chat.history(user=None, match_id=match.pk, channel="players")] == ["good luck"]


def test_it_refuses_empty_and_too_long_messages(alice):
    with pytest.raises(BadRequest, match="empty"):
        chat.post(user=alice, text="   ")
    with override_settings(CAIRN_CHAT_MAX_LENGTH=10):
        with pytest.raises(BadRequest, match="11 characters long; the limit is 10"):
            chat.post(user=alice, text="x" * 11)
        assert chat.post(user=alice, text="x" * 10).text == "x" * 10


@override_settings(CAIRN_CHAT_RATE=3, CAIRN_CHAT_RATE_SECONDS=60)
def test_it_limits_how_fast_one_person_writes(alice, bob):
    for n in range(3):
        chat.post(user=alice, text=f"message {n}")
    with pytest.raises(BadRequest, match="at most 3 messages per 60 seconds") as refused:
        chat.post(user=alice, text="one more")
    assert refused.value.code == "chat_rate_limited"
    chat.post(user=bob, text="bob is not limited by alice")


def test_a_message_is_escaped_wherever_it_is_shown(alice, bob):
    match = two_player_match(alice, bob)
    message = chat.post(user=alice, text='<script>alert("x")</script><b>hi</b>', match_id=match.pk)
    html = render_chat_message(message, bob)
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;hi&lt;/b&gt;" in html
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "&lt;script&gt;alert" in page and '<script>alert("x")' not in page


def test_a_muted_author_is_hidden_in_history_and_pushes(alice, bob, carol):
    match = two_player_match(alice, bob)
    message = chat.post(user=alice, text="hello", match_id=match.pk)
    assert render_push({"kind": "chat", "id": message.pk}, bob, match.pk)
    chat.mute(user=bob, username="alice")
    assert render_push({"kind": "chat", "id": message.pk}, bob, match.pk) is None
    assert chat.history(user=bob, match_id=match.pk, channel="players") == []
    assert render_push({"kind": "chat", "id": message.pk}, carol, match.pk)  # only bob muted her
    chat.mute(user=bob, username="alice", muted=False)
    assert [m.text for m in chat.history(user=bob, match_id=match.pk, channel="players")] == ["hello"]
    with pytest.raises(BadRequest):
        chat.mute(user=bob, username="bob")


def test_a_push_for_another_match_or_the_lobby_is_not_rendered_into_a_match(alice, bob):
    match = two_player_match(alice, bob)
    lobby = chat.post(user=alice, text="hi lobby")
    assert render_push({"kind": "chat", "id": lobby.pk}, bob, match.pk) is None
    assert render_push({"kind": "chat", "id": lobby.pk}, bob, None)
    assert render_push({"kind": "chat", "id": lobby.pk}, None, None) is None  # lobby chat is for logged-in people


def test_a_report_is_stored_once(alice, bob):
    message = chat.post(user=alice, text="rude words")
    chat.report(user=bob, message_id=message.pk)
    chat.report(user=bob, message_id=message.pk)
    assert ChatReport.objects.filter(message=message).count() == 1
    with pytest.raises(BadRequest):
        chat.report(user=alice, message_id=message.pk)


def test_a_player_can_turn_the_players_chat_off(alice, bob):
    match = two_player_match(alice, bob)
    chat.set_players_chat(user=alice, match_id=match.pk, enabled=False)
    with pytest.raises(Forbidden, match="turned off"):
        chat.post(user=bob, text="hi", match_id=match.pk)
    with pytest.raises(Forbidden, match="only they can turn it on"):
        chat.set_players_chat(user=bob, match_id=match.pk, enabled=True)
    chat.set_players_chat(user=alice, match_id=match.pk, enabled=True)
    chat.post(user=bob, text="hi", match_id=match.pk)


def test_messages_are_append_only(alice):
    message = chat.post(user=alice, text="first words")
    with pytest.raises(DatabaseError), transaction.atomic():
        ChatMessage.objects.filter(pk=message.pk).update(text="edited")
    message.refresh_from_db()
    assert message.text == "first words"


def test_chat_is_not_in_the_record_or_the_hash_chain(alice, bob):
    match = two_player_match(alice, bob)
    before = match.last_hash
    chat.post(user=alice, text="not a move", match_id=match.pk)
    match.refresh_from_db()
    assert match.last_hash == before
    record = client_for(alice).get(f"/api/matches/{match.pk}/record").content.decode()
    assert "not a move" not in record


def test_posting_over_htmx_answers_with_the_message_of_a_refusal(alice, bob, carol):
    match = two_player_match(alice, bob)
    ok = client_for(alice).post(f"/matches/{match.pk}/chat/", {"text": "hi", "channel": "players"}, **HX)
    assert ok.status_code == 201 and ChatMessage.objects.filter(text="hi").exists()
    refused = client_for(carol).post(f"/matches/{match.pk}/chat/", {"text": "hi", "channel": "players"}, **HX)
    assert refused.status_code == 403 and "only the players write" in refused.content.decode()
    anonymous = Client().post("/lobby/chat/", {"text": "hi"}, **HX)
    assert anonymous.status_code == 403 and "log in to chat" in anonymous.content.decode()
    empty = client_for(alice).post("/lobby/chat/", {"text": ""}, **HX)
    assert empty.status_code == 400 and "the message is empty" in empty.content.decode()
