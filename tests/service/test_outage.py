"""Outages answer 503 with a message (games/outage.py), and a late move loses on time.

The outages are simulated by making the code a request runs raise what a
dead PostgreSQL or Redis raises; benchmarks/faults/ does the same with the
real services stopped.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.test import Client
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError

from games import selectors, services
from games.errors import Conflict
from games.models import Match
from games.outage import outage_of

pytestmark = pytest.mark.django_db(databases="__all__")


def _down(exc: Exception):
    def fail(*args, **kwargs):
        raise exc

    return fail


@pytest.fixture
def match(alice, bob) -> Match:
    created = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    return services.join_match(match_id=created.pk, user=bob)


def test_api_answers_503_json_with_retry_after_when_the_database_is_down(monkeypatch, match, alice_api) -> None:
    monkeypatch.setattr(selectors, "get_match", _down(OperationalError("connection refused")))
    answer = alice_api.get(f"/api/matches/{match.pk}/")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    error = answer.json()["error"]
    assert error["code"] == "service_unavailable"
    assert "database" in error["message"]


def test_api_move_answers_503_when_redis_is_down_before_the_commit(monkeypatch, match, alice_api) -> None:
    monkeypatch.setattr(services, "submit_action", _down(RedisConnectionError("Error 111 connecting")))
    answer = alice_api.post(f"/api/matches/{match.pk}/actions/", {"action": {"climb": []}, "expected_seq": match.seq},
                            format="json")
    assert answer.status_code == 503
    assert "message service" in answer.json()["error"]["message"]


def test_htmx_move_answers_a_503_fragment_and_the_page_a_503_page(monkeypatch, match, alice) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    monkeypatch.setattr(services, "play_action", _down(OperationalError("server closed the connection")))
    answer = client.post(f"/matches/{match.pk}/move/", {"action": json.dumps({"climb": []}), "expected_seq": match.seq},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    body = answer.content.decode()
    assert body.startswith('<div id="outage-message"') and "nothing was changed" in body
    monkeypatch.setattr("frontend.views._get_match", _down(OperationalError("connection refused")))
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 503
    assert "<h1>Back in a moment</h1>" in page.content.decode()


def test_an_outage_outside_the_view_is_a_503_too(monkeypatch, match) -> None:
    """Raised by middleware (here CSRF's process_view), Django makes it a 500; the middleware makes that a 503."""
    from django.middleware.csrf import CsrfViewMiddleware

    monkeypatch.setattr(CsrfViewMiddleware, "process_view", _down(OperationalError("the database system is shutting down")))
    answer = Client(raise_request_exception=False).get("/api/games/")
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "service_unavailable"


def test_other_errors_stay_500(monkeypatch, match, alice_api) -> None:
    from django.middleware.csrf import CsrfViewMiddleware

    monkeypatch.setattr(CsrfViewMiddleware, "process_view", _down(ValueError("a bug")))
    answer = Client(raise_request_exception=False).get("/api/games/")
    assert answer.status_code == 500


def test_outage_of_follows_the_cause_chain() -> None:
    try:
        try:
            raise ConnectionRefusedError(111, "refused")
        except OSError as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as exc:
        assert outage_of(exc) == "redis"
    assert outage_of(ValueError("no")) is None
    assert outage_of(OperationalError("x")) == "database"


def test_a_move_after_the_clock_ran_out_is_refused_and_loses_on_time(monkeypatch, alice, bob) -> None:
    """No worker checked the clock (the time-out task never ran): the late move itself is refused."""
    created = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                    time_control={"kind": "realtime", "base": 30, "increment": 0})
    match = services.join_match(match_id=created.pk, user=bob)
    users = {0: alice, 1: bob}
    for _ in range(2):  # both seats move once: a late player then loses instead of the match being aborted
        match = selectors.get_match(match.pk)
        state = selectors.load_state(match)
        seat = state.to_move()[0]
        action = state.action_to_json(seat, state.legal_actions(seat)[0])
        services.submit_action(match_id=match.pk, user=users[seat], action=action, expected_seq=match.seq)
    match = selectors.get_match(match.pk)
    state = selectors.load_state(match)
    late = state.to_move()[0]
    action = state.action_to_json(late, state.legal_actions(late)[0])
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=31))
    with pytest.raises(Conflict) as refused:
        services.submit_action(match_id=match.pk, user=users[late], action=action, expected_seq=match.seq)
    assert refused.value.code == "clock_expired"
    assert "you lost the match on time" in refused.value.message
    match = selectors.get_match(match.pk)
    assert match.status == Match.Status.FINISHED
    assert match.result["winners"] == [1 - late]
    types = list(match.events.order_by("seq").values_list("type", flat=True))
    assert types[-2:] == ["timed_out", "finished"]
    assert types.count("action") == 2  # the late move was not stored
    from games.verify import verify_match

    assert verify_match(match).ok


def test_a_move_in_time_is_played(monkeypatch, alice, bob) -> None:
    created = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}],
                                    time_control={"kind": "realtime", "base": 30, "increment": 0})
    match = services.join_match(match_id=created.pk, user=bob)
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=29))
    state = selectors.load_state(match)
    seat = state.to_move()[0]
    action = state.action_to_json(seat, state.legal_actions(seat)[0])
    seq = services.submit_action(match_id=match.pk, user={0: alice, 1: bob}[seat], action=action, expected_seq=match.seq)
    assert seq > match.seq
