"""Provably fair randomness: an HMAC-SHA256 generator keyed by a secret seed.

The service draws a secret per-match seed, publishes ``commitment(seed)``
(SHA-256 of the seed, hex) at match creation, and draws the chance outcome of
event ``seq`` from ``SeededRandom(seed, f"chance:{seq}")``.  After the match the
seed is revealed, and anyone can recompute every outcome.

The stream is specified so that an independent tool can reproduce it:

* block ``i`` (i = 0, 1, ...) is ``HMAC-SHA256(key=seed, msg=label + ":" + str(i))``;
  each block yields four 64-bit big-endian words, consumed in order;
* ``randrange(n)`` takes words ``w`` until ``w < floor(2**64 / n) * n`` and
  returns ``w % n`` (rejection sampling, so every value is exactly uniform);
* ``shuffle(xs)`` is Fisher-Yates from the last position down:
  ``for i in range(len(xs) - 1, 0, -1): j = randrange(i + 1); swap xs[i], xs[j]``.

Games draw chance outcomes through ``randrange`` only (``State.sample_chance``).

Players' contributions (``cairn-chance-seed/1``): since ``cairn-record/3`` the
generator is keyed not by the server's seed but by the *chance seed*::

    chance_seed = SHA-256(b"cairn-chance-seed/1\n" + server_seed + c_0 + c_1 + ...)

where ``c_i`` are the 32-byte contributions of the human seats in seat order
(bots contribute nothing).  The server commits to its seed before any seat
contributes; the contributions are public in the match's events and fixed
when the match starts, before the first chance event.  Matches made before
(no contributions) keep ``chance_seed = server_seed``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from typing import Any

_WORD = 1 << 64
CHANCE_SEED_TAG = b"cairn-chance-seed/1\n"
CHANCE_SEED_CONSTRUCTION = "cairn-chance-seed/1"
CONTRIBUTION_BYTES = 32


class ContributionError(ValueError):
    """A player's contribution breaks the documented rule (32 bytes as 64 hex digits, not all zeros)."""


def parse_contribution(value: object) -> bytes:
    """A contribution as bytes, or :class:`ContributionError` naming what is wrong with it."""
    if not isinstance(value, str):
        raise ContributionError(f"a contribution must be {CONTRIBUTION_BYTES} bytes as hex text, not {type(value).__name__}")
    if len(value) != 2 * CONTRIBUTION_BYTES:
        raise ContributionError(
            f"a contribution must be {CONTRIBUTION_BYTES} bytes ({2 * CONTRIBUTION_BYTES} hex digits), not {len(value)} characters")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise ContributionError("a contribution must be hex digits (0-9, a-f)") from None
    if not any(raw):
        raise ContributionError("a contribution of all zeros is refused: make it with a cryptographic random generator")
    return raw


def chance_seed(server_seed: bytes, contributions: Sequence[bytes]) -> bytes:
    """The key of every chance outcome of a match with contributions (``cairn-chance-seed/1``)."""
    for raw in contributions:
        if len(raw) != CONTRIBUTION_BYTES:
            raise ContributionError(f"a contribution must be {CONTRIBUTION_BYTES} bytes, not {len(raw)}")
    return hashlib.sha256(CHANCE_SEED_TAG + bytes(server_seed) + b"".join(bytes(c) for c in contributions)).digest()


def commitment(seed: bytes) -> str:
    """The public commitment to a secret seed: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


class SeededRandom:
    """A deterministic random source derived from (seed, label) with HMAC-SHA256."""

    __slots__ = ("_key", "_label", "_block", "_words")

    def __init__(self, seed: bytes, label: str) -> None:
        self._key = bytes(seed)
        self._label = label.encode("utf-8")
        self._block = 0
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            digest = hmac.new(self._key, self._label + b":" + str(self._block).encode(), hashlib.sha256).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in range(24, -1, -8)]
        return self._words.pop()

    def randrange(self, n: int, /) -> int:
        if n <= 0:
            raise ValueError(f"randrange({n}) needs a positive bound")
        limit = (_WORD // n) * n
        while True:
            word = self._next_word()
            if word < limit:
                return word % n

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.randrange(len(seq))]

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        for i in range(len(seq) - 1, 0, -1):
            j = self.randrange(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def random(self) -> float:
        return self._next_word() / _WORD


def chance_rng(seed: bytes, seq: int) -> SeededRandom:
    """The generator for the chance event stored at ``seq`` in a match."""
    return SeededRandom(seed, f"chance:{seq}")
