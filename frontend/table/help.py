"""How to play: one help file per game, ``frontend/help/<game-id>.html``, found by the game's id.

The help page (``/help/<game-id>/``), the match page's "How to play" panel and
the lobby's game cards all include the same file.  A game without one gets
``frontend/help/_fallback.html`` (its name, player count and a pointer to its
rules document), never an empty panel.
"""

from __future__ import annotations

from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from engine import all_games, get_game

# One line per game for the lobby (the help files say the rest).
TAGLINES = {
    "mountain-goats": "Roll four dice, group them into sums of 5 to 10 and race your goats up six mountains for their tokens.",
    "nanga-parbat": "Two climbers trap animals and place hikers on a shared mountain; each catch tells your rival where to go next.",
    "mountainhome": "Build a dwarf town deck by deck: bid in secret, recruit dwarves, dig for treasure and raise buildings.",
}


def help_template(game_id: str) -> str:
    name = f"frontend/help/{game_id}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "frontend/help/_fallback.html"
    return name


def picture_template(game_id: str) -> str:
    name = f"frontend/help/pictures/{game_id}.svg"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "frontend/help/pictures/_mountain.svg"
    return name


def game_info(game_id: str) -> dict[str, Any]:
    game = get_game(game_id)
    counts = list(game.player_counts())
    players = f"{counts[0]} players" if len(counts) == 1 else f"{counts[0]}–{counts[-1]} players"
    return {
        "id": game.id,
        "name": game.name,
        "players": players,
        "line": TAGLINES.get(game.id, f"{game.name}, for {players}."),
        "help_template": help_template(game.id),
        "picture_template": picture_template(game.id),
    }


def game_cards() -> list[dict[str, Any]]:
    return [game_info(game.id) for game in all_games()]
