"""The public log of heads: RFC 9162 Merkle tree over logged heads, signed checkpoints, proofs.

Formats (hashing in :mod:`engine.merkle`, signing as receipts do, with the receipt key):

* a leaf's bytes are the canonical JSON of ``{"format": "cairn-log-leaf/1", "match", "seq", "hash"}``;
  its leaf hash is ``SHA-256(0x00 || bytes)``;
* a checkpoint is ``{"size", "root", "time", "key", "signature"}``; the signature is Ed25519 over the
  canonical JSON of ``{"format": "cairn-checkpoint/1", "size", "root", "time", "key"}``.

:func:`append_checkpoint` (a Celery beat task, ``AUDIT_CHECKPOINT_SECONDS``) appends a leaf for every
match whose head moved since the last checkpoint, then signs the new tree head.  A version 1 match of a
game with hidden information is left out until it ends (its hashes are hidden while it runs).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from engine import merkle
from engine.witness import checkpoint_message, leaf_bytes

from .. import db
from ..errors import BadRequest, NotFound
from ..models import Match
from .keys import current_key_id, signing_key
from .models import Checkpoint, LogLeaf
from .receipts import shows_hashes


def checkpoint_json(checkpoint: Checkpoint) -> dict[str, Any]:
    return {"size": checkpoint.size, "root": checkpoint.root, "time": checkpoint.time, "key": checkpoint.key,
            "signature": checkpoint.signature}


def _logged_heads() -> dict[int, tuple[int, str]]:
    """Each match's newest leaf: ``{match id: (seq, hash)}``."""
    newest = LogLeaf.objects.values("match_id").annotate(last=Max("index")).values_list("last", flat=True)
    return {leaf.match_id: (leaf.seq, leaf.hash) for leaf in LogLeaf.objects.filter(index__in=list(newest))}


def _leaf_hashes(size: int | None = None) -> list[bytes]:
    rows = LogLeaf.objects.order_by("index")
    if size is not None:
        rows = rows.filter(index__lt=size)
    return [bytes.fromhex(value) for value in rows.values_list("leaf_hash", flat=True)]


def append_checkpoint() -> dict[str, Any] | None:
    """Log every head that moved and sign the new tree head; None if no head moved since the last checkpoint.

    Two at once (beat runs one; a manual run may meet it) clash on the leaves' positions: the later one rolls
    back and appends nothing.  No row lock: the application's role may not update the log's tables
    (docs/DEPLOY.md), and PostgreSQL's SELECT ... FOR UPDATE needs that privilege.
    """
    try:
        return _append_checkpoint()
    except IntegrityError:
        return None


def _append_checkpoint() -> dict[str, Any] | None:
    with transaction.atomic(using=db.alias()):
        last = Checkpoint.objects.order_by("-size").first()
        logged = _logged_heads()
        size = LogLeaf.objects.count()
        new: list[LogLeaf] = []
        matches = Match.objects.filter(seq__gt=0).order_by("pk").only(
            "pk", "seq", "last_hash", "chain_version", "game_id", "players", "options", "status")
        for match in matches:
            if logged.get(match.pk) == (match.seq, match.last_hash):
                continue
            if not shows_hashes(match, match.status == Match.Status.FINISHED):
                continue
            data = leaf_bytes(match.pk, match.seq, match.last_hash)
            new.append(LogLeaf(index=size + len(new), match_id=match.pk, seq=match.seq, hash=match.last_hash,
                               leaf_hash=merkle.leaf_hash(data).hex()))
        if not new and last is not None:
            return None
        LogLeaf.objects.bulk_create(new)
        size += len(new)
        root = merkle.root_from_hashes(_leaf_hashes()).hex()
        time = timezone.now().isoformat(timespec="seconds")
        key = current_key_id()
        signature = signing_key().sign(checkpoint_message(size, root, time, key)).hex()
        checkpoint = Checkpoint.objects.create(size=size, root=root, time=time, key=key, signature=signature)
    return checkpoint_json(checkpoint)


def checkpoints(after: int = 0) -> list[dict[str, Any]]:
    return [checkpoint_json(c) for c in Checkpoint.objects.filter(size__gt=after).order_by("size")[:1000]]


def _checkpoint(size: int | None) -> Checkpoint:
    found = Checkpoint.objects.order_by("-size") if size is None else Checkpoint.objects.filter(size=size)
    checkpoint = found.first()
    if checkpoint is None:
        if size is None:
            raise NotFound("the log has no checkpoint yet", code="no_checkpoint")
        raise NotFound(f"no checkpoint covers exactly {size} leaves", code="no_checkpoint")
    return checkpoint


def inclusion(match_id: int, size: int | None = None) -> dict[str, Any]:
    """The match's newest leaf in checkpoint ``size`` (the newest if None) and its inclusion proof."""
    checkpoint = _checkpoint(size)
    leaf = LogLeaf.objects.filter(match_id=match_id, index__lt=checkpoint.size).order_by("-index").first()
    if leaf is None:
        raise NotFound(f"match {match_id} has no head in the checkpoint of {checkpoint.size} leaves",
                       code="not_logged")
    proof = merkle.inclusion_proof(leaf.index, _leaf_hashes(checkpoint.size))
    return {"checkpoint": checkpoint_json(checkpoint),
            "leaf": {"index": leaf.index, "match": leaf.match_id, "seq": leaf.seq, "hash": leaf.hash,
                     "leaf_hash": leaf.leaf_hash},
            "proof": [node.hex() for node in proof]}


def consistency(old: int, new: int) -> dict[str, Any]:
    """The RFC 9162 consistency proof between the checkpoints of ``old`` and ``new`` leaves."""
    if old > new:
        raise BadRequest(f"'from' ({old}) must not be greater than 'to' ({new})", code="bad_range")
    first, second = _checkpoint(old), _checkpoint(new)
    proof = merkle.consistency_proof(old, _leaf_hashes(new))
    return {"from": checkpoint_json(first), "to": checkpoint_json(second), "proof": [node.hex() for node in proof]}
