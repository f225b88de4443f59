"""One render per distinct view: the live fragments a web process pushes.

A commit publishes only the match id and its new seq (``games.notify``).  When a match changes,
every socket of that match in this process asks :func:`fragment` for its viewer's fragment.
Sockets are grouped by *viewer class* (:func:`viewer_class`): each seat is a class of its own (it
may see hidden information, and only it gets its controls), and every spectator and anonymous
viewer shares one class.  For one position of a match, identified by (match id, seq, the last
event's hash string), the fold is loaded once (:class:`Position`) and each class is rendered once,
and the HTML is handed to every socket of that class:

* concurrent requests for the same key share one in-flight render (so 1,000
  sockets connecting at once after a restart cost one render per class, not
  1,000, and none waits behind the renders of other classes for long);
* a finished render is kept in a small process-local LRU for
  ``CAIRN_RENDER_TTL`` seconds, for sockets that connect or reconnect just
  after it.

A fragment travels with the seq it shows (:class:`Fragment`), so no one reads it back out of the HTML.

The cache is process-local on purpose: each web process must push to its
own sockets anyway, so a shared cache (Django's, in Redis) would save at
most one render per class per *other* process, at the cost of a round trip
and a copy of the HTML for every socket, and a cross-process lock to avoid
rendering twice.  With one process per core that trade does not pay.

The key includes the last event's hash (read from the match row, as it is
stored), so a fragment of a position that was rolled back or replaced is
never served.  The hash itself never leaves the server.  A render can show a
*newer* position than its key when another move commits meanwhile: that is
still a committed position, and ``data-seq`` names it.

CPU work (loading the aggregate, rendering) and database reads run in a
bounded thread pool (``CAIRN_RENDER_THREADS``), never on the event loop; the sockets' bookkeeping
(counts, presence, lag) runs in a thread of its own (:func:`aside`).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import close_old_connections

from games import moved, projection, selectors
from games.coalesce import Coalescer
from games.errors import NotFound
from games.models import Match
from games.ops import metrics

from .live import LOG_ROWS, ranked_panel, render_match_fragment_at

T = TypeVar("T")

SPECTATOR = "spectator"

_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pool_guard = threading.Lock()


def pool() -> ThreadPoolExecutor:
    """This process's render pool (bounded: at most ``CAIRN_RENDER_THREADS`` threads).

    A process forked from one that had a pool (a test server forked from the test process, say) gets a
    new one: the parent's pool object came across the fork without its threads, and work queued to it
    would wait for ever."""
    global _pool, _pool_pid
    with _pool_guard:
        if _pool is None or _pool_pid != os.getpid():
            _pool = ThreadPoolExecutor(
                max_workers=max(1, int(getattr(settings, "CAIRN_RENDER_THREADS", 4))), thread_name_prefix="cairn-render"
            )
            _pool_pid = os.getpid()
        return _pool


_side: ThreadPoolExecutor | None = None
_side_pid = 0


def side_pool() -> ThreadPoolExecutor:
    """This process's bookkeeping thread (one): the sockets' counts and presence (frontend.table), the lag
    samples.  Kept out of the render pool, so that the thousands of them after a restart's reconnect
    burst do not queue the moves and renders behind them; one thread keeps each socket's in order."""
    global _side, _side_pid
    with _pool_guard:
        if _side is None or _side_pid != os.getpid():
            _side = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cairn-bookkeeping")
            _side_pid = os.getpid()
        return _side


def _with_db(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` in a pool thread as a request would: stale connections closed before and after."""
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


async def in_pool(fn: Callable[..., T], *args: Any) -> T:
    """Await ``fn(*args)`` run in the render pool."""
    return await asyncio.get_running_loop().run_in_executor(pool(), _with_db, fn, *args)


async def aside(fn: Callable[..., T], *args: Any) -> T:
    """Await ``fn(*args)`` run in the bookkeeping thread (:func:`side_pool`)."""
    return await asyncio.get_running_loop().run_in_executor(side_pool(), _with_db, fn, *args)


@dataclass(frozen=True)
class Head:
    """What a socket needs to know of its match before asking for a fragment."""

    match: Match
    seq: int
    last_hash: str
    # Each seated user's seat (their first, as selectors.seat_of says), read with the match: every socket
    # of the match asks for its viewer's on every push, on the event loop.
    # (None: read from the match's seats when asked.)
    seats: Mapping[int, int] | None = field(default=None, compare=False)

    @property
    def place(self) -> tuple[int, int, str]:
        """The position's key in the caches: (match id, seq, last hash)."""
        return self.match.pk, self.seq, self.last_hash

    def seat_of(self, user: Any) -> int | None:
        """``selectors.seat_of(self.match, user)``, from the map read with the match."""
        if self.seats is None:
            return selectors.seat_of(self.match, user)
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return self.seats.get(user.pk)


def head_of(match: Match) -> Head:
    """The head of ``match`` as read (its seats prefetched, as ``selectors.get_match`` leaves them)."""
    seats: dict[int, int] = {}
    for seat in selectors.seats_of(match):
        if seat.user_id is not None:
            seats.setdefault(seat.user_id, seat.index)
    return Head(match=match, seq=match.seq, last_hash=match.last_hash, seats=seats)


NO_VIEWER = object()  # head()'s default: nobody's fragment is drawn with the head
DRAW_WANTED = object()  # _load_head's: draw for every viewer waiting on this read (head()'s _wanted)

# The viewers waiting on a read of a match's head (match id -> [(viewer, the seq their page shows)]):
# head() adds them on the event loop, and the read, in the pool, takes the list and draws their fragments.
_wanted: dict[int, list[tuple[Any, int | None]]] = {}
_wanted_guard = threading.Lock()


def _load_head(match_id: int, viewer: Any = NO_VIEWER, after: int | None = None) -> Head | None:
    """The match with its seats; ``viewer``: draw their fragment too (when the head is past ``after``),
    or with :data:`DRAW_WANTED` the fragments of everyone waiting on this read."""
    try:
        match = selectors.get_match(match_id)
    except NotFound:
        return None
    head_ = head_of(match)
    if viewer is DRAW_WANTED:
        with _wanted_guard:
            waiting = _wanted.pop(match_id, [])
    else:
        waiting = [] if viewer is NO_VIEWER else [(viewer, after)]
    for who, shown in waiting:
        if shown is None or head_.seq > shown:
            draw_ahead(head_, who)
    return head_


def viewer_class(match: Match, user: Any) -> str:
    """``seat:N`` for a seated user, else the one spectator class.

    The only spectator-dependent part of the fragment is whether they may join
    a waiting match, so while a match waits, logged-in and anonymous
    spectators are two classes; once it has started they are one.
    """
    return class_of(match, user, selectors.seat_of(match, user))


def class_of(match: Match, user: Any, seat: int | None) -> str:
    """:func:`viewer_class` of ``user``, whose seat (or None) is known already."""
    if seat is not None:
        return f"seat:{seat}"
    if match.status == Match.Status.WAITING:
        return f"{SPECTATOR}:{'in' if getattr(user, 'is_authenticated', False) else 'out'}"
    return SPECTATOR


@dataclass(frozen=True)
class Position:
    """What every viewer class of one position shares: the fold and the ranked panel's data.

    Read once per position and process (one query for the events after the
    cached snapshot, and the ranked panel's), not once per class.  Rendering
    only reads them.
    """

    aggregate: Any
    ranked: Any
    newest: Any = None  # the newest event rows, for every class's event log


def _load_position(match: Match) -> Position:
    aggregate = selectors.load_aggregate(match)
    # A game with hidden events reads twice the log's rows for one viewer (selectors.visible_events).
    redacts = projection.has_redaction(match.game_id)
    newest = selectors.newest_rows(match, aggregate, 2 * LOG_ROWS if redacts else LOG_ROWS)
    return Position(aggregate=aggregate, ranked=ranked_panel(match, aggregate), newest=newest)


@dataclass(frozen=True)
class Fragment:
    """A rendered ``#match-live`` fragment and the seq it shows (its ``data-seq``)."""

    seq: int
    html: str


def render_for_class(
    match: Match, user: Any, cls: str, position: Position | None = None, shown: int | None = None
) -> Fragment:
    """The fragment of viewer class ``cls``, rendered for ``user`` (any member of the class).

    The spectator delay of a rated match (``selectors.spectator_seq``) is applied
    inside ``live.match_context`` for every non-seated viewer.  A delay in moves
    depends only on the live position, so the cache key (match, seq, last hash,
    class) names one fragment; a delay in seconds depends on the clock too, so
    :func:`fragment` decides the seq shown (``shown``) and adds it to the key.
    """
    metrics.FANOUT_RENDERS.inc()
    if position is None:
        return Fragment(*render_match_fragment_at(match, user, oob=True, shown=shown))
    return Fragment(*render_match_fragment_at(
        match, user, oob=True, aggregate=position.aggregate, ranked=position.ranked, newest=position.newest,
        shown=shown,
    ))


def delayed_in_seconds(head_: Head, user: Any) -> bool:
    """Whether ``user`` is a spectator of the match ``head_`` names, shown N seconds behind (no database read)."""
    delay = selectors.spectator_delay(head_.match)
    return delay is not None and delay[1] == "seconds" and head_.seat_of(user) is None


# Heads are shared only by concurrent callers (no TTL: a head must be read after the change it announces).
heads = Coalescer(size=0, ttl=0)
# A position (its fold) is shared by the classes rendered for it, briefly: the renders follow at once.
positions = Coalescer(size=64, ttl=float(getattr(settings, "CAIRN_RENDER_TTL", 2.0)))
renders = Coalescer(
    size=int(getattr(settings, "CAIRN_RENDER_CACHE", 1000)), ttl=float(getattr(settings, "CAIRN_RENDER_TTL", 2.0))
)


def _known_head(match_id: int, seq: int) -> Head | None:
    """The head a move of this process left at exactly ``seq`` (``games.moved``), kept no longer than a position."""
    match = moved.left(match_id, seq, positions.ttl)
    return None if match is None else head_of(match)


async def head(match_id: int, viewer: Any = NO_VIEWER, *, after: int | None = None, seq: int | None = None) -> Head | None:
    """The match row as it is now (one read shared by the sockets asking at the same moment).

    ``viewer``: the user whose fragment will be asked next; when the head is read (and is past
    ``after``, the seq their page shows), their class's fragment is drawn in the same trip to the pool
    (:func:`draw_ahead`).  ``seq``: the seq a ``match.changed`` announced; a head this process's own
    move left at exactly that seq (``games.moved``) is used without a read."""
    if seq is not None:
        known = _known_head(match_id, seq)
        if known is not None:
            return known
    if viewer is NO_VIEWER:
        found: Head | None = await heads.get(("head", match_id), lambda: in_pool(_load_head, match_id))
        return found
    wanted = (viewer, after)
    with _wanted_guard:
        _wanted.setdefault(match_id, []).append(wanted)
    try:
        found = await heads.get(("head", match_id), lambda: in_pool(_load_head, match_id, DRAW_WANTED))
    finally:
        with _wanted_guard:
            waiting = _wanted.get(match_id)
            if waiting is not None and wanted in waiting:  # joined after the read had taken the list
                waiting.remove(wanted)
                if not waiting:
                    del _wanted[match_id]
    return found


def draw_ahead(head_: Head, viewer: Any) -> None:
    """In the pool: ``viewer``'s class's fragment at ``head_``, into the caches :func:`fragment` reads
    first, unless it is there (or the viewer is shown the match seconds behind: :func:`fragment` decides
    what they are shown).  A failed render is left for :func:`fragment` to meet and report."""
    if delayed_in_seconds(head_, viewer):
        return
    match = head_.match
    key = (*head_.place, class_of(match, viewer, head_.seat_of(viewer)))
    if renders.peek(key) is not None:
        return
    position = positions.peek(head_.place)
    if position is None:
        position = _load_position(match)
        positions.put(head_.place, position)
    try:
        made = render_for_class(match, viewer, key[3], position)
    except Exception:  # noqa: BLE001 - fragment() renders it again and reports what it meets
        return
    renders.put(key, made)


# What spectators of a match shown seconds behind are shown, and when more: read once per concurrent
# ask (the sockets whose reveal timers fire together), never kept (it depends on the clock).
delays = Coalescer(size=0, ttl=0)


async def fragment(head_: Head, user: Any) -> Fragment:
    """``user``'s fragment of the position ``head_`` names: one render per viewer class and position."""
    match = head_.match
    cls = class_of(match, user, head_.seat_of(user))
    shown = None
    if delayed_in_seconds(head_, user):
        shown = await delays.get(("shown", match.pk, head_.seq), lambda: in_pool(selectors.spectator_seq, match, head_.seq))
    key = (*head_.place, cls) if shown is None else (*head_.place, cls, shown)

    rendered = False

    async def render() -> Fragment:
        nonlocal rendered
        rendered = True
        draw = render_for_class if shown is None else partial(render_for_class, shown=shown)
        made: list[Fragment] = []
        failed: list[Exception] = []

        def load_and_draw() -> Position:
            position = _load_position(match)
            try:
                made.append(draw(match, user, cls, position))
            except Exception as exc:  # noqa: BLE001 - this class's render fails alone; the others' position stands
                failed.append(exc)
            return position

        # The class that loads the position renders in the same trip to the pool (each trip costs a thread
        # hand-off both ways); the classes that join it render once it is there.
        position = await positions.get(head_.place, lambda: in_pool(load_and_draw))
        if failed:
            raise failed[0]
        if made:
            return made[0]
        return await in_pool(draw, match, user, cls, position)

    result: Fragment = await renders.get(key, render)
    if not rendered:
        metrics.FANOUT_CACHE_HITS.inc()
    return result


async def reveal_in(head_: Head, user: Any, shown: int | None = None) -> float | None:
    """For a spectator of a match shown seconds behind (``shown``: the seq they were last shown): seconds
    until they may be shown more; else None."""
    match = head_.match
    if not delayed_in_seconds(head_, user):
        return None
    seconds: float | None = await delays.get(
        ("reveal", match.pk, head_.seq, shown),
        lambda: in_pool(partial(selectors.spectator_reveal_in, shown=shown), match, head_.seq),
    )
    return seconds
