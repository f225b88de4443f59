"""Which database alias the service uses, chosen per context.

Services open transactions on ``alias()`` and every ORM query is routed there
by :class:`ContextRouter`.  In production this is always ``default``; the
service tests switch it with :func:`using` to run the same code against
PostgreSQL and SQLite.  The choice lives in a ``ContextVar``, so it is per
thread and per asyncio task, never shared between requests.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from django.db import DEFAULT_DB_ALIAS

if TYPE_CHECKING:
    from django.db.models import Model

_alias: ContextVar[str | None] = ContextVar("cairn_db_alias", default=None)


def alias() -> str:
    return _alias.get() or DEFAULT_DB_ALIAS


@contextmanager
def using(name: str) -> Iterator[str]:
    token = _alias.set(name)
    try:
        yield name
    finally:
        _alias.reset(token)


class ContextRouter:
    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        return _alias.get()

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        return _alias.get()

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool | None:
        return None

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool | None:
        return None
