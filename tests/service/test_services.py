"""Services: create, join, act, bot turns, fair chance and the per-viewer projection."""

from __future__ import annotations

import hashlib

import pytest

from engine import REDACTION
from engine.fair import chance_rng, chance_seed, commitment
from engine.games.mountain_goats import MountainGoats, MountainGoatsState
from games import projection, selectors, services
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Event, Match

from .helpers import finish_quickly, play_to_end, two_humans

pytestmark = pytest.mark.django_db(databases="__all__")

MG = "mountain-goats"


def test_a_match_against_a_bot_starts_at_once_and_draws_the_first_player(backend, alice):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}], options={})
    assert match.status == "active"
    types = list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))
    # created, started, then chance until a player is to move: the first player and the first roll.
    assert types == ["created", "started", "chance", "chance"]
    assert match.to_move == list(selectors.load_state(match).to_move())
    assert match.bot_to_move == (match.to_move == [1])


def test_the_creator_takes_the_first_human_seat(backend, alice):
    match = services.create_match(user=alice, game_id=MG, seats=[{"bot": "random"}, {"human": True}, {"human": True}])
    seats = selectors.seats_of(selectors.get_match(match.pk))
    assert [(s.index, s.user_id, s.bot_level) for s in seats] == [(0, None, "random"), (1, alice.pk, ""), (2, None, "")]
    assert match.status == "waiting"


def test_a_match_starts_when_the_last_seat_is_filled(backend, alice, bob, carol):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}] * 3)
    assert services.join_match(match_id=match.pk, user=bob).status == "waiting"
    match = services.join_match(match_id=match.pk, user=carol)
    assert match.status == "active"
    assert [s.user_id for s in selectors.seats_of(selectors.get_match(match.pk))] == [alice.pk, bob.pk, carol.pk]


def test_joining_twice_a_full_match_or_an_unknown_match_is_refused(backend, alice, bob, carol):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}])
    with pytest.raises(Conflict, match="already hold a seat"):
        services.join_match(match_id=match.pk, user=alice)
    services.join_match(match_id=match.pk, user=bob)
    with pytest.raises(Conflict) as caught:
        services.join_match(match_id=match.pk, user=carol)
    assert caught.value.code == "match_started"
    with pytest.raises(NotFound):
        services.join_match(match_id=987654, user=carol)


@pytest.mark.parametrize(
    "seats, options, code",
    [
        ([], {}, "bad_seats"),
        ([{"bot": "random"}, {"bot": "random"}], {}, "bad_seats"),
        ([{"human": True}, {"bot": "grandmaster"}], {}, "bad_seats"),
        ([{"human": True}, {"robot": 1}], {}, "bad_seats"),
        ([{"human": True}], {}, "bad_options"),
        ([{"human": True}] * 5, {}, "bad_options"),
        ([{"human": True}, {"human": True}], {"speed": "fast"}, "bad_options"),
    ],
)
def test_create_refuses_bad_seats_and_options_with_a_message(backend, alice, seats, options, code):
    with pytest.raises(BadRequest) as caught:
        services.create_match(user=alice, game_id=MG, seats=seats, options=options)
    assert caught.value.code == code and caught.value.message
    assert not Match.objects.exists()


def test_create_refuses_an_unknown_game(backend, alice):
    with pytest.raises(BadRequest, match="unknown game 'chess'"):
        services.create_match(user=alice, game_id="chess", seats=[{"human": True}, {"human": True}])


def test_it_rejects_a_move_out_of_turn(backend, alice, bob):
    match = two_humans(alice, bob)
    state = selectors.load_state(match)
    idle = bob if state.to_move() == (0,) else alice
    with pytest.raises(Forbidden) as caught:
        services.submit_action(match_id=match.pk, user=idle, action={"climb": []}, expected_seq=match.seq)
    assert caught.value.code == "not_your_turn" and "to move" in caught.value.message


def test_it_rejects_a_move_by_someone_without_a_seat(backend, alice, bob, carol):
    match = two_humans(alice, bob)
    with pytest.raises(Forbidden) as caught:
        services.submit_action(match_id=match.pk, user=carol, action={"climb": []}, expected_seq=match.seq)
    assert caught.value.code == "not_a_player"


def _mover(match, alice, bob):
    return alice if selectors.load_state(match).to_move() == (0,) else bob


def test_it_rejects_an_illegal_climb_naming_the_roll(backend, alice, bob):
    match = two_humans(alice, bob)
    state = selectors.load_state(match)
    legal = {tuple(a) for a in state.legal_actions(state.to_move()[0])}
    illegal = next(c for c in ([5, 6, 7, 8], [10, 10, 10, 10], [9, 9, 9, 9]) if tuple(c) not in legal)
    with pytest.raises(BadRequest) as caught:
        services.submit_action(match_id=match.pk, user=_mover(match, alice, bob), action={"climb": illegal}, expected_seq=match.seq)
    assert caught.value.code == "illegal_action"
    assert str(illegal) in caught.value.message and "roll" in caught.value.message


@pytest.mark.parametrize("action", [{"jump": [5]}, {"climb": "five"}, {"climb": [11]}, [5, 6], None])
def test_it_rejects_a_malformed_action(backend, alice, bob, action):
    match = two_humans(alice, bob)
    with pytest.raises(BadRequest) as caught:
        services.submit_action(match_id=match.pk, user=_mover(match, alice, bob), action=action, expected_seq=match.seq)
    assert caught.value.code == "malformed_action"


@pytest.mark.parametrize("expected_seq", [None, "7", -1, True, 1.5])
def test_it_rejects_a_malformed_expected_seq(backend, alice, bob, expected_seq):
    match = two_humans(alice, bob)
    with pytest.raises(BadRequest):
        services.submit_action(match_id=match.pk, user=alice, action={"climb": []}, expected_seq=expected_seq)


def test_moves_before_the_start_and_after_the_end_conflict(backend, alice, bob):
    waiting = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}])
    with pytest.raises(Conflict) as caught:
        services.submit_action(match_id=waiting.pk, user=alice, action={"climb": []}, expected_seq=waiting.seq)
    assert caught.value.code == "match_not_started"
    finished = finish_quickly(two_humans(alice, bob), seed=5)
    with pytest.raises(Conflict) as caught:
        services.submit_action(match_id=finished.pk, user=alice, action={"climb": []}, expected_seq=finished.seq)
    assert caught.value.code == "match_finished"


def test_the_seed_is_committed_at_creation_and_revealed_only_in_the_final_event(backend, alice, bob):
    match = two_humans(alice, bob)
    assert match.commitment == commitment(bytes.fromhex(match.seed))
    created = Event.objects.get(match=match, seq=1)
    assert created.payload["commitment"] == match.commitment
    view = selectors.match_view(selectors.get_match(match.pk), alice)
    assert view["commitment"] == match.commitment and view["seed"] is None
    assert match.seed not in str(selectors.visible_events(match, alice)) + str(selectors.record(match, alice))
    match = play_to_end(match, {0: alice, 1: bob}, seed=11)
    events = list(Event.objects.filter(match=match).order_by("seq"))
    assert [e.seq for e in events if match.seed in str(e.payload)] == [events[-1].seq]
    assert events[-1].payload["seed"] == match.seed
    assert selectors.match_view(match, bob)["seed"] == match.seed


def test_every_chance_outcome_is_drawn_from_the_seed_and_its_seq(backend, alice, bob):
    match = finish_quickly(two_humans(alice, bob), seed=2)
    # the chance seed: the server's seed and both seats' contributions, in seat order (docs/AUDIT.md)
    shares = [Event.objects.get(match=match, seq=1).payload["contribution"],
              Event.objects.get(match=match, type="joined").payload["contribution"]]
    seed = chance_seed(bytes.fromhex(match.seed), [bytes.fromhex(share["value"]) for share in shares])
    state = selectors.load_aggregate(match, events=[]).state
    chance = 0
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.type == "chance":
            expected = state.chance_to_json(state.sample_chance(chance_rng(seed, event.seq)))
            assert event.payload == {"chance": expected}
            chance += 1
        if event.type in ("chance", "action"):
            state.apply_event(event.payload)
    assert chance > 10


def test_the_final_event_holds_the_replayed_result(backend, alice, bob):
    match = finish_quickly(two_humans(alice, bob), seed=4)
    state = selectors.load_state(match)
    final = Event.objects.filter(match=match).order_by("-seq").first()
    assert final.type == "finished"
    assert final.payload["result"] == {"scores": state.scores(), "winners": state.winners(), "ranking": state.ranking()}
    assert match.result == final.payload["result"]


def test_a_whole_match_against_the_random_bot_through_the_bot_service(backend, alice):
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}])
    match = play_to_end(match, {0: alice}, seed=9)
    assert match.status == "finished"
    actors = set(Event.objects.filter(match=match, type="action").values_list("actor", flat=True))
    assert actors == {f"user:{alice.pk}", "bot:random"}


def test_a_stale_bot_task_does_nothing(backend, alice):
    match = services.create_match(user=alice, game_id=MG, seats=[{"bot": "random"}, {"human": True}])
    match = selectors.get_match(match.pk)
    if not match.bot_to_move:  # alice starts: make her move so the bot is to move
        state = selectors.load_state(match)
        services.submit_action(match_id=match.pk, user=alice, action=state.action_to_json(1, state.legal_actions(1)[0]), expected_seq=match.seq)
        match = selectors.get_match(match.pk)
    assert match.bot_to_move
    assert services.play_bot_turn(match_id=match.pk, seq=match.seq - 1) == "stale"
    assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
    # the same task delivered twice (a retry, a redelivery): the second does nothing
    assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "stale"
    assert services.play_bot_turn(match_id=424242, seq=1) == "missing"


def test_the_bot_is_handed_only_its_seats_observation(backend, alice, monkeypatch):
    seen = {}
    import ai

    real = ai.choose_move

    def spy(game_id, observation, seat, **kwargs):
        seen.update(observation=observation, seat=seat, kwargs=kwargs)
        return real(game_id, observation, seat, **kwargs)

    monkeypatch.setattr(services.ai, "choose_move", spy)
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}])
    match = play_to_end(match, {0: alice}, seed=1)
    assert seen["seat"] == 1
    assert seen["observation"]["viewer"] == 1
    assert match.seed not in str(seen)
    assert seen["kwargs"]["level"] == "random" and isinstance(seen["kwargs"]["seed"], int)
    # The worker passes its clock in, so a level's seconds budget is enforced (ai/ reads no clock).
    clock = seen["kwargs"]["clock"]
    assert callable(clock) and isinstance(clock(), float)


def test_bot_seeds_differ_per_match_and_seq_and_are_reproducible():
    assert services.bot_seed(1, 5) == services.bot_seed(1, 5)
    assert len({services.bot_seed(m, s) for m in range(1, 5) for s in range(1, 50)}) == 4 * 49
    assert services.bot_seed(1, 5) == int.from_bytes(hashlib.sha256(b"cairn-bot:1:5").digest()[:8], "big")


def test_stalled_bot_turns_are_found_and_requeued(backend, alice, monkeypatch):
    from datetime import timedelta

    from games import dispatch

    queued = []
    monkeypatch.setattr(dispatch, "bot_turn", lambda *args, **options: queued.append(args))
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"bot": "random"}])
    if not match.bot_to_move:
        state = selectors.load_state(match)
        services.submit_action(match_id=match.pk, user=alice, action=state.action_to_json(0, state.legal_actions(0)[0]), expected_seq=match.seq)
        match = selectors.get_match(match.pk)
    assert services.requeue_stalled_bot_turns(older_than=timedelta(hours=1)) == 0
    assert services.requeue_stalled_bot_turns(older_than=timedelta(seconds=-1)) == 1
    assert queued == [(match.pk, match.seq)]
    Match.objects.filter(pk=match.pk).update(updated_at=match.updated_at - timedelta(minutes=5))
    assert services.nudge_if_stalled(selectors.get_match(match.pk)) is True
    assert queued[-1] == (match.pk, match.seq)


def test_views_are_per_viewer_and_legal_actions_only_for_the_seat_to_move(backend, alice, bob, carol):
    match = selectors.get_match(two_humans(alice, bob).pk)
    state = selectors.load_state(match)
    mover, idle = (alice, bob) if state.to_move() == (0,) else (bob, alice)
    mine = selectors.match_view(match, mover)
    assert mine["legal_actions"] == [state.action_to_json(mine["my_seat"], a) for a in state.legal_actions(mine["my_seat"])]
    assert mine["view"] == state.observation(mine["my_seat"])
    assert selectors.match_view(match, idle)["legal_actions"] == []
    spectator = selectors.match_view(match, carol)
    assert spectator["my_seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"] == state.observation(None)
    assert set(mine) >= {"id", "game", "status", "seq", "seats", "to_move", "my_seat", "view", "legal_actions", "result"}


def test_a_games_redact_event_hook_filters_events_and_records_per_viewer(backend, alice, bob, monkeypatch):
    def redact_event(self, event, viewer):
        if "chance" in event and viewer != 0:
            return {"chance": "hidden"}
        return event

    monkeypatch.setattr(MountainGoatsState, "redact_event", redact_event)
    monkeypatch.setattr(MountainGoats, "features", frozenset({REDACTION}))
    match = selectors.get_match(two_humans(alice, bob).pk)
    seat_of_alice = selectors.seat_of(match, alice)
    assert seat_of_alice == 0
    for_alice = selectors.visible_events(match, alice)
    for_bob = selectors.visible_events(match, bob)
    assert [e["payload"] for e in for_alice if e["type"] == "chance"][0] != {"chance": "hidden"}
    assert all(e["payload"] == {"chance": "hidden"} and e["redacted"] for e in for_bob if e["type"] == "chance")
    assert all(e["payload"] == {"chance": "hidden"} for e in selectors.visible_events(match, None) if e["type"] == "chance")
    assert {"chance": "hidden"} in selectors.record(match, bob)["events"]
    assert selectors.visible_events(match, bob, after=3) == [e for e in for_bob if e["seq"] > 3]


def test_lobby_lists_waiting_matches_with_open_seats_and_user_matches_lists_mine(backend, alice, bob, carol):
    open_match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}])
    full = two_humans(alice, bob)
    bot_match = services.create_match(user=carol, game_id=MG, seats=[{"human": True}, {"bot": "random"}])
    assert [m.pk for m in selectors.lobby(bob)] == [open_match.pk]
    assert {m.pk for m in selectors.user_matches(alice)} == {open_match.pk, full.pk}
    assert [m.pk for m in selectors.user_matches(carol)] == [bot_match.pk]
    assert list(selectors.user_matches(None)) == []


def test_project_events_can_start_after_a_seq(backend, alice, bob):
    match = two_humans(alice, bob)
    events = selectors.visible_events(match, alice, after=2)
    assert [e["seq"] for e in events] == list(range(3, match.seq + 1))
    assert projection.record_events(events) == [e["payload"] for e in events if e["type"] in ("chance", "action")]
