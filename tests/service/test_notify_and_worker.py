"""After commit: the match's websocket group hears ids only, and a real Celery worker plays the bot's turns."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games import notify, selectors, services
from games.errors import DomainError
from games.models import Event, Match
from games.verify import verify_match


async def _listen(match_id: int):
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(notify.group_name(match_id), channel)
    return layer, channel


async def _receive(layer, channel, timeout: float = 5.0):
    return await asyncio.wait_for(layer.receive(channel), timeout)


@pytest.mark.django_db(databases="__all__")
def test_a_committed_append_tells_the_match_group_its_id_and_seq_only(backend, alice, bob, django_capture_on_commit_callbacks):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])

    async def scenario() -> dict:
        layer, channel = await _listen(match.pk)
        from asgiref.sync import sync_to_async

        def join() -> None:
            with django_capture_on_commit_callbacks(execute=True, using=backend):
                services.join_match(match_id=match.pk, user=bob)

        await sync_to_async(join, thread_sensitive=True)()
        return await _receive(layer, channel)

    message = async_to_sync(scenario)()
    fresh = Match.objects.get(pk=match.pk)
    # Besides the ids: the commit's time and request id (the push latency metric and log lines, games/ops).
    trace = {key: message.pop(key) for key in ("committed_at", "request_id")}
    assert isinstance(trace["committed_at"], float) and isinstance(trace["request_id"], str)
    assert message == {"type": "match.changed", "match_id": match.pk, "seq": fresh.seq,
                       "deployment": settings.CAIRN_DEPLOYMENT}


@pytest.mark.django_db(databases="__all__")
def test_a_rejected_action_notifies_nobody(backend, alice, bob, django_capture_on_commit_callbacks):
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    match = services.join_match(match_id=match.pk, user=bob)
    with django_capture_on_commit_callbacks(using=backend) as callbacks:
        with pytest.raises(DomainError):  # a malformed climb, or not alice's turn
            services.submit_action(match_id=match.pk, user=alice, action={"climb": [99]}, expected_seq=match.seq)
    assert callbacks == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_real_celery_worker_plays_the_random_bot_to_the_end_of_a_match(celery_worker_thread):
    from django.contrib.auth import get_user_model

    # The worker thread uses the default database, so this test does too (no backend parameter).
    alice = get_user_model().objects.create_user("alice", password="correct-horse-battery")
    rng = random.Random(5)
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}])
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        match = selectors.get_match(match.pk)
        if match.status == Match.Status.FINISHED:
            break
        if match.to_move == [0]:
            state = selectors.load_state(match)
            actions = state.legal_actions(0)
            services.submit_action(
                match_id=match.pk,
                user=alice,
                action=state.action_to_json(0, actions[rng.randrange(len(actions))]),
                expected_seq=match.seq,
            )
        else:
            time.sleep(0.02)  # the worker's turn
    assert match.status == Match.Status.FINISHED, f"stalled at seq {match.seq}"
    assert Event.objects.filter(match=match, actor="bot:random", type="action").exists()
    assert verify_match(match).ok
    assert match.result["winners"]
