"""Pairing only with people above a completion rate (docs/RANKING.md, "Completion rate").

A queue entry may carry a minimum (:class:`games.fairplay.models.QueueFilter`, 1 to 100 percent): its person
is paired only with people whose completion rate (:func:`games.fairplay.reliability.completion`) is at
least that.  A person with no finished match between people yet has no rate ("new") and meets no
minimum.  The matchmaker (games.ranking.matchmaking) honours the choices of both sides: a group forms only
if every member meets every other member's minimum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import BadRequest

MAX = 100


def check_min_completion(value: Any) -> int | None:
    """``None`` (anybody) or a whole percent from 1 to 100; 400 ``bad_min_completion`` otherwise."""
    if value is None or value == "":
        return None
    if type(value) is str and value.strip().isdigit():
        value = int(value.strip())
    if type(value) is not int or not 1 <= value <= MAX:
        raise BadRequest(f"'min_completion' must be a whole percent from 1 to {MAX} (or left out for anybody), "
                         f"not {value!r}", code="bad_min_completion")
    return value


def save_filter(entry: Any, min_completion: int | None) -> None:
    """Store the entry's minimum (inside the transaction that creates the entry)."""
    from .models import QueueFilter

    if min_completion is not None:
        QueueFilter.objects.create(entry=entry, min_completion=min_completion)


def minimum_of(entry: Any) -> int | None:
    from .models import QueueFilter

    return QueueFilter.objects.filter(entry_id=entry.pk).values_list("min_completion", flat=True).first()


def acceptance(entries: Iterable[Any]) -> Callable[[Any, Any], bool]:
    """``accepts(a, b)``: may the entries ``a`` and ``b`` sit at one table (each meets the other's minimum)?
    Reads each person's rate once, and only when some entry has a minimum."""
    from . import reliability
    from .models import QueueFilter

    entries = list(entries)
    minimums = dict(QueueFilter.objects.filter(entry_id__in=[e.pk for e in entries])
                    .values_list("entry_id", "min_completion"))
    if not minimums:
        return lambda a, b: True
    rates: dict[int, float | None] = {}

    def rate(entry: Any) -> float | None:
        if entry.user_id not in rates:
            rates[entry.user_id] = reliability.completion(entry.user)["rate"]
        return rates[entry.user_id]

    def meets(entry: Any, minimum: int | None) -> bool:
        if minimum is None:
            return True
        found = rate(entry)
        return found is not None and round(found * 100, 1) >= minimum

    def accepts(a: Any, b: Any) -> bool:
        return meets(b, minimums.get(a.pk)) and meets(a, minimums.get(b.pk))

    return accepts
