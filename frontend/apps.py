from django.apps import AppConfig


class FrontendConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"
    verbose_name = "Cairn pages"

    def ready(self) -> None:
        from games import notify

        from . import fanout

        # Each seated person's fragment is rendered once where a move commits (frontend/fanout.py).
        notify.render_seats_with(fanout.render_seats)
