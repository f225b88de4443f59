"""The per-viewer projection: everything that leaves the server passes through here.

API bodies, event listings, record exports and websocket fragments are all
built from :func:`observation`, :func:`legal_actions` and
:func:`project_events`.  A viewer is a seat number or ``None`` (a spectator).

Hidden information: a game that declares ``REDACTION`` in ``Game.features``
overrides ``State.redact_event(event, viewer_seat) -> event`` (``event`` a
``cairn-record/1`` entry; it is called on the state just *before* that event is
applied, so it knows whose card was dealt).  Other games have only public events.  It is
called in one place, the match aggregate's fold
(:meth:`games.aggregate.MatchAggregate.shown` gives what it decided); this
module never replays a match to redact it.
An entry redacted to neither a ``player`` nor a ``chance`` entry (Mountainhome's
declined reaction window, ``{"sealed": true}``) is left out of the viewer's
listing and record export altogether.
Chance outcomes are otherwise public once drawn.  The match seed is never in
any event but the final one.

Once the match has ended (``reveal``), nothing is redacted any more: every
viewer gets every event as stored, with its nonce, so the record can be
audited offline.

The hash chain (:mod:`engine.chain`): with ``match`` given, every listed event
carries ``prev_hash`` and ``hash``, and under chain version 2 ``body_hash``;
its ``nonce`` only when the viewer may see the payload as stored.  An event
left out of a viewer's listing appears, as ``{"seq", "prev_hash",
"body_hash", "hash"}`` only, in the ``skipped`` list of the next event listed,
so the chain still checks link by link.  A version 1 match of a game with
hidden information shows no hashes until it ends: a version 1 hash does not
hide the payload it covers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine import REDACTION, State, get_game

from .aggregate import ENGINE_TYPES
from .store import chain_fields, timestamp_text


def observation(state: State, viewer: int | None) -> dict[str, Any]:
    return state.observation(viewer)


def to_move(state: State, viewer: int | None, view: dict[str, Any] | None = None) -> list[int]:
    """The seats ``viewer`` may know are to move.

    A game whose observation has its own ``to_move`` decides it: Mountainhome
    hides a reaction window from everyone but the asked seat (§10.5), so the
    others see nobody to move rather than who holds the window.
    """
    if view is None:
        view = state.observation(viewer)
    shown = view.get("to_move") if isinstance(view, dict) else None
    return list(shown) if isinstance(shown, list) else list(state.to_move())


def legal_actions(state: State, viewer: int | None) -> list[dict[str, Any]]:
    if viewer is None or viewer not in state.to_move():
        return []
    return [state.action_to_json(viewer, action) for action in state.legal_actions(viewer)]


def has_redaction(game_id: str) -> bool:
    """Whether the game hides anything in its events (it declares ``REDACTION``)."""
    return REDACTION in get_game(game_id).features


def _public(event: Any, payload: Any, match: Any = None, *, sealed: bool = False, hide_hashes: bool = False) -> dict[str, Any]:
    item = {
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "timestamp": timestamp_text(event.timestamp),
        "payload": payload,
        "prev_hash": None if hide_hashes else event.prev_hash,
        "hash": None if hide_hashes else event.hash,
    }
    if match is not None and not hide_hashes:
        item.update(chain_fields(event, match, reveal=not sealed))
    return item


def _link_only(event: Any, match: Any) -> dict[str, Any]:
    """An event left out of a viewer's listing, as the chain needs it: no type, actor, time or payload."""
    link = {"seq": event.seq, "prev_hash": event.prev_hash, "hash": event.hash}
    if match is not None:
        link.update(chain_fields(event, match, reveal=False))
    return link


def project_events(
    game_id: str, events: Iterable[Any], viewer: int | None, *, after: int = 0,
    redaction: Callable[[int, Any, int | None], Any] | None = None, match: Any = None, reveal: bool = False,
    links: bool = True,
) -> list[dict[str, Any]]:
    """The events with ``seq > after`` as ``viewer`` may see them.

    When the game redacts and the match has not ended, ``redaction(seq, payload, viewer)`` gives each
    engine entry as ``viewer`` may see it: the match aggregate's
    (:meth:`games.aggregate.MatchAggregate.shown`, decided during its fold).  Any suffix of the events
    will do.
    ``match``: add the chain fields (see the module's doc).  ``reveal``: the
    match has ended, so every event is shown as stored.  ``links=False``: leave the chain fields out
    (a page's event log shows no hashes, and they cost a keyed hash per event).
    """
    hide_hashes = match is not None and match.chain_version < 2  # a version 1 hash would confirm a guess
    chained = match if links else None
    if reveal or not has_redaction(game_id):
        return [_public(event, event.payload, chained) for event in events if event.seq > after]
    if redaction is None:
        raise ValueError(f"{game_id} hides information in its events: project them with the aggregate's redactions")
    visible = []
    skipped: list[dict[str, Any]] = []
    for event in events:
        payload = event.payload
        if event.type in ENGINE_TYPES:
            shown = redaction(event.seq, payload, viewer)
            if "player" not in shown and "chance" not in shown:
                # a declined hidden window (Mountainhome §10.5): others see nothing of it but its chain link
                if event.seq > after and not hide_hashes:
                    skipped.append(_link_only(event, chained))
                continue
        else:
            shown = payload
        if event.seq > after:
            sealed = shown != payload
            item = _public(event, shown, chained, sealed=sealed, hide_hashes=hide_hashes)
            if sealed:
                item["redacted"] = True
            if skipped:
                item["skipped"], skipped = skipped, []
            visible.append(item)
    return visible


def record_events(projected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``cairn-record/1`` entries among projected events."""
    return [item["payload"] for item in projected if item["type"] in ENGINE_TYPES]


def record_seqs(projected: list[dict[str, Any]]) -> list[int]:
    """The event number (``seq``) of each entry :func:`record_events` returns."""
    return [item["seq"] for item in projected if item["type"] in ENGINE_TYPES]
