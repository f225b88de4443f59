"""Bot ratings per table size in the lobby's seat labels."""

from __future__ import annotations

import ai
from frontend.forms import bot_label, bot_labels_by_game


def test_labels_follow_the_table_size(monkeypatch) -> None:
    hard = dict(ai.LEVELS["hard"], table_ratings={"mountain-goats": {3: 1777}})
    monkeypatch.setitem(ai.LEVELS, "hard", hard)
    labels = bot_labels_by_game()
    two = hard["rating"]["mountain-goats"]
    assert labels["mountain-goats"]["bot:hard"] == f"Hard bot · {two}"
    assert labels["mountain-goats/3"]["bot:hard"] == "Hard bot · 1777"
    # a size without a measured rating shows the level's name only, never the 2-player figure
    assert labels["mountain-goats/4"]["bot:hard"] == "Hard bot"
    assert bot_label("hard", "mountain-goats", 3) == "Hard bot · 1777"
    assert "mountainhome/2" not in labels and "mountain-goats/2" not in labels


def test_every_published_table_rating_is_for_a_real_level_game_and_size() -> None:
    from engine import get_game

    for level, info in ai.LEVELS.items():
        for game_id, sizes in (info.get("table_ratings") or {}).items():
            counts = get_game(game_id).player_counts()
            assert sizes and all(n in counts and n > 2 and isinstance(r, int) for n, r in sizes.items()), level


def test_the_published_table_ratings_are_recomputed_from_the_raw_arena_results() -> None:
    """docs/AI.md, "3 and 4 players": every rating per table size in ai.LEVELS comes from the JSONL in
    benchmarks/ai_results/tables/ (chained as benchmarks/ai_tables.py --ratings does)."""
    import glob
    from pathlib import Path

    from benchmarks.ai_tables import row_for
    from benchmarks.arena import chain_ratings

    root = Path(__file__).resolve().parents[2] / "benchmarks" / "ai_results" / "tables"
    paths = [path for path in sorted(glob.glob(str(root / "*.jsonl"))) if Path(path).read_text().strip()]
    summaries = [row_for(path)[0] for path in paths]
    checked = 0
    for level, info in ai.LEVELS.items():
        for game_id, sizes in (info.get("table_ratings") or {}).items():
            for players, published in sizes.items():
                ratings = chain_ratings([s for s in summaries if s["game"] == game_id and s["players"] == players], {})
                assert round(ratings[level]) == published, (level, game_id, players, ratings)
                checked += 1
    assert checked >= 8
