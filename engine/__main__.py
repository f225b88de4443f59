"""Command line: ``python -m engine replay|audit|witness|tournament-audit|bench|sample``.  See docs/ENGINE.md."""

from .cli import main

raise SystemExit(main())
