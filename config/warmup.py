"""Pay a web process's first-use costs when it starts, not during its first requests.

Django and Cairn import and compile much of what a request needs on first
use: the URL configuration and every view module behind it (on the first
request's URL resolution), each game's engine and presenter module (on the
first match of that game), and each template (on its first render; the cached
loader keeps it afterwards).  A process that has just started (a restart, a
deploy, gunicorn replacing a worker) paid all of that inside its first
requests, while the sockets of every match reconnected to it at once: py-spy
found a fresh process spending about 11% of its first 25 s under load in
imports.  :func:`warm_up` does that work once, before the process serves.

Nothing here touches the database, Redis or the network; a failure is a bug
in an import or a template, and the process should not start with it.
"""

from __future__ import annotations

import time
from pathlib import Path


def _templates() -> list[str]:
    """The names of every template of Cairn's own apps (not of Django's or installed packages')."""
    from django.conf import settings
    from django.template import engines

    project = Path(settings.BASE_DIR).resolve()
    names: list[str] = []
    for engine in engines.all():
        for directory in engine.template_dirs:
            root = Path(directory).resolve()
            if project in root.parents and ".venv" not in root.parts and "site-packages" not in root.parts:
                names += sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))
    return names


def warm_up() -> dict[str, float | int]:
    """Import the URL configuration, the games and their presenters, and compile every template.

    Returns what was done and how long it took (``seconds``, ``templates``, ``games``).
    """
    from django.template.loader import get_template
    from django.urls import get_resolver

    from engine.registry import all_games
    from frontend import presenters

    started = time.perf_counter()
    get_resolver().url_patterns  # noqa: B018 - imports every urlconf and the views they name
    games = all_games()
    for game in games:
        presenters.get_presenter(game.id)
    names = _templates()
    for name in names:
        get_template(name)
    return {"seconds": time.perf_counter() - started, "templates": len(names), "games": len(games)}
