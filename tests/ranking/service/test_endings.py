"""Resign, abort and time-outs: match events, replayable and verifiable like moves."""

from __future__ import annotations

import random
import time

import pytest

from engine import all_games
from games import selectors, services
from games.errors import Conflict, Forbidden
from games.models import Event, Match, MatchClock, Seat
from games.ranking.models import Rating, RatingChange
from games.verify import verify_match
from tests.ranking.helpers import everyone_moves, move_once, new_match

pytestmark = pytest.mark.django_db


def types_of(match: Match) -> list[str]:
    return list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


def test_a_rated_match_needs_every_seat_human(alice):
    from games.errors import BadRequest

    with pytest.raises(BadRequest, match="only human seats"):
        services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"bot": "random"}],
                              rated=True)


def test_the_rated_flag_and_time_control_are_in_the_created_event(alice, bob):
    match = new_match([alice, bob], time_control="3+2")
    created = Event.objects.get(match=match, seq=1)
    assert created.payload["rated"] is True
    assert created.payload["time_control"] == {"kind": "realtime", "base": 180, "increment": 2}
    assert match.rated and match.time_control["base"] == 180
    assert verify_match(match).ok


def test_resigning_a_two_player_match_gives_the_win_to_the_opponent_and_rates_it(alice, bob):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    services.resign(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.ending == "resigned"
    assert match.result["winners"] == [1] and match.result["ranking"] == [1, 0] and match.result["forfeits"] == [0]
    assert types_of(match)[-2:] == ["resigned", "finished"]
    assert verify_match(match).ok
    alice_r, bob_r = (Rating.objects.get(user=u, game_id="mountain-goats") for u in (alice, bob))
    assert bob_r.rating > 1500 > alice_r.rating and bob_r.games == alice_r.games == 1
    with pytest.raises(Conflict):
        services.resign(match_id=match.pk, user=bob)


def test_resigning_is_allowed_before_anyone_moved_and_a_spectator_cannot_resign(alice, bob, carol):
    match = new_match([alice, bob], rated=False)
    with pytest.raises(Forbidden):
        services.resign(match_id=match.pk, user=carol)
    services.resign(match_id=match.pk, user=bob)
    match = Match.objects.get(pk=match.pk)
    assert match.result["winners"] == [0] and not match.rated
    assert RatingChange.objects.count() == 0  # casual: no rating changes


def test_abort_before_every_player_moved_ends_with_no_result_and_no_rating_change(alice, bob):
    match = new_match([alice, bob])
    move_once(match.pk, [alice, bob], random.Random(1))  # one seat has moved, the other not yet
    services.abort(match_id=match.pk, user=bob)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.ending == "aborted" and match.result is None
    assert types_of(match)[-2:] == ["aborted", "finished"]
    assert RatingChange.objects.count() == 0 and Rating.objects.count() == 0
    assert verify_match(match).ok


def test_abort_is_refused_once_every_player_has_moved(alice, bob):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    with pytest.raises(Conflict, match="resign instead"):
        services.abort(match_id=match.pk, user=alice)


def test_a_four_player_resignation_hands_the_seat_to_a_bot_that_plays_on_and_ranks_last(alice, bob, carol, dave):
    users = [alice, bob, carol, dave]
    match = new_match(users)
    everyone_moves(match.pk, users)
    services.resign(match_id=match.pk, user=carol)
    seat = Seat.objects.get(match=match, index=2)
    assert seat.replaced and seat.bot_level == "random" and seat.user_id == carol.pk
    assert types_of(Match.objects.get(pk=match.pk))[-2:] == ["resigned", "seat_replaced"]
    rng = random.Random(2)
    for _ in range(40):  # play until the replaced seat is to move: carol may not move for it
        m = selectors.get_match(match.pk)
        state = selectors.load_state(m)
        if 2 in state.to_move():
            with pytest.raises(Forbidden, match="played by a bot"):
                services.submit_action(match_id=m.pk, user=carol,
                                       action=state.action_to_json(2, state.legal_actions(2)[0]), expected_seq=m.seq)
            break
        move_once(m.pk, users, rng)
    else:
        raise AssertionError("seat 2 never came to move")
    # Play on to the end (the bot too, in one append): carol ranks last.
    from tests.service.helpers import finish_quickly

    match = finish_quickly(selectors.get_match(match.pk), seed=3)
    assert match.result["ranking"][2] == 3 and 2 not in match.result["winners"]
    assert match.ending == "normal"
    assert verify_match(match).ok
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert len(changes) == 4 and changes[carol.pk].place == 3 and changes[carol.pk].system == "openskill-pl"
    assert changes[carol.pk].rating_after < 1500


def _wait_past_deadline(match: Match) -> None:
    clock = MatchClock.objects.get(match=match)
    from django.utils import timezone

    pause = (clock.deadline - timezone.now()).total_seconds() + 0.05
    if pause > 0:
        time.sleep(pause)


def test_a_two_player_timeout_ends_the_match_with_no_client_connected(alice, bob):
    match = new_match([alice, bob], time_control={"kind": "realtime", "base": 2, "increment": 0})
    everyone_moves(match.pk, [alice, bob])
    match = Match.objects.get(pk=match.pk)
    on_move = match.to_move[0]
    assert services.check_timeout(match.pk, seq=match.seq) == "in_time"
    _wait_past_deadline(match)
    # What the scheduled Celery task runs (games.tasks.check_timeout):
    from games.tasks import check_timeout

    assert check_timeout(match.pk, match.seq) == "timeout"
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.ending == "timeout"
    assert match.result["winners"] == [1 - on_move]
    assert types_of(match)[-2:] == ["timed_out", "finished"]
    assert verify_match(match).ok
    assert RatingChange.objects.filter(match=match).count() == 2
    assert check_timeout(match.pk, match.seq) == "stale"  # idempotent


def test_a_timeout_before_every_player_moved_aborts_the_match(alice, bob):
    match = new_match([alice, bob], time_control={"kind": "realtime", "base": 1, "increment": 0})
    _wait_past_deadline(match)
    assert services.sweep_timeouts() == {match.pk: "aborted"}
    match = Match.objects.get(pk=match.pk)
    assert match.ending == "aborted" and match.result is None and verify_match(match).ok


def test_a_four_player_timeout_hands_the_seat_to_a_bot(alice, bob, carol, dave):
    users = [alice, bob, carol, dave]
    match = new_match(users, time_control={"kind": "realtime", "base": 2, "increment": 0})
    everyone_moves(match.pk, users)
    match = Match.objects.get(pk=match.pk)
    on_move = match.to_move[0]
    _wait_past_deadline(match)
    assert services.sweep_timeouts() == {match.pk: "timeout"}
    match = Match.objects.get(pk=match.pk)
    assert match.status == "active" and match.bot_to_move
    seat = Seat.objects.get(match=match, index=on_move)
    assert seat.replaced and seat.bot_level == "random"
    assert types_of(match)[-2:] == ["timed_out", "seat_replaced"]
    assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
    assert verify_match(Match.objects.get(pk=match.pk)).ok


def test_verify_refuses_a_timeout_recorded_before_the_clock_ran_out(alice, bob):
    match = new_match([alice, bob], time_control="5+0")
    everyone_moves(match.pk, [alice, bob])

    def premature(m, aggregate, seats):
        aggregate.time_out(aggregate.state.to_move()[0], bytes.fromhex(m.seed), bot="random")

    services.command(match.pk, premature)
    verdict = verify_match(Match.objects.get(pk=match.pk))
    assert not verdict.ok and verdict.check == "endings" and "before its clock ran out" in verdict.message


@pytest.mark.parametrize("game_id", [g.id for g in all_games()])
def test_every_game_can_be_played_rated_resigned_and_verified(game_id, alice, bob):
    match = services.create_match(user=alice, game_id=game_id, seats=[{"human": True}, {"human": True}],
                                  rated=True, time_control="5+10")
    match = services.join_match(match_id=match.pk, user=bob)
    everyone_moves(match.pk, [alice, bob], seed=4)  # two moves each: a rated result
    services.resign(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert match.ending == "resigned" and match.result["winners"] == [1]
    assert verify_match(match).ok
    assert RatingChange.objects.filter(match=match).count() == 2
