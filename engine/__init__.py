"""Cairn's pure-Python rules engine.  No Django, no I/O, no clock, no global randomness."""

from .core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ChanceExpectedError,
    EngineError,
    Game,
    GameOverError,
    IllegalActionError,
    InvalidRecordError,
    NotationError,
    OptionError,
    OptionSpec,
    State,
    WrongSeatError,
    random_playout,
)
from .registry import all_games, game_ids, get_game

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ChanceExpectedError",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidRecordError",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "State",
    "WrongSeatError",
    "all_games",
    "game_ids",
    "get_game",
    "random_playout",
]
