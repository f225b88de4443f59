from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Matches"
    default_auto_field = "django.db.models.BigAutoField"
