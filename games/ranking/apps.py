from django.apps import AppConfig


class RankingConfig(AppConfig):
    """Ranked play as a plug-in of the match core: ratings, ladders, matchmaking and challenges.

    It reacts to the core through one hook, :data:`games.signals.match_finished`.
    """

    name = "games.ranking"
    label = "ranking"
    verbose_name = "Ranked play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_finished

        from .hooks import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="games.ranking.ratings")
