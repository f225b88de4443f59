"""A move from the board's form, however it arrives: an htmx POST or a message on the match websocket.

Both ways take the form's fields (``expected_seq``, then either a JSON ``action`` in record notation
or the game's own builder fields), play them through ``games.services.submit_action`` (which holds
``expected_seq``'s guarantee: of two moves made in one position, one is stored and the other gets
409), and say what happened as an HTTP status and a message for the board.  Neither renders: the
answer is the mover's fragment, rendered by whoever sends it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from games import notify, selectors, services
from games.errors import DomainError
from games.models import Match

from . import presenters

LOG_IN = "Log in to play."


@dataclass(frozen=True)
class Outcome:
    """What a move came to: ``status`` 201 (stored) or the 4xx of the API, and ``error`` for the board."""

    status: int
    error: str | None = None
    match: Any = None  # a stored move's match as the move left it (its seats read with it), while in play

    @property
    def stored(self) -> bool:
        return self.status == 201


def fields_of(pairs: Any) -> QueryDict:
    """The form's fields sent as ``[[name, value], ...]`` (a socket message), as a QueryDict like ``request.POST``.

    Raises :class:`presenters.FormError` naming the problem for any other shape."""
    if not isinstance(pairs, list) or len(pairs) > 64:
        raise presenters.FormError("The move's fields must be a list of at most 64 [name, value] pairs.")
    fields = QueryDict(mutable=True)
    for pair in pairs:
        if (not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(part, str) for part in pair)
                or len(pair[0]) > 64 or len(pair[1]) > 4096):
            raise presenters.FormError("Each of the move's fields must be a [name, value] pair of short strings.")
        fields.appendlist(pair[0], pair[1])
    return fields


def action_from_fields(fields: QueryDict, match_id: int, user: Any) -> dict[str, Any]:
    """The action in record notation: a JSON ``action`` field, or the game's own builder fields (which read
    the match; a JSON action does not, so the move itself is the match's only read)."""
    raw = fields.get("action")
    if raw:
        try:
            action: dict[str, Any] = json.loads(raw)
            return action
        except ValueError:
            raise presenters.FormError("The move could not be read (it is not valid JSON).") from None
    match = selectors.get_match(match_id)
    builder = presenters.form_action_builder(match.game_id)
    if builder is None:
        raise presenters.FormError("No move was sent.")
    return builder(fields, selectors.match_view(match, user))


def play(*, match_id: int, user: Any, fields: QueryDict, origin: str | None, lag_ms: int | None) -> Outcome:
    """Play the move ``fields`` describe for ``user``; ``origin``: the page whose own push it spares.

    It reads nothing for the answer: a stored move's outcome carries the match as the move left it."""
    if not getattr(user, "is_authenticated", False):
        return Outcome(403, LOG_IN)
    try:
        expected_seq = int(fields.get("expected_seq", ""))
    except ValueError:
        return Outcome(400, "The move did not say which position it was made in.")
    try:
        action = action_from_fields(fields, match_id, user)
        with notify.from_origin(origin):
            match = services.play_action(match_id=match_id, user=user, action=action, expected_seq=expected_seq,
                                         lag_ms=lag_ms)
    except presenters.FormError as exc:
        return Outcome(400, str(exc))
    except DomainError as exc:
        message = exc.message
        if exc.status == 409:
            message = f"{message} The board below shows the current position."
        return Outcome(exc.status, message)
    # A move that ends the match is answered from a fresh read, so its answer shows the result as stored
    # (JSON), as every later read of it will.
    return Outcome(201, match=match if match.status == Match.Status.ACTIVE else None)


def lag_of(value: Any) -> int | None:
    """The lag a page measured (ms, as a header's text or a message's number); a bad value is ignored."""
    try:
        lag = int(value)
    except (TypeError, ValueError):
        return None
    return lag if 0 <= lag <= 10_000 else None
