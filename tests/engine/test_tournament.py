"""The pure tournament rules (engine/tournament.py): scoring, pairings, standings."""

from __future__ import annotations

import itertools

from engine import tournament as T


def test_it_scores_an_arena_like_lichess_with_a_streak_and_berserk():
    line = T.ArenaLine()
    assert line.add([0, 1], 0) == 2  # a win
    assert line.add([0, 1], 0) == 2  # a second win starts the streak
    assert line.on_fire
    assert line.add([0, 1], 0, berserk=True) == 5  # doubled, and one for a berserk win
    assert line.add([0, 0], 0) == 2  # a draw on fire scores double and ends the streak
    assert not line.on_fire
    assert line.add([1, 0], 0) == 0
    assert line.points == 11 and line.games == 5 and line.wins == 3


def test_it_scores_a_four_player_arena_table_by_place():
    places = [2, 0, 3, 1]
    assert [T.arena_base(places, seat) for seat in range(4)] == [2, 6, 0, 4]
    assert [T.game_points(places, seat) for seat in range(4)] == [1 / 3, 1.0, 0.0, 2 / 3]


def test_it_pairs_round_one_of_a_swiss_by_the_fide_dutch_rule():
    entries = [{"entry": n, "rating": 2000 - 10 * n, "start": n} for n in range(1, 9)]
    boards, byes = T.swiss_dutch(T.dutch_players(entries, []), set(), 1, 3)
    # Dutch round 1: the top half meets the bottom half, 1-5, 6-2, 3-7, 8-4
    assert sorted(tuple(sorted(b)) for b in boards) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert byes == []


def test_it_never_repeats_a_pairing_in_a_three_round_swiss():
    entries = [{"entry": n, "rating": 1500, "start": n} for n in range(1, 9)]
    rounds = []
    for number in (1, 2, 3):
        players = T.dutch_players(entries, rounds)
        boards, byes = T.swiss_dutch(players, T.met_pairs(b for b, _ in rounds), number, 3)
        rounds.append(([T.Board(b, (0, 1)) for b in boards], byes))
    pairs = [tuple(sorted(b.seats)) for boards, _ in rounds for b in boards]
    assert len(pairs) == len(set(pairs)) == 12


def test_it_gives_an_odd_swiss_one_bye_worth_a_win():
    entries = [{"entry": n, "rating": 1500 - n, "start": n} for n in range(1, 6)]
    boards, byes = T.swiss_dutch(T.dutch_players(entries, []), set(), 1, 3)
    assert len(boards) == 2 and byes == [5]
    lines = T.fold_rounds(range(1, 6), [([T.Board(b, (0, 1)) for b in boards], byes)])
    assert lines[5].points == 1.0 and lines[5].byes == 1


def test_it_breaks_ties_by_buchholz_then_sonneborn_berger():
    # 1 beats 2, 3 beats 4; then 1 beats 3, 2 beats 4 -> 1: 2, 2: 1, 3: 1, 4: 0
    rounds = [([T.Board((1, 2), (0, 1)), T.Board((3, 4), (0, 1))], []),
              ([T.Board((1, 3), (0, 1)), T.Board((2, 4), (0, 1))], [])]
    rows = T.ranked(T.fold_rounds([1, 2, 3, 4], rounds), "swiss")
    by = {r["entry"]: r for r in rows}
    assert by[2]["buchholz"] == 2.0 and by[3]["buchholz"] == 2.0  # both met 1 (2) and one with 0
    assert by[3]["sonneborn_berger"] == 0.0 and by[2]["sonneborn_berger"] == 0.0
    assert [r["entry"] for r in rows] == [1, 2, 3, 4]  # equal: the entry number decides


def test_it_builds_berger_tables_where_everyone_meets_everyone_once():
    entries = [1, 2, 3]
    met = []
    byes = []
    for number in range(1, T.berger_rounds(3, 2) + 1):
        boards, bye = T.berger(entries, number)
        met += [tuple(sorted(b)) for b in boards]
        byes += bye
    assert sorted(met) == [(1, 2), (1, 3), (2, 3)] and sorted(byes) == [1, 2, 3]


def test_it_schedules_four_player_tables_so_that_pairs_meet_as_evenly_as_possible():
    entries = list(range(1, 9))
    counts = dict.fromkeys(itertools.combinations(entries, 2), 0)
    rounds = T.berger_rounds(8, 4)
    assert rounds == 3
    for number in range(1, rounds + 1):
        boards, byes = T.group_schedule(entries, 4, number)
        assert byes == [] and sorted(e for b in boards for e in b) == entries
        for b in boards:
            for a, c in itertools.combinations(sorted(b), 2):
                counts[(a, c)] += 1
    # 3 rounds x 2 tables x 6 pairs = 36 meetings over 28 pairs: nobody meets anybody 3 times
    assert max(counts.values()) <= 2 and sum(counts.values()) == 36


def test_it_groups_a_multiplayer_swiss_by_score_and_avoids_repeats():
    scores = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 0}
    tables, byes = T.group_by_score(list(scores), scores, {}, 3, met={(1, 2)}, byes_had={})
    assert byes == [7]
    assert all(not ({1, 2} <= set(t)) for t in tables)
    assert sorted(e for t in tables for e in t) == [1, 2, 3, 4, 5, 6]


def test_it_pairs_the_arena_waiters_nearest_in_score():
    tables = T.arena_pairs([1, 2, 3, 4, 5], {1: 10, 2: 0, 3: 9, 4: 1, 5: 5}, 2, {})
    assert tables == [(1, 3), (5, 4)]


def test_an_arena_never_seats_house_bots_alone_while_a_person_can_join_them():
    tables = T.arena_pairs([1, 2, 3, 4, 5, 6], {}, 2, {}, bots={5, 6})
    assert sorted(e for t in tables for e in t) == [1, 2, 3, 4, 5, 6]
    assert all(any(e not in {5, 6} for e in t) for t in tables)
    assert T.arena_pairs([5, 6], {}, 2, {}, bots={5, 6}) == []


def test_the_audit_command_names_an_unreadable_file_and_a_file_of_another_format(tmp_path, capsys):
    import json

    from engine.cli import main

    assert main(["tournament-audit", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["errors"][0]
    other = tmp_path / "record.json"
    other.write_text(json.dumps({"format": "cairn-record/1"}))
    assert main(["tournament-audit", str(other)]) == 1
    assert json.loads(capsys.readouterr().out) == {"ok": False, "errors": ["not a cairn-tournament/1 export"]}


def test_the_audit_refuses_a_bots_alone_board_that_is_not_a_draw():
    from engine.tournament_audit import audit_tournament

    export = {
        "format": T.FORMAT,
        "tournament": {"kind": "round_robin", "table_size": 2, "rounds": 1},
        "entries": [{"entry": 1, "name": "Random bot 1", "bot": "random", "rating": 800, "joined_round": 1,
                     "withdrawn_round": None},
                    {"entry": 2, "name": "Random bot 2", "bot": "random", "rating": 800, "joined_round": 1,
                     "withdrawn_round": None}],
        "rounds": [{"round": 1, "byes": [], "boards": [{"table": 1, "seats": [1, 2], "match": None, "places": [0, 0]}]}],
        "standings": [{"entry": 1, "rank": 1, "points": 0.5, "buchholz": 0.5, "sonneborn_berger": 0.25},
                      {"entry": 2, "rank": 2, "points": 0.5, "buchholz": 0.5, "sonneborn_berger": 0.25}],
    }
    assert audit_tournament(export)["ok"], audit_tournament(export)
    export["rounds"][0]["boards"][0]["places"] = [0, 1]
    verdict = audit_tournament(export)
    assert not verdict["ok"] and any("bots alone, drawn" in e for e in verdict["errors"])
