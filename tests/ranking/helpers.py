"""Helpers for the ranked-play tests: play matches through the services."""

from __future__ import annotations

import random
from typing import Any


def seated(match_id: int, users: list[Any]) -> dict[int, Any]:
    from games.models import Seat

    by_id = {u.pk: u for u in users}
    return {s.index: by_id.get(s.user_id) for s in Seat.objects.filter(match_id=match_id)}


def move_once(match_id: int, users: list[Any], rng: random.Random) -> None:
    """The human to move plays one random legal move."""
    from games import selectors, services

    match = selectors.get_match(match_id)
    state = selectors.load_state(match)
    seat = state.to_move()[0]
    actions = state.legal_actions(seat)
    action = state.action_to_json(seat, actions[rng.randrange(len(actions))])
    services.submit_action(match_id=match_id, user=seated(match_id, users)[seat], action=action, expected_seq=match.seq)


def everyone_moves_once(match_id: int, users: list[Any], seed: int = 0) -> None:
    everyone_moves(match_id, users, times=1, seed=seed)


def everyone_moves(match_id: int, users: list[Any], *, times: int = 2, seed: int = 0) -> None:
    """Play random moves until every seat has made ``times`` moves (2: enough for a rated result)."""
    from collections import Counter

    from games import selectors
    from games.models import Event

    rng = random.Random(seed)
    for _ in range(400):
        aggregate = selectors.load_aggregate(selectors.get_match(match_id))
        made = Counter(Event.objects.filter(match_id=match_id, type="action").values_list("payload__player", flat=True))
        if all(made[seat] >= times for seat in range(aggregate.players)) or aggregate.finished:
            return
        move_once(match_id, users, rng)
    raise AssertionError(f"not every seat moved {times} times")


def new_match(users: list[Any], *, rated: bool = True, time_control: Any = "5+10") -> Any:
    """A started match of Mountain Goats with ``users`` in seat order."""
    from games import services

    match = services.create_match(
        user=users[0], game_id="mountain-goats", seats=[{"human": True}] * len(users), options={},
        rated=rated, time_control=time_control,
    )
    for user in users[1:]:
        match = services.join_match(match_id=match.pk, user=user)
    return match
