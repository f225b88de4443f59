"""Receipts, checkpoints, proofs and contributions leak nothing sealed: an attacker's tries, on a Mountainhome
match with a sealed bid commitment pending."""

from __future__ import annotations

import json

import pytest

from games import selectors, snapshots
from games.audit import log
from games.models import Event, Match

from .test_sealed import (  # noqa: F401 - fixtures: db_alias (the default database only), fixed_seed
    SEED,
    attack,
    candidate_commitments,
    db_alias,
    fixed_seed,
    mh_match,
    sealed_commitment_position,
)

pytestmark = pytest.mark.django_db(databases="__all__")

RECEIPT_FIELDS = {"format", "match", "seq", "hash", "time", "key", "signature"}


def test_receipts_and_the_log_confirm_no_guess_of_a_sealed_commitment(fixed_seed, alice, bob, carol, alice_api, bob_api,  # noqa: F811 - the imported fixture
                                                                     carol_api, anon_api):
    match = mh_match([alice, bob])
    seq = sealed_commitment_position(match, {0: alice, 1: bob})
    match.refresh_from_db()
    assert match.seq == seq  # the sealed commitment is the head every receipt signs
    stored = Event.objects.get(match=match, seq=seq)
    candidates = candidate_commitments(match, seq)
    assert stored.payload in candidates and len(candidates) > 1

    bodies = {}
    receipts = []
    for name, client in (("seat 0", alice_api), ("seat 1", bob_api), ("spectator", carol_api), ("anonymous", anon_api)):
        detail = client.get(f"/api/matches/{match.pk}/").json()
        events = client.get(f"/api/matches/{match.pk}/events/").json()
        kept = client.get(f"/api/matches/{match.pk}/receipts").json()
        receipts += [detail["receipt"], events["receipt"], *kept["receipts"]]
        bodies[name] = json.dumps([detail["receipt"], events["receipt"], kept])
    assert all(set(r) == RECEIPT_FIELDS for r in receipts)
    assert all(r == receipts[0] for r in receipts)  # one receipt for everyone: nothing in it depends on the viewer
    checkpoint = log.append_checkpoint()
    proof = anon_api.get(f"/api/transparency/proof?match={match.pk}").json()
    assert proof["leaf"]["hash"] == receipts[0]["hash"] and set(proof["leaf"]) == {"index", "match", "seq", "hash", "leaf_hash"}
    bodies["log"] = json.dumps([checkpoint, proof, anon_api.get("/api/transparency/checkpoints").json()])

    # The attacker hashes every commitment seat 1 could have made against the signed head and the logged leaf.
    public = {"seq": seq, "type": "action", "actor": stored.actor, "timestamp": receipts[0]["time"],
              "prev_hash": stored.prev_hash, "hash": receipts[0]["hash"]}
    revealed = [bytes.fromhex(e["nonce"]) for e in alice_api.get(f"/api/matches/{match.pk}/events/").json()["events"]
                if "nonce" in e]
    assert attack(public, match.pk, candidates, revealed) == []
    # Nothing secret appears anywhere: not the seed, not the sealed event's nonce, not the chance seed, not the bid.
    from engine import chain

    aggregate = selectors.load_aggregate(match)
    secrets = [SEED.hex(), chain.nonce(SEED, seq).hex(), aggregate.dice_key(SEED).hex(),
               json.dumps(stored.payload["action"], separators=(",", ":"))]
    for name, text in bodies.items():
        assert not any(secret in text for secret in secrets), name


def test_contributions_are_public_and_say_nothing_of_the_dice_before_the_seed_is_revealed(alice, bob, anon_api):
    """The contributions are in the public created and joined events; the chance seed also needs the
    server's secret seed, which only the final event reveals."""
    match = mh_match([alice, bob])
    record = anon_api.get(f"/api/matches/{match.pk}/record").json()
    assert record["seed"] is None and [c["by"] for c in record["contributions"]] == ["server", "server"]
    match = Match.objects.get(pk=match.pk)
    seed = bytes.fromhex(match.seed)
    snapshots.cache.clear()
    key = selectors.load_aggregate(match).dice_key(seed)
    assert key != seed and all(bytes.fromhex(c["value"]) != seed for c in record["contributions"])
    text = json.dumps([record, anon_api.get(f"/api/matches/{match.pk}/").json()])
    assert key.hex() not in text and seed.hex() not in text
