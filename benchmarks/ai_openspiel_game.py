"""Our engine as an OpenSpiel Python game, so OpenSpiel's MCTSBot runs on the same rules code.

Development only (``pip install -c constraints.txt open-spiel==2.0.2``): nothing in ``engine/`` or
``ai/`` imports this.  ``register(game_id, players)`` registers
``python_cairn_<game>_<players>p`` with pyspiel and returns the pyspiel game.

* Actions and chance outcomes are mapped to ints by a per-game table that
  grows as values are met (the engine's actions are tuples); legal actions are
  returned sorted by that int.
* ``returns()`` is our reward (:func:`ai.reward.terminal_reward`, margin
  weight 0.1) rescaled to [-1, 1], the range MCTSBot's ``uct_c`` assumes.
* Cloning a state clones the engine state (``State.clone()``), never deepcopy
  of its insides.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from ai.reward import terminal_reward
from engine import get_game
from engine.core import CHANCE, State

MARGIN_WEIGHT = 0.1
MAX_ACTIONS = 1 << 16


class Codes:
    """Interned ints for engine actions (and, separately, chance outcomes)."""

    def __init__(self) -> None:
        self.to_int: dict[Any, int] = {}
        self.values: list[Any] = []

    def code(self, value: Any) -> int:
        i = self.to_int.get(value)
        if i is None:
            i = self.to_int[value] = len(self.values)
            self.values.append(value)
        return i


_GAMES: dict[str, Any] = {}


def game_type_and_info(
    game_id: str, players: int, short: str, *, imperfect: bool, max_actions: int = MAX_ACTIONS
) -> tuple[Any, Any, Any]:
    """The engine game, and pyspiel's ``GameType`` and ``GameInfo`` for it as ``short``.

    ``imperfect``: an imperfect-information game whose information state is a string (the ISMCTS
    peer's); otherwise a perfect-information one (the MCTS peer's).  ``max_actions`` bounds the ints
    that actions and chance outcomes are coded as.
    """
    engine_game = get_game(game_id)
    information = pyspiel.GameType.Information
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"Cairn {engine_game.name} ({players} players{', imperfect information' if imperfect else ''})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION if imperfect else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=imperfect,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=max_actions,
        max_chance_outcomes=max_actions,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=engine_game.max_events(players),
    )
    return engine_game, game_type, game_info


def register(game_id: str, players: int) -> Any:
    short = f"python_cairn_{game_id.replace('-', '_')}_{players}p"
    if short in _GAMES:
        return _GAMES[short]
    engine_game, game_type, game_info = game_type_and_info(game_id, players, short, imperfect=False)
    actions = Codes()
    outcomes = Codes()

    class CairnState(pyspiel.State):
        def __init__(self, game: Any, inner: State | None = None) -> None:
            super().__init__(game)
            self.inner = inner if inner is not None else engine_game.new_initial_state(players)

        def current_player(self) -> int:
            return self.inner.current_player()

        def _legal_actions(self, player: int) -> list[int]:
            code = actions.code
            return sorted(code(a) for a in self.inner.legal_actions(player))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            code = outcomes.code
            return sorted((code(o), p) for o, p in self.inner.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            inner = self.inner
            player = inner.current_player()
            if player == CHANCE:
                inner.apply(CHANCE, outcomes.values[action])
            else:
                inner.apply(player, actions.values[action])

        def engine_action(self, code: int) -> Any:
            """The engine action MCTSBot's int ``code`` stands for."""
            return actions.values[code]

        def _action_to_string(self, player: int, action: int) -> str:
            if player == CHANCE:
                return repr(outcomes.values[action])
            return repr(actions.values[action])

        def is_terminal(self) -> bool:
            return self.inner.is_terminal()

        def returns(self) -> list[float]:
            if not self.inner.is_terminal():
                return [0.0] * players
            return [2.0 * r - 1.0 for r in terminal_reward(self.inner, MARGIN_WEIGHT)]

        def __deepcopy__(self, memo: Any) -> CairnState:
            return CairnState(self.get_game(), self.inner.clone())

        def __str__(self) -> str:
            return repr(self.inner.key())

    class CairnGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self, inner: State | None = None) -> CairnState:
            return CairnState(self, inner)

    pyspiel.register_game(game_type, CairnGame)
    game = pyspiel.load_game(short)
    _GAMES[short] = game
    return game


def wrap(game: Any, inner: State) -> Any:
    """A pyspiel state of ``game`` holding (a clone of) the engine state ``inner``."""
    return game.new_initial_state(inner.clone())
