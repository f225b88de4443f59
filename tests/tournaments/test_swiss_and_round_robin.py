"""Swiss and round robin through the services: pairing, results, tie-breaks, the export and its audit."""

from __future__ import annotations

import copy
import itertools
from collections import Counter

import pytest

from engine.tournament_audit import audit_tournament
from games.models import Match
from games.tournaments import selectors, services
from games.tournaments.models import Board, Entry, Round, Tournament

from .conftest import play_open_boards

pytestmark = pytest.mark.django_db


def make(user, **extra):
    data = {"name": "Test cup", "game": "nanga-parbat", "kind": "swiss", "rounds": 3, "time_control": "10+5"}
    data.update(extra)
    return services.create(user=user, data=data)


def run_rounds(tournament: Tournament) -> None:
    for _ in range(30):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        play_open_boards(tournament)
        services.close_round(tournament_id=tournament.pk, number=tournament.current_round)
    raise AssertionError("the tournament did not finish")


def test_it_runs_an_eight_player_three_round_swiss_of_nanga_parbat_that_passes_the_audit(players):
    tournament = make(players[0])
    for user in players:
        services.join(tournament_id=tournament.pk, user=user)
    assert services.start(tournament_id=tournament.pk)
    first = Board.objects.filter(tournament=tournament, round__number=1)
    assert first.count() == 4 and len({b.match.pk for b in first}) == 4
    assert all(b.match.status == Match.Status.ACTIVE for b in first)  # a round's boards start together
    run_rounds(tournament)
    tournament.refresh_from_db()
    assert tournament.current_round == 3 and Round.objects.filter(tournament=tournament).count() == 3
    pairs = [tuple(sorted(b.seats)) for b in Board.objects.filter(tournament=tournament)]
    assert len(pairs) == len(set(pairs)) == 12  # nobody meets the same opponent twice
    live = selectors.standings(tournament)
    export = selectors.export(tournament)
    verdict = audit_tournament(export)
    assert verdict == {"ok": True, "rounds": 3, "boards": 12, "records": 12}
    # the live standings (folded result by result) are the ones derived from every record
    assert [(r["entry"], r["points"]) for r in live] == [(r["entry"], r["points"]) for r in export["standings"]]
    assert [r["buchholz"] for r in live] == [r["buchholz"] for r in export["standings"]]
    assert sum(r["points"] for r in live) == 12  # one point a game


def test_it_fails_the_audit_of_a_forged_result_or_pairing(players):
    tournament = make(players[0], rounds=2)
    for user in players[:4]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    run_rounds(tournament)
    export = selectors.export(tournament)
    assert audit_tournament(export)["ok"]

    forged = copy.deepcopy(export)
    board = forged["rounds"][0]["boards"][0]
    board["places"] = [1 - p for p in board["places"]] if set(board["places"]) == {0, 1} else [0, 1]
    verdict = audit_tournament(forged)
    assert not verdict["ok"] and any(f"match {board['match']}" in e and "places" in e for e in verdict["errors"])

    swapped = copy.deepcopy(export)
    b1, b2 = swapped["rounds"][1]["boards"]
    b1["seats"][1], b2["seats"][1] = b2["seats"][1], b1["seats"][1]
    verdict = audit_tournament(swapped)
    assert not verdict["ok"] and any("round 2: the pairings are" in e for e in verdict["errors"])

    standings = copy.deepcopy(export)
    standings["standings"][0]["points"] += 1
    assert any("standings differ" in e for e in audit_tournament(standings)["errors"])


def test_it_completes_a_three_player_round_robin_of_mountainhome_with_a_bye_each_round(players):
    tournament = services.create(user=players[0], data={
        "name": "Three", "game": "mountainhome", "kind": "round_robin", "time_control": "10+5"})
    for user in players[:3]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.rounds == 3
    run_rounds(tournament)
    met = sorted(tuple(sorted(b.seats)) for b in Board.objects.filter(tournament=tournament))
    assert met == [(1, 2), (1, 3), (2, 3)]
    assert sorted(n for r in Round.objects.filter(tournament=tournament) for n in r.byes) == [1, 2, 3]
    assert audit_tournament(selectors.export(tournament))["ok"]


def test_it_pairs_a_round_once_however_often_it_is_asked(players):
    tournament = make(players[0])
    for user in players[:4]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    assert services.pair_round(tournament_id=tournament.pk, number=1) is None
    assert services.pair_round(tournament_id=tournament.pk, number=2) is None  # round 1 is being played
    assert Board.objects.filter(tournament=tournament).count() == 2


def test_a_crash_while_pairing_leaves_no_half_created_round(players, monkeypatch):
    tournament = make(players[0])
    for user in players:
        services.join(tournament_id=tournament.pk, user=user)
    real = services._make_board
    calls = []

    def dies_on_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the worker died")
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "_make_board", dies_on_the_third)
    matches_before = Match.objects.count()
    with pytest.raises(RuntimeError):
        services.start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    # the start committed; the round, its boards and their matches did not
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round == 0
    assert not Round.objects.filter(tournament=tournament).exists()
    assert Match.objects.count() == matches_before
    assert not Entry.objects.filter(tournament=tournament, board__isnull=False).exists()
    monkeypatch.setattr(services, "_make_board", real)
    assert services.tick()["paired"] == 1  # the beat's next pass pairs the lost round
    assert Board.objects.filter(tournament=tournament).count() == 4
    assert services.tick()["paired"] == 0 and Board.objects.filter(tournament=tournament).count() == 4


def test_a_late_entrant_of_a_swiss_plays_from_the_next_round(players):
    tournament = make(players[0])
    for user in players[:4]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    late = services.join(tournament_id=tournament.pk, user=players[4])
    assert late.joined_round == 2
    services.withdraw(tournament_id=tournament.pk, user=players[1])
    run_rounds(tournament)
    round1 = {n for b in Board.objects.filter(tournament=tournament, round__number=1) for n in b.seats}
    later = {n for b in Board.objects.filter(tournament=tournament, round__number__gt=1) for n in b.seats}
    assert late.number not in round1 and late.number in later | {n for r in Round.objects.filter(tournament=tournament) for n in r.byes}
    assert 2 not in later  # p2 withdrew before round 2
    assert audit_tournament(selectors.export(tournament))["ok"]


def test_a_swiss_at_four_player_tables_groups_by_score_gives_byes_and_passes_the_audit(make_user):
    people = [make_user(f"m{n}") for n in range(1, 10)]
    tournament = services.create(user=people[0], data={
        "name": "Goats of four", "game": "mountain-goats", "kind": "swiss", "rounds": 2, "players_per_table": 4,
        "time_control": "10+5"})
    for user in people:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    first = Round.objects.get(tournament=tournament, number=1)
    assert len(first.byes) == 1 and all(len(b.seats) == 4 for b in first.boards.all())
    run_rounds(tournament)
    byes = [n for r in Round.objects.filter(tournament=tournament) for n in r.byes]
    assert len(byes) == len(set(byes)) == 2  # nobody sits out twice while others have not
    assert audit_tournament(selectors.export(tournament))["ok"]


def test_a_round_robin_at_three_player_tables_passes_the_audit(make_user):
    people = [make_user(f"h{n}") for n in range(1, 7)]
    tournament = services.create(user=people[0], data={
        "name": "Mountainhome threes", "game": "mountainhome", "kind": "round_robin", "players_per_table": 3,
        "time_control": "10+5"})
    for user in people:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.rounds == 3  # ceil(5 / 2)
    run_rounds(tournament)
    export = selectors.export(tournament)
    assert audit_tournament(export)["ok"]
    meetings = Counter(tuple(sorted(p)) for r in export["rounds"] for b in r["boards"]
                       for p in itertools.combinations(b["seats"], 2))
    # 18 meetings over 15 pairs: the repeats are spread, nobody meets anybody three times
    assert sum(meetings.values()) == 18 and max(meetings.values()) == 2 and len(meetings) >= 12
