"""Arena through the services: pairing at once, lichess scoring folded game by game, bots, the end."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.tournament_audit import audit_tournament
from games.tournaments import selectors, services
from games.tournaments.models import Board, Entry, Tournament

from .conftest import play_open_boards

pytestmark = pytest.mark.django_db


def arena(user, **extra):
    data = {"name": "Goats blitz", "game": "mountain-goats", "kind": "arena", "duration_seconds": 600,
            "time_control": "3+2", "bots_allowed": True}
    data.update(extra)
    return services.create(user=user, data=data)


def test_four_people_and_two_labelled_bots_play_an_arena_to_its_end(players):
    tournament = arena(players[0])
    for user in players[:4]:
        services.join(tournament_id=tournament.pk, user=user)
    bots = [services.add_bot(tournament_id=tournament.pk, user=players[0], level="random") for _ in range(2)]
    assert all(b.is_bot and b.label.endswith("(bot)") for b in bots)
    services.start(tournament_id=tournament.pk)
    assert Entry.objects.filter(tournament=tournament, board__isnull=False).count() == 6  # everyone at a board
    for wave in range(3):
        assert play_open_boards(tournament, seed=wave) >= 1
        services.pair_arena(tournament_id=tournament.pk)
    # the time runs out: no new boards, the ones in play finish, then the arena ends
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=tournament.starts_at - timedelta(seconds=600))
    assert services.pair_arena(tournament_id=tournament.pk) is None
    play_open_boards(tournament, seed=9)
    assert services.close_round(tournament_id=tournament.pk, number=0)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    rows = selectors.standings(tournament)
    assert rows[0]["rank"] == 1 and rows[0]["points"] >= rows[-1]["points"]
    assert sum(r["games"] for r in rows) == 2 * Board.objects.filter(tournament=tournament).count()
    export = selectors.export(tournament)
    assert audit_tournament(export)["ok"]
    assert [(r["entry"], r["points"]) for r in rows] == [(r["entry"], r["points"]) for r in export["standings"]]


def test_an_arena_never_seats_an_entrant_at_two_boards(players):
    tournament = arena(players[0])
    for user in players[:5]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    assert services.pair_arena(tournament_id=tournament.pk) is None  # one waits alone: no board
    services.pair_arena(tournament_id=tournament.pk)
    seated = [n for b in Board.objects.filter(tournament=tournament) for n in b.seats]
    assert len(seated) == len(set(seated)) == 4


def test_a_paused_or_withdrawn_arena_entrant_gets_no_new_board(players):
    tournament = arena(players[0])
    for user in players[:4]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    services.pause(tournament_id=tournament.pk, user=players[0], paused=True)
    services.withdraw(tournament_id=tournament.pk, user=players[1])
    play_open_boards(tournament)
    services.pair_arena(tournament_id=tournament.pk)
    busy = {n for b in Board.objects.filter(tournament=tournament, finished_at__isnull=True) for n in b.seats}
    assert busy == {3, 4}


def test_an_arena_standing_is_folded_one_result_at_a_time(players, django_assert_max_num_queries):
    tournament = arena(players[0])
    for user in players[:2]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    board = Board.objects.get(tournament=tournament)
    with django_assert_max_num_queries(12):  # a few rows, whatever the tournament's history
        services.record_result(match_id=board.match_id, places=[0, 1])
    winner = Entry.objects.get(tournament=tournament, number=board.seats[0])
    assert (winner.points, winner.games, winner.wins, winner.streak) == (2, 1, 1, 1)


def test_a_three_player_arena_scores_by_place_and_passes_the_audit(players):
    tournament = arena(players[0], players_per_table=3, bots_allowed=False)
    for user in players[:6]:
        services.join(tournament_id=tournament.pk, user=user)
    services.start(tournament_id=tournament.pk)
    assert sorted(len(b.seats) for b in Board.objects.filter(tournament=tournament)) == [3, 3]
    board = Board.objects.filter(tournament=tournament).first()
    services.record_result(match_id=board.match_id, places=[1, 0, 2])
    points = dict(Entry.objects.filter(tournament=tournament, number__in=board.seats).values_list("number", "points"))
    assert [points[n] for n in board.seats] == [2, 4, 0]  # 2 per opponent behind
    play_open_boards(tournament)
    services.pair_arena(tournament_id=tournament.pk)
    play_open_boards(tournament, seed=5)
    export = selectors.export(tournament)
    # the board whose result was recorded by hand never finished its match: no record backs it
    verdict = audit_tournament(export)
    assert not verdict["ok"] and any(f"match {board.match_id}" in e for e in verdict["errors"])
    assert all(f"match {board.match_id}" in e or "standings" in e for e in verdict["errors"])


def test_an_arena_waits_for_a_player_still_at_a_board_of_another_tournament(players):
    first, second = arena(players[0], name="First"), arena(players[0], name="Second")
    for user in players[:2]:
        services.join(tournament_id=first.pk, user=user)
    for user in players[:3]:
        services.join(tournament_id=second.pk, user=user)
    services.start(tournament_id=first.pk)
    services.start(tournament_id=second.pk)
    seated = [n for b in Board.objects.filter(tournament=second) for n in b.seats]
    assert seated == []  # p1 and p2 are playing in the first: p3 alone waits
    play_open_boards(first)
    services.pair_arena(tournament_id=second.pk)
    assert len([n for b in Board.objects.filter(tournament=second) for n in b.seats]) == 2


def test_a_berserk_player_starts_with_half_the_clock_and_a_win_scores_one_more(players):
    import copy

    from django.utils import timezone

    from games import selectors as match_selectors

    tournament = arena(players[0], time_control="4+2")
    for user in players[:2]:
        services.join(tournament_id=tournament.pk, user=user)
    services.berserk(tournament_id=tournament.pk, user=players[0], on=True)
    services.start(tournament_id=tournament.pk)
    board = Board.objects.get(tournament=tournament)
    seat = board.seats.index(1)
    assert board.berserk == [n == 1 for n in board.seats]
    clock = match_selectors.load_aggregate(board.match).clock
    assert clock.remaining(seat, timezone.now()) <= 120 < clock.remaining(1 - seat, timezone.now())
    assert not Entry.objects.get(tournament=tournament, number=1).berserk_next  # one game only
    services.record_result(match_id=board.match_id, places=[0 if n == 1 else 1 for n in board.seats])
    assert Entry.objects.get(tournament=tournament, number=1).points == 3  # 2 for the win, 1 for berserk

    play = arena(players[0], name="Audit berserk")
    for user in players[2:4]:
        services.join(tournament_id=play.pk, user=user)
    services.berserk(tournament_id=play.pk, user=players[2], on=True)
    services.start(tournament_id=play.pk)
    play_open_boards(play)
    export = selectors.export(play)
    assert audit_tournament(export)["ok"]
    forged = copy.deepcopy(export)
    forged["rounds"][0]["boards"][0]["berserk"] = [False, False]
    assert any("berserk seats" in e for e in audit_tournament(forged)["errors"])


def test_berserk_is_an_arenas_and_a_match_refuses_it_without_a_real_time_clock(players):
    from games import services as match_services
    from games.errors import BadRequest

    swiss = services.create(user=players[0], data={"name": "S", "game": "nanga-parbat", "kind": "swiss", "rounds": 1})
    services.join(tournament_id=swiss.pk, user=players[0])
    with pytest.raises(BadRequest, match="arena"):
        services.berserk(tournament_id=swiss.pk, user=players[0], on=True)
    with pytest.raises(BadRequest, match="real-time clock"):
        match_services.create_match(user=players[0], game_id="nanga-parbat", seats=[{"human": True}] * 2,
                                    options={}, time_control="3d", berserk=[0])
