"""The registered games, by id.  Modules are imported on first use."""

from __future__ import annotations

from importlib import import_module

from .core import Game

# id -> "module:Class".  A fourth game adds one line here.
_GAMES: dict[str, str] = {
    "mountain-goats": "engine.games.mountain_goats:MountainGoats",
    "nanga-parbat": "engine.games.nanga_parbat:NangaParbat",
    "mountainhome": "engine.games.mountainhome:Mountainhome",
}

_cache: dict[str, Game] = {}


def game_ids() -> list[str]:
    return list(_GAMES)


def get_game(game_id: str) -> Game:
    """The game with this id; ``KeyError`` with a clear message if unknown."""
    game = _cache.get(game_id)
    if game is None:
        try:
            target = _GAMES[game_id]
        except KeyError:
            raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(_GAMES)}") from None
        module_name, class_name = target.split(":")
        game = getattr(import_module(module_name), class_name)()
        _cache[game_id] = game
    return game


def all_games() -> list[Game]:
    return [get_game(game_id) for game_id in _GAMES]
