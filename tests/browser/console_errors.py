"""Count every console error of a browser page, not only htmx's own reports (no console errors of any kind)."""

from __future__ import annotations


def watch_console_errors(page) -> list[str]:
    """Every console message of type 'error' on ``page``: htmx's reports, failed loads, script errors."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors
