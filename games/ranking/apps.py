from django.apps import AppConfig


class RankingConfig(AppConfig):
    name = "games.ranking"
    label = "ranking"
    verbose_name = "Ranked play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import services

        from .hooks import after_save

        if after_save not in services.AFTER_SAVE_HOOKS:
            services.AFTER_SAVE_HOOKS.append(after_save)
