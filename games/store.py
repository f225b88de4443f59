"""The event store: canonical JSON, the hash chain and the optimistic append.

The chain itself is :mod:`engine.chain` (shared with the offline audit).  A
match stores its chain version (``Match.chain_version``): 1 for the oldest
matches, ``SHA-256(prev_hash + canonical_json(body))``; 2 for every new
match, ``SHA-256(prev_hash + body_hash)`` with ``body_hash = SHA-256(nonce +
canonical_json(body))`` and a secret per-event nonce derived from the match's
seed, so that the chain does not let anyone test a guess of a sealed payload
(see docs/ARCHITECTURE.md, "Tamper evidence").  ``body`` is ``{"match", "seq",
"type", "payload", "actor", "timestamp"}``; the first ``prev_hash`` is 64 zeros.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import IntegrityError, connections, transaction
from django.db.models import Field
from django.utils import timezone

from engine import chain
from engine.chain import GENESIS_HASH as GENESIS_HASH  # the store's public names
from engine.chain import canonical_json as canonical_json

from . import db, writes
from .errors import Conflict
from .models import Event, Match

# The chain version of every new match (older matches keep the version they were made with).
NEW_CHAIN_VERSION = chain.CURRENT_CHAIN_VERSION



def timestamp_text(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_body(match_id: int, seq: int, type_: str, payload: Any, actor: str, timestamp: datetime) -> dict[str, Any]:
    return chain.body(match_id, seq, type_, payload, actor, timestamp_text(timestamp))


def match_seed(match: Match) -> bytes:
    return bytes.fromhex(match.seed)


def event_hash(match: Match, prev_hash: str, body: dict[str, Any]) -> str:
    """The chain hash of an event of ``match`` (its chain version; version 2 derives the nonce from its seed)."""
    version = match.chain_version
    return chain.event_hash(version, prev_hash, body, match_seed(match) if version >= 2 else None)


def row_body(event: Any) -> dict[str, Any]:
    return event_body(event.match_id, event.seq, event.type, event.payload, event.actor, event.timestamp)


def row_hash(event: Event, match: Match) -> str:
    """The hash an event row should carry, recomputed from its columns (and, for version 2, the seed)."""
    return event_hash(match, event.prev_hash, row_body(event))


def chain_fields(event: Any, match: Match, *, reveal: bool) -> dict[str, Any]:
    """What a viewer gets to check an event's link: ``body_hash`` (version 2), and the ``nonce`` if ``reveal``.

    ``reveal``: the viewer may see this event's payload as stored (then the
    nonce lets them check ``body_hash`` against it).  A sealed event's nonce is
    never sent before the match ends: it is what hides the payload.
    """
    if match.chain_version < 2:
        return {}
    event_nonce = chain.nonce(match_seed(match), event.seq)
    body = event_body(match.pk, event.seq, event.type, event.payload, event.actor, event.timestamp)
    fields: dict[str, Any] = {"body_hash": chain.body_hash(event_nonce, body)}
    if reveal:
        fields["nonce"] = event_nonce.hex()
    return fields


@dataclass(frozen=True)
class PendingEvent:
    """An event decided by the aggregate, not yet stored."""

    seq: int
    type: str
    payload: dict[str, Any]
    actor: str


def append(match: Match, pending: Iterable[PendingEvent], *, expected_seq: int, prev_hash: str) -> list[Event]:
    """Store events ``expected_seq + 1 ...`` after the one whose hash is ``prev_hash``.

    Must run inside :func:`appending`: a clash on ``(match, seq)`` (somebody
    else appended first) raises ``IntegrityError`` here, which rolls the whole
    transaction back and comes out of :func:`appending` as :class:`Conflict`.
    Nothing is stored then.
    """
    rows: list[Event] = []
    seq = expected_seq
    now = timezone.now()
    for event in pending:
        seq += 1
        if event.seq != seq:
            raise AssertionError(f"pending event seq {event.seq} where {seq} was expected")
        body = event_body(match.pk, seq, event.type, event.payload, event.actor, now)
        digest = event_hash(match, prev_hash, body)
        rows.append(
            Event(
                match_id=match.pk,
                seq=seq,
                type=event.type,
                payload=event.payload,
                actor=event.actor,
                timestamp=now,
                prev_hash=prev_hash,
                hash=digest,
            )
        )
        prev_hash = digest
    if rows:
        _insert(rows)
    return rows


_COLUMNS = ("match_id", "seq", "type", "payload", "actor", "timestamp", "prev_hash", "hash")


@lru_cache(maxsize=32)
def _insert_statement(alias: str, count: int) -> tuple[str, tuple[Field[Any, Any], ...]]:
    """The SQL inserting ``count`` events on database ``alias``, and the fields of its columns in order."""
    quote = connections[alias].ops.quote_name
    fields = tuple(writes.concrete_field(Event, name) for name in _COLUMNS)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (f"INSERT INTO {quote(Event._meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
           f"VALUES {', '.join([one] * count)} RETURNING {quote('id')}")
    return sql, fields


def _insert(rows: list[Event]) -> None:
    """One ``INSERT ... VALUES (...), (...) RETURNING id`` of ``rows``, with each value prepared by its field.

    What ``bulk_create`` stores, without its per-call query building (on PostgreSQL, Django 5.2 sends a
    bulk insert as ``UNNEST`` of arrays, and psycopg scans every array, nested payload lists included,
    to choose its type).  A clash on ``(match, seq)`` raises ``IntegrityError`` as ``bulk_create`` does.
    """
    connection = connections[db.alias()]
    sql, fields = _insert_statement(connection.alias, len(rows))
    params: list[Any] = []
    for row in rows:
        params.extend(field.get_db_prep_save(getattr(row, field.attname), connection) for field in fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = cursor.fetchall()
    for row, (pk,) in zip(rows, ids):
        row.pk = pk
        row._state.adding = False
        row._state.db = connection.alias


def stale(match_id: Any) -> Conflict:
    return Conflict(f"match {match_id} moved on: another event was appended first; reload and try again", code="stale_seq")


@contextmanager
def appending(match_id: Any = None) -> Iterator[None]:
    """A transaction for appends: a clash on ``(match, seq)`` becomes :class:`Conflict`.

    The unique constraint is checked at the insert; PostgreSQL then aborts the
    whole transaction, so the error is converted once it has rolled back.
    """
    try:
        with transaction.atomic(using=db.alias()):
            yield
    except IntegrityError as exc:
        if "event_unique_match_seq" in str(exc) or "games_event.match_id, games_event.seq" in str(exc):
            raise stale(match_id) from None
        raise


class EventRow(NamedTuple):
    """A stored event as the folds and the event log read it (no model instance)."""

    seq: int
    type: str
    payload: Any
    hash: str
    timestamp: datetime
    actor: str
    prev_hash: str


def _jsonb_order(value: Any) -> Any:
    """``value`` with every object's keys in PostgreSQL's ``jsonb`` order (shorter first, then bytewise)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        return {key: _jsonb_order(value[key]) for key in keys}
    if isinstance(value, list):
        return [_jsonb_order(item) for item in value]
    return value


def stored_rows(rows: list[Event]) -> list[EventRow]:
    """Rows :func:`append` just stored, as :func:`load_fold_rows` will read them back: the payload is
    decoded from the JSON stored, with PostgreSQL's ``jsonb`` order of keys on PostgreSQL (so a dict is
    equal *and* iterates alike), and nothing of it is shared with the aggregate that decided it."""
    reorder = connections[db.alias()].vendor == "postgresql"
    out = []
    for row in rows:
        payload = json.loads(json.dumps(row.payload, cls=Event._meta.get_field("payload").encoder))
        out.append(EventRow(row.seq, row.type, _jsonb_order(payload) if reorder else payload, row.hash,
                            row.timestamp, row.actor, row.prev_hash))
    return out


def load_rows(match_id: int, *, after: int = 0, until: int | None = None, last: int | None = None) -> list[Event]:
    """The event rows after ``after`` (up to ``until``), oldest first; ``last``: only the newest ``last`` of them."""
    rows = Event.objects.filter(match_id=match_id, seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    if last is not None:
        return list(reversed(rows.order_by("-seq")[:last]))
    return list(rows.order_by("seq"))


def load_fold_rows(match_id: int, *, until: int | None = None, after: int = 0) -> list[EventRow]:
    """Only what a fold needs (no model instances): the fast path of every command.

    ``until``: only the events up to that seq (a replay step); ``after``: only
    those after that seq (the tail that extends a cached aggregate).
    """
    rows = Event.objects.filter(match_id=match_id)
    if after:
        rows = rows.filter(seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    return [
        EventRow(*row) for row in rows.order_by("seq").values_list(*EventRow._fields)
    ]
