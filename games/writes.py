"""Hot writes as plain SQL: the match row's update on every move, without building a queryset.

``QuerySet.update`` clones a query, resolves its lookups and compiles SQL on every call; the move
path updates the match row and its clock row the same way every time.  :func:`update` writes the
same statement directly, each value prepared by its model field (``get_db_prep_save``, as Django
does), and returns the number of rows it changed, as ``update`` does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db import connections
from django.db.models import Field, Model

from . import db


def concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    """``model``'s field ``name`` (or its attname), which must be a column of its table."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.concrete:
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


@lru_cache(maxsize=64)
def _statement(model: type[Model], alias: str, columns: tuple[str, ...], keys: tuple[str, ...]) -> tuple[str, tuple]:
    quote = connections[alias].ops.quote_name
    fields = tuple(concrete_field(model, name) for name in columns)
    key_fields = tuple(concrete_field(model, name) for name in keys)
    sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    where = " AND ".join(f"{quote(field.column)} = %s" for field in key_fields)
    return f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {where}", fields + key_fields


def update(model: type[Model], where: dict[str, Any], values: dict[str, Any]) -> int:
    """``model.objects.filter(**where).update(**values)`` for plain equality filters and plain values."""
    connection = connections[db.alias()]
    sql, fields = _statement(model, connection.alias, tuple(values), tuple(where))
    params = [field.get_db_prep_save(value, connection)
              for field, value in zip(fields, (*values.values(), *where.values()))]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)
