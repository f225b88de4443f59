"""The hash chain of a match's events, as the server stores it and anyone can recompute it.

Pure functions (no I/O, no clock): the server's store (``games.store``), its
verifier (``games.verify``) and the offline audit (``python -m engine audit``)
share this one implementation.  An event's *body* is
``{"match", "seq", "type", "payload", "actor", "timestamp"}``; canonical JSON
has sorted keys, no spaces and UTF-8 text; the first ``prev_hash`` is 64 zeros.

Version 1 (matches created before version 2, which hides hashes of sealed events)::

    hash = SHA-256(prev_hash + canonical_json(body))

It binds every event but does not hide a redacted payload: anyone who sees the
other fields can hash candidate payloads and compare.

Version 2 (every new match)::

    nonce     = HMAC-SHA256(key=seed, msg="cairn-event-nonce:" + str(seq))
    body_hash = SHA-256(nonce + canonical_json(body))      # nonce: the 32 raw bytes
    hash      = SHA-256(prev_hash + body_hash)              # both as 64 hex digits

``seed`` is the match's secret seed, committed to by ``SHA-256(seed)`` when the
match is created and revealed by its final event.  A viewer receives
``body_hash``, ``prev_hash`` and ``hash`` of every event (so the chain checks
link by link: nothing removed, reordered or inserted), but an event's
``nonce`` only with a payload the viewer may see.  A sealed payload sits
behind ``SHA-256(nonce + ...)`` with a 256-bit nonce the viewer does not know:
testing a guess needs the nonce, which needs the seed (or breaking
HMAC-SHA256 as a pseudo-random function), so the chain reveals nothing about
the payload until the seed is.  The nonce's label differs from the chance
generator's (``chance:<seq>``, :mod:`engine.fair`), so the nonces revealed
during play say nothing about future chance outcomes either.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

GENESIS_HASH = "0" * 64
CHAIN_VERSIONS = (1, 2)
CURRENT_CHAIN_VERSION = 2
NONCE_LABEL = "cairn-event-nonce:"


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def body(match_id: int, seq: int, type_: str, payload: Any, actor: str, timestamp: str) -> dict[str, Any]:
    """The hashed body of an event (``timestamp`` as ISO 8601 text, UTC, microseconds)."""
    return {"match": match_id, "seq": seq, "type": type_, "payload": payload, "actor": actor, "timestamp": timestamp}


def nonce(seed: bytes, seq: int) -> bytes:
    """The secret per-event nonce of chain version 2: HMAC-SHA256 keyed by the match's seed."""
    return hmac.new(bytes(seed), f"{NONCE_LABEL}{seq}".encode("ascii"), hashlib.sha256).digest()


def body_hash(event_nonce: bytes, event_body: dict[str, Any]) -> str:
    """Version 2: the hiding commitment to an event's body, ``SHA-256(nonce + canonical_json(body))``, hex."""
    return hashlib.sha256(bytes(event_nonce) + canonical_json(event_body).encode("utf-8")).hexdigest()


def link(prev_hash: str, event_body_hash: str) -> str:
    """Version 2: an event's chain hash from the previous one and its body hash."""
    return hashlib.sha256((prev_hash + event_body_hash).encode("ascii")).hexdigest()


def hash_v1(prev_hash: str, event_body: dict[str, Any]) -> str:
    """Version 1: ``SHA-256(prev_hash + canonical_json(body))``, hex."""
    return hashlib.sha256((prev_hash + canonical_json(event_body)).encode("utf-8")).hexdigest()


def event_hash(version: int, prev_hash: str, event_body: dict[str, Any], seed: bytes | None) -> str:
    """The chain hash of an event under ``version`` (version 2 needs the seed)."""
    if version == 1:
        return hash_v1(prev_hash, event_body)
    if version == 2:
        if seed is None:
            raise ValueError("chain version 2 needs the match's seed to derive the event's nonce")
        return link(prev_hash, body_hash(nonce(seed, event_body["seq"]), event_body))
    raise ValueError(f"unknown chain version {version!r}; known: {', '.join(map(str, CHAIN_VERSIONS))}")
