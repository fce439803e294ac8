"""``manage.py arena --game remi --games 2000 --seats hard,normal,easy,easy --seed 1``: bots
play whole games of a registered game with its engine alone; prints win rates, mean scores and
95% confidence intervals.  With ``--series 5`` each of the ``--games`` is a match of five games
at one seating, won on total score: the rates are then matches won."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.arena import paired_difference, run_arena, run_series, summarise
from games.engine import GAMES, get_game
from games.models import default_game_type


class Command(BaseCommand):
    help = "Play bots against each other and compare their strength."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--seats", default="hard,normal,easy,easy")
        parser.add_argument("--seed", default="arena")
        parser.add_argument("--game", default=default_game_type(), choices=sorted(GAMES))
        parser.add_argument("--rules", help="a preset of the game (default: its own rules)")
        parser.add_argument(
            "--series",
            type=int,
            default=0,
            help="play matches of this many games (won on total score) instead of single games",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game = get_game(options["game"])
        preset = options["rules"] or game.default_preset
        if preset not in game.presets:
            raise CommandError(f"Unknown rules for {game.key}: use one of {sorted(game.presets)}")
        levels = [s.strip() for s in options["seats"].split(",") if s.strip()]
        low, high = game.min_seats, game.max_seats
        if not low <= len(levels) <= high:
            raise CommandError(
                f"--seats needs {low} to {high} bot levels, e.g. {','.join(game.bot_levels)}"
            )
        unknown = sorted(set(levels) - set(game.bot_levels))
        if unknown:
            raise CommandError(
                f"Unknown bot level(s): {', '.join(unknown)} (use {game.bot_levels})"
            )
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        per_series = options["series"]
        if per_series < 0:
            raise CommandError("--series must be 0 (single games) or a number of games")
        unit, units = ("match", "matches") if per_series else ("game", "games")
        rules = game.presets[preset]
        with tqdm(total=games, unit=unit, file=self.stderr._out) as bar:
            if per_series:
                results = run_series(
                    levels, games, per_series, options["seed"], rules, bar.update, game
                )
            else:
                results = run_arena(levels, games, options["seed"], rules, bar.update, game)
        summary = summarise(results)
        out = self.stdout
        played = f"{games} matches of {per_series} games" if per_series else f"{games} games"
        out.write(f"{played}, seats {','.join(levels)} (rotating), {game.key} rules {preset}")
        out.write(
            f"{'level':<8} {'seat-' + units:>12} {unit + ' win rate [95% CI]':>28} "
            f"{'mean score [95% CI]':>30}"
        )
        for level in game.bot_levels:
            if level not in summary:
                continue
            entry = summary[level]
            rate = entry.win_rate
            out.write(
                f"{level:<8} {entry.seat_games:>12} "
                f"{rate.mean:>9.1%} [{rate.low:6.1%}, {rate.high:6.1%}] {entry.score!s:>30}"
            )
        present = [lv for lv in game.bot_levels if lv in summary]
        for stronger, weaker in combinations(reversed(present), 2):
            diff = paired_difference(results, stronger, weaker)
            verdict = "beats" if diff.low > 0 else ("loses to" if diff.high < 0 else "ties with")
            out.write(f"{stronger} {verdict} {weaker}: score difference per {unit} {diff}")
