"""The REST API: every endpoint, every error code, one error shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from engine.record import replay
from games import selectors
from games.models import Event, Match

from .helpers import finish_quickly

pytestmark = pytest.mark.django_db(databases="__all__")

MG = "mountain-goats"
ROOT = Path(__file__).resolve().parents[2]


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def create(client, seats=None, **extra):
    body = {"game": MG, "seats": seats or [{"human": True}, {"human": True}], "options": {}, **extra}
    return client.post("/api/matches/", body, format="json")


def started(alice_api, bob_api) -> dict:
    match = create(alice_api).json()
    return bob_api.post(f"/api/matches/{match['id']}/join").json()


def mover_and_idle(view: dict, alice_api, bob_api):
    return (alice_api, bob_api) if view["to_move"] == [0] else (bob_api, alice_api)


# ---------------------------------------------------------------------- accounts


def test_register_returns_a_token_that_authenticates(backend, anon_api):
    response = anon_api.post("/api/auth/register", {"username": "dora", "password": "a-long-passphrase"}, format="json")
    assert response.status_code == 201
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert create(client, [{"human": True}, {"bot": "random"}]).status_code == 201


def test_register_refuses_a_weak_password_and_a_taken_name(backend, anon_api, alice):
    assert_error(anon_api.post("/api/auth/register", {"username": "eve", "password": "123"}, format="json"), 400)
    assert_error(anon_api.post("/api/auth/register", {"username": "eve"}, format="json"), 400, "invalid")
    taken = anon_api.post("/api/auth/register", {"username": "ALICE", "password": "a-long-passphrase"}, format="json")
    assert_error(taken, 409, "username_taken")


def test_token_login_gives_the_same_token_and_refuses_a_wrong_password(backend, anon_api, alice):
    first = anon_api.post("/api/auth/token", {"username": "alice", "password": "correct-horse-battery"}, format="json")
    second = anon_api.post("/api/auth/token", {"username": "alice", "password": "correct-horse-battery"}, format="json")
    assert first.status_code == 200 and first.json() == second.json()
    wrong = anon_api.post("/api/auth/token", {"username": "alice", "password": "nope"}, format="json")
    assert_error(wrong, 400, "invalid_credentials")


def test_writes_need_authentication_and_a_bad_token_is_401(backend, anon_api):
    assert_error(create(anon_api), 401, "not_authenticated")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert_error(create(bad), 401, "authentication_failed")


def test_the_browser_session_works_and_needs_csrf(backend, alice):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    assert_error(create(client), 403)
    csrf = APIClient()
    csrf.force_login(alice)
    assert create(csrf).status_code == 201


# ---------------------------------------------------------------------- games and matches


def test_games_lists_player_counts_options_and_bot_levels(backend, anon_api):
    body = anon_api.get("/api/games/").json()
    mg = next(g for g in body["games"] if g["id"] == MG)
    assert mg["player_counts"] == [2, 3, 4] and mg["options"] == []
    assert "random" in [b["level"] for b in body["bot_levels"]]


def test_create_answers_201_with_the_match_view(backend, alice_api, alice):
    response = create(alice_api, [{"human": True}, {"bot": "random"}])
    assert response.status_code == 201
    body = response.json()
    assert {"id", "game", "status", "seq", "seats", "to_move", "my_seat", "view", "legal_actions", "result"} <= set(body)
    assert body["status"] == "active" and body["my_seat"] == 0 and body["result"] is None
    assert body["seats"][1] == {"seat": 1, "kind": "bot", "user": None, "bot": "random", "open": False}
    assert body["commitment"] and body["seed"] is None


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "chess", "seats": [{"human": True}, {"human": True}]}, "unknown_game"),
        ({"game": MG, "seats": [{"human": True}]}, "bad_options"),
        ({"game": MG, "seats": [{"human": True}, {"bot": "nope"}]}, "bad_seats"),
        ({"game": MG, "seats": [{"human": True}, {"human": True}], "options": {"x": 1}}, "bad_options"),
        ({"game": MG}, "invalid"),
        ({"seats": []}, "invalid"),
    ],
)
def test_create_answers_400_naming_the_problem(backend, alice_api, body, code):
    assert_error(alice_api.post("/api/matches/", body, format="json"), 400, code)


def test_the_lobby_lists_waiting_matches_and_join_takes_the_open_seat(backend, alice_api, bob_api, carol_api):
    waiting = create(alice_api).json()
    create(alice_api, [{"human": True}, {"bot": "random"}])
    lobby = carol_api.get("/api/matches/?status=waiting").json()["matches"]
    assert [m["id"] for m in lobby] == [waiting["id"]] and lobby[0]["open_seats"] == 1
    joined = bob_api.post(f"/api/matches/{waiting['id']}/join")
    assert joined.status_code == 200
    assert joined.json()["my_seat"] == 1 and joined.json()["status"] == "active"
    assert carol_api.get("/api/matches/?status=waiting").json()["matches"] == []
    mine = alice_api.get("/api/matches/?mine=1").json()["matches"]
    assert len(mine) == 2
    assert_error(alice_api.get("/api/matches/?status=sleeping"), 400, "bad_status")


def test_join_answers_404_and_409(backend, alice_api, bob_api, carol_api):
    assert_error(bob_api.post("/api/matches/999999/join"), 404, "match_not_found")
    match = create(alice_api).json()
    assert_error(alice_api.post(f"/api/matches/{match['id']}/join"), 409, "already_seated")
    bob_api.post(f"/api/matches/{match['id']}/join")
    assert_error(carol_api.post(f"/api/matches/{match['id']}/join"), 409, "match_started")


def test_detail_is_per_viewer_and_404_for_an_unknown_match(backend, alice_api, bob_api, anon_api):
    view = started(alice_api, bob_api)
    mover, idle = mover_and_idle(view, alice_api, bob_api)
    mine = mover.get(f"/api/matches/{view['id']}/").json()
    assert mine["legal_actions"] and mine["my_seat"] in mine["to_move"]
    assert idle.get(f"/api/matches/{view['id']}/").json()["legal_actions"] == []
    spectator = anon_api.get(f"/api/matches/{view['id']}/").json()
    assert spectator["my_seat"] is None and spectator["view"]["viewer"] is None
    assert_error(anon_api.get("/api/matches/424242/"), 404, "match_not_found")


def test_detail_at_n_replays_the_match_to_that_event_for_the_requester(backend, alice_api, bob_api):
    view = started(alice_api, bob_api)
    for _ in range(4):  # a few turns, so that the early steps differ from now
        now = alice_api.get(f"/api/matches/{view['id']}/").json()
        mover, _ = mover_and_idle(now, alice_api, bob_api)
        action = mover.get(f"/api/matches/{view['id']}/").json()["legal_actions"][-1]
        assert mover.post(f"/api/matches/{view['id']}/actions/", {"action": action, "expected_seq": now["seq"]},
                          format="json").status_code == 201
    now = alice_api.get(f"/api/matches/{view['id']}/").json()
    at_start = bob_api.get(f"/api/matches/{view['id']}/?at={view['seq']}").json()  # view is bob's (he joined)
    assert at_start["seq"] == view["seq"] and at_start["view"] == view["view"] and at_start["to_move"] == view["to_move"]
    assert at_start["legal_actions"] == [] and at_start["result"] is None
    at_now = alice_api.get(f"/api/matches/{view['id']}/?at={now['seq']}").json()
    assert at_now["view"] == now["view"] and at_now["legal_actions"] == []
    assert alice_api.get(f"/api/matches/{view['id']}/?at=1").json()["status"] == "waiting"
    for bad in ("0", str(now["seq"] + 1), "two"):
        error = assert_error(alice_api.get(f"/api/matches/{view['id']}/?at={bad}"), 400, "bad_at")
        assert "'at'" in error["message"]
    assert_error(alice_api.get("/api/matches/424242/?at=1"), 404, "match_not_found")


# ---------------------------------------------------------------------- actions: 201 400 403 404 409


def test_an_action_answers_201_with_the_new_seq(backend, alice_api, bob_api):
    view = started(alice_api, bob_api)
    mover, _ = mover_and_idle(view, alice_api, bob_api)
    action = mover.get(f"/api/matches/{view['id']}/").json()["legal_actions"][-1]
    response = mover.post(f"/api/matches/{view['id']}/actions/", {"action": action, "expected_seq": view["seq"]}, format="json")
    assert response.status_code == 201
    assert response.json()["seq"] > view["seq"]
    assert response.json()["seq"] == alice_api.get(f"/api/matches/{view['id']}/").json()["seq"]


def test_an_illegal_or_malformed_action_answers_400_naming_it(backend, alice_api, bob_api):
    view = started(alice_api, bob_api)
    mover, _ = mover_and_idle(view, alice_api, bob_api)
    url = f"/api/matches/{view['id']}/actions/"
    legal = {tuple(a["climb"]) for a in mover.get(f"/api/matches/{view['id']}/").json()["legal_actions"]}
    illegal = next(c for c in ([5, 6, 7, 8], [9, 9, 9, 9], [10, 10, 10, 10]) if tuple(c) not in legal)
    error = assert_error(mover.post(url, {"action": {"climb": illegal}, "expected_seq": view["seq"]}, format="json"), 400, "illegal_action")
    assert str(illegal) in error["message"]
    assert_error(mover.post(url, {"action": {"hop": 1}, "expected_seq": view["seq"]}, format="json"), 400, "malformed_action")
    assert_error(mover.post(url, {"expected_seq": view["seq"]}, format="json"), 400, "malformed_action")
    assert_error(mover.post(url, {"action": {"climb": []}, "expected_seq": "x"}, format="json"), 400, "bad_expected_seq")


def test_an_action_out_of_turn_or_without_a_seat_answers_403(backend, alice_api, bob_api, carol_api):
    view = started(alice_api, bob_api)
    _, idle = mover_and_idle(view, alice_api, bob_api)
    url = f"/api/matches/{view['id']}/actions/"
    assert_error(idle.post(url, {"action": {"climb": []}, "expected_seq": view["seq"]}, format="json"), 403, "not_your_turn")
    assert_error(carol_api.post(url, {"action": {"climb": []}, "expected_seq": view["seq"]}, format="json"), 403, "not_a_player")


def test_an_action_on_an_unknown_match_answers_404(backend, alice_api):
    response = alice_api.post("/api/matches/31337/actions/", {"action": {"climb": []}, "expected_seq": 1}, format="json")
    assert_error(response, 404, "match_not_found")


def test_an_action_with_a_stale_expected_seq_answers_409(backend, alice_api, bob_api):
    view = started(alice_api, bob_api)
    mover, _ = mover_and_idle(view, alice_api, bob_api)
    url = f"/api/matches/{view['id']}/actions/"
    action = mover.get(f"/api/matches/{view['id']}/").json()["legal_actions"][0]
    assert_error(mover.post(url, {"action": action, "expected_seq": view["seq"] - 1}, format="json"), 409, "stale_seq")
    assert mover.post(url, {"action": action, "expected_seq": view["seq"]}, format="json").status_code == 201
    again = mover.post(url, {"action": action, "expected_seq": view["seq"]}, format="json")
    assert_error(again, 409, "stale_seq")


# ---------------------------------------------------------------------- events, record, verify, schema


def test_events_after_n_lists_only_later_events(backend, alice_api, bob_api):
    view = started(alice_api, bob_api)
    every = alice_api.get(f"/api/matches/{view['id']}/events/").json()["events"]
    assert [e["seq"] for e in every] == list(range(1, view["seq"] + 1))
    assert set(every[0]) >= {"seq", "type", "actor", "timestamp", "payload", "prev_hash", "hash"}
    later = alice_api.get(f"/api/matches/{view['id']}/events/?after=2").json()["events"]
    assert later == every[2:]
    assert_error(alice_api.get(f"/api/matches/{view['id']}/events/?after=-3"), 400, "bad_after")
    assert_error(alice_api.get("/api/matches/9999/events/"), 404)


def test_the_record_export_replays_with_the_engine_cli(backend, alice, bob, alice_api, tmp_path):
    from .helpers import two_humans

    match = finish_quickly(two_humans(alice, bob), seed=8)
    response = alice_api.get(f"/api/matches/{match.pk}/record")
    assert response.status_code == 200
    record = response.json()
    assert record["format"] == "cairn-record/3" and record["seed"] == match.seed and record["chain_version"] == 2
    assert [c["seat"] for c in record["contributions"]] == [0, 1] and record["chance_seed"] == "cairn-chance-seed/1"
    state = replay(record)
    assert state.is_terminal() and state.scores() == match.result["scores"]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["ok"] and verdict["terminal"] and verdict["winners"] == match.result["winners"]
    # With the revealed seed, anyone can check every roll offline.
    chance_seqs = [e.seq for e in Event.objects.filter(match=match, type="chance").order_by("seq")]
    assert [n for n, e in zip(record["seqs"], record["events"]) if "chance" in e] == chance_seqs
    out = subprocess.run([sys.executable, "-m", "engine", "audit", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["chance_events"] == len(chance_seqs)
    # cairn-record/3: the whole hash chain, checked offline too, the result and the dice from every contribution
    assert verdict["chain"] is True and verdict["events_checked"] == match.seq == len(record["log"])
    assert verdict["last_hash"] == match.last_hash and verdict["result"] == match.result
    assert_error(alice_api.get("/api/matches/9999/record"), 404)


def test_the_record_comes_as_a_named_file_with_download_and_its_body_unchanged(backend, alice, bob, alice_api):
    from .helpers import two_humans

    match = finish_quickly(two_humans(alice, bob), seed=8)
    plain = alice_api.get(f"/api/matches/{match.pk}/record")
    assert plain.status_code == 200 and "Content-Disposition" not in plain
    download = alice_api.get(f"/api/matches/{match.pk}/record?download=1")
    assert download.status_code == 200
    assert download["Content-Disposition"] == f'attachment; filename="cairn-match-{match.pk}.json"'
    assert download["Content-Type"].startswith("application/json")
    assert download.json() == plain.json()
    assert_error(alice_api.get(f"/api/matches/{match.pk}/record?download=yes-please"), 400, "invalid_download")


def test_verify_reports_ok_and_names_the_failing_seq(backend, alice, bob, anon_api):
    from .helpers import two_humans
    from .test_verify import raw_update

    match = finish_quickly(two_humans(alice, bob), seed=9)
    body = anon_api.get(f"/api/matches/{match.pk}/verify").json()
    assert body["ok"] and body["failed_seq"] is None and body["events"] == match.seq
    raw_update(backend, match, 7, actor="user:4242")
    body = anon_api.get(f"/api/matches/{match.pk}/verify").json()
    assert not body["ok"] and body["failed_seq"] == 7 and body["check"] == "hash_chain"
    assert_error(anon_api.get("/api/matches/9999/verify"), 404)


def test_the_openapi_schema_and_docs_are_served(backend, anon_api):
    schema = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for route in ("/api/auth/register", "/api/matches/", "/api/matches/{match_id}/actions/", "/api/matches/{match_id}/verify"):
        assert route in paths
    assert "/api/auth/register/" not in paths and "/api/matches/{match_id}/verify/" not in paths
    docs = anon_api.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_an_unknown_api_route_is_a_404_in_the_error_shape(backend, anon_api):
    assert_error(anon_api.get("/api/nothing-here/"), 404, "not_found")
    assert_error(anon_api.post("/api/matches/1/frobnicate", {}, format="json"), 404, "not_found")


def test_a_wrong_method_is_a_405_in_the_error_shape(backend, alice_api):
    assert_error(alice_api.delete("/api/games/"), 405, "method_not_allowed")


def test_a_server_error_under_api_is_a_500_in_the_error_shape(backend, alice, monkeypatch):
    from django.test import Client

    from games import selectors as selectors_module

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors_module, "get_match", boom)
    client = Client(raise_request_exception=False)
    assert_error(client.get("/api/matches/1/"), 500, "server_error")


def test_match_list_without_a_status_lists_recent_matches(backend, alice_api, bob_api):
    started(alice_api, bob_api)
    assert len(alice_api.get("/api/matches/").json()["matches"]) == 1
    assert Match.objects.count() == 1
    assert selectors.lobby(None).count() == 0
