"""The analysis API: who may ask, the limits, the one stored result, and a worker killed mid-way."""

from __future__ import annotations

import pytest
from django.conf import settings

from ai import analysis as core
from games import selectors
from games.analysis import services
from games.analysis.models import AnalysisRequest, MatchAnalysis
from tests.service.helpers import finish_quickly, two_humans

pytestmark = pytest.mark.django_db


def url(match_id: int) -> str:
    return f"/api/matches/{match_id}/analysis"


def test_it_refuses_to_analyse_a_match_still_in_play(alice, bob, alice_api):
    match = two_humans(alice, bob)
    for answer in (alice_api.post(url(match.pk)), alice_api.get(url(match.pk))):
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "match_in_play"
        assert "still in play" in answer.json()["error"]["message"]


def test_it_refuses_an_unknown_match_and_a_person_not_logged_in(finished, anon_api, alice_api):
    answer = alice_api.post(url(finished.pk + 1000))
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "match_not_found"
    answer = anon_api.post(url(finished.pk))
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "not_authenticated"
    assert anon_api.get(url(finished.pk)).json()["status"] == "none"  # a finished match is public: anyone reads


def test_an_analysis_already_queued_is_refused_with_409(finished, alice_api, bob_api):
    first = alice_api.post(url(finished.pk))
    assert first.status_code == 202
    assert first.json()["status"] == "queued" and first.json()["analysis"] is None
    again = bob_api.post(url(finished.pk))
    assert again.status_code == 409 and again.json()["error"]["code"] == "analysis_queued"
    assert AnalysisRequest.objects.count() == 1


def test_a_person_may_have_at_most_three_analyses_queued(alice, bob, alice_api):
    matches = [finish_quickly(two_humans(alice, bob), seed=i) for i in range(4)]
    for match in matches[:3]:
        assert alice_api.post(url(match.pk)).status_code == 202
    answer = alice_api.post(url(matches[3].pk))
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "too_many_analyses"
    assert "at most 3" in answer.json()["error"]["message"]


def test_the_analysis_is_stored_once_and_then_served_not_recomputed(finished, alice, alice_api, bob_api, monkeypatch):
    assert alice_api.post(url(finished.pk)).status_code == 202
    assert services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION) == "done"
    body = bob_api.get(url(finished.pk)).json()
    assert body["status"] == "done" and body["percent"] == 100
    result = body["analysis"]
    record = selectors.record(finished, None)
    assert [e["seq"] for e in result["events"]] == record["seqs"]
    assert {s["seat"] for s in result["seats"]} == {0, 1}
    assert all(e["mark"] in (None, "inaccuracy", "mistake", "blunder") for e in result["events"] if e["kind"] == "move")

    def never(*args, **kwargs):
        raise AssertionError("a stored analysis was computed again")

    monkeypatch.setattr(core, "analyse_record", never)
    again = alice_api.post(url(finished.pk))
    assert again.status_code == 200 and again.json()["analysis"] == result
    assert services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION) == "stored"
    stored = MatchAnalysis.objects.get()
    stored.result = {}
    with pytest.raises(ValueError, match="append-only"):
        stored.save()


def test_the_same_match_analysed_twice_gives_the_same_result(finished, alice):
    services.request_analysis(match_id=finished.pk, user=alice)
    services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION)
    first = MatchAnalysis.objects.get().result
    MatchAnalysis.objects.all().delete()
    AnalysisRequest.objects.all().delete()
    services.request_analysis(match_id=finished.pk, user=alice)
    services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION)
    assert MatchAnalysis.objects.get().result == first


class Killed(BaseException):
    """What a worker's process sees of SIGKILL: nothing after it runs."""


def test_a_worker_killed_mid_analysis_stores_nothing_and_the_redelivered_task_resumes(finished, alice, monkeypatch):
    services.request_analysis(match_id=finished.pk, user=alice)
    real = core.analyse_record
    calls = []

    def dies_half_way(*args, progress, **kwargs):
        def progress_then_die(done, total, entries):
            progress(done, total, entries)
            if done >= total // 2:
                raise Killed

        calls.append(kwargs.get("start"))
        return real(*args, progress=progress_then_die, **kwargs)

    monkeypatch.setattr(core, "analyse_record", dies_half_way)
    with pytest.raises(Killed):
        services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION)
    assert not MatchAnalysis.objects.exists()
    request = AnalysisRequest.objects.get()
    assert request.status == "running" and 0 < request.done < request.total and len(request.partial) == request.done
    monkeypatch.setattr(core, "analyse_record", real)
    starts = []

    def resumed(*args, **kwargs):
        starts.append(kwargs["start"])
        return real(*args, **kwargs)

    monkeypatch.setattr(core, "analyse_record", resumed)
    assert services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION) == "done"
    assert starts == [request.done]  # resumed, not restarted
    record = selectors.record(finished, None)
    whole = real(finished.game_id, finished.players, finished.options, record["events"],
                 seed=services.analysis_seed(finished))
    assert [dict(e, seq=None) for e in MatchAnalysis.objects.get().result["events"]] == [
        dict(e, seq=None) for e in whole["events"]]


def test_analyses_go_to_their_own_queue_named_after_the_deployments(finished):
    from config.celery import app
    from games.analysis.tasks import analyse_match

    queue = settings.CELERY_ANALYSIS_QUEUE
    assert queue != settings.CELERY_TASK_DEFAULT_QUEUE and queue.startswith(settings.CELERY_TASK_DEFAULT_QUEUE)
    route = app.amqp.router.route({}, analyse_match.name)
    assert route["queue"].name == queue
    assert app.amqp.router.route({}, "games.tasks.play_bot_turn")["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE


def test_the_analysis_routes_are_in_the_openapi_schema(anon_api):
    schema = anon_api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    path = schema["paths"]["/api/matches/{match_id}/analysis"]
    assert set(path) >= {"get", "post"}
    assert {"200", "202", "401", "404", "409", "429"} <= set(path["post"]["responses"])
