from django.apps import AppConfig


class AuditConfig(AppConfig):
    """Fair against the operator: signed receipts of match heads and the public log of heads."""

    name = "games.audit"
    label = "audit"
    verbose_name = "Receipts and the log of heads"
    default_auto_field = "django.db.models.BigAutoField"
