"""What one viewer's page update costs to make, for every game of the registry.

After a move each seat's socket (and the spectators', once per process) is sent the game
page's ``updates`` partials, rendered for that viewer (``games.play.live_views.render_updates``):
the presentation builds a context, then the templates render it.  This plays games of each
kind with random legal moves through ``services.play`` on a fresh database, and at every
``--every``-th version renders every viewer's update (each seat and a spectator), timing in
CPU time of this thread:

- **context**: the presentation's context for the viewer (``presenters.game_context``);
- **template**: rendering the partials from it (``render_to_string``);
- **the move**: for scale, each ``services.play`` between the renders (its transaction and
  publishing; no HTTP);
- **baseline, in the same run**: the same viewer's ``player_view`` made and serialised as JSON,
  what a page drawn in the browser from data would be sent instead of HTML;
- **no reuse, in the same run**: the same template rendered with every ``{% reuse %}`` part
  made afresh (``games.presenters.fragment_reuse.bypassed``); the bytes must be the same.

``--tables N`` plays N tables of each game in turn, one move each, as a process serving N live
tables sees them: the parts a process keeps for reuse then have to last from one move of a
table to its next (``--store`` sets their room in characters).

It prints medians and p90s per game, the HTML's and the JSON's sizes, and the ratio of a whole
render to the baseline.  ``--save FILE`` writes a digest of every render, so two revisions can
be compared render for render (``--compare FILE``): a change meant to make renders cheaper
must leave every byte as it was.  ``--profile FILE`` profiles the renders (cProfile; its
overhead inflates the timings of that run) and prints where their time goes.

    python bench/renders.py [--games remi,rummikub,basic-rummy,thai-rummy] [--moves 120]
                            [--every 3] [--tables 1] [--store CHARS] [--seed 0]
                            [--language en] [--save F | --compare F] [--profile STATS]
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import hashlib
import json
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import make_users, percentile, running_stack

SEATS = {"remi": 4, "rummikub": 4, "basic-rummy": 4, "thai-rummy": 4}


def cpu_ms(work: Any) -> tuple[Any, float]:
    started = time.thread_time()
    result = work()
    return result, (time.thread_time() - started) * 1000


# Set by --profile: profiles the renders only (not the moves between them).
PROFILER: cProfile.Profile | None = None


def render_viewer(snapshot: Any, viewer: int | None, engine: Any) -> tuple[str, str, list]:
    """One viewer's update as the socket sends it, its JSON baseline, and their CPU ms."""
    if PROFILER is not None:
        PROFILER.enable()
        try:
            return _render_viewer(snapshot, viewer, engine)
        finally:
            PROFILER.disable()
    return _render_viewer(snapshot, viewer, engine)


def _render_viewer(snapshot: Any, viewer: int | None, engine: Any) -> tuple[str, str, list]:
    from django.template.loader import render_to_string

    from games import presenters
    from games.presenters import fragment_reuse

    context, spent = cpu_ms(
        lambda: presenters.game_context(
            snapshot.game,
            snapshot.seats,
            viewer,
            actions=snapshot.actions,
            state=snapshot.state,
        )
    )
    html, drawn = cpu_ms(
        lambda: render_to_string(f"{snapshot.template}#updates", presenters.swapped_in(context))
    )
    with fragment_reuse.bypassed():
        fresh, afresh = cpu_ms(
            lambda: render_to_string(f"{snapshot.template}#updates", presenters.swapped_in(context))
        )
    if fresh != html:
        raise SystemExit(f"a reused part differs: {snapshot.template} v{snapshot.game.version}")
    data, dumped = cpu_ms(
        lambda: json.dumps(engine.player_view(snapshot.state, viewer), separators=(",", ":"))
    )
    return html, data, [spent, drawn, afresh, dumped]


def play_and_render(key: str, users: list[Any], args: argparse.Namespace) -> dict[str, list]:
    """Play ``--tables`` series of ``key``, one move of each in turn, and render every viewer
    at every ``--every``-th version."""
    from django.utils import translation

    from games.engine import get_game
    from games.models import Game
    from games.play import live_views, services
    from games.tables import lifecycle

    engine = get_game(key)
    # The same deals on every run, so two revisions' renders can be compared one by one.
    lifecycle.new_series_seed = lambda: hashlib.sha256(f"{key}:{args.seed}".encode()).hexdigest()
    seats = min(SEATS[key], engine.max_seats)
    games = []
    for n in range(args.tables):
        people = users[n * seats : (n + 1) * seats]
        try:
            table = lifecycle.create_table(
                people[0], game_type=key, seat_count=seats, options={"series_games": 50}
            )
        except Exception:  # a game without that option: its own series length
            table = lifecycle.create_table(people[0], game_type=key, seat_count=seats)
        for person in people[1:]:
            lifecycle.join_table(table, person)
        games.append(lifecycle.start_table(table, people[0]))
    rng = random.Random(args.seed)
    figures: dict[str, list] = {"context": [], "template": [], "no reuse": [], "json": []}
    figures.update(html_kb=[], json_kb=[], digests=[], play=[])
    moves = 0
    with translation.override(args.language):
        while moves < args.moves:
            for n, game in enumerate(games):
                if moves == args.moves:
                    break
                game = Game.objects.get(pk=game.pk)
                if game.status != Game.Status.PLAYING or not game.to_act:
                    games[n] = lifecycle.next_game(game.table)
                    continue
                if game.version % args.every == 0:
                    snapshot = live_views.read_snapshot(game.pk)
                    # One table keeps the digest lines of the runs before there were several.
                    where = f"{key} t{n}" if args.tables > 1 else key
                    for viewer in [None, *range(seats)]:
                        html, data, times = render_viewer(snapshot, viewer, engine)
                        labels = ("context", "template", "no reuse", "json")
                        for label, spent in zip(labels, times, strict=True):
                            figures[label].append(spent)
                        figures["html_kb"].append(len(html.encode()) / 1024)
                        figures["json_kb"].append(len(data.encode()) / 1024)
                        digest = hashlib.sha256(html.encode()).hexdigest()[:16]
                        figures["digests"].append(f"{where} v{game.version} seat {viewer} {digest}")
                state = engine.load(game.state)
                seat = min(game.to_act)
                action = engine.random_action(state, seat, rng)
                move = functools.partial(services.play, game.pk, seat, str(action), game.version)
                _, played = cpu_ms(move)
                figures["play"].append(played)
                games[n] = game
                moves += 1
    return figures


def row(label: str, values: list[float]) -> str:
    return f"{label:<12} {statistics.median(values):>8.2f} {percentile(values, 0.9):>8.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--moves", type=int, default=120, help="moves played per game kind")
    parser.add_argument("--every", type=int, default=3, help="render every n-th version")
    parser.add_argument("--tables", type=int, default=1, help="tables per game, played in turn")
    parser.add_argument("--store", type=int, help="characters the reused parts may take")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--language", default="en")
    parser.add_argument("--profile", type=Path, help="profile the renders; stats to this file")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path, help="write every render's digest to this file")
    group.add_argument("--compare", type=Path, help="compare every render's digest with a file")
    args = parser.parse_args()
    keys = [k for k in args.games.split(",") if k]
    if unknown := set(keys) - set(SEATS):
        raise SystemExit(f"unknown games: {', '.join(sorted(unknown))}")
    if not (1 <= args.moves <= 20000 and 1 <= args.every <= 100 and 1 <= args.tables <= 500):
        raise SystemExit("--moves is 1-20000, --every 1-100 and --tables 1-500")

    digests: list[str] = []
    if args.profile:
        global PROFILER
        PROFILER = cProfile.Profile()
    with running_stack(web_procs=0) as _stack:
        # Fixed names on a fresh database: renders (and their digests) repeat run to run.
        users = make_users("renders-", max(SEATS.values()) * args.tables)
        from games.presenters import fragment_reuse

        if args.store:
            fragment_reuse.STORE.max_characters = args.store
        print(f"{args.moves} random moves per game, every viewer rendered at the versions")
        print(f"divisible by {args.every}, language {args.language}; CPU ms per viewer render\n")
        print(f"{'':<12} {'median':>8} {'p90':>8}")
        for key in keys:
            figures = play_and_render(key, users, args)
            digests += figures["digests"]
            whole = [c + t for c, t in zip(figures["context"], figures["template"], strict=True)]
            print(f"{key} ({len(whole)} renders)")
            for label in ("context", "template", "no reuse"):
                print(row(label, figures[label]))
            print(row("whole", whole))
            reused = statistics.median(figures["template"]) / statistics.median(figures["no reuse"])
            store = fragment_reuse.STORE
            print(
                f"{'reuse':<12} template / no reuse: {reused:.2f} (medians); store: "
                f"{store.hits} parts reused, {store.misses} rendered, {len(store)} kept"
            )
            store.clear()
            print(row("json (base)", figures["json"]))
            print(row("the move", figures["play"]))
            ratio = statistics.median(whole) / max(statistics.median(figures["json"]), 1e-6)
            print(
                f"{'size KB':<12} html {statistics.median(figures['html_kb']):.1f}, "
                f"json {statistics.median(figures['json_kb']):.1f}; "
                f"whole render / json: {ratio:.0f}x\n"
            )
    if PROFILER is not None:
        PROFILER.dump_stats(args.profile)
        pstats.Stats(PROFILER).sort_stats("tottime").print_stats(20)
    if args.save:
        args.save.write_text("\n".join(digests) + "\n")
        print(f"{len(digests)} render digests written to {args.save}")
    if args.compare:
        before = args.compare.read_text().split("\n")[:-1]
        changed = [a for a, b in zip(before, digests, strict=False) if a != b]
        if len(before) != len(digests) or changed:
            print(f"DIFFERENT: {len(changed)} of {len(digests)} renders differ ({len(before)})")
            for line in changed[:10]:
                print("  ", line)
            raise SystemExit(1)
        print(f"all {len(digests)} renders are byte for byte as in {args.compare}")


if __name__ == "__main__":
    main()
