"""Snapshots: each process keeps the aggregates of recently used matches.

A cached aggregate is a cache and never the truth.  :func:`load` hands out an
aggregate for a match that is always the fold of *all* its stored events:

* the cache is keyed by (database alias, match id) and holds at most
  ``CAIRN_SNAPSHOT_MATCHES`` aggregates (least recently used out first);
* a cached aggregate at the very (``seq``, last hash) of the match row the
  caller read is that position, and is used with no query (the row's hash is
  written with its event in one transaction, and the hash chain makes it
  stand for every event before it);
* otherwise a load reads the stored events from the cached aggregate's own ``seq``
  on (one indexed query): the first must be that event with that hash, or the
  entry is dropped and the match is replayed from its first event.  The hash
  chain makes the last hash stand for the whole prefix, so an aggregate of
  events that were rolled back, rewritten or belong to another database is
  never used; the events after it are folded in (only those: O(new events));
* the cache never hands out its own object: a checkout is a clone, so a
  command that mutates the aggregate and then fails (its transaction rolled
  back) cannot touch the cached copy;
* an aggregate is stored (as a clone taken at once) only after the
  transaction that read or wrote its events commits
  (``transaction.on_commit``), so what is cached was committed; an entry never
  replaces one with a higher ``seq``.

``verify_match`` and ``python -m engine audit`` never use this cache: they
check every event from the first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db import transaction

from . import db
from .aggregate import MatchAggregate
from .store import load_fold_rows

Key = tuple[str, int]


class SnapshotCache:
    """A bounded, thread-safe LRU of aggregates.  It stores clones and hands out clones."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Key, MatchAggregate] = OrderedDict()
        self._lock = threading.Lock()
        self.stats = {"hits": 0, "misses": 0, "dropped": 0, "stored": 0}

    def __len__(self) -> int:
        return len(self._entries)

    def checkout(self, key: Key) -> MatchAggregate | None:
        """A clone of the cached aggregate (the caller may mutate it freely), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.stats["misses"] += 1
                return None
            self._entries.move_to_end(key)
            self.stats["hits"] += 1
        return found.clone()

    def put(self, key: Key, aggregate: MatchAggregate) -> None:
        """Keep ``aggregate`` (already a private copy) unless a newer one is cached."""
        if self.size <= 0 or aggregate.seq <= 0:
            return
        with self._lock:
            current = self._entries.get(key)
            if current is not None and current.seq > aggregate.seq:
                return
            self._entries[key] = aggregate
            self._entries.move_to_end(key)
            self.stats["stored"] += 1
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def drop(self, key: Key, seq: int, last_hash: str) -> None:
        """Forget the entry for ``key`` if it is still the one at (``seq``, ``last_hash``)."""
        with self._lock:
            current = self._entries.get(key)
            if current is not None and current.seq == seq and current.last_hash == last_hash:
                del self._entries[key]
                self.stats["dropped"] += 1

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.stats = dict.fromkeys(self.stats, 0)


cache = SnapshotCache(getattr(settings, "CAIRN_SNAPSHOT_MATCHES", 2000))


def key_of(match: Any) -> Key:
    return (db.alias(), int(match.pk))


def load(match: Any) -> MatchAggregate:
    """The aggregate of every stored event of ``match``: a checked cached one extended, or a replay.

    The caller owns the returned aggregate (it may run commands on it).
    """
    key = key_of(match)
    aggregate = cache.checkout(key) if cache.size > 0 else None
    if aggregate is not None and (aggregate.game.id != match.game_id or aggregate.players != match.players):
        cache.drop(key, aggregate.seq, aggregate.last_hash)
        aggregate = None
    if aggregate is not None and aggregate.seq == match.seq and aggregate.last_hash == match.last_hash:
        # The match row the caller read names this very position (its seq and the hash of its last event,
        # written with that event in one transaction): the chain makes the hash stand for every event.
        cache.stats["current"] = cache.stats.get("current", 0) + 1
        return aggregate
    if aggregate is not None:
        # From the cached seq on: the first row must be the cached last event, unchanged.
        rows = load_fold_rows(match.pk, after=aggregate.seq - 1)
        if not rows or rows[0].seq != aggregate.seq or rows[0].hash != aggregate.last_hash:
            cache.drop(key, aggregate.seq, aggregate.last_hash)
            aggregate = None
        else:
            if len(rows) > 1:
                aggregate.extend(rows[1:])
                remember(match, aggregate, key=key)
            return aggregate
    aggregate = MatchAggregate.replay(match.pk, match.game_id, match.players, match.options, load_fold_rows(match.pk))
    remember(match, aggregate, key=key)
    return aggregate


def remember(match: Any, aggregate: MatchAggregate, *, key: Key | None = None) -> None:
    """Cache a copy of ``aggregate`` as it is now, once the current transaction commits (at once outside one)."""
    if cache.size <= 0 or aggregate.seq <= 0 or aggregate.pending or aggregate.unstamped:
        return
    key = key or key_of(match)
    snapshot = aggregate.clone()
    transaction.on_commit(lambda: cache.put(key, snapshot), using=key[0])
