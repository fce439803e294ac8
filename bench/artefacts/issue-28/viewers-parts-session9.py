"""Every viewer's parts of a four-seat game after each move, in one process: the three other
seats' ``SharedViews.prerender``, then the mover's own, as thread CPU per move.  Kept with the
ninth session's figures (``viewers-parts-session9.txt``); run it against a checkout:

    REPO=/path/to/checkout python viewers-parts-session9.py GAME GAMES MOVES
"""

from __future__ import annotations

import os
import random
import sys
import time

ROOT = os.environ["REPO"]
sys.path[:0] = [ROOT, f"{ROOT}/bench"]

from stack import make_users, running_stack  # noqa: E402


def measure(key: str, users: list, games: int, moves: int) -> list[float]:
    from django.utils import translation

    from games.engine import get_game
    from games.models import Game
    from games.play import live_views, services
    from games.tables import lifecycle

    engine = get_game(key)
    rng = random.Random(1)
    spent = []
    with translation.override("en"):
        for n in range(games):
            four = users[4 * n : 4 * n + 4]
            table = lifecycle.create_table(four[0], game_type=key, seat_count=4)
            for person in four[1:]:
                lifecycle.join_table(table, person)
            game = lifecycle.start_table(table, four[0])
            for seat in range(4):
                live_views.VIEWERS.add(game.pk, seat, live_views.ENGLISH)
            for _ in range(moves):
                game = Game.objects.get(pk=game.pk)
                if game.status != Game.Status.PLAYING or not game.to_act:
                    break
                seat = min(game.to_act)
                action = engine.random_action(engine.load(game.state), seat, rng)
                services.play(game.pk, seat, str(action), game.version)
                snapshot = live_views.read_snapshot(game.pk)
                started = time.thread_time()
                live_views.SHARED.prerender(snapshot, mover=seat)
                live_views.SHARED.rendered(snapshot, seat, live_views.ENGLISH)
                spent.append(time.thread_time() - started)
    return spent


def main() -> None:
    key, games, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with running_stack(web_procs=0):
        spent = sorted(measure(key, make_users(f"parts-{key[:3]}", 4 * games), games, moves))
    n = len(spent)
    median, mean, p90 = spent[n // 2], sum(spent) / n, spent[int(n * 0.9)]
    print(
        f"{ROOT} {key}: n {n} all four viewers' parts per move: median {1000 * median:.2f} ms, "
        f"mean {1000 * mean:.2f} ms, p90 {1000 * p90:.2f}"
    )


if __name__ == "__main__":
    main()
