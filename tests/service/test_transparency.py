"""The public log of heads: signed checkpoints, inclusion and consistency proofs, and a witness that follows it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import merkle, receipt, witness
from games.audit import log
from games.audit.keys import public_keys
from games.audit.models import Checkpoint, LogLeaf
from games.models import Match

from .helpers import play_random_move, two_humans

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(databases="__all__")


def keys() -> dict[str, bytes]:
    return receipt.parse_keys(public_keys())


def test_a_checkpoint_logs_every_moved_head_and_proves_each_match_is_in_it(backend, alice, bob, carol, anon_api):
    first = two_humans(alice, bob)
    second = two_humans(carol, bob)
    checkpoint = log.append_checkpoint()
    assert checkpoint["size"] == 2 and log.append_checkpoint() is None  # nothing moved: nothing appended
    witness.check_checkpoint(checkpoint, keys())
    play_random_move(first.pk, {0: alice, 1: bob}, random.Random(1))
    newer = log.append_checkpoint()
    assert newer["size"] == 3  # only the head that moved
    first.refresh_from_db()
    proof = anon_api.get(f"/api/transparency/proof?match={first.pk}").json()
    assert proof["leaf"] == {**proof["leaf"], "match": first.pk, "seq": first.seq, "hash": first.last_hash, "index": 2}
    witness.check_inclusion(proof["checkpoint"], proof["leaf"], proof["proof"])
    old = anon_api.get(f"/api/transparency/proof?match={second.pk}&size=2").json()
    witness.check_inclusion(old["checkpoint"], old["leaf"], old["proof"])
    body = anon_api.get("/api/transparency/consistency?from=2&to=3").json()
    witness.accept(body["from"], body["to"], body["proof"], keys())
    listed = anon_api.get("/api/transparency/checkpoints").json()
    assert [c["size"] for c in listed["checkpoints"]] == [2, 3] and listed["keys"] == public_keys()
    assert [c["size"] for c in anon_api.get("/api/transparency/checkpoints?after=2").json()["checkpoints"]] == [3]


@pytest.mark.parametrize("url, status, code", [
    ("/api/transparency/proof", 400, "bad_match"),
    ("/api/transparency/proof?match=x", 400, "bad_match"),
    ("/api/transparency/proof?match=999999", 404, "not_logged"),
    ("/api/transparency/proof?match=1&size=77", 404, "no_checkpoint"),
    ("/api/transparency/consistency?from=1", 400, "bad_to"),
    ("/api/transparency/consistency?from=3&to=1", 400, "bad_range"),
    ("/api/transparency/consistency?from=1&to=99", 404, "no_checkpoint"),
    ("/api/transparency/checkpoints?after=-1", 400, "bad_after"),
])
def test_bad_transparency_queries_get_a_4xx_naming_the_problem(backend, alice, bob, anon_api, url, status, code):
    two_humans(alice, bob)
    log.append_checkpoint()
    response = anon_api.get(url)
    assert response.status_code == status and response.json()["error"]["code"] == code, response.content


def test_a_running_version_1_match_with_hidden_information_is_not_logged_until_it_ends(backend, alice, bob):
    from .test_sealed import mh_match

    match = mh_match([alice, bob])
    Match.objects.filter(pk=match.pk).update(chain_version=1)
    log.append_checkpoint()
    assert not LogLeaf.objects.filter(match_id=match.pk).exists()


def witness_run(url: str, state: Path) -> tuple[int, dict]:
    out = subprocess.run([sys.executable, "-m", "engine", "witness", url, "--state", str(state)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    return out.returncode, json.loads(out.stdout)


def test_the_witness_follows_the_log_checks_a_record_and_refuses_a_rewritten_past(backend, live_server, alice, bob,
                                                                                 make_user, tmp_path):
    if backend != "default":
        pytest.skip("the live server reads the default database")
    state = tmp_path / "witness.json"
    match = two_humans(alice, bob)
    rng = random.Random(2)
    log.append_checkpoint()
    code, verdict = witness_run(live_server.url, state)
    assert code == 0 and verdict["accepted"] == 1
    for _ in range(3):  # several checkpoints, fetched in one run and in separate runs
        play_random_move(match.pk, {0: alice, 1: bob}, rng)
        log.append_checkpoint()
        play_random_move(match.pk, {0: alice, 1: bob}, rng)
        log.append_checkpoint()
        code, verdict = witness_run(live_server.url, state)
        assert code == 0 and verdict["accepted"] == 2, verdict
    kept = json.loads(state.read_text())["checkpoints"]
    assert [c["size"] for c in kept] == list(range(1, 8))
    assert verdict["root"] == Checkpoint.objects.order_by("-size").first().root

    # A finished match's record, checked against the head the witness's checkpoint logged for it.
    from rest_framework.test import APIClient

    from .helpers import finish_quickly

    ended = finish_quickly(two_humans(make_user("dora"), bob), seed=6)
    log.append_checkpoint()
    record_path = tmp_path / "ended.json"
    record_path.write_text(json.dumps(APIClient().get(f"/api/matches/{ended.pk}/record").json()))
    out = subprocess.run([sys.executable, "-m", "engine", "witness", live_server.url, "--state", str(state),
                          "--record", str(record_path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    verdict = json.loads(out.stdout)
    assert out.returncode == 0 and verdict["record"] == {"match": ended.pk, "seq": ended.seq, "hash": ended.last_hash}
    forged = json.loads(record_path.read_text())
    forged["log"][-1]["hash"] = "ab" * 32
    record_path.write_text(json.dumps(forged))
    out = subprocess.run([sys.executable, "-m", "engine", "witness", live_server.url, "--state", str(state),
                          "--record", str(record_path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "fails its audit" in json.loads(out.stdout)["error"]

    # The operator rewrites a logged head (as after rewriting the match) and signs a new checkpoint over it.
    LogLeaf.objects.filter(index=0).update(
        hash="ee" * 32, leaf_hash=merkle.leaf_hash(witness.leaf_bytes(match.pk, 1, "ee" * 32)).hex())
    play_random_move(match.pk, {0: alice, 1: bob}, rng)
    forged = log.append_checkpoint()
    witness.check_checkpoint(forged, keys())  # correctly signed: only consistency tells
    code, verdict = witness_run(live_server.url, state)
    assert code == 1 and not verdict["ok"] and "not consistent" in verdict["error"]
    assert verdict["refused"]["size"] == forged["size"] and verdict["kept"]["size"] == 8
    assert [c["size"] for c in json.loads(state.read_text())["checkpoints"]] == list(range(1, 9))  # not kept


def test_the_witness_says_when_it_cannot_reach_the_log(tmp_path):
    code, verdict = witness_run("http://127.0.0.1:9", tmp_path / "w.json")
    assert code == 2 and "cannot follow the log" in verdict["error"]


def test_the_documented_database_role_appends_checkpoints_and_offers_but_cannot_rewrite_the_log(backend, alice, bob):
    import os

    from django.db import connections

    from games.audit import offers

    from .test_least_privilege import documented_sql, refused, statements

    pg = connections[backend]
    if pg.vendor != "postgresql":
        pytest.skip("the role is PostgreSQL's (SQLite has no roles)")
    two_humans(alice, bob)
    role = f"cairn_app_log_{os.getpid()}"
    sql = documented_sql().replace("cairn_app", role).replace("DATABASE cairn ", f"DATABASE {pg.settings_dict['NAME']} ")
    with pg.cursor() as cursor:
        for statement in statements(sql):
            cursor.execute(statement)
        cursor.execute(f"SET ROLE {role}")
    try:
        assert log.append_checkpoint()["size"] == 1
        offered = offers.offer(alice)
        assert offers.take(alice, offered["commitment"])  # a seed offer is used once: its row goes
        assert "permission denied" in refused(pg, "UPDATE audit_logleaf SET hash = 'x'")
        assert "permission denied" in refused(pg, "DELETE FROM audit_checkpoint")
    finally:
        with pg.cursor() as cursor:
            cursor.execute("RESET ROLE")


def test_celery_beat_appends_a_checkpoint_at_a_fixed_interval(backend, alice, bob, settings):
    from datetime import timedelta

    from games.audit.tasks import append_checkpoint

    entry = settings.CELERY_BEAT_SCHEDULE["audit-append-checkpoint"]
    assert entry["task"] == append_checkpoint.name and entry["schedule"] == timedelta(seconds=60)
    two_humans(alice, bob)
    assert append_checkpoint() == 1 and append_checkpoint() is None
