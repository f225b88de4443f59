from django.apps import AppConfig


class TableConfig(AppConfig):
    """Chat, rematches, watching and notifications: the social side of a match."""

    name = "games.table"
    label = "table"
    verbose_name = "At the table"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_saved

        from .notifications import on_match_saved

        match_saved.connect(on_match_saved, dispatch_uid="games.table.turn_email")
