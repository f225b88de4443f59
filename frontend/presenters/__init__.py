"""Per-game presenters: they turn a match view into template context.

Every game plugs into the match page with two files, looked up by game id:

* ``frontend/jinja2/frontend/boards/<game_id>.html``: the board (a Jinja2 template, frontend/jinja.py), rendered
  with the context below;
* ``frontend/presenters/<game_module>.py`` (the id with ``-`` turned into
  ``_``, e.g. ``mountain_goats.py``), a module that defines::

      def present(match: dict, players: list[Player]) -> dict

  ``match`` is ``games.selectors.match_view(match, user)`` for the viewer
  (its ``view`` is the engine observation of that viewer's seat, or the
  spectator's).  The dict returned is available in the board template as
  ``board``.  It may also define:

      def describe_event(event: dict, players: list[Player]) -> str | None
          # one line of the event log for a game event (None: use the default)
      def describe_events(events: list[dict], players: list[Player]) -> list[str | None]
          # the same for all of a match's game events at once, in order, for
          # lines that depend on what came before (who rolled); wins over
          # describe_event when both are defined
      def action_from_form(data: QueryDict, match: dict) -> dict
          # build a record-notation action from game-specific form fields,
          # raising FormError with a message the player can act on

A game with neither file still works: the fallback board shows the raw
observation and offers each legal action as a button.

Presenters only read: every move goes through ``games.services.submit_action``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any


class FormError(ValueError):
    """A game-specific move form that cannot be turned into an action."""


@dataclass(frozen=True)
class Player:
    """One seat as the page shows it."""

    seat: int
    name: str
    is_bot: bool
    bot_level: str | None
    is_you: bool
    to_move: bool
    filled: bool

    @property
    def number(self) -> int:
        """Seats are 0-based in records; people count from 1."""
        return self.seat + 1

    @property
    def colour(self) -> int:
        return self.seat % 4

    def badge(self) -> dict[str, Any]:
        """The seat's badge as plain data (seat, colour, name, number): what a ``memo(...)`` part may hold."""
        return {"seat": self.seat, "colour": self.colour, "name": self.name, "number": self.number}


def module_name(game_id: str) -> str:
    return game_id.replace("-", "_")


def get_presenter(game_id: str) -> ModuleType | None:
    """The presenter module of ``game_id``, or None when the game has none."""
    name = module_name(game_id)
    if not name.isidentifier():
        return None
    try:
        return import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise  # a presenter that exists but is broken must not be hidden
        return None


def board_template(game_id: str) -> list[str]:
    """The board template of ``game_id`` (Jinja2, frontend/jinja2/), falling back to the raw
    observation: the names, first found wins (``{% include %}`` of a list)."""
    return [f"frontend/boards/{game_id}.html", "frontend/boards/_fallback.html"]


def present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    presenter = get_presenter(match["game"])
    if presenter is None:
        return fallback_present(match, players)
    presented: dict[str, Any] = presenter.present(match, players)
    return presented


def fallback_present(match: dict[str, Any], players: list[Player]) -> dict[str, Any]:
    """For a game with no presenter: the observation as JSON, every legal action as JSON."""
    return {
        "observation_json": json.dumps(match.get("view"), indent=2, sort_keys=True),
        "actions": [
            {"label": json.dumps(action, sort_keys=True), "json": json.dumps(action)}
            for action in match.get("legal_actions") or []
        ],
    }


def form_action_builder(game_id: str) -> Callable[..., dict[str, Any]] | None:
    presenter = get_presenter(game_id)
    return getattr(presenter, "action_from_form", None) if presenter else None


def events_describer(game_id: str) -> Callable[..., list[str | None]] | None:
    presenter = get_presenter(game_id)
    return getattr(presenter, "describe_events", None) if presenter else None


def event_describer(game_id: str) -> Callable[..., str | None] | None:
    presenter = get_presenter(game_id)
    return getattr(presenter, "describe_event", None) if presenter else None
