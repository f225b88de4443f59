from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_append_only(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """After every ``migrate`` and ``flush``: the events table's append-only triggers are in place.

    Idempotent.  A test tear-down lifts them to empty the table (PostgreSQL's
    flush is a TRUNCATE, which they refuse); the flush's ``post_migrate`` puts
    them back.
    """
    from django.db import connections

    from . import triggers

    connection = connections[using]
    if triggers.TABLE not in connection.introspection.table_names():
        return
    if connection.vendor in ("postgresql", "sqlite") and not triggers.installed(connection):
        triggers.install(connection)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Matches"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(_ensure_append_only, sender=self, dispatch_uid="games-append-only-triggers")
