"""Sealed means sealed: hiding event hashes, and the full record once the match has ended.

* The attacker's test: with the public API and the open-source engine, hash
  candidate payloads of a sealed Mountainhome commitment and compare with what
  the chain shows.  On a chain version 1 match the true commitment is found
  (the attack of the issue); on version 2 no candidate matches anything public.
* Every viewer can check the chain link by link during play, from what they
  get (nothing removed, reordered or inserted), and nonces reach only those
  who may see the payload.
* A finished Mountainhome match, exported from the API, passes
  ``python -m engine audit`` offline: chain, seed, every shuffle, legality, result.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import chain
from games import selectors, services, store
from games.models import Match

from .helpers import check_chain_as_a_viewer, finish_quickly
from .test_mountainhome_service import _commit_something, _submit_random, mh_match

pytestmark = pytest.mark.django_db(databases="__all__")

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))


@pytest.fixture
def db_alias(request):
    """Long Mountainhome matches run on the default database only, unless a test asks for every backend."""
    if "backend" in request.fixturenames:
        return request.getfixturevalue("backend")
    return "default"


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr(services.secrets, "token_bytes", lambda n: SEED[:n])


def sealed_commitment_position(match: Match, users: dict[int, Any]) -> int:
    """Play on until seat 1 has a sealed commitment pending in a bid; the seq of that commit event."""
    rng = random.Random(7)
    for _ in range(3000):
        state = selectors.load_state(match)
        bid = state.bid
        if bid is not None and state.observation(None)["prompt"] == "bid_commit" and bid.commit[1] and bid.commit[1][0]:
            break
        _submit_random(match, users, rng, prefer=_commit_something)
    else:
        raise AssertionError("no bid with a sealed commitment by seat 1 came up")
    rows = store.load_rows(match.pk)
    return max(r.seq for r in rows if r.type == "action" and r.payload["player"] == 1
               and r.payload["action"]["do"] == "commit_bid")


def candidate_commitments(match: Match, seq: int) -> list[dict[str, Any]]:
    """What an attacker would try: every commitment seat 1 could have made there (the truth among them)."""
    rows = [r for r in store.load_rows(match.pk) if r.seq < seq]
    aggregate = selectors.load_aggregate(match, rows)
    state = aggregate.state
    return [{"player": 1, "action": state.action_to_json(1, a)} for a in state.legal_actions(1)
            if state.action_to_json(1, a)["do"] == "commit_bid"]


def attack(public_event: dict[str, Any], match_id: int, candidates: list[dict[str, Any]],
           revealed_nonces: list[bytes]) -> list[dict[str, Any]]:
    """The candidates that reproduce any hash the viewer was given for that event."""
    targets = {public_event.get("hash"), public_event.get("body_hash")} - {None}
    found = []
    for payload in candidates:
        body = chain.body(match_id, public_event["seq"], public_event["type"], payload,
                          public_event["actor"], public_event["timestamp"])
        guesses = {chain.hash_v1(public_event["prev_hash"] or "", body),
                   hashlib.sha256(chain.canonical_json(body).encode()).hexdigest(),
                   chain.link(public_event["prev_hash"] or "", hashlib.sha256(chain.canonical_json(body).encode()).hexdigest())}
        # nonces the viewer saw on other events: no help, each belongs to its own seq
        guesses |= {chain.body_hash(n, body) for n in revealed_nonces}
        guesses |= {chain.link(public_event["prev_hash"] or "", chain.body_hash(n, body)) for n in revealed_nonces}
        if guesses & targets:
            found.append(payload)
    return found


def test_a_guess_of_a_sealed_commitment_is_confirmed_by_a_version_1_chain_and_not_by_version_2(
    fixed_seed, alice, bob, alice_api, anon_api, monkeypatch
):
    results: dict[int, dict[str, list]] = {}
    truths = {}
    for version in (1, 2):
        monkeypatch.setattr(store, "NEW_CHAIN_VERSION", version)
        match = mh_match([alice, bob])
        assert match.chain_version == version
        seq = sealed_commitment_position(match, {0: alice, 1: bob})
        stored = next(r for r in store.load_rows(match.pk) if r.seq == seq)
        truths[version] = stored.payload
        candidates = candidate_commitments(match, seq)
        assert stored.payload in candidates and len(candidates) > 1
        # What the API sent everyone before this change: the stored hashes, on every event.
        as_sent_before = {"seq": seq, "type": "action", "actor": stored.actor,
                          "timestamp": store.timestamp_text(stored.timestamp),
                          "prev_hash": stored.prev_hash, "hash": stored.hash}
        results[version] = {"stored hashes": attack(as_sent_before, match.pk, candidates, [])}
        for name, client in (("seat 0", alice_api), ("anonymous", anon_api)):
            events = client.get(f"/api/matches/{match.pk}/events/").json()["events"]
            public = next(e for e in events if e["seq"] == seq)
            assert public["redacted"] and public["payload"]["action"] == {"do": "commit_bid", "sealed": True}
            assert "nonce" not in public
            nonces = [bytes.fromhex(e["nonce"]) for e in events if "nonce" in e]
            record = client.get(f"/api/matches/{match.pk}/record").json()
            assert record["seed"] is None and record["chain_version"] == version
            results[version][name] = attack(public, match.pk, candidates, nonces)
            results[version][name + ", record"] = attack(
                next(e for e in record["log"] if e["seq"] == seq), match.pk, candidates, nonces)
    # version 1: the stored hash names the sealed commitment (the attack) ...
    assert results[1]["stored hashes"] == [truths[1]]
    # ... so a running version 1 match with hidden information now shows no hashes at all,
    assert all(found == [] for name, found in results[1].items() if name != "stored hashes")
    # and version 2 confirms no guess, from anything public or even from the stored hash.
    assert all(found == [] for found in results[2].values())


def test_every_viewer_checks_the_chain_link_by_link_during_play(fixed_seed, alice, bob, carol, alice_api, bob_api, anon_api):
    match = mh_match([alice, bob])
    seq = sealed_commitment_position(match, {0: alice, 1: bob})
    match.refresh_from_db()
    carol_api = anon_api.__class__()
    carol_api.force_authenticate(carol)
    for client in (alice_api, bob_api, anon_api, carol_api):
        events = client.get(f"/api/matches/{match.pk}/events/").json()["events"]
        assert check_chain_as_a_viewer(events, match.pk) == match.seq  # every event, sealed or not, is a link
        record = client.get(f"/api/matches/{match.pk}/record").json()
        assert record["log"] == events
    own = next(e for e in bob_api.get(f"/api/matches/{match.pk}/events/").json()["events"] if e["seq"] == seq)
    assert "nonce" in own and not own.get("redacted")  # the owner sees (and can check) their own commitment
    # Shuffles are sealed from everyone, the seat whose deck it is included: no nonce for anyone.
    for client in (alice_api, bob_api, anon_api):
        events = client.get(f"/api/matches/{match.pk}/events/").json()["events"]
        shuffles = [e for e in events if e["type"] == "chance" and e["payload"]["chance"].get("kind") == "shuffle"]
        assert shuffles and all(e["redacted"] and "nonce" not in e and "order" not in e["payload"]["chance"] for e in shuffles)


def test_a_page_log_without_chain_fields_lists_the_same_events(fixed_seed, alice, bob, carol):
    """``links=False`` (the page's event log) drops only ``body_hash`` and ``nonce``: same events, same
    redactions, for each seat and a spectator, with a sealed commitment pending."""
    match = mh_match([alice, bob])
    sealed_commitment_position(match, {0: alice, 1: bob})
    match.refresh_from_db()
    for user in (alice, bob, carol, None):
        full = selectors.visible_events(match, user)
        bare = selectors.visible_events(match, user, links=False)
        assert any("body_hash" in e for e in full)
        assert not any("body_hash" in e or "nonce" in e for e in bare)
        strip = [{k: v for k, v in e.items() if k not in ("body_hash", "nonce", "skipped")} for e in full]
        assert [{k: v for k, v in e.items() if k != "skipped"} for e in bare] == strip
        assert selectors.visible_events(match, user, last=30, links=False) == bare[-30:]


def test_a_finished_mountainhome_match_is_revealed_and_audits_offline(fixed_seed, alice, bob, anon_api, tmp_path):
    match = finish_quickly(mh_match([alice, bob]), seed=5)
    assert match.status == Match.Status.FINISHED and match.chain_version == 2
    events = anon_api.get(f"/api/matches/{match.pk}/events/").json()["events"]
    assert len(events) == match.seq and not any(e.get("redacted") or "skipped" in e for e in events)
    stored = {r.seq: r.payload for r in store.load_rows(match.pk)}
    assert all(e["payload"] == stored[e["seq"]] and e["nonce"] == chain.nonce(SEED, e["seq"]).hex() for e in events)
    record = anon_api.get(f"/api/matches/{match.pk}/record").json()
    assert record["format"] == "cairn-record/3" and record["seed"] == SEED.hex() and record["log"] == events
    assert any("order" in (entry.get("chance") or {}) for entry in record["events"])  # the shuffles, revealed
    path = tmp_path / "mh.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "engine", "audit", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["ok"] and verdict["terminal"] and verdict["chain"] and verdict["events_checked"] == match.seq
    assert verdict["result"] == match.result and verdict["last_hash"] == match.last_hash
    shuffles = sum(1 for e in record["events"] if (e.get("chance") or {}).get("kind") == "shuffle")
    assert verdict["chance_events"] >= shuffles > 0

    # A forged record fails offline: a changed shuffle, a changed sealed bid, a dropped event.
    def audit(changed: dict[str, Any]) -> dict[str, Any]:
        path.write_text(json.dumps(changed))
        result = subprocess.run([sys.executable, "-m", "engine", "audit", str(path)], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 1, result.stdout
        return json.loads(result.stdout)

    from engine.record import audit as audit_record

    forged = json.loads(json.dumps(record))
    index = next(i for i, e in enumerate(forged["events"]) if (e.get("chance") or {}).get("kind") == "shuffle")
    forged["events"][index]["chance"]["order"].reverse()
    log_item = next(e for e in forged["log"] if e["seq"] == forged["seqs"][index])
    log_item["payload"] = forged["events"][index]
    assert "body_hash" in audit(forged)["error"]
    commits = [e for e in record["log"] if e["type"] == "action" and e["payload"]["action"]["do"] == "commit_bid"]
    if commits:
        forged = json.loads(json.dumps(record))
        item = next(e for e in forged["log"] if e["seq"] == commits[0]["seq"])
        item["payload"]["action"]["cards"] = []
        assert not audit_record(forged)["ok"]
    forged = json.loads(json.dumps(record))
    del forged["log"][5]
    assert "nothing left out" in audit_record(forged)["error"]


def test_before_the_end_the_record_cannot_be_audited_and_reveals_nothing_sealed(fixed_seed, alice, bob, anon_api):
    match = mh_match([alice, bob])
    record = anon_api.get(f"/api/matches/{match.pk}/record").json()
    assert record["seed"] is None and record["result"] is None
    from engine.record import audit as audit_record

    assert "no 'seed'" in audit_record(record)["error"]
    assert all("order" not in (e.get("chance") or {}) for e in record["events"])


def test_a_finished_version_1_match_still_verifies_and_audits(fixed_seed, alice, bob, anon_api, monkeypatch):
    from engine.record import audit as audit_record
    from games.verify import verify_match

    monkeypatch.setattr(store, "NEW_CHAIN_VERSION", 1)
    match = mh_match([alice, bob])
    assert match.chain_version == 1
    events = anon_api.get(f"/api/matches/{match.pk}/events/").json()["events"]
    assert events and all(e["hash"] is None and e["prev_hash"] is None for e in events)  # hidden while it runs
    match = finish_quickly(match, seed=3)
    assert verify_match(match).ok
    events = anon_api.get(f"/api/matches/{match.pk}/events/").json()["events"]
    assert all(e["hash"] and "body_hash" not in e and "nonce" not in e for e in events)
    verdict = audit_record(anon_api.get(f"/api/matches/{match.pk}/record").json())
    assert verdict["ok"] and verdict["chain_version"] == 1 and verdict["events_checked"] == match.seq


@pytest.mark.parametrize("ending", ["resign", "abort"])
def test_a_match_ended_by_resignation_or_abort_audits_offline_too(fixed_seed, alice, bob, anon_api, ending):
    from engine.record import audit as audit_record

    match = mh_match([alice, bob])
    if ending == "resign":
        rng = random.Random(2)
        while len({r.payload["player"] for r in store.load_rows(match.pk) if r.type == "action"}) < 2:
            _submit_random(match, {0: alice, 1: bob}, rng)
        services.resign(match_id=match.pk, user=bob)
    else:
        services.abort(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    record = anon_api.get(f"/api/matches/{match.pk}/record").json()
    verdict = audit_record(record)
    assert verdict["ok"] and verdict["events_checked"] == match.seq and verdict["result"] == match.result
    assert (match.result is None) == (ending == "abort")
    forged = json.loads(json.dumps(record))
    forged["log"][-1]["payload"]["result"] = {"scores": None, "winners": [1], "ranking": [0, 1], "forfeits": [0]}
    assert "hash" in audit_record(forged)["error"]  # its hash no longer matches
    # a forger who also recomputes the last link (the seed is public now) is caught by the replay
    last = forged["log"][-1]
    body = chain.body(match.pk, last["seq"], last["type"], last["payload"], last["actor"], last["timestamp"])
    last["body_hash"] = chain.body_hash(chain.nonce(SEED, last["seq"]), body)
    last["hash"] = chain.link(last["prev_hash"], last["body_hash"])
    assert "is not the replayed" in audit_record(forged)["error"]
