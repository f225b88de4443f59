"""Dice the server cannot choose: every human seat contributes to the chance seed, by the documented rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.fair import chance_rng, chance_seed
from engine.record import audit
from games import selectors
from games.models import Event

from .helpers import finish_quickly

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(databases="__all__")
MINE = "ab" * 32
HERS = "cd" * 32


def assert_error(response, status: int, code: str, text: str = "") -> None:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and text in error["message"], error


def create(api, contribution=None, seats=None):
    body = {"game": "mountain-goats", "seats": seats or [{"human": True}, {"human": True}]}
    if contribution is not None:
        body["contribution"] = contribution
    return api.post("/api/matches/", body, format="json")


def test_each_human_seat_contributes_and_the_record_carries_every_contribution(backend, alice_api, bob_api, tmp_path):
    match_id = create(alice_api, MINE).json()["id"]
    assert bob_api.post(f"/api/matches/{match_id}/join", {"contribution": HERS.upper()}, format="json").status_code == 200
    created, joined = Event.objects.get(match_id=match_id, seq=1), Event.objects.get(match_id=match_id, type="joined")
    assert created.payload["chance_seed"] == "cairn-chance-seed/1"
    assert created.payload["contribution"] == {"seat": 0, "value": MINE, "by": "player"}
    assert joined.payload["contribution"] == {"value": HERS, "by": "player"}
    match = finish_quickly(selectors.get_match(match_id), seed=4)
    key = chance_seed(bytes.fromhex(match.seed), [bytes.fromhex(MINE), bytes.fromhex(HERS)])
    state = selectors.load_aggregate(match, events=[]).state
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.type == "chance":
            assert event.payload["chance"] == state.chance_to_json(state.sample_chance(chance_rng(key, event.seq)))
        if event.type in ("chance", "action"):
            state.apply_event(event.payload)
    record = alice_api.get(f"/api/matches/{match_id}/record").json()
    assert record["format"] == "cairn-record/3" and record["chance_seed"] == "cairn-chance-seed/1"
    assert record["contributions"] == [{"seat": 0, "value": MINE, "by": "player"}, {"seat": 1, "value": HERS, "by": "player"}]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "engine", "audit", str(path)], cwd=ROOT, capture_output=True, text=True)
    verdict = json.loads(out.stdout)
    assert out.returncode == 0 and verdict["contributions"] == 2 and verdict["chance_seed"] == "cairn-chance-seed/1"
    # A record whose contribution was changed afterwards fails: the dice no longer follow
    forged = json.loads(json.dumps(record))
    forged["contributions"][1]["value"] = "ef" * 32
    assert "'contributions' are not the ones" in audit(forged)["error"]
    for item in forged["log"]:
        if item["type"] == "joined":
            item["payload"]["contribution"]["value"] = "ef" * 32
    assert not audit(forged)["ok"]  # the joined event's hash no longer matches


def test_a_client_that_sends_none_gets_one_made_by_the_server_and_marked(backend, alice_api):
    body = create(alice_api, seats=[{"human": True}, {"bot": "easy"}]).json()
    payload = Event.objects.get(match_id=body["id"], seq=1).payload
    assert payload["contribution"]["by"] == "server" and len(payload["contribution"]["value"]) == 64
    # the bot's seat contributes nothing
    record = alice_api.get(f"/api/matches/{body['id']}/record").json()
    assert [c["seat"] for c in record["contributions"]] == [0]


@pytest.mark.parametrize("value, text", [
    ("ab" * 31, "64 hex digits"),
    ("ab" * 33, "64 hex digits"),
    ("zz" * 32, "hex digits"),
    ("00" * 32, "all zeros"),
    (12345, "hex text"),
])
def test_a_bad_contribution_is_refused_with_400_naming_it(backend, alice_api, bob_api, value, text):
    assert_error(create(alice_api, value), 400, "bad_contribution", text)
    match_id = create(alice_api, MINE).json()["id"]
    assert_error(bob_api.post(f"/api/matches/{match_id}/join", {"contribution": value}, format="json"),
                 400, "bad_contribution", text)
    assert Event.objects.filter(match_id=match_id).count() == 1  # nothing joined


def test_the_page_forms_send_their_contribution(backend, alice, bob, client):
    client.force_login(alice)
    response = client.post("/matches/new/", {"game": "mountain-goats", "players": 2, "seat_1": "person",
                                             "time_control": "1d", "contribution": MINE})
    assert response.status_code == 302, response.content[:500]
    created = Event.objects.filter(type="created").order_by("-id").first()
    assert created.payload["contribution"] == {"seat": 0, "value": MINE, "by": "player"}
    client.force_login(bob)
    client.post(f"/matches/{created.match_id}/join/", {"contribution": HERS})
    joined = Event.objects.get(match_id=created.match_id, type="joined")
    assert joined.payload["contribution"] == {"value": HERS, "by": "player"}


def test_a_commitment_offered_first_is_the_seed_the_match_uses_once_and_only_for_its_user(backend, alice_api, bob_api, anon_api):
    offer = alice_api.post("/api/matches/commitment")
    assert offer.status_code == 201 and offer.json()["expires_in"] == 600
    commitment = offer.json()["commitment"]
    body = {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "easy"}], "contribution": MINE}
    assert_error(bob_api.post("/api/matches/", {**body, "commitment": commitment}, format="json"), 400, "bad_commitment",
                 "not offered to you")
    made = alice_api.post("/api/matches/", {**body, "commitment": commitment}, format="json")
    assert made.status_code == 201 and made.json()["commitment"] == commitment
    assert Event.objects.get(match_id=made.json()["id"], seq=1).payload["commitment"] == commitment
    assert_error(alice_api.post("/api/matches/", {**body, "commitment": commitment}, format="json"), 400, "bad_commitment",
                 "used already")
    assert_error(alice_api.post("/api/matches/", {**body, "commitment": "12"}, format="json"), 400, "bad_commitment")
    assert anon_api.post("/api/matches/commitment").status_code in (401, 403)


def test_an_expired_commitment_is_refused(backend, alice, alice_api):
    from datetime import timedelta

    from django.utils import timezone

    from games.audit.models import SeedOffer

    commitment = alice_api.post("/api/matches/commitment").json()["commitment"]
    SeedOffer.objects.filter(pk=commitment).update(created_at=timezone.now() - timedelta(seconds=601))
    response = alice_api.post("/api/matches/", {"game": "mountain-goats", "seats": [{"human": True}, {"bot": "easy"}],
                                                "commitment": commitment}, format="json")
    assert_error(response, 400, "bad_commitment", "expired")


def test_a_match_made_before_contributions_keeps_its_old_dice_record_and_audit(backend, alice, bob, alice_api, monkeypatch):
    from games import services
    from games.verify import verify_match

    from .helpers import two_humans

    monkeypatch.setattr(services, "NEW_CHANCE_SEED", "")
    match = two_humans(alice, bob)
    assert "chance_seed" not in Event.objects.get(match=match, seq=1).payload
    assert "contribution" not in Event.objects.get(match=match, type="joined").payload
    match = finish_quickly(match, seed=9)
    seed = bytes.fromhex(match.seed)
    state = selectors.load_aggregate(match, events=[]).state
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.type == "chance":  # drawn from the server's seed itself, as before
            assert event.payload["chance"] == state.chance_to_json(state.sample_chance(chance_rng(seed, event.seq)))
        if event.type in ("chance", "action"):
            state.apply_event(event.payload)
    record = alice_api.get(f"/api/matches/{match.pk}/record").json()
    assert record["format"] == "cairn-record/2" and "contributions" not in record and "chance_seed" not in record
    assert audit(record)["ok"] and verify_match(match).ok
    assert audit(record, [record["receipt"]])["receipts_checked"] == 1  # receipts work for old matches too
