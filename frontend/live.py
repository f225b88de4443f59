"""The match fragment: one function renders it for one viewer.

The page, the move responses and the websocket pushes all render the same
template, ``frontend/match_live.html`` (Jinja2: frontend/jinja2/, frontend/jinja.py), from ``games.selectors.match_view``
for *that* viewer, so a seat's hidden information never reaches anyone else.
(``frontend.fanout`` shares a render only within one viewer class, and
``memo`` a board part only between equal data.)  Templates are
autoescaped; no HTML is assembled in Python strings.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

import ai
from games import selectors
from games.models import Match

from . import jinja, presenters, recent
from .presenters import Player

EVENT_LOG_LIMIT = 40
LOG_CONTEXT = 8  # events read before the shown ones, so the first shown line knows who moved
LOG_ROWS = EVENT_LOG_LIMIT + LOG_CONTEXT
REPLAY_LOG_WINDOW = 60  # events listed on each side of the current one in a replay


def bot_name(level: str) -> str:
    """How the pages name a bot: its level's label, then "bot" ("Easy bot")."""
    return f"{ai.LEVELS.get(level, {}).get('label', level.capitalize())} bot"


def players_of(view: dict[str, Any]) -> list[Player]:
    """The seats of a match view as the page shows them."""
    to_move = set(view.get("to_move") or [])
    my_seat = view.get("my_seat")
    players = []
    levels = [seat.get("bot") for seat in view["seats"] if seat.get("bot")]
    for seat in view["seats"]:
        index = seat["seat"]
        bot = seat.get("bot") or None
        username = seat.get("user")
        if bot:
            # "Easy bot"; two bots of one level at a table are told apart by their seat: "Easy bot 3".
            name = bot_name(bot) + (f" {index + 1}" if levels.count(bot) > 1 else "")
        elif username:
            name = username
        else:
            name = "open seat"
        players.append(
            Player(
                seat=index,
                name=name,
                is_bot=bool(bot),
                bot_level=bot,
                is_you=my_seat == index,
                to_move=index in to_move,
                filled=bool(bot or username),
            )
        )
    return players


def describe_event(event: dict[str, Any], players: list[Player], game_id: str) -> str:
    """One line of the event log for a service event."""
    kind = event.get("type")
    payload = event.get("payload") or {}
    if kind in ("chance", "action"):
        describer = presenters.event_describer(game_id)
        text = describer(payload, players) if describer else None
        if text:
            return text
        if kind == "action" and "player" in payload:
            name = next((p.name for p in players if p.seat == payload["player"]), f"Player {payload['player'] + 1}")
            return f"{name} moved."
        return "Chance event."
    if kind == "created":
        return "Match created."
    if kind == "joined":
        seat = payload.get("seat")
        name = next((p.name for p in players if p.seat == seat), "A player")
        return f"{name} joined." if seat is None else f"{name} took seat {seat + 1}."
    if kind == "started":
        return "All seats are filled: the match starts."
    if kind == "finished":
        return "The match is over. The seed is revealed, so anyone can verify every roll."
    return str(kind or "event").capitalize() + "."


def event_log(events: list[dict[str, Any]], players: list[Player], game_id: str) -> list[dict[str, Any]]:
    """Every visible event as a log line, oldest first."""
    texts: dict[int, str] = {}
    batch = presenters.events_describer(game_id)
    if batch:
        game_events = [e for e in events if e.get("type") in ("chance", "action")]
        for event, text in zip(game_events, batch([e.get("payload") or {} for e in game_events], players)):
            if text:
                texts[id(event)] = text
    return [
        {
            "seq": e.get("seq"),
            "text": texts.get(id(e)) or describe_event(e, players, game_id),
            "type": e.get("type"),
        }
        for e in events
    ]


def result_lines(view: dict[str, Any], players: list[Player]) -> dict[str, Any] | None:
    result = view.get("result")
    if not result:
        return None
    winners = set(result.get("winners") or [])
    scores = result.get("scores") or []
    ranking = result.get("ranking")
    rows: list[dict[str, Any]] = []
    for player in players:
        rows.append(
            {
                "player": player,
                "score": scores[player.seat] if player.seat < len(scores) else None,
                "place": (ranking[player.seat] + 1) if ranking else None,
                "winner": player.seat in winners,
            }
        )
    rows.sort(key=lambda r: (r["place"] if r["place"] is not None else 99, -(r["score"] or 0)))
    names = [p.name for p in players if p.seat in winners]
    if view.get("my_seat") is not None:
        headline = "You won!" if view["my_seat"] in winners and len(winners) == 1 else (
            "A shared victory!" if view["my_seat"] in winners else "You lost."
        )
    else:
        headline = ""
    if len(names) == 1:
        summary = f"{names[0]} wins."
    elif names:
        summary = "Shared victory: " + ", ".join(names) + "."
    else:
        summary = "No winner."
    return {"rows": rows, "headline": headline, "summary": summary, "you_won": view.get("my_seat") in winners}


_UNSET: Any = object()


def move_url(match_id: int) -> str:
    """Where the board's move forms post: reversed once per render, not once per form (a Mountain Goats
    board has a form for every climb offered)."""
    return jinja.url("frontend:submit_move", match_id)


def match_context(
    match: Match, user: Any, *, error: str | None = None, oob: bool = False, aggregate: Any = None,
    ranked: Any = _UNSET, newest: Any = None, shown: int | None = None,
) -> dict[str, Any]:
    """The fragment's context for ``user``.  ``aggregate``, ``ranked`` (the ranked panel's data, the
    same for every viewer) and ``newest`` (the newest event rows, ``selectors.newest_rows``) may be
    given by a caller that renders one position for several viewers; ``shown``: the seq a spectator
    of a delayed match is shown, when the caller decided it already."""
    if aggregate is None:
        aggregate = selectors.load_aggregate(match)
    # Spectators of a rated match may see it N moves or seconds behind: that position, its clocks too.
    delayed = selectors.delayed_aggregate(match, user, seq=aggregate.seq, shown=shown)
    if delayed is not None:
        aggregate, ranked = delayed, _UNSET
    view = selectors.match_view(match, user, aggregate=aggregate)
    players = players_of(view)
    # Only the newest events (a few more than shown: a describer takes the mover from the lines before).
    events = list(selectors.visible_events(match, user, aggregate=aggregate, last=LOG_ROWS, newest=newest, links=False))
    view["recent"] = recent.recent_events(match, user, view, aggregate=aggregate, known=events)  # frontend/recent.py
    log = event_log(events, players, view["game"])[-EVENT_LOG_LIMIT:]
    log.reverse()
    to_move = [p for p in players if p.to_move]
    bots_thinking = view["status"] == "active" and bool(to_move) and all(p.is_bot for p in to_move)
    my_turn = view.get("my_seat") is not None and view.get("my_seat") in (view.get("to_move") or [])
    open_seats = [p for p in players if not p.filled]
    return {
        "match": view,
        "match_id": view["id"],
        "players": players,
        "to_move": to_move,
        "my_turn": my_turn,
        "bots_thinking": bots_thinking,
        "spectator": view.get("my_seat") is None,
        "open_seats": open_seats,
        "can_join": view["status"] == "waiting" and view.get("my_seat") is None and bool(open_seats)
        and getattr(user, "is_authenticated", False),
        "board": presenters.present(view, players) if view["status"] != "waiting" else None,
        "board_template": presenters.board_template(view["game"]),
        "move_url": move_url(view["id"]),
        "log": log,
        "result": result_lines(view, players),
        "viewer_is_authenticated": bool(getattr(user, "is_authenticated", False)),
        "error": error,
        "oob": oob,
        "ranked": _ranked(match, aggregate) if ranked is _UNSET else ranked,
    }


def ranked_panel(match: Match, aggregate: Any) -> dict[str, Any] | None:
    """The ranked panel's data for the position of ``aggregate`` (viewer-independent)."""
    return _ranked(match, aggregate)


def _ranked(match: Match, aggregate: Any) -> dict[str, Any] | None:
    """The ranked panel's data (clocks, ratings, forfeits) from the same aggregate; the tag only formats it."""
    from games.errors import DomainError
    from games.ranking.services import ranked_view

    try:
        return ranked_view(match, aggregate=aggregate)
    except DomainError:
        return None


def render_match_fragment(
    match: Match, user: Any, *, error: str | None = None, oob: bool = False, request: HttpRequest | None = None,
    aggregate: Any = None, ranked: Any = _UNSET, newest: Any = None, shown: int | None = None,
) -> str:
    """The ``#match-live`` fragment for ``user`` (``oob``: marked for an htmx out-of-band swap)."""
    return render_match_fragment_at(
        match, user, error=error, oob=oob, request=request, aggregate=aggregate, ranked=ranked, newest=newest,
        shown=shown,
    )[1]


def render_match_fragment_at(
    match: Match, user: Any, *, error: str | None = None, oob: bool = False, request: HttpRequest | None = None,
    aggregate: Any = None, ranked: Any = _UNSET, newest: Any = None, shown: int | None = None,
) -> tuple[int, str]:
    """(the seq it shows, the ``#match-live`` fragment for ``user``): behind the match's own seq for a
    spectator of a delayed match; the fragment's ``data-seq`` says the same."""
    context = match_context(
        match, user, error=error, oob=oob, aggregate=aggregate, ranked=ranked, newest=newest, shown=shown
    )
    return context["match"]["seq"], render_to_string("frontend/match_live.html", context, request=request, using="jinja2")


def replay_context(match: Match, user: Any, seq: int | None = None) -> dict[str, Any]:
    """One step of a replay for ``user``: the match as it stood after event ``seq`` (default: the last).

    ``seq`` is clamped to the match's events.  The board is the viewer's
    observation at that step (``selectors.match_view_at``), and the log lists
    every event the viewer may see, the current one marked.
    """
    # a spectator of a match shown behind replays only what they are shown
    events = selectors.visible_events(match, user, aggregate=selectors.delayed_aggregate(match, user), links=False)
    last = events[-1]["seq"]  # every match has its created event
    seq = last if seq is None else max(1, min(seq, last))
    view = selectors.match_view_at(match, user, seq)
    view["recent"] = recent.recent_in(events, view.get("my_seat"), until=seq)  # frontend/recent.py
    players = players_of(view)
    log = event_log(events, players, view["game"])
    current = None
    at = 0
    for index, item in enumerate(log):
        item["current"] = item["seq"] == seq
        item["future"] = item["seq"] > seq
        if item["current"]:
            current, at = item, index
    # A window of the log around the current event: a long Mountainhome match has thousands.
    start, stop = max(0, at - REPLAY_LOG_WINDOW), at + REPLAY_LOG_WINDOW + 1
    before = log[start - 1]["seq"] if start > 0 else None
    after = log[stop]["seq"] if stop < len(log) else None
    log = log[start:stop]
    return {
        "match": view,
        "match_id": view["id"],
        "players": players,
        "spectator": view.get("my_seat") is None,
        "board": presenters.present(view, players) if view["status"] != "waiting" else None,
        "board_template": presenters.board_template(view["game"]),
        "move_url": move_url(view["id"]),
        "log": log,
        "log_before": before,
        "log_after": after,
        "current": current,
        "result": result_lines(view, players),
        "step": {
            "seq": seq,
            "first": 1,
            "last": last,
            "prev": max(1, seq - 1),
            "next": min(last, seq + 1),
            "at_start": seq <= 1,
            "at_end": seq >= last,
        },
        "live_status": match.status,
    }
