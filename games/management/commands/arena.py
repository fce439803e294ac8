"""``manage.py arena --games 2000 --seats hard,normal,easy,easy --seed 1``: bots play whole
games with the engine alone; prints win rates, mean scores and 95% confidence intervals."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.arena import paired_difference, run_arena, summarise
from games.engine import PRESETS
from games.engine.bots import LEVELS


class Command(BaseCommand):
    help = "Play bots against each other and compare their strength."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--seats", default="hard,normal,easy,easy")
        parser.add_argument("--seed", default="arena")
        parser.add_argument("--rules", default="remi", choices=sorted(PRESETS))

    def handle(self, *args: Any, **options: Any) -> None:
        levels = [s.strip() for s in options["seats"].split(",") if s.strip()]
        if not 2 <= len(levels) <= 4:
            raise CommandError("--seats needs 2 to 4 bot levels, e.g. hard,normal,easy,easy")
        unknown = sorted(set(levels) - set(LEVELS))
        if unknown:
            raise CommandError(f"Unknown bot level(s): {', '.join(unknown)} (use {LEVELS})")
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        with tqdm(total=games, unit="game", file=self.stderr._out) as bar:
            results = run_arena(
                levels, games, options["seed"], PRESETS[options["rules"]], bar.update
            )
        summary = summarise(results)
        out = self.stdout
        out.write(f"{games} games, seats {','.join(levels)} (rotating), rules {options['rules']}")
        out.write(
            f"{'level':<8} {'seat-games':>10} {'win rate [95% CI]':>28} {'mean score [95% CI]':>30}"
        )
        for level in LEVELS:
            if level not in summary:
                continue
            entry = summary[level]
            rate = entry.win_rate
            out.write(
                f"{level:<8} {entry.seat_games:>10} "
                f"{rate.mean:>9.1%} [{rate.low:6.1%}, {rate.high:6.1%}] {entry.score!s:>30}"
            )
        present = [lv for lv in LEVELS if lv in summary]
        for stronger, weaker in combinations(reversed(present), 2):
            diff = paired_difference(results, stronger, weaker)
            verdict = "beats" if diff.low > 0 else ("loses to" if diff.high < 0 else "ties with")
            out.write(f"{stronger} {verdict} {weaker}: score difference per game {diff}")
