"""Path converters: an id in a URL is a database id or the route does not match (a 404).

Django's ``int`` converter takes any run of digits; an id of 2**63 or more
then reached the database and failed there (``OverflowError`` on SQLite, a
``DataError`` on PostgreSQL: a 500).  ``id`` takes 1 to 2**63 - 1 only.
"""

from __future__ import annotations

from django.urls import register_converter

from ..ids import valid_id


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = valid_id(value)
        if number is None:
            raise ValueError(f"{value} is not a database id")
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
