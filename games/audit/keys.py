"""The server's Ed25519 receipt key: where it comes from, its id, and the public keys it has had.

In this order:

* ``RECEIPT_KEY`` (environment): the private key, 64 hex digits (the raw 32-byte Ed25519 seed);
* the file ``var/receipt_key`` (the same text), made by ``scripts/run`` on first start (not read
  under tests);
* with ``DEBUG`` on (and not under tests), that file is made here on first use;
* otherwise a key derived from ``SECRET_KEY``: ``SHA-256("cairn-receipt-key\n" + SECRET_KEY)``, so
  every process (and machine) of a deployment signs with the same key without more configuration.
  Setting ``RECEIPT_KEY`` keeps the receipt key apart from ``SECRET_KEY``.

``RECEIPT_OLD_KEYS`` (environment, comma-separated) and the file ``var/receipt_old_keys`` (one per
line): the *public* keys (64 hex digits) of retired receipt keys, still served so that receipts
signed before a rotation keep checking.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from engine.receipt import key_id, public_key_json

KEY_FILE = "receipt_key"
OLD_KEYS_FILE = "receipt_old_keys"


def _var_dir() -> Path:
    return Path(getattr(settings, "VAR_DIR", Path(settings.BASE_DIR) / "var"))


def _parse_private(text: str, where: str) -> Ed25519PrivateKey:
    text = text.strip()
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise ImproperlyConfigured(f"{where} must be an Ed25519 private key as 64 hex digits")
    return Ed25519PrivateKey.from_private_bytes(raw)


def _new_private_hex() -> str:
    return secrets.token_bytes(32).hex()


@lru_cache(maxsize=1)
def signing_key() -> Ed25519PrivateKey:
    """The current receipt signing key (see the module's doc for where it comes from)."""
    from_env = os.environ.get("RECEIPT_KEY", "")
    if from_env:
        return _parse_private(from_env, "RECEIPT_KEY")
    path = _var_dir() / KEY_FILE
    if path.is_file() and not settings.TESTING:
        return _parse_private(path.read_text(), str(path))
    if settings.DEBUG and not settings.TESTING:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process of this checkout made it first
            return _parse_private(path.read_text(), str(path))
        with os.fdopen(fd, "w") as handle:
            handle.write(_new_private_hex() + "\n")
        return _parse_private(path.read_text(), str(path))
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"cairn-receipt-key\n" + settings.SECRET_KEY.encode()).digest())


def public_bytes(private: Ed25519PrivateKey | None = None) -> bytes:
    key = private or signing_key()
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def current_key_id() -> str:
    return _key_id_of(signing_key())


@lru_cache(maxsize=4)
def _key_id_of(private: Ed25519PrivateKey) -> str:
    return key_id(public_bytes(private))


def _old_public_keys() -> list[bytes]:
    texts = [item for item in os.environ.get("RECEIPT_OLD_KEYS", "").split(",") if item.strip()]
    path = _var_dir() / OLD_KEYS_FILE
    if path.is_file() and not settings.TESTING:
        texts += [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    keys = []
    for text in texts:
        try:
            raw = bytes.fromhex(text.strip())
        except ValueError:
            raw = b""
        if len(raw) != 32:
            raise ImproperlyConfigured(f"a retired receipt key must be a public key of 64 hex digits, not {text.strip()[:80]!r}")
        keys.append(raw)
    return keys


def public_keys() -> list[dict]:
    """Every receipt key a receipt may name: the current one first, then the retired ones."""
    current = public_bytes()
    keys = [public_key_json(current, current=True)]
    keys += [public_key_json(raw, current=False) for raw in _old_public_keys() if raw != current]
    return keys
