"""A web process imports and compiles what requests need when it starts (config.warmup)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import config.asgi  # what gunicorn's workers import
from django.template import engines
cached = engines["django"].engine.template_loaders[0]
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m.startswith(("games.api.views", "frontend.views", "engine.games.",
                                                             "frontend.presenters."))),
    "templates": sorted(cached.get_template_cache),
}))
"""


def test_importing_the_asgi_application_warms_the_process_up():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "test-only"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    for module in ("games.api.views", "frontend.views", "engine.games.mountain_goats", "engine.games.nanga_parbat",
                   "engine.games.mountainhome", "frontend.presenters.mountain_goats", "frontend.presenters.mountainhome"):
        assert module in found["modules"]
    for template in ("frontend/match_live.html", "frontend/boards/mountain-goats.html", "frontend/lobby.html"):
        assert template in found["templates"]


def test_warm_up_lists_only_the_projects_own_templates():
    from config.warmup import _templates

    names = _templates()
    assert "frontend/match_live.html" in names
    assert not any(name.startswith(("admin/", "rest_framework/", "django/")) for name in names)
