"""Cairn's web pages: Django views and templates, htmx, and the match websocket."""
