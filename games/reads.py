"""Hot reads compiled once: a queryset's SQL reused with a new key.

Django compiles a queryset to SQL every time it is evaluated.  For the read
every request and every push makes (``selectors.get_match``: a match's seats
joined with the match, its creator and the seats' users) the compiling is
about half of the read's CPU time, and the SQL never changes but for the key.
:class:`PreparedRead` compiles the queryset once per database alias, then
runs the same SQL with the new key and builds the model instances the way
Django's ``ModelIterable`` does (``Model.from_db`` for the rows, the compiler's
related populators for the ``select_related`` joins, the fields' converters
for the values).  The result is what the queryset would give: the tests of
``get_match`` compare the two field by field.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # Django internal, not in the stubs

# A key no row has (in range for an id column, which Django checks): it marks the parameter the real key
# replaces in the compiled SQL.
_SENTINEL = 2_147_000_001


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    key_at: int  # the index of the key among the parameters
    model: type
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    converters: list[tuple[int, list[Any], Any]]  # (column, converters, expression)


class PreparedRead:
    """``build(key)`` is a queryset of model rows (``select_related`` allowed, no ``prefetch_related``, no
    annotations) whose only varying parameter is ``key``; ``rows(key, using)`` runs it."""

    def __init__(self, build: Callable[[Any], QuerySet], sentinel: Any = _SENTINEL) -> None:
        self.build = build
        self.sentinel = sentinel  # for a key that is not an id: a value of its type that no row holds
        self._compiled: dict[str, _Compiled] = {}
        self._guard = threading.Lock()

    def _compile(self, using: str) -> _Compiled:
        queryset = self.build(self.sentinel)
        if queryset._prefetch_related_lookups or queryset.query.annotations:  # type: ignore[attr-defined]  # internal
            raise ValueError("PreparedRead takes plain rows and select_related joins only")
        compiler = queryset.query.get_compiler(using=using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            raise ValueError("the query's key must be a value a row may hold") from None
        if list(params).count(self.sentinel) != 1:
            raise ValueError("the key must be the query's one varying parameter")
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        converters = [
            (column, found[0], found[1]) for column, found in compiler.get_converters([s[0] for s in select]).items()
        ]
        return _Compiled(
            sql=sql,
            params=tuple(params),
            key_at=list(params).index(self.sentinel),
            model=klass_info["model"],
            start=start,
            end=end,
            init_list=[s[0].target.attname for s in select[start:end]],
            populators=get_related_populators(klass_info, select, using),
            converters=converters,
        )

    def rows(self, key: Any, using: str) -> list[Any]:
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._guard:
                compiled = self._compiled.get(using) or self._compile(using)
                self._compiled[using] = compiled
        params = list(compiled.params)
        params[compiled.key_at] = key
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            raw = cursor.fetchall()
        out = []
        for row in raw:
            if compiled.converters:
                row = list(row)
                for column, functions, expression in compiled.converters:
                    value = row[column]
                    for convert in functions:
                        value = convert(value, expression, connection)
                    row[column] = value
            obj = compiled.model.from_db(using, compiled.init_list, row[compiled.start:compiled.end])  # type: ignore[attr-defined]  # Model.from_db
            for populator in compiled.populators:
                populator.populate(row, obj)
            out.append(obj)
        return out
