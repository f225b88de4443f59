"""The spectator delay of a rated match: N moves or N seconds behind, on every path a spectator sees
the match by (the page, the replay, the websocket's pushes, the API's match, events and record), the players live."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import override_settings

from games import selectors, services
from games.models import Match

from ..frontend.helpers import MG, client_for, data_seq, mover
from ..frontend.test_consumers import TIMEOUT, connect_as


def rated_match(alice, bob, moves: int) -> Match:
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}], options={},
                                  rated=True, time_control="3d")
    services.join_match(match_id=match.pk, user=bob)
    for _ in range(moves):
        match.refresh_from_db()
        services.submit_action(match_id=match.pk, user=mover(match, alice, bob), action={"climb": []},
                               expected_seq=match.seq)
    match.refresh_from_db()
    return match


def actions_of(match: Match) -> list[tuple[int, object]]:
    return list(match.events.filter(type="action").order_by("seq").values_list("seq", "timestamp"))


@pytest.mark.django_db
def test_the_delay_in_seconds_shows_the_newest_position_that_old(alice, bob):
    match = rated_match(alice, bob, 3)
    actions = actions_of(match)
    (first, _), (before_last, _), (last, last_at) = actions[0], actions[-2], actions[-1]
    newest_at = match.events.order_by("-seq").values_list("timestamp", flat=True)[0]
    with override_settings(CAIRN_SPECTATOR_DELAY="30 seconds"):
        assert selectors.spectator_delay(match) == (30, "seconds")
        # every move is younger than 30 s: the position before the first move
        assert selectors.spectator_seq(match, now=last_at) == first - 1
        # just before the last move is 30 s old: the move before it is shown, the last one is not
        almost = last_at + timedelta(seconds=30) - timedelta(microseconds=1)
        assert before_last <= selectors.spectator_seq(match, now=almost) < last
        assert 0 <= selectors.spectator_reveal_in(match, now=almost) <= 0.001  # pushed again in a moment
        assert selectors.spectator_reveal_in(match, now=last_at) == pytest.approx(30, abs=1)
        # once everything is 30 s old, the spectator is live and nothing is waiting
        later = newest_at + timedelta(seconds=30)
        assert selectors.spectator_seq(match, now=later) == match.seq
        assert selectors.spectator_reveal_in(match, now=later) is None
        # ... but a socket last shown an older position (rendered before the events came of age) is pushed at once
        assert selectors.spectator_reveal_in(match, now=later, shown=first - 1) == 0
    with override_settings(CAIRN_SPECTATOR_DELAY="2 moves"):
        assert selectors.spectator_reveal_in(match) is None  # a delay in moves needs no timer
    assert selectors.spectator_seq(match) == match.seq  # no delay configured: live


@pytest.mark.django_db
def test_casual_and_finished_matches_are_never_delayed(alice, bob):
    match = rated_match(alice, bob, 1)
    with override_settings(CAIRN_SPECTATOR_DELAY="30 seconds"):
        match.rated = False
        assert selectors.spectator_delay(match) is None and selectors.spectator_seq(match) == match.seq
        match.rated, match.status = True, Match.Status.FINISHED
        assert selectors.spectator_delay(match) is None and selectors.spectator_seq(match) == match.seq


@pytest.mark.django_db
@pytest.mark.parametrize("delay", ["2 moves", "30 seconds"])
def test_every_path_shows_a_spectator_the_delayed_position_and_the_players_the_live_one(delay, alice, bob, carol):
    match = rated_match(alice, bob, 3)
    actions = [seq for seq, _ in actions_of(match)]
    with override_settings(CAIRN_SPECTATOR_DELAY=delay):
        shown = selectors.spectator_seq(match)
        # 2 moves: the position before the 2nd newest move; 30 s: every move is newer, the one before the first
        assert shown == (actions[-2] - 1 if delay == "2 moves" else actions[0] - 1)
        spectator, player = client_for(carol), client_for(alice)

        # the page, its fragment and the replay
        assert f'data-seq="{shown}"' in spectator.get(f"/matches/{match.pk}/").content.decode()
        assert f'data-seq="{match.seq}"' in player.get(f"/matches/{match.pk}/").content.decode()
        replay = spectator.get(f"/matches/{match.pk}/replay/").content.decode()
        assert f'data-last="{shown}"' in replay and f'data-seq="{shown}"' in replay
        assert f'data-last="{match.seq}"' in player.get(f"/matches/{match.pk}/replay/").content.decode()

        # the API: the match, a replay step past what is shown, the events and the record
        body = spectator.get(f"/api/matches/{match.pk}/").json()
        assert body["seq"] == shown and body["my_seat"] is None
        assert player.get(f"/api/matches/{match.pk}/").json()["seq"] == match.seq
        assert spectator.get(f"/api/matches/{match.pk}/?at={match.seq}").status_code == 400
        assert spectator.get(f"/api/matches/{match.pk}/?at={shown}").json()["seq"] == shown
        events = spectator.get(f"/api/matches/{match.pk}/events").json()
        assert events["seq"] == shown and max(e["seq"] for e in events["events"]) == shown
        assert max(e["seq"] for e in player.get(f"/api/matches/{match.pk}/events").json()["events"]) == match.seq
        record = spectator.get(f"/api/matches/{match.pk}/record").json()
        assert max(record["seqs"] or [0]) < actions[-1] and max(e["seq"] for e in record["log"]) == shown
        assert max(e["seq"] for e in player.get(f"/api/matches/{match.pk}/record").json()["log"]) == match.seq


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_the_websocket_pushes_a_spectator_the_move_once_it_is_old_enough(alice, bob, carol):
    match = rated_match(alice, bob, 2)
    player = mover(match, alice, bob)

    async def scenario() -> None:
        spectator = connect_as(carol, match.pk)
        assert (await spectator.connect(timeout=TIMEOUT))[0]
        first = data_seq(await spectator.receive_from(timeout=TIMEOUT))  # the catch-up push: behind
        assert first < match.seq
        moved_at = time.monotonic()
        await database_sync_to_async(services.submit_action)(
            match_id=match.pk, user=player, action={"climb": []}, expected_seq=match.seq
        )
        live = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).seq)()
        seen = first
        while seen < live:  # the held-back events come as they reach 1 s of age, the move among them
            seen = data_seq(await spectator.receive_from(timeout=TIMEOUT))
        assert time.monotonic() - moved_at >= 1.0  # never sooner than the delay
        await spectator.disconnect()

    with override_settings(CAIRN_SPECTATOR_DELAY="1 seconds"):
        async_to_sync(scenario)()


def test_the_setting_reads_moves_or_seconds(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from config.settings import env_spectator_delay

    for raw, want in (("2", "2 moves"), ("3 moves", "3 moves"), ("30s", "30 seconds"), ("45 seconds", "45 seconds"),
                      ("0", "0 moves")):
        monkeypatch.setenv("SPECTATOR_DELAY", raw)
        assert env_spectator_delay("SPECTATOR_DELAY", "0 moves") == want
    monkeypatch.setenv("SPECTATOR_DELAY", "two minutes")
    with pytest.raises(ImproperlyConfigured):
        env_spectator_delay("SPECTATOR_DELAY", "0 moves")
    monkeypatch.delenv("SPECTATOR_DELAY")
    assert env_spectator_delay("SPECTATOR_DELAY", "4 moves") == "4 moves"  # SPECTATOR_DELAY_MOVES, the old form


@pytest.mark.django_db
@pytest.mark.parametrize("delay", ["2 moves", "30 seconds"])
def test_no_route_a_spectator_can_reach_tells_how_far_the_live_match_has_got(delay, alice, bob, carol):
    """The lists, the audit, the clocks and the match history, besides the board routes above: a spectator
    (logged in, or not) meets only the delayed position; the players meet the live one."""
    from django.test import Client

    match = rated_match(alice, bob, 4)
    live_at = match.updated_at.isoformat()
    with override_settings(CAIRN_SPECTATOR_DELAY=delay):
        shown = selectors.spectator_seq(match)
        assert shown < match.seq
        shown_at = match.events.get(seq=shown).timestamp
        shown_to_move = list(selectors.load_aggregate(match, selectors.load_fold_rows(match.pk, until=shown))
                             .state.to_move())
        for spectator in (client_for(carol), Client()):
            bodies = {}
            for path in ("/api/matches/", "/api/matches/?status=active", f"/api/matches/{match.pk}/verify",
                         f"/api/matches/{match.pk}/ranked", "/api/ranking/users/alice/matches/",
                         f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/events", "/watch/",
                         f"/api/matches/{match.pk}/record", f"/matches/{match.pk}/verify/",
                         f"/matches/{match.pk}/", f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/live/",
                         f"/matches/{match.pk}/presence/", "/users/alice/", "/"):
                response = spectator.get(path)
                assert response.status_code == 200, path
                bodies[path] = response.content.decode()
                assert live_at not in bodies[path], f"{path} shows the time of the last move"
            row = next(m for m in json.loads(bodies["/api/matches/?status=active"])["matches"] if m["id"] == match.pk)
            assert (row["seq"], row["to_move"], row["updated_at"]) == (shown, shown_to_move, shown_at.isoformat())
            assert json.loads(bodies[f"/api/matches/{match.pk}/verify"])["events"] == shown
            assert f"over {shown} events" in bodies[f"/matches/{match.pk}/verify/"]
            assert f"{shown} events" in bodies["/watch/"] and f"{match.seq} events" not in bodies["/watch/"]
            clock = json.loads(bodies[f"/api/matches/{match.pk}/ranked"])["clock"]
            assert [s["seat"] for s in clock["seats"] if s["running"]] == shown_to_move
            assert clock["now"] <= (shown_at.isoformat() if delay == "2 moves" else live_at)
            history = json.loads(bodies["/api/ranking/users/alice/matches/"])["matches"]
            assert next(m for m in history if m["match"] == match.pk)["updated_at"] == shown_at.isoformat()
        # The players see it live everywhere.
        player = client_for(alice)
        row = next(m for m in player.get("/api/matches/?status=active").json()["matches"] if m["id"] == match.pk)
        assert row["seq"] == match.seq and row["updated_at"] == live_at
        assert player.get(f"/api/matches/{match.pk}/verify").json()["events"] == match.seq
        assert player.get("/api/ranking/users/alice/matches/").json()["matches"][0]["updated_at"] == live_at
