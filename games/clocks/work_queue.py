"""What a committed move hands to the workers: a bot's turn to play, and timeouts to fire at
their deadlines.

The move path (``games.play.services``), the clocks (``games.clocks.seat_clocks``) and the
timeouts' runner (``games.play.clock_runner``) call these; the Celery layer
(``games.tasks``), which sits above them and plays bots' turns and timeouts through the same
service, connects itself when the app is ready (``GamesConfig.ready``).  So imports run one
way, tasks -> clock_runner -> services -> clocks -> here, and nothing below the tasks imports
them back (tests/site/test_import_contracts.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

# A timeout to fire: game, seat, the seat's turn number, and its deadline.
Timeout = tuple[int, int, int, datetime]


@dataclass
class _Workers:
    bot_turn: Callable[[int, int], None] | None = None
    timeouts: Callable[[Iterable[Timeout]], None] | None = None


_workers = _Workers()


def connect(
    *, bot_turn: Callable[[int, int], None], timeouts: Callable[[Iterable[Timeout]], None]
) -> None:
    _workers.bot_turn = bot_turn
    _workers.timeouts = timeouts


def queue_bot_turn(game_id: int, version: int) -> None:
    """Have a worker play the bot's turn owed at ``version`` (after its table's pause)."""
    if _workers.bot_turn is None:
        raise RuntimeError("no task queue is connected (games.apps.GamesConfig.ready)")
    _workers.bot_turn(game_id, version)


def queue_timeouts(timeouts: Iterable[Timeout]) -> None:
    """Have a worker play each timeout at its deadline (called after commit)."""
    if _workers.timeouts is None:
        raise RuntimeError("no task queue is connected (games.apps.GamesConfig.ready)")
    _workers.timeouts(timeouts)
