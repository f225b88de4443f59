from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """Post-game analysis of finished matches (docs/ANALYSIS.md)."""

    name = "games.analysis"
    label = "analysis"
    verbose_name = "Post-game analysis"
    default_auto_field = "django.db.models.BigAutoField"
