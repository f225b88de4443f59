"""Signed receipts of a match's heads, and checking a record against them.

A *receipt* is the server's Ed25519 signature over one head of a match's hash
chain (:mod:`engine.chain`), given to every viewer with every answer that
shows the match.  A player who keeps the receipts can later prove that the
server changed the match: a record whose chain does not pass through every
receipted ``(seq, hash)`` contradicts a statement the server signed.

Format ``cairn-receipt/1`` (a JSON object)::

    {"format": "cairn-receipt/1", "match": 12, "seq": 7, "hash": "<64 hex>",
     "time": "<ISO 8601 UTC, the event's timestamp>", "key": "<key id>",
     "signature": "<128 hex: Ed25519 over the message>"}

The signed message is the canonical JSON (sorted keys, no spaces, UTF-8) of
the receipt without its ``signature``: ``{"format", "hash", "key", "match",
"seq", "time"}``.  A key id is the first 16 hex digits of SHA-256 of the raw
32-byte public key.  Public keys travel as ``{"id", "algorithm": "Ed25519",
"public_key": "<64 hex>"}``.

Pure (no I/O, no clock); the Ed25519 check is ``cryptography``'s, imported
only when a signature is checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from .chain import canonical_json

RECEIPT_FORMAT = "cairn-receipt/1"
RECEIPTS_FORMAT = "cairn-receipts/1"
ALGORITHM = "Ed25519"
_HEX = set("0123456789abcdef")


class ReceiptError(ValueError):
    """A receipt that is malformed, signed by an unknown key, or not correctly signed."""


def key_id(public_key: bytes) -> str:
    """The id of a raw 32-byte Ed25519 public key: SHA-256 of it, hex, first 16 digits."""
    return hashlib.sha256(bytes(public_key)).hexdigest()[:16]


def message(match_id: int, seq: int, head_hash: str, time: str, key: str) -> bytes:
    """The bytes a receipt's signature covers."""
    signed = {"format": RECEIPT_FORMAT, "match": match_id, "seq": seq, "hash": head_hash, "time": time, "key": key}
    return canonical_json(signed).encode("utf-8")


def public_key_json(public_key: bytes, **extra: Any) -> dict[str, Any]:
    return {"id": key_id(public_key), "algorithm": ALGORITHM, "public_key": bytes(public_key).hex(), **extra}


def _is_hex(value: Any, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and set(value) <= _HEX


def parse_keys(obj: Any) -> dict[str, bytes]:
    """Public keys from ``{"keys": [...]}`` or a list of key objects: ``{key id: raw public key}``.

    A key whose id is not the one its public key gives is refused (a relabelled key).
    """
    items = obj.get("keys") if isinstance(obj, dict) else obj
    if not isinstance(items, list):
        raise ReceiptError("public keys must be a list of {\"id\", \"algorithm\", \"public_key\"} (or {\"keys\": [...]})")
    keys: dict[str, bytes] = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not _is_hex(item.get("public_key"), 64):
            raise ReceiptError(f"public key {index}: 'public_key' must be 64 hex digits (a raw Ed25519 key)")
        if item.get("algorithm", ALGORITHM) != ALGORITHM:
            raise ReceiptError(f"public key {index}: algorithm {item.get('algorithm')!r} is not {ALGORITHM}")
        raw = bytes.fromhex(item["public_key"])
        if item.get("id", key_id(raw)) != key_id(raw):
            raise ReceiptError(f"public key {index}: id {item.get('id')!r} is not {key_id(raw)}, the id of its key")
        keys[key_id(raw)] = raw
    return keys


def describe(receipt: Any, index: int) -> str:
    """How a message names a receipt: its position, and its match and seq when it has them."""
    if isinstance(receipt, dict) and isinstance(receipt.get("seq"), int):
        return f"receipt {index} (match {receipt.get('match')!r}, seq {receipt['seq']})"
    return f"receipt {index}"


def check_receipt(receipt: Any, keys: Mapping[str, bytes], index: int = 0) -> None:
    """Raise :class:`ReceiptError` naming the receipt unless it is well formed and correctly signed."""
    name = describe(receipt, index)
    if not isinstance(receipt, dict):
        raise ReceiptError(f"{name} is not a JSON object")
    if receipt.get("format") != RECEIPT_FORMAT:
        raise ReceiptError(f"{name}: 'format' must be {RECEIPT_FORMAT!r}, not {receipt.get('format')!r}")
    for field, ok in (
        ("match", isinstance(receipt.get("match"), int) and not isinstance(receipt.get("match"), bool)),
        ("seq", isinstance(receipt.get("seq"), int) and not isinstance(receipt.get("seq"), bool) and receipt.get("seq", 0) >= 1),
        ("hash", _is_hex(receipt.get("hash"), 64)),
        ("time", isinstance(receipt.get("time"), str)),
        ("key", isinstance(receipt.get("key"), str)),
        ("signature", _is_hex(receipt.get("signature"), 128)),
    ):
        if not ok:
            raise ReceiptError(f"{name} is truncated or malformed: '{field}' is missing or not what it must be")
    public = keys.get(receipt["key"])
    if public is None:
        known = ", ".join(sorted(keys)) or "none"
        raise ReceiptError(f"{name} is signed by key {receipt['key']!r}, which is not a known key (known: {known})")
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    signed = message(receipt["match"], receipt["seq"], receipt["hash"], receipt["time"], receipt["key"])
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(bytes.fromhex(receipt["signature"]), signed)
    except InvalidSignature:
        raise ReceiptError(f"{name}: the signature does not verify with key {receipt['key']}: forged or altered") from None


def parse_receipts(obj: Any) -> tuple[list[Any], dict[str, bytes]]:
    """The receipts and any public keys of a receipts file.

    Accepted: ``{"format": "cairn-receipts/1", "keys": [...], "receipts": [...]}``, ``{"receipts": [...]}``,
    a plain list of receipts, or one receipt.
    """
    if isinstance(obj, list):
        return obj, {}
    if isinstance(obj, dict) and "receipts" in obj:
        receipts = obj["receipts"]
        if not isinstance(receipts, list):
            raise ReceiptError("'receipts' must be a list of receipts")
        return receipts, parse_keys(obj["keys"]) if "keys" in obj else {}
    if isinstance(obj, dict) and obj.get("format") == RECEIPT_FORMAT:
        return [obj], {}
    raise ReceiptError("a receipts file must be {\"receipts\": [...], \"keys\": [...]} or a list of receipts")


def check_heads(match_id: int, heads: Mapping[int, str], receipts: Iterable[Any], keys: Mapping[str, bytes]) -> dict[str, Any]:
    """Check every receipt of ``match_id`` and that the chain ``heads`` ({seq: hash}) passes through each.

    Returns ``{"receipts_checked": n, "receipts_other_matches": m}``; raises :class:`ReceiptError` naming the
    first receipt that is malformed, unsigned, or contradicted by the chain (the signed head it contradicts).
    """
    checked = others = 0
    last = max(heads) if heads else 0
    for index, receipt in enumerate(receipts):
        check_receipt(receipt, keys, index)
        if receipt["match"] != match_id:
            others += 1
            continue
        seq, signed = receipt["seq"], receipt["hash"]
        found = heads.get(seq)
        if found is None:
            raise ReceiptError(
                f"the record contradicts a signed head: {describe(receipt, index)} signs hash {signed} at "
                f"{receipt['time']} (key {receipt['key']}), but the record's chain ends at seq {last}")
        if found != signed:
            raise ReceiptError(
                f"the record contradicts a signed head: {describe(receipt, index)} signs hash {signed} at "
                f"{receipt['time']} (key {receipt['key']}), but the record's event {seq} has hash {found}: "
                f"the history was rewritten after that receipt was given")
        checked += 1
    return {"receipts_checked": checked, "receipts_other_matches": others}
