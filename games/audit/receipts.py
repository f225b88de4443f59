"""Receipts: the server's signature over a match's head, given to every viewer (format in :mod:`engine.receipt`).

A receipt is made on demand from the head event's row, so nothing is stored:
its ``time`` is the event's own timestamp and Ed25519 signatures are
deterministic, so the receipt of a head is the same whenever it is asked for.
A version 1 chain of a game with hidden information hides its hashes until
the match ends (:mod:`games.projection`), so such a match gets no receipt
while it runs.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import receipt as format_

from ..projection import has_redaction
from ..store import timestamp_text
from .keys import current_key_id, signing_key


def sign(match_id: int, seq: int, head_hash: str, moment: datetime | str) -> dict[str, Any]:
    """The receipt of head ``(seq, head_hash)`` of match ``match_id``, committed at ``moment``."""
    time = moment if isinstance(moment, str) else timestamp_text(moment)
    key = current_key_id()
    message = format_.message(match_id, seq, head_hash, time, key)
    return {"format": format_.RECEIPT_FORMAT, "match": match_id, "seq": seq, "hash": head_hash, "time": time,
            "key": key, "signature": _signature(signing_key(), message)}


@lru_cache(maxsize=4096)
def _signature(private: Ed25519PrivateKey, message: bytes) -> str:
    """Ed25519 signatures are deterministic: every viewer class of a position shows the same receipt, signed once."""
    return private.sign(message).hex()


def shows_hashes(match: Any, finished: bool) -> bool:
    """Whether every viewer of ``match`` may see its chain hashes now (see the module's doc)."""
    return match.chain_version >= 2 or finished or not has_redaction(match.game_id)


def head_time(match: Any, aggregate: Any) -> datetime | None:
    """The timestamp of the aggregate's head event: the one it folded or stored last, else from the rows it keeps,
    else read."""
    last_time: datetime | None = aggregate.last_time
    if last_time is not None:
        return last_time
    kept = aggregate.newest
    if kept and kept[-1].seq == aggregate.seq and kept[-1].hash == aggregate.last_hash:
        kept_time: datetime = kept[-1].timestamp
        return kept_time
    from ..models import Event

    return (Event.objects.filter(match_id=match.pk, seq=aggregate.seq, hash=aggregate.last_hash)
            .values_list("timestamp", flat=True).first())


def head_receipt(match: Any, aggregate: Any) -> dict[str, Any] | None:
    """The receipt of the head ``aggregate`` shows (None before the first event or while hashes are hidden)."""
    if not aggregate.seq or not shows_hashes(match, aggregate.finished):
        return None
    moment = head_time(match, aggregate)
    if moment is None:
        return None
    return sign(match.pk, aggregate.seq, aggregate.last_hash, moment)
