"""Forms of the pages: sign up, and creating a match."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User

import ai
from engine import all_games, get_game
from games.clocks import (
    CASUAL_TIME_CONTROL,
    LOBBY_TIME_CONTROLS,
    describe_time_control,
    normalize_time_control,
)

PERSON = "person"
MAX_OPPONENTS = 3  # the largest game (Mountain Goats, Mountainhome) seats 4


class SignUpForm(UserCreationForm):
    class Meta:  # UserCreationForm's own (the stubs do not declare it)
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}


def bot_label(level: str, game_id: str | None = None, players: int = 2) -> str:
    """``Hard bot · 2289``: a level's name with its published rating for the game (and, above two
    players, for that table size: ``table_ratings``), if it has one."""
    info = ai.LEVELS[level]
    label = f"{info.get('label', level)} bot"
    if players > 2:
        rating = ((info.get("table_ratings") or {}).get(game_id) or {}).get(players) if game_id else None
    else:
        rating = (info.get("rating") or {}).get(game_id) if game_id else None
    return f"{label} · {rating}" if rating is not None else label


def opponent_choices(game_id: str | None = None) -> list[tuple[str, str]]:
    choices = [(PERSON, "A person (open seat)")]
    for level in ai.LEVELS:
        choices.append((f"bot:{level}", bot_label(level, game_id)))
    return choices


def bot_labels_by_game() -> dict[str, dict[str, str]]:
    """For the lobby's script: each game's seat labels, so the ratings follow the chosen game, and
    under ``"<game>/<players>"`` those of each larger table size."""
    labels = {}
    for g in all_games():
        labels[g.id] = {f"bot:{level}": bot_label(level, g.id) for level in ai.LEVELS}
        for n in g.player_counts():
            if n > 2:
                labels[f"{g.id}/{n}"] = {f"bot:{level}": bot_label(level, g.id, n) for level in ai.LEVELS}
    return labels


def option_field_name(game_id: str, option: str) -> str:
    return f"option__{game_id}__{option}"


class CreateMatchForm(forms.Form):
    """Game, player count and who sits in the other seats.

    The creator takes seat 1.  Seats 2..n are each a person (an open seat for
    anyone to join) or a bot of a chosen level.  Each game's options get a
    field of their own, ``option__<game>__<name>``; only the chosen game's
    are used.
    """

    game = forms.ChoiceField()
    players = forms.TypedChoiceField(coerce=int, initial=2)
    # Every match has a time control.  Casual lobby matches default to
    # correspondence, one day per move, so nobody loses on time by stepping away.
    time_control = forms.ChoiceField(required=False, label="Clock")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = all_games()
        self._choice_field("game").choices = [(g.id, g.name) for g in games]
        self._choice_field("time_control").choices = [
            (key, describe_time_control(normalize_time_control(key))) for key in LOBBY_TIME_CONTROLS
        ]
        self.fields["time_control"].initial = CASUAL_TIME_CONTROL
        counts = sorted({n for g in games for n in g.player_counts()})
        self._choice_field("players").choices = [(n, f"{n} players") for n in counts]
        chosen = self.data.get("game") if self.is_bound else None
        choices = opponent_choices(chosen if chosen in {g.id for g in games} else games[0].id if games else None)
        default = choices[1][0] if len(choices) > 1 else PERSON
        for k in range(1, MAX_OPPONENTS + 1):
            self.fields[f"seat_{k}"] = forms.ChoiceField(
                choices=choices, initial=default, required=False, label=f"Seat {k + 1}"
            )
        self.option_fields: list[dict[str, Any]] = []
        for g in games:
            for spec in g.option_specs:
                name = option_field_name(g.id, spec.name)
                if isinstance(spec.default, bool):
                    field: forms.Field = forms.BooleanField(required=False, initial=spec.default)
                elif spec.choices:
                    # Not required: only the chosen game's options are read, and a
                    # missing one takes the game's default (see options()).
                    field = forms.TypedChoiceField(
                        choices=[(str(c), str(c)) for c in spec.choices],
                        initial=str(spec.default),
                        required=False,
                        empty_value=None,
                        coerce=lambda raw, spec=spec: next(c for c in spec.choices if str(c) == raw),
                    )
                else:
                    field = forms.CharField(initial=spec.default, required=False)
                field.label = spec.name.replace("_", " ").capitalize()
                field.help_text = spec.description
                self.fields[name] = field
                self.option_fields.append({"game": g.id, "name": name})

    def _choice_field(self, name: str) -> forms.ChoiceField:
        return cast(forms.ChoiceField, self.fields[name])

    def opponent_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{k}"] for k in range(1, MAX_OPPONENTS + 1)]

    def game_option_fields(self) -> list[dict[str, Any]]:
        return [{"game": item["game"], "field": self[item["name"]]} for item in self.option_fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # a form's clean() gives its cleaned_data
        game_id = data.get("game")
        players = data.get("players")
        if game_id and players:
            game = get_game(game_id)
            if players not in game.player_counts():
                self.add_error(
                    "players", f"{game.name} is for {game.min_players} to {game.max_players} players."
                )
        return data

    def chosen_time_control(self) -> str:
        return self.cleaned_data.get("time_control") or CASUAL_TIME_CONTROL

    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = [{"human": True}]
        for k in range(1, self.cleaned_data["players"]):
            choice = self.cleaned_data.get(f"seat_{k}") or PERSON
            if choice.startswith("bot:"):
                seats.append({"bot": choice[4:]})
            else:
                seats.append({"human": True})
        return seats

    def options(self) -> dict[str, Any]:
        game_id = self.cleaned_data["game"]
        game = get_game(game_id)
        options = {}
        for spec in game.option_specs:
            value = self.cleaned_data.get(option_field_name(game_id, spec.name))
            if value is not None and value != "":
                options[spec.name] = value
        return options
