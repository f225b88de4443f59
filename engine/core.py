"""The engine protocol that every Cairn game fills in.

The shape follows OpenSpiel's game API (a game is metadata plus a state with
``current_player``, ``legal_actions``, ``chance_outcomes``, ``apply``, ``clone``,
per-seat observations and determinization) and python-chess's two ways in
(an unchecked fast path for search and a checked path for user input that
raises typed errors).

Conventions
-----------
* Seats are ints ``0 .. players-1``.  ``current_player()`` returns a seat or one
  of the negative constants :data:`CHANCE`, :data:`SIMULTANEOUS`,
  :data:`TERMINAL`.  ``to_move()`` always returns the tuple of seats that may act
  now (several at a sealed, simultaneous decision; none at chance or the end).
* An *action* is any hashable value chosen by the game (a tuple of ints for most
  games) so that search can store it cheaply.  Its JSON spelling is the rules
  file's record notation: ``action_to_json`` / ``action_from_json``.
* A *chance outcome* is likewise a hashable value with ``chance_to_json`` /
  ``chance_from_json``; chance outcomes are events like moves, so a record
  replays with no random generator at all.
* Randomness comes only from an ``rng`` argument that offers ``randrange(n)``
  (``random.Random`` or :class:`engine.fair.SeededRandom`).  The engine keeps no
  global random state, reads no clock and does no I/O.
* Optional features (:data:`REDACTION`, :data:`ACTION_VIEW`, :data:`INFO_DIGEST`)
  are methods of the base classes with documented defaults; a game that
  overrides one names it in ``Game.features``, and callers read that set (a
  class attribute) instead of probing for methods.  The conformance test
  (tests/engine/test_conformance.py) checks that the set matches the
  overrides and that each declared feature keeps its contract.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

# The optional features a game may declare in ``Game.features`` (see the State methods of the same names).
REDACTION = "redaction"  # State.redact_event hides parts of record entries from some viewers
ACTION_VIEW = "action_view"  # State.action_view says what an observer sees of an event
INFO_DIGEST = "info_digest"  # State.info_digest summarises what an observer sees (with ACTION_VIEW)
FEATURES = frozenset({REDACTION, ACTION_VIEW, INFO_DIGEST})

Action = Hashable
Outcome = Hashable


class RandomSource(Protocol):
    """The only randomness the engine accepts: an object with ``randrange``."""

    def randrange(self, n: int, /) -> int: ...


# --------------------------------------------------------------------------- errors


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EngineError, ValueError):
    """An action (or chance outcome) that cannot be applied in this state.

    The message always names the action and the reason.
    """


class NotationError(IllegalActionError):
    """JSON that is not a well-formed action or chance outcome of this game."""


class WrongSeatError(IllegalActionError):
    """A seat acted when it is not one of the seats to move."""


class GameOverError(IllegalActionError):
    """Anything applied after the game has ended."""


class ChanceExpectedError(IllegalActionError):
    """A player action where a chance event is due, or the reverse."""


class OptionError(EngineError, ValueError):
    """A match option (or player count) the game does not allow."""


class InvalidRecordError(EngineError, ValueError):
    """A ``cairn-record/1`` that cannot be replayed.

    ``index`` is the 0-based index of the first event that cannot be applied,
    or ``None`` when the envelope itself is invalid.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True)
class OptionSpec:
    """One match option: its name, default and allowed values."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    description: str = ""

    def check(self, value: Any) -> Any:
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if not self.choices and type(value) is not type(self.default):
            raise OptionError(
                f"option {self.name!r} must be of type {type(self.default).__name__}, not {value!r}"
            )
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            "description": self.description,
        }


class Game:
    """A game definition: metadata plus a factory for states.

    Subclasses set the class attributes and implement
    :meth:`new_initial_state` and :meth:`state_from_observation`.
    ``action_fields`` lists every field an action of the record notation may
    have (the service refuses any other before the game decodes the action).
    ``features`` names the optional features the game implements: exactly
    the optional methods its state overrides (:data:`FEATURES`).
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_fields: ClassVar[frozenset[str]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    perfect_information: ClassVar[bool] = True
    has_chance: ClassVar[bool] = True
    simultaneous: ClassVar[bool] = False
    features: ClassVar[frozenset[str]] = frozenset()

    # ---- metadata

    def player_counts(self) -> tuple[int, ...]:
        return tuple(range(self.min_players, self.max_players + 1))

    def metadata(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "player_counts": list(self.player_counts()),
            "options": [spec.to_json() for spec in self.option_specs],
            "perfect_information": self.perfect_information,
            "chance": self.has_chance,
            "simultaneous": self.simultaneous,
        }

    def max_events(self, players: int) -> int:
        """A bound on the number of events (chance and actions) in any game."""
        raise NotImplementedError

    def check_players(self, players: Any) -> int:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players!r}"
            )
        return players

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and reject unknown or out-of-range options."""
        options = dict(options or {})
        known = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise OptionError(f"{self.name} has no option {unknown[0]!r}")
        return {name: spec.check(options.get(name, spec.default)) for name, spec in known.items()}

    # ---- states

    def new_initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> State:
        raise NotImplementedError

    def state_from_observation(
        self, observation: Mapping[str, Any], seat: int, rng: RandomSource
    ) -> State:
        """Determinization: a full state that agrees with everything in ``observation``.

        ``observation`` is what ``State.observation(seat)`` returned; hidden
        parts are filled in at random from ``rng``.  Bots only ever get a full
        state this way, so they cannot see what their seat cannot.
        """
        raise NotImplementedError

    def determinizer(self, observation: Mapping[str, Any], seat: int) -> Callable[[RandomSource], State]:
        """``rng -> state``: :meth:`state_from_observation` for one observation, dealt afresh per call.

        For a search that deals many determinizations of one observation.  Each call returns a new,
        independent state, and ``determinizer(obs, seat)(rng)`` deals exactly what
        ``state_from_observation(obs, seat, rng)`` deals.  The default calls
        :meth:`state_from_observation`; a game may override it to parse the observation once.
        """

        def deal(rng: RandomSource) -> State:
            return self.state_from_observation(observation, seat, rng)

        return deal


class State:
    """A position of one game.  Subclasses fill in every method below."""

    __slots__ = ("game", "players", "options")

    game: Game
    players: int
    options: dict[str, Any]

    # ---- who decides next

    def current_player(self) -> int:
        """A seat, or CHANCE, SIMULTANEOUS or TERMINAL."""
        raise NotImplementedError

    def to_move(self) -> tuple[int, ...]:
        """The seats that may act now (empty at a chance node and at the end)."""
        player = self.current_player()
        return (player,) if player >= 0 else ()

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # ---- actions

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """The legal actions of ``seat`` (default: the one seat to move), unique."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[Outcome, float]]:
        """Every distinct outcome of this chance node with its probability.

        Games whose chance space is too large to list (a shuffle) raise
        ``NotImplementedError`` here and rely on :meth:`sample_chance`.
        """
        raise NotImplementedError

    def sample_chance(self, rng: RandomSource) -> Outcome:
        """Draw one outcome of this chance node using only ``rng.randrange``."""
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> None:
        """Fast path for search: apply without checking.  ``seat`` is CHANCE for outcomes."""
        raise NotImplementedError

    def check(self, seat: int, action: Action) -> None:
        """Raise a typed error if ``seat`` may not apply ``action`` now."""
        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(f"{self.describe(seat, action)} is illegal: the game has ended")
        if seat == CHANCE:
            if player != CHANCE:
                raise ChanceExpectedError(
                    f"chance event {self.describe(seat, action)} is illegal: "
                    f"a move by seat {', '.join(map(str, self.to_move()))} is due"
                )
            self.check_chance(action)
            return
        if player == CHANCE:
            raise ChanceExpectedError(
                f"{self.describe(seat, action)} is illegal: a chance event is due"
            )
        if seat not in self.to_move():
            movers = " or ".join(f"seat {s}" for s in self.to_move())
            raise WrongSeatError(f"{self.describe(seat, action)} is illegal: it is {movers} to move")
        if action not in self.legal_actions(seat):
            raise IllegalActionError(
                f"{self.describe(seat, action)} is illegal: {self.why_illegal(seat, action)}"
            )

    def check_chance(self, outcome: Outcome) -> None:
        """Raise if ``outcome`` is not a possible outcome of this chance node."""
        if outcome not in dict(self.chance_outcomes()):
            raise IllegalActionError(f"chance event {self.describe(CHANCE, outcome)} is impossible here")

    def why_illegal(self, seat: int, action: Action) -> str:
        """A short reason used in error messages; games may say more."""
        return "it is not among the legal actions"

    def apply_checked(self, seat: int, action: Action) -> None:
        """Checked path for user input: validate, then apply."""
        self.check(seat, action)
        self.apply(seat, action)

    def random_playout(self, rng: RandomSource) -> int:
        """Play uniformly random legal actions to the end; the number of events applied.

        Games may override this with a fused loop for rollout speed, keeping
        the same distribution.
        """
        return random_playout(self, rng)

    def clone(self) -> State:
        raise NotImplementedError

    # ---- information

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON-serialisable data."""
        raise NotImplementedError

    def determinize(self, seat: int, rng: RandomSource) -> State:
        """A full state consistent with everything ``seat`` knows (via its observation)."""
        return self.game.state_from_observation(self.observation(seat), seat, rng)

    # ---- optional features (declared in ``Game.features``; callers check the declaration first)

    def redact_event(self, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """:data:`REDACTION`: the record entry ``event`` as ``viewer`` (a seat, ``None`` a spectator) may see it.

        Called on the state just *before* the event is applied.  The acting seat sees its own action
        as it is; what a viewer cannot see is replaced (an entry that is neither a ``player`` nor a
        ``chance`` entry is left out of the viewer's listing), and two events the viewer cannot tell
        apart are redacted alike.  The default, for games whose events hide nothing: ``event``.
        """
        return event

    def action_view(self, observer: int, seat: int, action: Action) -> Hashable:
        """:data:`ACTION_VIEW`: what ``observer`` sees of ``seat`` doing ``action`` (``seat`` CHANCE: an outcome).

        Called before the event is applied; ISMCTS keys its nodes by it.  ``observer``'s own actions
        are seen as they are; two events ``observer`` cannot tell apart must look alike.  The default
        (a game whose events are all public): ``action``.
        """
        return action

    def info_digest(self, observer: int) -> Hashable:
        """:data:`INFO_DIGEST`: a cheap summary of parts of ``observer``'s observation, taken after an event.

        With :meth:`action_view` it tells apart what an event revealed through its consequences (the
        cards a shuffle let the observer draw).  It depends only on what ``observer`` may know.  The
        default (nothing beyond the view of the event): ``None``.
        """
        return None

    # ---- results

    def scores(self) -> list[int]:
        """Current score totals per seat (every game scores whole points)."""
        raise NotImplementedError

    def ranking(self) -> list[int]:
        """At the end: each seat's place, 0 for first; tied seats share a place."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """The winning seats once the game has ended (ties share), else []."""
        if not self.is_terminal():
            return []
        ranks = self.ranking()
        return [seat for seat, rank in enumerate(ranks) if rank == 0]

    def key(self) -> Hashable:
        """A hashable summary of the full state; equal keys mean equal states."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and type(other) is type(self) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    # ---- record notation

    def action_to_json(self, seat: int, action: Action) -> dict[str, Any]:
        raise NotImplementedError

    def action_from_json(self, seat: int, data: Any) -> Action:
        """Decode an action; raise NotationError (or IllegalActionError) naming the problem."""
        raise NotImplementedError

    def chance_to_json(self, outcome: Outcome) -> dict[str, Any]:
        raise NotImplementedError

    def chance_from_json(self, data: Any) -> Outcome:
        raise NotImplementedError

    def describe(self, seat: int, action: Action) -> str:
        """Human-readable name of an action for messages: its record notation."""
        import json

        try:
            text = json.dumps(
                self.chance_to_json(action) if seat == CHANCE else self.action_to_json(seat, action),
                separators=(",", ":"),
                sort_keys=True,
            )
        except Exception:  # noqa: BLE001 - an undecodable action still needs a name
            text = repr(action)
        return text if seat == CHANCE else f"seat {seat} {text}"

    # ---- events (record entries)

    def event_to_json(self, seat: int, action: Action) -> dict[str, Any]:
        if seat == CHANCE:
            return {"chance": self.chance_to_json(action)}
        return {"player": seat, "action": self.action_to_json(seat, action)}

    def decode_event(self, event: Any) -> tuple[int, Action]:
        """Check and decode one record entry against this state.

        Returns ``(seat, action)`` ready for :meth:`apply`; raises a typed
        :class:`IllegalActionError` otherwise.  Order of checks: the game has
        ended; chance where a move is due (or the reverse); the wrong seat;
        malformed notation; illegality.
        """
        if not isinstance(event, dict):
            raise NotationError(f"an event must be a JSON object, not {event!r}")
        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(f"event {_short(event)} comes after the game has ended")
        if "chance" in event:
            if set(event) != {"chance"}:
                raise NotationError(f"chance event {_short(event)} must hold only the key 'chance'")
            if player != CHANCE:
                movers = " or ".join(f"seat {s}" for s in self.to_move())
                raise ChanceExpectedError(
                    f"chance event {_short(event)} is illegal: a move by {movers} is due"
                )
            outcome = self.chance_from_json(event["chance"])
            self.check_chance(outcome)
            return CHANCE, outcome
        if set(event) != {"player", "action"}:
            raise NotationError(
                f"event {_short(event)} must be {{'chance': ...}} or {{'player': SEAT, 'action': ...}}"
            )
        seat = event["player"]
        if type(seat) is not int or not 0 <= seat < self.players:
            raise NotationError(f"event {_short(event)} names no seat of this {self.players}-player game")
        if player == CHANCE:
            raise ChanceExpectedError(f"move {_short(event)} is illegal: a chance event is due")
        if seat not in self.to_move():
            movers = " or ".join(f"seat {s}" for s in self.to_move())
            raise WrongSeatError(f"move {_short(event)} is illegal: it is {movers} to move, not seat {seat}")
        action = self.action_from_json(seat, event["action"])
        self.check(seat, action)
        return seat, action

    def apply_event(self, event: Any) -> tuple[int, Action]:
        """Checked path for a record entry: decode, validate and apply it."""
        seat, action = self.decode_event(event)
        self.apply(seat, action)
        return seat, action


def _short(event: Any, limit: int = 120) -> str:
    import json

    try:
        text = json.dumps(event, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError):
        text = repr(event)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def random_playout(
    state: State, rng: RandomSource, *, events: list[dict[str, Any]] | None = None, max_events: int | None = None
) -> int:
    """Play uniformly random legal actions (chance sampled) until the end.

    Returns the number of events applied.  At a simultaneous decision every
    seat to move picks in seat order.  When ``events`` is given, each event is
    appended to it in record notation.
    """
    count = 0
    limit = max_events if max_events is not None else 1 << 62
    while count < limit:
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcome = state.sample_chance(rng)
            if events is not None:
                events.append({"chance": state.chance_to_json(outcome)})
            state.apply(CHANCE, outcome)
        else:
            seat = player if player >= 0 else state.to_move()[0]
            actions = state.legal_actions(seat)
            action = actions[rng.randrange(len(actions))]
            if events is not None:
                events.append({"player": seat, "action": state.action_to_json(seat, action)})
            state.apply(seat, action)
        count += 1
    return count



def random_event(state: State, rng: RandomSource) -> dict[str, Any]:
    """One random legal event of ``state`` in record notation, not applied: a chance outcome drawn by
    ``rng``, or a uniformly chosen action of the first seat to move (as :func:`random_playout` picks)."""
    if state.current_player() == CHANCE:
        return {"chance": state.chance_to_json(state.sample_chance(rng))}
    seat = state.to_move()[0]
    actions = state.legal_actions(seat)
    return {"player": seat, "action": state.action_to_json(seat, actions[rng.randrange(len(actions))])}
