"""The witness of Cairn's public log of heads: formats and checks (pure; the fetching is the CLI's).

A witness keeps the newest checkpoint it has accepted.  Given a newer one it
checks the signature (a receipt key, :mod:`engine.receipt`) and an RFC 9162
consistency proof from the kept tree to the new one (:mod:`engine.merkle`);
only then does it keep the new one.  A log that rewrote any leaf it had
already published cannot produce such a proof, so a witness that refuses a
checkpoint has caught the log changing its past.

* leaf bytes: canonical JSON of ``{"format": "cairn-log-leaf/1", "match", "seq", "hash"}``;
* checkpoint: ``{"size", "root", "time", "key", "signature"}``, the signature Ed25519 over the
  canonical JSON of ``{"format": "cairn-checkpoint/1", "size", "root", "time", "key"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import merkle
from .chain import canonical_json

LEAF_FORMAT = "cairn-log-leaf/1"
CHECKPOINT_FORMAT = "cairn-checkpoint/1"
STATE_FORMAT = "cairn-witness/1"


class WitnessError(ValueError):
    """A checkpoint or proof the witness refuses."""


def leaf_bytes(match_id: int, seq: int, head_hash: str) -> bytes:
    return canonical_json({"format": LEAF_FORMAT, "match": match_id, "seq": seq, "hash": head_hash}).encode("utf-8")


def checkpoint_message(size: int, root: str, time: str, key: str) -> bytes:
    signed = {"format": CHECKPOINT_FORMAT, "size": size, "root": root, "time": time, "key": key}
    return canonical_json(signed).encode("utf-8")


def _hex(value: Any, length: int) -> bytes:
    if not isinstance(value, str) or len(value) != length:
        raise WitnessError(f"{value!r} is not {length} hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise WitnessError(f"{value!r} is not hex") from None


def check_checkpoint(checkpoint: Any, keys: Mapping[str, bytes]) -> None:
    """Raise :class:`WitnessError` unless the checkpoint is well formed and signed by one of ``keys``."""
    if not isinstance(checkpoint, dict) or not isinstance(checkpoint.get("size"), int) or checkpoint["size"] < 0:
        raise WitnessError(f"checkpoint {checkpoint!r:.120} is malformed")
    name = f"checkpoint of size {checkpoint['size']}"
    _hex(checkpoint.get("root"), 64)
    signature = _hex(checkpoint.get("signature"), 128)
    public = keys.get(checkpoint.get("key"))  # type: ignore[arg-type]
    if public is None or not isinstance(checkpoint.get("time"), str):
        raise WitnessError(f"{name} is signed by key {checkpoint.get('key')!r}, which is not a known receipt key")
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    signed = checkpoint_message(checkpoint["size"], checkpoint["root"], checkpoint["time"], checkpoint["key"])
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, signed)
    except InvalidSignature:
        raise WitnessError(f"{name}: the signature does not verify: forged or altered") from None


def accept(kept: Any, new: Any, proof: Sequence[str], keys: Mapping[str, bytes]) -> None:
    """Raise :class:`WitnessError` unless ``new`` is correctly signed and consistent with ``kept`` (or None)."""
    check_checkpoint(new, keys)
    if kept is None:
        return
    if new["size"] < kept["size"]:
        raise WitnessError(f"checkpoint of size {new['size']} is smaller than the kept one of {kept['size']}: "
                           "the log shrank")
    nodes = [_hex(node, 64) for node in proof]
    if not merkle.verify_consistency(kept["size"], new["size"], bytes.fromhex(kept["root"]),
                                     bytes.fromhex(new["root"]), nodes):
        raise WitnessError(
            f"checkpoint of size {new['size']} (root {new['root']}) is not consistent with the kept checkpoint of "
            f"size {kept['size']} (root {kept['root']}, {kept['time']}): the log rewrote its past")


def check_inclusion(checkpoint: Any, leaf: Any, proof: Sequence[str]) -> None:
    """Raise :class:`WitnessError` unless ``leaf`` ({index, match, seq, hash}) is in the tree of ``checkpoint``."""
    data = leaf_bytes(leaf["match"], leaf["seq"], leaf["hash"])
    nodes = [_hex(node, 64) for node in proof]
    if not merkle.verify_inclusion(merkle.leaf_hash(data), leaf["index"], checkpoint["size"], nodes,
                                   bytes.fromhex(checkpoint["root"])):
        raise WitnessError(f"match {leaf['match']}'s head (seq {leaf['seq']}) is not in the checkpoint of size "
                           f"{checkpoint['size']}")
