"""The analysis on the replay page: the ask button, the progress pushed to the match's sockets, the graph."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ai import analysis as core
from games.analysis import services
from tests.service.helpers import two_humans

pytestmark = pytest.mark.django_db


def page(user, match_id: int, seq: int | None = None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    answer = client.get(f"/matches/{match_id}/replay/" + (f"?seq={seq}" if seq else ""))
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_finished_match_offers_the_analysis_and_one_in_play_does_not(alice, bob, finished):
    html = page(alice, finished.pk)
    assert 'data-analysis="ask"' in html
    assert 'data-analysis="ask"' not in page(None, finished.pk)  # asking needs a log-in
    assert "analysis-panel" not in page(alice, two_humans(alice, bob).pk)


def test_asking_answers_with_the_progress_bar_that_listens_on_the_match_socket(alice, finished):
    client = Client()
    client.force_login(alice)
    answer = client.post(f"/matches/{finished.pk}/analysis/")
    html = answer.content.decode()
    assert answer.status_code == 200 and 'data-status="queued"' in html and "<progress" in html
    assert f'ws-connect="/ws/matches/{finished.pk}/' in html
    again = client.post(f"/matches/{finished.pk}/analysis/").content.decode()
    assert "already queued" in again


def test_the_progress_push_renders_the_panel_out_of_band(alice, finished):
    from frontend.table.render import render_push

    services.request_analysis(match_id=finished.pk, user=alice)
    html = render_push({"type": "table.message", "kind": "analysis"}, alice, finished.pk)
    assert 'hx-swap-oob="true"' in html and 'id="analysis-panel"' in html and "<progress" in html
    services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION)
    done = render_push({"type": "table.message", "kind": "analysis"}, alice, finished.pk)
    assert 'hx-trigger="load"' in done and 'hx-select="#replay"' in done  # the page reloads its replay


def test_the_replay_shows_the_graph_the_marks_the_better_move_and_the_accuracy(alice, bob, finished):
    services.request_analysis(match_id=finished.pk, user=alice)
    services.run_analysis(match_id=finished.pk, version=core.ANALYSIS_VERSION)
    result = services.MatchAnalysis.objects.get().result
    marked = next(e for e in result["events"] if e["kind"] == "move" and e.get("mark") and not e["best_is_played"])
    html = page(bob, finished.pk, marked["seq"])
    start = html.index("<figure class=\"analysis-graph\"")
    svg = html[start:html.index("</svg>", start)]
    assert len(re.findall(r'<path class="seat-line seat-\d"', svg)) == 2
    links = set(re.findall(r'data-analysis-seq="(\d+)"', svg))
    assert {str(e["seq"]) for e in result["events"]} <= links  # every event steps the replay
    assert f'data-analysis-current="{marked["seq"]}"' in html and "data-analysis-best" in html
    assert f'data-mark="{marked["mark"]}"' in html  # in the log
    assert len(re.findall(r"data-analysis-seat=", html)) == 2 and "data-accuracy" in html
