"""The card data module (engine/games/mountainhome/cards.py) against the rules file.

The rules file is ``shared/rules/mountainhome.md`` next to the repository.  The
tests compare the module both with the JSON of §22 and with the prose tables of
§2 and §3 (copies per player count, ids, construction costs, VP, pile sizes).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.games.mountainhome.cards import BY_ID, CARDS, CONSTANTS

RULES = Path(__file__).resolve().parents[3] / "shared" / "rules" / "mountainhome.md"

pytestmark = pytest.mark.skipif(not RULES.exists(), reason=f"rules file {RULES} not present")


def _rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


def _json_blocks() -> list:
    text = _rules_text()
    section = text[text.index("### 22.2 Cards") :]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)[:2]]


def _table_rows(heading: str) -> list[list[str]]:
    text = _rules_text()
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # drop the header


def _ids(cell: str) -> list[str]:
    return re.findall(r"`([a-z0-9-]+)`", cell)


def test_the_card_records_equal_the_rules_file_json() -> None:
    cards, constants = _json_blocks()
    assert CARDS == cards
    assert CONSTANTS == constants


def test_card_ids_are_unique_and_every_prose_table_id_exists() -> None:
    assert len(BY_ID) == len(CARDS) == 70
    headings = [
        "### 2.1 Treasures", "### 2.2 Loot", "### 2.3 Dwarves", "### 2.4 Clan Halls",
        "### 2.5 Unique buildings", "### 2.6 Unique Locations", "### 2.7 Basic and advanced",
        "### 2.8 Unique Projects", "### 2.9 Action cards", "### 2.10 Immediate events",
        "### 2.11 Recurring events", "### 2.12 Status",
    ]
    seen = set()
    for heading in headings:
        for row in _table_rows(heading):
            for card_id in _ids(row[1]):
                assert card_id in BY_ID, f"{card_id} from {heading} is missing in the data"
                seen.add(card_id)
    assert seen == set(BY_ID)


def test_treasure_copies_per_player_count_match_the_table() -> None:
    for row in _table_rows("### 2.1 Treasures"):
        (card_id,) = _ids(row[1])
        copies = dict(zip(("2", "3", "4"), (int(n) for n in row[2].split("/"))))
        assert BY_ID[card_id]["copies"] == copies, card_id
        amount = int(row[4].split()[0])
        assert BY_ID[card_id]["value"]["amt"] == amount, card_id


_RES = {"R": "rocks", "S": "shinies", "B": "booze"}


def _parse_steps(cell: str) -> list[dict[str, int]]:
    steps = []
    for part in re.split(r";\s*", cell):
        part = re.sub(r"^S\d+(–S\d+ each)?\s*", "", part.strip())
        if part.endswith("any"):
            steps.append({"any": int(part.split()[0])})
            continue
        step = {}
        for amount, letter in re.findall(r"(\d+)([RSB])", part):
            step[_RES[letter]] = int(amount)
        steps.append(step)
    return steps


def _same_step(data: dict, prose: dict) -> bool:
    return {k: v for k, v in data.items()} == prose


@pytest.mark.parametrize(
    "heading,id_col,vp_col,steps_col",
    [
        ("### 2.4 Clan Halls", 1, 2, 3),
        ("### 2.5 Unique buildings", 1, 2, 3),
        ("### 2.7 Basic and advanced", 1, 3, 4),
    ],
)
def test_building_costs_and_vp_match_the_tables(heading: str, id_col: int, vp_col: int, steps_col: int) -> None:
    for row in _table_rows(heading):
        steps = _parse_steps(row[steps_col])
        for card_id in _ids(row[id_col]):
            card = BY_ID[card_id]
            assert card["steps"] == steps, card_id
            if row[vp_col].isdigit():
                assert card["vp"] == int(row[vp_col]), card_id
            else:
                assert card["vp"] == "stored_card_value", card_id


def test_project_costs_and_vp_match_the_table() -> None:
    for row in _table_rows("### 2.8 Unique Projects"):
        (card_id,) = _ids(row[1])
        card = BY_ID[card_id]
        cell = row[3]
        if "each" in cell:  # "S1–S3 each 7S+5B"
            count = int(re.search(r"S1–S(\d)", cell).group(1))
            assert card["steps"] == _parse_steps(cell) * count, card_id
        vp = card["vp"]
        if row[2].startswith("3 if finished"):
            assert vp == {"finished": 3, "per_step": 0}
        else:
            assert vp == {"finished": 2, "per_step": 1}


def test_dwarf_vp_by_kind() -> None:
    for card in CARDS:
        if card["family"] == "dwarf":
            assert card["vp"] == {"labourer": 0, "renowned": 2, "legendary": 3}[card["type"]], card["id"]
    assert sorted(c["id"] for c in CARDS if c["type"] == "legendary") == sorted(CONSTANTS["legendaries"])


def test_recurring_event_vp_match_the_table() -> None:
    for row in _table_rows("### 2.11 Recurring events"):
        (card_id,) = _ids(row[1])
        assert BY_ID[card_id]["resolve_vp"] == int(row[2]), card_id


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pile_sizes_follow_from_the_data(players: int) -> None:
    x = players
    exp = CONSTANTS["exploration"]
    resources = len(exp["resources_per_player"]) * x
    dwarves = exp["dwarves"][str(x)]
    assert dwarves == 2 * x + 2
    events = exp["events"][str(x)]
    assert events == 4 * x
    recurring = exp["recurring"][str(x)]
    assert recurring == 2 * x
    total = resources + dwarves + events + recurring + len(exp["fixed"])
    assert total == exp["size"][str(x)] == {2: 42, 3: 59, 4: 76}[x]
    # copies of every exploration resource = start decks + exploration
    for card_id in exp["resources_per_player"]:
        setup = BY_ID[card_id]["setup"]
        per = setup.get("start_deck_per_player", 0) + setup.get("exploration_per_player", 0)
        assert BY_ID[card_id]["copies"][str(x)] == per * x
    # event pool: 20 cards, the copies of the data
    assert sum(exp["event_pool"].values()) == 20
    for card_id, n in exp["event_pool"].items():
        assert BY_ID[card_id]["copies"] == n
    seed = CONSTANTS["shop"]["profiles"]["seed"]
    assert len(seed["tiers_top_to_bottom"][0]["cards"]) * x == seed["size"][str(x)] == 8 * x
    tiered = CONSTANTS["shop"]["profiles"]["tiered"]
    assert tiered["size"][str(x)] == 8 * x + 4
    for card_id in seed["tiers_top_to_bottom"][0]["cards"]:
        assert BY_ID[card_id]["copies"][str(x)] == x


def test_the_setup_table_matches_the_constants() -> None:
    rows = {row[0]: row[1:] for row in _table_rows("| | X=2 | X=3 | X=4 |")}
    sizes = [int(re.sub(r"\D", "", cell)) for cell in rows["**Exploration pile**"]]
    assert sizes == [CONSTANTS["exploration"]["size"][k] for k in "234"]
    ends = [int(cell) for cell in rows["Dwarves found to end the game (X+2)"]]
    assert ends == [CONSTANTS["end_dwarves_found"][k] for k in "234"]
