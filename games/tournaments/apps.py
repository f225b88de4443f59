from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments and seasons as a plug-in of the match core.

    They make their matches through ``games.services`` and react to the core through
    :data:`games.signals.match_finished` (a board's result, the standings, the season's leaderboard).
    """

    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments and seasons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_finished

        from .hooks import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="games.tournaments.boards")
