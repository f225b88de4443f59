"""Mountainhome for newcomers: a "you must …" line at the top of the board for every decision, and card
menus whose buttons name the whole move ("Put to work", never "Put to …")."""

from __future__ import annotations

import random
import re

from engine import get_game
from frontend.presenters.mountainhome.board import must_line
from frontend.presenters.mountainhome.texts import MUST

from .test_mountainhome_page import MH, render


def must_of(html: str) -> str:
    found = re.search(r'<p class="mh-must( mine)?" id="mh-must">(.*?)</p>', html, re.S)
    assert found, "no prompt line"
    return found.group(2)


def test_each_decision_has_its_own_you_must_line_and_a_line_for_those_who_wait():
    for prompt, (mine, theirs) in MUST.items():
        view = {"prompt": prompt}
        assert must_line(view, True, []) == f"You must {mine}."
        waiting = must_line(view, False, ["Bea"])
        assert waiting == (f"Waiting for Bea, who must {theirs}." if theirs else "Waiting for Bea.")
    # A reaction window is never told to the others (their view says "waiting", with no one to move).
    assert must_line({"prompt": "waiting"}, False, []) == "Waiting…"
    assert must_line({"prompt": "over", "over": True}, False, []) == "The game is over."
    assert MUST["setup_pick"][0].startswith("pick your legendary dwarf")
    assert "end the action step" in MUST["action_step"][0] and "sealed bid" in MUST["bid_commit"][0]


def test_in_a_random_game_the_mover_always_reads_you_must_and_the_others_whom_they_wait_for():
    game = get_game(MH)
    state = game.new_initial_state(2, game.normalize_options({}))
    rng = random.Random(11)
    seq, prompts = 0, set()
    while not state.is_terminal() and seq < 400:
        if state.is_chance_node():
            state.apply(-1, state.sample_chance(rng))
            continue
        seq += 1
        mover = state.to_move()[0]
        match, board, html = render(state, mover, seq)
        prompts.add(match["view"]["prompt"])
        assert must_of(html).startswith("You must "), must_of(html)
        assert 'class="mh-must mine"' in html
        # A move on its own card is named in full: no truncated "Put to …" buttons.
        assert "Put to …" not in html and not re.search(r'data-verb="[a-z_]+">[^<]*… ?</button>', html)
        other = 1 - mover
        _, _, theirs = render(state, other, seq)
        line = must_of(theirs)
        if other in state.to_move():  # a simultaneous decision (the sealed bid): both are asked
            assert line.startswith("You must "), line
        else:
            assert line.startswith(f"Waiting for P{mover + 1}") or line == "Waiting…", line
        actions = state.legal_actions(mover)
        state.apply(mover, actions[rng.randrange(len(actions))])
    assert {"setup_pick", "action_step", "bid_commit"} <= prompts, prompts
