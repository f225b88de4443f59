"""Signed receipts of match heads: given with every view of a match, checked offline against a record,
and enough to catch a history the operator rewrote in the database."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from engine import receipt as receipt_format
from engine.record import audit
from games import selectors, services, snapshots, store, triggers
from games.audit.keys import public_keys
from games.models import Event, Match
from games.verify import verify_match

from .helpers import finish_quickly, play_random_move, two_humans

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(databases="__all__")


def keys() -> dict[str, bytes]:
    return receipt_format.parse_keys(public_keys())


def run_audit(tmp_path: Path, record: dict, receipts: list | None = None) -> tuple[int, dict]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    command = [sys.executable, "-m", "engine", "audit", str(path)]
    if receipts is not None:
        kept = tmp_path / "receipts.json"
        kept.write_text(json.dumps({"format": "cairn-receipts/1", "keys": public_keys(), "receipts": receipts}))
        command += ["--receipts", str(kept)]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return out.returncode, json.loads(out.stdout)


def test_every_answer_that_shows_a_match_carries_the_signed_receipt_of_its_head(backend, alice, bob, alice_api, anon_api):
    match = two_humans(alice, bob)
    play_random_move(match.pk, {0: alice, 1: bob}, random.Random(1))
    match = selectors.get_match(match.pk)
    detail = alice_api.get(f"/api/matches/{match.pk}/").json()
    events = anon_api.get(f"/api/matches/{match.pk}/events/").json()
    record = alice_api.get(f"/api/matches/{match.pk}/record").json()
    kept = anon_api.get(f"/api/matches/{match.pk}/receipts").json()
    for receipt in (detail["receipt"], events["receipt"], record["receipt"], kept["receipts"][0]):
        assert receipt["match"] == match.pk and receipt["seq"] == match.seq and receipt["hash"] == match.last_hash
        receipt_format.check_receipt(receipt, keys())
    head = Event.objects.get(match=match, seq=match.seq)
    assert detail["receipt"]["time"] == store.timestamp_text(head.timestamp)
    assert record["receipt_keys"] == public_keys() == kept["keys"]
    assert events["events"][-1]["hash"] == detail["receipt"]["hash"]  # nothing a viewer did not see already


def test_the_keys_are_served_with_ids_and_a_retired_key_stays_listed(backend, anon_api, monkeypatch):
    body = anon_api.get("/api/receipts/keys").json()
    [current] = body["keys"]
    assert current["current"] is True and current["algorithm"] == "Ed25519"
    assert current["id"] == receipt_format.key_id(bytes.fromhex(current["public_key"]))
    retired = "11" * 32
    monkeypatch.setenv("RECEIPT_OLD_KEYS", retired)
    listed = anon_api.get("/api/receipts/keys").json()["keys"]
    assert [k["public_key"] for k in listed] == [current["public_key"], retired] and listed[1]["current"] is False


def test_a_forged_truncated_or_foreign_key_receipt_fails_with_a_message_naming_it(backend, alice, bob, alice_api):
    match = finish_quickly(two_humans(alice, bob), seed=3)
    record = alice_api.get(f"/api/matches/{match.pk}/record").json()
    receipt = record["receipt"]
    assert audit(record, [receipt])["receipts_checked"] == 1
    forged = dict(receipt, hash="0" * 64)
    assert "signature does not verify" in audit(record, [receipt, forged])["error"]
    assert "receipt 1" in audit(record, [receipt, forged])["error"]
    truncated = {k: v for k, v in receipt.items() if k != "time"}
    assert "truncated" in audit(record, [truncated])["error"] and "'time'" in audit(record, [truncated])["error"]
    foreign = dict(receipt, key="feedfeedfeedfeed")
    assert "not a known key" in audit(record, [foreign])["error"]


def test_a_rewritten_history_passes_every_check_but_the_players_receipts(backend, alice, bob, alice_api, tmp_path):
    """An operator with the database rewrites a finished match: other legal moves, the dice drawn again
    from the same seeds, every hash recomputed.  The server's own verification and the offline audit both
    pass; the audit with the receipts Alice's client kept during play fails, naming the head it contradicts."""
    rng = random.Random(5)
    match = two_humans(alice, bob)
    kept: list[dict[str, Any]] = []
    while selectors.get_match(match.pk).status != Match.Status.FINISHED:
        play_random_move(match.pk, {0: alice, 1: bob}, rng)
        kept.append(alice_api.get(f"/api/matches/{match.pk}/").json()["receipt"])
    match = selectors.get_match(match.pk)
    honest = alice_api.get(f"/api/matches/{match.pk}/record").json()
    code, verdict = run_audit(tmp_path, honest, kept)
    assert code == 0 and verdict["receipts_checked"] == len(kept), verdict

    # The rewrite: back to an action in the middle where another move was legal, and on from there.
    actions = [e for e in Event.objects.filter(match=match, type="action").order_by("seq")]
    target = next(e for e in actions[len(actions) // 2:]
                  if len(selectors.load_aggregate(match, store.load_fold_rows(match.pk, until=e.seq - 1))
                         .state.legal_actions(e.payload["player"])) > 1)
    with connections[backend].cursor() as cursor:
        triggers.uninstall(connections[backend])
        try:
            cursor.execute("DELETE FROM games_event WHERE match_id = %s AND seq >= %s", [match.pk, target.seq])
        finally:
            triggers.install(connections[backend])
    snapshots.cache.clear()
    match, seats = selectors.get_match_for_write(match.pk)
    aggregate = selectors.load_aggregate(match, store.load_fold_rows(match.pk))
    expected_seq, prev_hash = aggregate.seq, aggregate.last_hash
    Match.objects.filter(pk=match.pk).update(seq=expected_seq, last_hash=prev_hash, status=Match.Status.ACTIVE, result=None)
    seed = bytes.fromhex(match.seed)
    first = True
    while not aggregate.finished:
        state = aggregate.state
        seat = state.to_move()[0]
        options = [state.action_to_json(seat, a) for a in state.legal_actions(seat)]
        if first:
            options = [a for a in options if a != target.payload["action"]]
            first = False
        aggregate.act(seat, options[rng.randrange(len(options))], seed, f"user:{seats[seat].user_id}")
    with store.appending(match.pk):
        services._save(match, aggregate, seats, expected_seq=expected_seq, prev_hash=prev_hash)
    snapshots.cache.clear()
    match = selectors.get_match(match.pk)
    assert match.status == Match.Status.FINISHED

    assert verify_match(match).ok, verify_match(match).message  # the server's own check cannot tell
    rewritten = alice_api.get(f"/api/matches/{match.pk}/record").json()
    assert rewritten["log"] != honest["log"]
    code, verdict = run_audit(tmp_path, rewritten)
    assert code == 0 and verdict["ok"], verdict  # nor can the offline audit without receipts
    code, verdict = run_audit(tmp_path, rewritten, kept)
    assert code == 1 and not verdict["ok"]
    assert "the record contradicts a signed head" in verdict["error"]
    first_contradicted = next(r for r in kept if r["seq"] >= target.seq)
    assert f"seq {first_contradicted['seq']})" in verdict["error"] and first_contradicted["hash"] in verdict["error"]


def test_a_running_version_1_match_with_hidden_information_gets_no_receipt(backend, alice, bob, alice_api):
    from .test_sealed import mh_match

    match = mh_match([alice, bob])
    Match.objects.filter(pk=match.pk).update(chain_version=1)
    snapshots.cache.clear()
    assert alice_api.get(f"/api/matches/{match.pk}/").json()["receipt"] is None
    assert alice_api.get(f"/api/matches/{match.pk}/events/").json()["receipt"] is None
    assert alice_api.get(f"/api/matches/{match.pk}/receipts").json()["receipts"] == []


def test_the_pushed_fragment_carries_the_receipt_and_keeps_data_seq(backend, alice, bob):
    from frontend.live import render_match_fragment

    match = two_humans(alice, bob)
    html = render_match_fragment(selectors.get_match(match.pk), alice)
    assert f'data-seq="{match.seq}"' in html and "data-receipt=" in html
    start = html.index('data-receipt="') + len('data-receipt="')
    text = html[start:html.index('"', start)]
    import html as html_lib

    receipt = json.loads(html_lib.unescape(text))
    receipt_format.check_receipt(receipt, keys())
    assert receipt["seq"] == match.seq
