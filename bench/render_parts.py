"""Which parts of a game page's update repeat, and what they cost: the case for ``{% reuse %}``.

Plays random moves of each game through ``services.play`` on a fresh database and, after every
move, renders each top-level part of the ``updates`` partial on its own for every viewer (each
seat and a spectator), timing CPU.  For each part it prints its share of a render's time and how
much of that time went on bytes the same viewer was sent at the previous version, or another
viewer at this version: what a store of rendered parts could serve instead of rendering.

    python bench/render_parts.py [--games remi,rummikub,basic-rummy,thai-rummy] [--moves 150]
                                 [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import make_users, running_stack

GAMES = ("remi", "rummikub", "basic-rummy", "thai-rummy")


def part_names(template: str) -> list[str]:
    """The partials ``updates`` is made of, in order."""
    from django.template.loader import get_template

    source = get_template(template).template.source
    updates = re.search(r"partialdef updates %}(.*?)endpartialdef updates", source, re.S)
    assert updates, f"{template} has no updates partial"
    return re.findall(r"{% partial (\w+) %}", updates.group(1))


def measure(key: str, users: list[Any], moves: int, seed: int) -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    from games import presenters
    from games.engine import get_game
    from games.models import Game
    from games.play import live_views, services
    from games.presenters import fragment_reuse
    from games.tables import lifecycle

    engine = get_game(key)
    table = lifecycle.create_table(users[0], game_type=key, seat_count=4)
    for person in users[1:4]:
        lifecycle.join_table(table, person)
    game = lifecycle.start_table(table, users[0])
    template = presenters.presenter_for(key).template
    names = part_names(template)
    cost: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    other: collections.Counter[str] = collections.Counter()
    size: collections.Counter[str] = collections.Counter()
    unsent: collections.Counter[str] = collections.Counter()
    alike: collections.Counter[str] = collections.Counter()
    versions = 0
    previous: dict[tuple[int | None, str], str] = {}
    rng = random.Random(seed)
    renders = 0
    with translation.override("en"), fragment_reuse.bypassed():
        for _ in range(moves):
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.PLAYING or not game.to_act:
                try:
                    game = lifecycle.next_game(game.table)
                except lifecycle.TableError:  # the series is over
                    break
                previous = {}
                continue
            snapshot = live_views.read_snapshot(game.pk)
            now: dict[str, set[str]] = collections.defaultdict(set)
            versions += 1
            for viewer in [None, 0, 1, 2, 3]:
                context = presenters.game_context(
                    snapshot.game,
                    snapshot.seats,
                    viewer,
                    actions=snapshot.actions,
                    state=snapshot.state,
                )
                context = presenters.swapped_in(context)
                renders += 1
                for name in names:
                    started = time.thread_time()
                    html = render_to_string(f"{template}#{name}", context)
                    spent = time.thread_time() - started
                    cost[name] += spent
                    size[name] += len(html.encode())
                    if previous.get((viewer, name)) == html:
                        own[name] += spent
                        unsent[name] += len(html.encode())
                    elif html in now[name]:
                        other[name] += spent
                    now[name].add(html)
                    previous[(viewer, name)] = html
            for name in names:
                alike[name] += len(now[name]) == 1
            seat = min(game.to_act)
            action = engine.random_action(engine.load(game.state), seat, rng)
            services.play(game.pk, seat, str(action), game.version)
    total = sum(cost.values())
    print(f"{key}: {renders} viewer renders, {1000 * total / renders:.2f} ms of parts each")
    print(
        f"  {'part':<12} {'share':>6}  {'as own last':>11}  {'as another':>10}"
        f"  {'bytes':>7}  {'unchanged':>9}  {'all alike':>9}"
    )
    for name in names:
        share = 100 * cost[name] / total
        mine = 100 * own[name] / max(cost[name], 1e-9)
        theirs = 100 * other[name] / max(cost[name], 1e-9)
        print(
            f"  {name:<12} {share:5.1f}%  {mine:10.1f}%  {theirs:9.1f}%"
            f"  {size[name] / renders:7.0f}  {100 * unsent[name] / max(size[name], 1):8.1f}%"
            f"  {100 * alike[name] / max(versions, 1):8.1f}%"
        )
    print(
        f"  repeating: {100 * sum(own.values()) / total:.1f}% as the viewer's own last, "
        f"{100 * sum(other.values()) / total:.1f}% as another viewer's now\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--moves", type=int, default=150, help="moves played per game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    keys = [k for k in args.games.split(",") if k]
    if unknown := set(keys) - set(GAMES):
        raise SystemExit(f"unknown games: {', '.join(sorted(unknown))}")
    with running_stack(web_procs=0):
        users = make_users("parts-", 4)
        for key in keys:
            measure(key, users, args.moves, args.seed)


if __name__ == "__main__":
    main()
