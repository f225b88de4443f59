"""Small helpers for the service tests: play a match to the end through the services."""

from __future__ import annotations

import random
from typing import Any

from engine import chain
from games import selectors, services
from games.models import Match


def play_random_move(match_id: int, users_by_seat: dict[int, Any], rng: random.Random) -> int:
    """One random legal move by whichever human is to move; the new seq."""
    match = selectors.get_match(match_id)
    state = selectors.load_state(match)
    seat = state.to_move()[0]
    user = users_by_seat[seat]
    actions = state.legal_actions(seat)
    action = state.action_to_json(seat, actions[rng.randrange(len(actions))])
    return services.submit_action(match_id=match_id, user=user, action=action, expected_seq=match.seq)


def play_to_end(match: Match, users_by_seat: dict[int, Any], *, seed: int = 0, bots_inline: bool = True) -> Match:
    """Play random human moves (and bot turns inline) until the match ends."""
    rng = random.Random(seed)
    for _ in range(5000):
        match = selectors.get_match(match.pk)
        if match.status == Match.Status.FINISHED:
            return match
        if match.bot_to_move:
            assert bots_inline, "a bot is to move"
            assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
        else:
            play_random_move(match.pk, users_by_seat, rng)
    raise AssertionError("the match did not end")


def two_humans(alice: Any, bob: Any) -> Match:
    match = services.create_match(user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}], options={})
    return services.join_match(match_id=match.pk, user=bob)


def finish_quickly(match: Match, *, seed: int = 0) -> Match:
    """Play a started match to the end with random moves, saved in one append.

    The same aggregate commands and save path as the services, without a
    round trip per move: for tests that need a finished match, not the moves.
    """
    from games import store

    rng = random.Random(seed)
    with store.appending(match.pk):
        match, seats = selectors.get_match_for_write(match.pk)
        aggregate = selectors.load_aggregate(match)
        expected_seq, prev_hash = aggregate.seq, aggregate.last_hash
        seed_bytes = bytes.fromhex(match.seed)
        while not aggregate.finished:
            state = aggregate.state
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            action = state.action_to_json(seat, actions[rng.randrange(len(actions))])
            actor = f"bot:{seats[seat].bot_level}" if seats[seat].is_bot else f"user:{seats[seat].user_id}"
            aggregate.act(seat, action, seed_bytes, actor)
        services._save(match, aggregate, seats, expected_seq=expected_seq, prev_hash=prev_hash)
    return selectors.get_match(match.pk)


def check_chain_as_a_viewer(events: list[dict[str, Any]], match_id: int) -> int:
    """Link by link, from one viewer's listing alone; the number of links checked."""
    prev = chain.GENESIS_HASH
    links = 0
    for item in events:
        for skipped in item.get("skipped", []):
            assert skipped["prev_hash"] == prev and set(skipped) == {"seq", "prev_hash", "body_hash", "hash"}
            assert skipped["hash"] == chain.link(prev, skipped["body_hash"])
            prev, links = skipped["hash"], links + 1
        assert item["prev_hash"] == prev, f"event {item['seq']} does not follow the one before"
        assert item["hash"] == chain.link(prev, item["body_hash"])
        if "nonce" in item:
            body = chain.body(match_id, item["seq"], item["type"], item["payload"], item["actor"], item["timestamp"])
            assert item["body_hash"] == chain.body_hash(bytes.fromhex(item["nonce"]), body)
            assert not item.get("redacted")
        else:
            assert item.get("redacted"), "only a sealed event comes without its nonce"
        prev, links = item["hash"], links + 1
    return links


def replayed_redaction(game_id: str, players: int, options: dict[str, Any], rows: list[Any]) -> Any:
    """An independent oracle for the aggregate's redactions: ``redaction(seq, payload, viewer)`` from a
    replay of ``rows`` (every event from seq 1) with the state's own ``redact_event``, as
    ``projection.project_events`` takes it."""
    from engine import get_game
    from games.aggregate import ENGINE_TYPES

    state = get_game(game_id).new_initial_state(players, options)
    decided: dict[int, dict[int | None, Any]] = {}
    for row in rows:
        if row.type in ENGINE_TYPES:
            decided[row.seq] = {viewer: state.redact_event(row.payload, viewer) for viewer in (None, *range(players))}
            state.apply_event(row.payload)
    return lambda seq, payload, viewer: decided[seq][viewer]
