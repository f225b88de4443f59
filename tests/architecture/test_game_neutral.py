"""The service knows no game by name: it reaches games only through the engine's protocol.

Nothing in ``games/`` imports a module of a particular game (``engine.games.<name>``): what a
game offers beyond the core (redaction, action fields, ...) it declares on its ``Game``
(engine/core.py).  In ``frontend/`` only a game's presenter (``frontend.presenters.<name>``)
may import its game's public facts.
"""

from __future__ import annotations

from pathlib import Path

from .test_import_graph import MODULES, _imports

GAME_PACKAGE = "engine.games"


def _game_specific(target: str) -> bool:
    return target.startswith(GAME_PACKAGE + ".")


def _neutral(name: str) -> bool:
    """Whether module ``name`` must not import a particular game."""
    if name == "games" or name.startswith("games."):
        return True
    return (name == "frontend" or name.startswith("frontend.")) and not name.startswith("frontend.presenters")


NEUTRAL = sorted(name for name in MODULES if _neutral(name))


def test_the_scope_covers_the_service_and_the_pages() -> None:
    assert "games.aggregate" in NEUTRAL and "games.projection" in NEUTRAL and "frontend.views" in NEUTRAL
    assert not any(name.startswith("frontend.presenters") for name in NEUTRAL)


def _offences(modules: dict[str, Path]) -> list[str]:
    return [
        f"{name} imports {target}"
        for name, path in modules.items()
        for target in sorted(_imports(name, path))
        if _game_specific(target)
    ]


def test_no_service_module_imports_a_particular_game() -> None:
    found = _offences({name: MODULES[name] for name in NEUTRAL})
    assert not found, "; ".join(found) + ": declare what is needed on the game (engine/core.py)"


def test_an_import_of_a_particular_game_is_found(tmp_path: Path) -> None:
    module = tmp_path / "aggregate.py"
    module.write_text("def fields():\n    from engine.games.mountainhome.notation import ACTION_FIELDS\n    return ACTION_FIELDS\n")
    assert _offences({"games.aggregate": module}) == ["games.aggregate imports engine.games.mountainhome.notation"]
