"""What the fan-out's render step costs per position: ``python benchmarks/service_render_cost.py --game GAME``.

On a throwaway copy of the configured database (``DATABASE_URL``; SQLite otherwise), two people
play a seeded match of GAME with random legal moves; after each move the position is loaded
once (``frontend.fanout._load_position``) and both seats' fragments are rendered from it
(``fanout.render_for_class``), as a web process does for a match whose two screens it holds.
It prints the median and mean CPU time of the two renders over the match (``--moves`` moves at
most).  The process-local caches (``memo(...)``) are left as they fill, as in a live process.
Run it in two checkouts, alternately, to compare them (docs/PERFORMANCE.md).
"""
import argparse
import os
import random
import statistics
import time

os.environ.setdefault("RATE_LIMIT_FACTOR", "1000")
from service_common import django_database, users


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mountain-goats", choices=["mountain-goats", "nanga-parbat", "mountainhome"])
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    with django_database():
        from django.template.base import Template
        from django.test.utils import _TestState

        from frontend import fanout
        from games import selectors, services

        # The test environment counts every Django template render (a signal each); a live process does not.
        Template._render = _TestState.saved_data.template_render

        services.secrets.token_bytes = lambda n: bytes(range(n))  # the same deals and rolls in every run
        alice, bob = users("alice", "bob")
        match = services.create_match(user=alice, game_id=args.game, seats=[{"human": True}, {"human": True}])
        services.join_match(match_id=match.pk, user=bob)
        rng = random.Random(args.seed)
        cost = []
        for _ in range(args.moves):
            m = selectors.get_match(match.pk)
            if m.status != "active":
                break
            state = selectors.load_state(m)
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            action = state.action_to_json(seat, actions[rng.randrange(len(actions))])
            services.submit_action(match_id=m.pk, user=(alice, bob)[seat], action=action, expected_seq=m.seq)
            m = selectors.get_match(match.pk)
            position = fanout._load_position(m)
            started = time.process_time()
            for user, cls in ((alice, "seat:0"), (bob, "seat:1")):
                fanout.render_for_class(m, user, cls, position)
            cost.append(time.process_time() - started)
        print(f"{args.game}: {len(cost)} positions, both seats' renders: median {1000 * statistics.median(cost):.2f} ms, "
              f"mean {1000 * statistics.mean(cost):.2f} ms")


if __name__ == "__main__":
    main()
