"""What happened since the viewer's previous turn: the events a board marks as "the last move".

Every board (live and in replay) marks what changed with the last event(s).
:func:`recent_events` picks them for one viewer and the presenters receive
them as ``match["recent"]``: a list of the same event dicts
:func:`games.selectors.visible_events` returns (``seq``, ``type``, ``payload``,
...), oldest first.  They come from the per-viewer projection, so a mark can
never show a viewer anything their seat may not see.

Which events, for whom (a *turn* is a run of consecutive ``action`` events
by one seat; chance and match events in between belong to it):

* **a seat**: everything after its previous turn, i.e. the other seats' moves
  since then and its own moves since: those of the turn it is playing
  (Nanga Parbat's trap, then activations, then a claim) or has just played
  while nobody else has moved yet.  Precisely, the window starts after the
  seat's last action that some other seat's action followed.
* **a spectator or an anonymous visitor**: the last turn played, i.e. the
  events since the newest seat's turn began (its actions and the chance
  events around them, such as the roll that came with a climb and the next
  roll).
* a seat that has not moved yet: everything visible so far (at most
  ``MAX_RECENT`` events).

The choice depends only on the viewer's *seat* (None for every spectator), so
a fragment cached per seat and seq stays right for everyone in that class.

Cost: the newest events are read in pages (``visible_events(..., last=n)``,
doubling from ``FIRST_PAGE``) until the window's start is found, never more
than ``MAX_RECENT``; the match is never replayed.  A caller that already holds
the newest events (the live log) passes them as ``known`` and usually no
query is made at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games import selectors

FIRST_PAGE = 24
MAX_RECENT = 384  # a window that has not found its start by then is cut here


def _actor(event: dict[str, Any]) -> int | None:
    """The seat that made this event, if it is a player's action."""
    if event.get("type") != "action":
        return None
    payload = event.get("payload") or {}
    seat = payload.get("player") if isinstance(payload, dict) else None
    return seat if isinstance(seat, int) else None


def window(events: Sequence[dict[str, Any]], seat: int | None) -> tuple[list[dict[str, Any]], bool]:
    """The recent events among ``events`` (visible events, oldest first) for ``seat``.

    Returns ``(recent, found)``: ``found`` is False when the window may start
    before the first of ``events`` (so an older page is needed to be sure).
    """
    taken: list[dict[str, Any]] = []
    newest_actor: int | None = None  # a spectator's window: the newest turn's seat
    others_moved = False  # a seat's window: another seat acted after this point
    for event in reversed(events):
        actor = _actor(event)
        if actor is not None:
            if seat is None:
                if newest_actor is None:
                    newest_actor = actor
                elif actor != newest_actor:
                    return taken[::-1], True
            elif actor == seat:
                if others_moved:
                    return taken[::-1], True
            else:
                others_moved = True
        taken.append(event)
    return taken[::-1], False


def recent_in(events: Sequence[dict[str, Any]], seat: int | None, *, until: int | None = None) -> list[dict[str, Any]]:
    """The recent events for ``seat`` among all of a match's visible ``events`` up to seq ``until`` (a replay step)."""
    if until is not None:
        events = [e for e in events if e["seq"] <= until]
    return window(events, seat)[0]


def recent_events(
    match: Any, user: Any, view: dict[str, Any], *, aggregate: Any = None, known: Iterable[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """The recent events for ``user`` (whose ``match_view`` is ``view``), oldest first.

    ``aggregate``: the one ``view`` was built from, so the events agree with
    it.  ``known``: the newest visible events the caller already read for the
    same viewer and aggregate (e.g. the live log), tried before any query.
    """
    seat = view.get("my_seat")
    events = list(known)
    recent, found = window(events, seat)
    if events and (found or events[0]["seq"] <= 1):
        return recent
    page = max(FIRST_PAGE, 2 * len(events))
    while True:
        events = selectors.visible_events(match, user, aggregate=aggregate, last=page, links=False)
        recent, found = window(events, seat)
        if found or len(events) < page or page >= MAX_RECENT:
            return recent[-MAX_RECENT:]
        page *= 2
