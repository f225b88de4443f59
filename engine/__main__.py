"""Command line: ``python -m engine replay|bench|sample``.  See docs/ENGINE.md."""

from .cli import main

raise SystemExit(main())
