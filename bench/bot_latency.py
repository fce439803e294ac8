"""Bot-turn latency through the real stack: from a person's move to the bot's answer on their
screen.

Starts daphne, a Celery worker (two processes, as the Procfile runs it) and Redis on a fresh
database in a temporary directory (DATABASE_URL / REDIS_URL if set), with BOT_MOVE_DELAY_MS=0
so no human-like pause is added.  A person (logged in through the login form, with the game
page's WebSocket open) sits with ``--bots`` bots; the person's moves are random legal moves
chosen with the engine and posted to the act endpoint over HTTP.  For every move that hands
the turn to a bot (a discard; the prelude's doublas are left out), measured from just before
the POST:

- to the bot's first action reaching the person's socket (the frame whose version is the
  bot's action's);
- to the frame that gives the turn back to the person ("Your turn"), the bots' whole turn:
  one Celery task per action (draw, melds, discard), each saved, published and rendered.

    python bench/bot_latency.py [--turns 40] [--level normal] [--bots 1] [--seed 0]

bench/solver.py measures the bots' thinking alone (the solver); this is the whole path.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import (
    VERSION,
    Browser,
    GameSocket,
    current_game,
    describe_database,
    describe_redis,
    make_users,
    percentile,
    running_stack,
)

TURN_TIMEOUT = 60.0  # seconds the bots may take before a turn counts as lost


def line(label: str, values: list[float]) -> None:
    if values:
        print(
            f"  {label:<40} {len(values):>6} {statistics.median(values):>9.1f} "
            f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=40, help="bot turns to measure")
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--bots", type=int, default=1, choices=[1, 2, 3])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--debug", action="store_true", help="run the site with DEBUG on")
    args = parser.parse_args()
    if not 1 <= args.turns <= 2000:
        raise SystemExit("--turns is 1-2000")

    with running_stack(worker=True, debug=args.debug, BOT_MOVE_DELAY_MS="0") as stack:
        from django.conf import settings

        from games.engine.remi import apply
        from games.engine.remi.randomplay import actor, random_action
        from games.engine.remi.state import OVER, PRELUDE, State
        from games.models import Game
        from games.play import services
        from games.tables import lifecycle

        assert settings.BOT_MOVE_DELAY_SECONDS == 0
        (person,) = make_users(f"botbench{int(time.time()) % 10**6}-", 1)
        table = lifecycle.create_table(
            person,
            seat_count=1 + args.bots,
            bots=[args.level] * args.bots,
            options={"series_games": 1000},  # the next game is dealt when one ends
        )
        game = lifecycle.start_table(table, person)
        browser = Browser(stack)
        browser.log_in(person.username)
        socket = GameSocket(browser, game.pk, game.version)
        bots = services.bot_seats(table.pk)
        human = 0

        rng = random.Random(args.seed)
        first_action: list[float] = []
        whole_turn: list[float] = []
        per_action: list[float] = []
        counts: Counter[str] = Counter()
        began = time.perf_counter()
        try:
            while len(whole_turn) < args.turns:
                game = Game.objects.get(pk=game.pk)
                state = State.from_dict(game.state)
                if state.phase == OVER:
                    status, _ = browser.request("POST", f"/games/{game.pk}/next/", {}, htmx=True)
                    following = current_game(table.pk)
                    if status != 200 or following.pk == game.pk:
                        break
                    socket.close()
                    game = following
                    socket = GameSocket(browser, game.pk, game.version)
                    counts["games"] += 1
                    continue
                mine = actor(state) == human and not (state.phase == PRELUDE and state.ready[human])
                if not mine:
                    # The bots owe a move (the prelude, or a turn after a lost measurement).
                    if socket.wait_for(game.version + 1, TURN_TIMEOUT) is None:
                        raise RuntimeError("the bots did not move; is the worker up?")
                    continue
                action = random_action(state, human, rng)
                after, _ = apply(state, human, action)
                # Only turns of play: in the prelude the bots answer on their own schedule.
                hands_over = after.phase != PRELUDE and after.turn in bots
                version = game.version + 1
                fields = {"version": game.version, "verb": "notation", "notation": str(action)}
                started = time.perf_counter()
                status, body = browser.request("POST", f"/games/{game.pk}/act/", fields, htmx=True)
                shown = VERSION.search(body)
                if status != 200 or not shown or int(shown.group(1)) != version:
                    raise RuntimeError(f"{action} was not played (HTTP {status})")
                counts["person's moves"] += 1
                if not hands_over:
                    continue
                first = socket.wait_for(version + 1, TURN_TIMEOUT)
                back = socket.wait_until(
                    lambda f, v=version: f.version > v and (f.my_turn or f.over), TURN_TIMEOUT
                )
                if first is None or back is None:
                    counts["bot turns lost"] += 1
                    continue
                first_action.append((first.at - started) * 1000)
                whole_turn.append((back.at - started) * 1000)
                actions = back.version - version
                per_action.append((back.at - started) * 1000 / actions)
                counts["bot actions"] += actions
        finally:
            socket.close()
            browser.close()
        elapsed = time.perf_counter() - began

        print(
            f"setup: 1 person + {args.bots} {args.level} bot(s), BOT_MOVE_DELAY_MS=0, "
            f"1 daphne process, 1 Celery worker (2 processes), DEBUG={settings.DEBUG}"
        )
        conn_age = settings.DATABASES["default"]["CONN_MAX_AGE"]
        print(f"       database: {describe_database(stack.database_url)}, CONN_MAX_AGE={conn_age}")
        print(f"       Redis: {describe_redis(stack.redis_url, stack.embedded_redis)}")
        summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"counts: {len(whole_turn)} bot turns measured, {summary}, in {elapsed:.1f} s")
        print(f"  {'ms from the person POST':<40} {'count':>6} {'median':>9} {'p99':>8} {'max':>8}")
        line("to the bot's first action on the socket", first_action)
        line("to the turn back on the socket", whole_turn)
        line("  the same, per bot action", per_action)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the stack was stopped on the way out
        sys.exit("interrupted")
