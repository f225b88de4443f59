"""Cairn's Django project: settings, ASGI routing and the Celery app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
