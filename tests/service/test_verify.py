"""verify_match names the first seq that fails, even when someone edits the log behind the database's back."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest
from django.core.management import CommandError, call_command
from django.db import connections

from games import store, triggers
from games.models import Event, Match
from games.verify import verify_match

from .helpers import finish_quickly, two_humans

pytestmark = pytest.mark.django_db(databases="__all__")


@contextmanager
def triggers_off(alias: str):
    """Lift the append-only triggers (as an attacker with database access could)."""
    connection = connections[alias]
    triggers.uninstall(connection)
    try:
        yield connection
    finally:
        triggers.install(connection)


def raw_update(alias: str, match: Match, seq: int, **columns) -> None:
    sets = ", ".join(f"{name} = %s" for name in columns)
    values = [json.dumps(v) if name == "payload" else v for name, v in columns.items()]
    with triggers_off(alias) as connection, connection.cursor() as cursor:
        cursor.execute(f"UPDATE games_event SET {sets} WHERE match_id = %s AND seq = %s", [*values, match.pk, seq])


def rechain(alias: str, match: Match, start: int) -> None:
    """Recompute every hash from ``start`` on, as a careful forger would."""
    events = list(Event.objects.filter(match=match).order_by("seq"))
    prev = events[start - 2].hash if start > 1 else store.GENESIS_HASH
    for event in events[start - 1 :]:
        event.prev_hash = prev
        event.hash = store.row_hash(event, match)
        raw_update(alias, match, event.seq, prev_hash=event.prev_hash, hash=event.hash)
        prev = event.hash


@pytest.fixture
def finished(backend, alice, bob):
    return finish_quickly(two_humans(alice, bob), seed=21)


def nth(match: Match, type_: str, n: int = 0) -> Event:
    return list(Event.objects.filter(match=match, type=type_).order_by("seq"))[n]


def test_an_untouched_match_verifies(finished):
    verdict = verify_match(finished)
    assert verdict.ok, verdict.message
    assert verdict.events == finished.seq and verdict.failed_seq is None


def test_editing_one_stored_event_fails_verification_at_exactly_that_seq(backend, finished):
    target = nth(finished, "action", 5)
    forged = {"player": target.payload["player"], "action": {"climb": []}}
    assert forged != target.payload
    raw_update(backend, finished, target.seq, payload=forged)
    assert Event.objects.get(match=finished, seq=target.seq).payload == forged  # the edit really landed
    verdict = verify_match(finished)
    assert not verdict.ok
    assert verdict.failed_seq == target.seq
    assert verdict.check == "hash_chain"
    assert f"seq {target.seq}" in verdict.message


def test_a_rehashed_forged_dice_roll_fails_at_its_seq_against_the_seed(backend, finished):
    target = nth(finished, "chance", 6)
    roll = target.payload["chance"]["roll"]
    forged = {"chance": {"roll": [6 if face != 6 else 5 for face in roll]}}
    raw_update(backend, finished, target.seq, payload=forged)
    rechain(backend, finished, target.seq)
    verdict = verify_match(finished)
    assert (verdict.failed_seq, verdict.check) == (target.seq, "chance_outcomes")


def test_a_rehashed_illegal_action_fails_at_its_seq_on_replay(backend, finished):
    target = nth(finished, "action", 3)
    forged = {"player": target.payload["player"], "action": {"climb": [10, 10, 10, 10]}}
    raw_update(backend, finished, target.seq, payload=forged)
    rechain(backend, finished, target.seq)
    verdict = verify_match(finished)
    assert (verdict.failed_seq, verdict.check) == (target.seq, "legality")


def test_a_rehashed_false_result_fails_at_the_final_event(backend, finished):
    final = Event.objects.get(match=finished, seq=finished.seq)
    payload = dict(final.payload, result={**final.payload["result"], "winners": [0, 1]})
    raw_update(backend, finished, final.seq, payload=payload)
    rechain(backend, finished, final.seq)
    verdict = verify_match(finished)
    assert (verdict.failed_seq, verdict.check) == (final.seq, "result")


def test_a_result_stored_on_the_match_that_differs_from_the_replay_fails(finished):
    Match.objects.filter(pk=finished.pk).update(result={"scores": [0, 0], "winners": [0, 1], "ranking": [0, 0]})
    verdict = verify_match(Match.objects.get(pk=finished.pk))
    assert (verdict.failed_seq, verdict.check) == (finished.seq, "result")


def test_a_seed_that_does_not_match_the_commitment_fails_at_the_first_event(finished):
    Match.objects.filter(pk=finished.pk).update(seed="00" * 32)
    verdict = verify_match(Match.objects.get(pk=finished.pk))
    assert (verdict.failed_seq, verdict.check) == (1, "seed_commitment")


def test_a_missing_event_is_named(backend, finished):
    with triggers_off(backend) as connection, connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event WHERE match_id = %s AND seq = %s", [finished.pk, 10])
    verdict = verify_match(finished)
    assert (verdict.failed_seq, verdict.check) == (10, "seq")


def test_the_verify_match_command_names_the_failing_seq_and_exits_non_zero(backend, finished, capsys):
    call_command("verify_match", str(finished.pk))
    assert f"match {finished.pk}: OK ({finished.seq} events)" in capsys.readouterr().out
    target = nth(finished, "action", 2)
    raw_update(backend, finished, target.seq, actor="user:999999")
    with pytest.raises(CommandError) as caught:
        call_command("verify_match", str(finished.pk))
    assert caught.value.returncode == 1
    assert f"FAILED at seq {target.seq} (hash_chain)" in capsys.readouterr().out
    with pytest.raises(CommandError):
        call_command("verify_match", "--json", str(finished.pk))
    assert json.loads(capsys.readouterr().out)["failed_seq"] == target.seq
