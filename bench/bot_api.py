"""The Bot API's move path through the real stack: a bot account's move posted over HTTP,
and the move's line arriving on the bot's own game stream (NDJSON, pushed through Redis).

Starts daphne and Redis on a fresh database in a temporary directory (DATABASE_URL /
REDIS_URL if set).  A bot account (driven by the example client's ``Api`` class, standard
library HTTP) plays two-seat games of ``--game`` against a person whose moves this driver
makes in-process with ``services.play``; both choose with the engine's easy bot.  For every
move of the bot account, measured from just before the POST:

- ``answer``: until the POST's answer (auth, rate count, ``services.play``, the commit);
- ``pushed``: until the line for the move's version is read from the bot's game stream (the
  after-commit publish, the stream's channel-layer wake-up, one read and one ``player_view``).

The baseline, measured in the same run between moves: ``GET /api/bot/account``, the
cheapest request that is authenticated and rate-counted like a move.

    python bench/bot_api.py [--moves 150] [--game remi] [--seed 0]
"""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from bot_client import Api
from stack import describe_database, describe_redis, make_users, percentile, running_stack

LINE_TIMEOUT = 30.0


def summary(label: str, values: list[float], baseline: float | None = None) -> str:
    median = statistics.median(values)
    ratio = f" | {median / baseline:.2f}x" if baseline else " | 1x"
    return (
        f"| {label} | {len(values)} | {median * 1000:.1f} | "
        f"{percentile(values, 0.9) * 1000:.1f}{ratio} |"
    )


def follow(api: Api, game_id: int, lines: queue.Queue) -> None:
    for line in api.stream(f"/api/bot/game/{game_id}/stream"):
        lines.put((time.perf_counter(), line))
    lines.put((time.perf_counter(), None))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--game", default="remi")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    answers: list[float] = []
    pushes: list[float] = []
    baselines: list[float] = []
    with running_stack() as stack:
        from bot_api import tokens
        from games.models import Game
        from games.play import services
        from games.tables import lifecycle

        person, robo = make_users("bench-botapi-", 2)
        robo.is_bot = True
        robo.save(update_fields=["is_bot"])
        _token, key = tokens.create_token(robo, "bench")
        api = Api(stack.base_url, key)
        engine = services.game_of  # the registered game of a table
        games = 0
        while len(answers) < args.moves:
            options = {"doubla": False} if args.game == "remi" else None
            table = lifecycle.create_table(
                person, game_type=args.game, seat_count=2, options=options
            )
            lifecycle.join_table(table, robo)
            game = lifecycle.start_table(table, person)
            games += 1
            game_engine = engine(game.table)
            lines: queue.Queue = queue.Queue()
            threading.Thread(target=follow, args=(api, game.pk, lines), daemon=True).start()
            _at, line = lines.get(timeout=LINE_TIMEOUT)
            while line is not None and line["status"] == "playing":
                if line["my_turn"]:
                    move = str(game_engine.choose(line["view"], "easy", rng))
                    started = time.perf_counter()
                    status, answer = api.post(
                        f"/api/bot/game/{game.pk}/move", {"move": move, "version": line["version"]}
                    )
                    answered = time.perf_counter()
                    if status == 200:
                        at, line = lines.get(timeout=LINE_TIMEOUT)
                        assert line["version"] == answer["version"], (line["version"], answer)
                        answers.append(answered - started)
                        pushes.append(at - started)
                    else:  # a refused choice: the clock-free timeout move instead
                        state = game_engine.load(Game.objects.get(pk=game.pk).state)
                        services.play(
                            game.pk, 1, game_engine.timeout_action(state, 1), line["version"]
                        )
                        _at, line = lines.get(timeout=LINE_TIMEOUT)
                    request = urllib.request.Request(
                        stack.base_url + "/api/bot/account", headers=api.headers
                    )
                    began = time.perf_counter()
                    with urllib.request.urlopen(request, timeout=30) as reply:
                        reply.read()
                    baselines.append(time.perf_counter() - began)
                else:
                    state = game_engine.load(Game.objects.get(pk=game.pk).state)
                    seat = min(line["to_act"])
                    choice = game_engine.choose(game_engine.player_view(state, seat), "easy", rng)
                    try:
                        services.play(game.pk, seat, choice, line["version"])
                    except ValueError:
                        services.play(
                            game.pk, seat, game_engine.timeout_action(state, seat), line["version"]
                        )
                    _at, line = lines.get(timeout=LINE_TIMEOUT)
                if len(answers) >= args.moves:
                    break
        print(
            f"database: {describe_database(stack.database_url)}; "
            f"redis: {describe_redis(stack.redis_url, stack.embedded_redis)}"
        )
    base = statistics.median(baselines)
    print(f"{args.game}, {games} game(s), seed {args.seed}")
    print("| what | n | median ms | p90 ms | ratio to baseline |")
    print("| --- | --- | --- | --- | --- |")
    print(summary("baseline: GET /api/bot/account", baselines))
    print(summary("move: POST answered", answers, base))
    print(summary("move: its line on the bot's stream", pushes, base))


if __name__ == "__main__":
    main()
