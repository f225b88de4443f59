"""/metrics: Prometheus's text format behind a token; a move, a request and a push change their counters."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families

from games import services
from tests.frontend.helpers import client_for, mover, two_player_match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "scrape-me"


def scrape(client: Client | None = None) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, by (name, sorted labels)."""
    with override_settings(CAIRN_METRICS_TOKEN=TOKEN):
        response = (client or Client()).get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def test_metrics_is_a_404_when_no_token_is_configured(client: Client) -> None:
    with override_settings(CAIRN_METRICS_TOKEN=""):
        assert client.get("/metrics").status_code == 404
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer anything").status_code == 404


def test_metrics_refuses_a_missing_or_wrong_token(client: Client) -> None:
    with override_settings(CAIRN_METRICS_TOKEN=TOKEN):
        assert client.get("/metrics").status_code == 401
        response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_committed_move_shows_in_the_moves_counter(alice, bob, django_capture_on_commit_callbacks) -> None:
    match = two_player_match(alice, bob)
    key = ("cairn_moves_committed_total", (("game", "mountain-goats"),))
    before = scrape().get(key, 0.0)
    user = mover(match, alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=match.seq)
    assert scrape()[key] == before + 1


def test_requests_are_counted_by_route_name_not_by_path(alice, bob) -> None:
    first, second = two_player_match(alice, bob), two_player_match(alice, bob)
    key = ("cairn_http_requests_total", (("method", "GET"), ("route", "frontend:match"), ("status", "200")))
    before = scrape().get(key, 0.0)
    page = client_for(alice)
    assert page.get(f"/matches/{first.pk}/").status_code == 200
    assert page.get(f"/matches/{second.pk}/").status_code == 200
    after = scrape()
    assert after[key] == before + 2
    count = ("cairn_http_request_duration_seconds_count", (("method", "GET"), ("route", "frontend:match")))
    assert after[count] >= 2
    assert not any(f"/matches/{first.pk}/" in str(labels) for _, labels in after)


def test_paths_that_match_no_route_count_as_unmatched(client: Client) -> None:
    key = ("cairn_http_requests_total", (("method", "GET"), ("route", "unmatched"), ("status", "404")))
    before = scrape().get(key, 0.0)
    client.get("/no-such-page-0123/")
    assert scrape()[key] == before + 1


def test_a_bot_turn_is_timed(alice, django_capture_on_commit_callbacks) -> None:
    match = services.create_match(user=alice, game_id="mountain-goats",
                                  seats=[{"human": True}, {"bot": "easy"}], options={})
    match.refresh_from_db()
    key = ("cairn_bot_think_seconds_count", (("level", "easy"),))
    before = scrape().get(key, 0.0)
    if not match.bot_to_move:
        view_user = alice
        with django_capture_on_commit_callbacks(execute=False):
            services.submit_action(match_id=match.pk, user=view_user, action={"climb": []}, expected_seq=match.seq)
        match.refresh_from_db()
    assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
    assert scrape()[key] == before + 1


def test_the_queue_depth_is_read_from_the_broker() -> None:
    from django.conf import settings

    samples = scrape()
    depth = samples[("cairn_celery_queue_depth", (("queue", settings.CELERY_TASK_DEFAULT_QUEUE),))]
    assert depth >= 0


def _run(code: str, env: dict[str, str]) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_in_multiprocess_mode_a_scrape_adds_up_every_process_and_forgets_dead_ones_gauges(tmp_path) -> None:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings",
           "SECRET_KEY": "metrics-test"}
    setup = "import django; django.setup(); import os; from games.ops import metrics; "
    pids = [
        _run(setup + "metrics.MOVES.labels('nanga-parbat').inc(); metrics.WEBSOCKETS.inc(); print(os.getpid())", env)
        for _ in range(2)
    ]
    scrape_code = setup + "from prometheus_client import generate_latest; print(generate_latest(metrics.registry()).decode())"
    text = _run(scrape_code, env)
    assert 'cairn_moves_committed_total{game="nanga-parbat"} 2.0' in text
    for pid in pids:  # one sample per process (liveall: label pid)
        assert f'cairn_websockets_open{{pid="{int(pid)}"}} 1.0' in text
    for pid in pids:
        _run(setup + f"metrics.mark_process_dead({int(pid)})", env)
    text = _run(scrape_code, env)
    assert 'cairn_moves_committed_total{game="nanga-parbat"} 2.0' in text
    for pid in pids:
        assert f'cairn_websockets_open{{pid="{int(pid)}"}}' not in text


def test_a_scrape_adds_the_samples_of_the_extra_directories(tmp_path) -> None:
    web, worker = tmp_path / "web", tmp_path / "worker"
    web.mkdir()
    worker.mkdir()
    setup = "import django; django.setup(); from games.ops import metrics; "
    base = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "metrics-test"}
    _run(setup + "metrics.MOVES.labels('mountainhome').inc()", {**base, "PROMETHEUS_MULTIPROC_DIR": str(web)})
    _run(setup + "metrics.BOT_THINK.labels('hard').observe(1.5)", {**base, "PROMETHEUS_MULTIPROC_DIR": str(worker)})
    text = _run(setup + "from prometheus_client import generate_latest; print(generate_latest(metrics.registry()).decode())",
                {**base, "PROMETHEUS_MULTIPROC_DIR": str(web), "METRICS_EXTRA_DIRS": str(worker)})
    assert 'cairn_moves_committed_total{game="mountainhome"} 1.0' in text
    assert 'cairn_bot_think_seconds_count{level="hard"} 1.0' in text


def test_gunicorns_settings_trust_only_the_configured_proxies_and_mark_dead_workers(monkeypatch) -> None:
    import runpy
    from types import SimpleNamespace

    from prometheus_client import multiprocess

    monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.5, 10.0.1.0/24")
    config = runpy.run_path(str(ROOT / "config" / "gunicorn.py"))
    assert config["forwarded_allow_ips"] == "10.0.0.5/32,10.0.1.0/24"
    monkeypatch.setenv("TRUSTED_PROXIES", "")
    assert runpy.run_path(str(ROOT / "config" / "gunicorn.py"))["forwarded_allow_ips"] == ""

    dead: list[int] = []
    monkeypatch.setattr(multiprocess, "mark_process_dead", lambda pid, path=None: dead.append(pid))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "/tmp/cairn-metrics-unused")
    config["child_exit"](None, SimpleNamespace(pid=4321))
    assert dead == [4321]
