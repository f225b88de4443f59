from django.apps import AppConfig


class FairplayConfig(AppConfig):
    """Presence, leavers and rated-game integrity (docs/RANKING.md, "Leavers")."""

    name = "games.fairplay"
    label = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"
