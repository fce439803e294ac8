"""Starting, computing and reading reviews; who may have a hint.

A review is computed once, by the worker, when a game ends (``games.signals.game_finished``)
or, for a game that ended before reviews existed or whose message was lost, when someone
first opens its review.  The task claims the row with a conditional update, so a duplicate
message does nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.core.budget import OutOfTime
from games.engine.core.review import BestPlay, judge, review_game
from games.models import Action, Game, Seat
from games.play import services as game_services

from .models import GameReview, Hint

log = logging.getLogger(__name__)

# A review claimed this long ago and still not done was left by a worker that died.
STALE_AFTER = timedelta(minutes=15)
# A review waiting this long for the worker gets its message sent again when it is opened.
RESEND_AFTER = timedelta(seconds=30)
# How many times the walk writes its progress (at most).
PROGRESS_WRITES = 20


def position_seconds() -> float:
    return settings.REVIEW_POSITION_MS / 1000


def review_when_finished(sender: Any, game: Game, seats: dict[int, Seat], **kwargs: Any) -> None:
    """``game_finished`` receiver: the review's row in the move's transaction, its task once
    that commits."""
    GameReview.objects.get_or_create(game_id=game.pk)
    game_id = game.pk
    transaction.on_commit(lambda: enqueue(game_id))


def enqueue(game_id: int) -> None:
    from .tasks import compute_review

    compute_review.delay(game_id)


def review_for(game: Game) -> GameReview:
    """The finished game's review row, made (and its task sent) when there is none yet; a
    message that seems lost is sent again.  Callers check that the game is finished."""
    review, created = GameReview.objects.get_or_create(game_id=game.pk)
    now = timezone.now()
    resend = False
    if not created:
        lost = Q(status=GameReview.Status.PENDING) | Q(
            status=GameReview.Status.RUNNING, started_at__lt=now - STALE_AFTER
        )
        # One page among many polling sends it: the conditional update picks which.
        resend = (
            GameReview.objects.filter(lost, pk=review.pk, sent_at__lt=now - RESEND_AFTER).update(
                sent_at=now
            )
            == 1
        )
    if created or resend:
        game_id = game.pk
        transaction.on_commit(lambda: enqueue(game_id))
    return review


def compute(game_id: int, *, clock: Callable[[], float] = time.process_time) -> bool:
    """Walk the finished game and store its review; False when there was nothing to do (no
    such review waiting, or another worker has it)."""
    now = timezone.now()
    claimable = GameReview.objects.filter(game_id=game_id, game__status=Game.Status.FINISHED)
    fresh = claimable.filter(status=GameReview.Status.PENDING)
    stale = claimable.filter(status=GameReview.Status.RUNNING, started_at__lt=now - STALE_AFTER)
    claimed = (fresh | stale).update(status=GameReview.Status.RUNNING, started_at=now)
    if claimed != 1:
        return False
    game = Game.objects.select_related("table").get(pk=game_id)
    moves = list(
        Action.objects.filter(game_id=game_id).order_by("version").values_list("seat", "notation")
    )
    GameReview.objects.filter(game_id=game_id).update(moves=len(moves), walked=0)
    every = max(1, len(moves) // PROGRESS_WRITES)

    def progress(done: int, total: int) -> None:
        if done % every == 0 and done < total:
            GameReview.objects.filter(game_id=game_id).update(walked=done)

    engine = game_services.game_of(game.table)
    started = clock()
    try:
        final = engine.load(game.state)
        ctx = engine.ctx(final)
        review = review_game(
            engine,
            engine.rules_of(final),
            list(ctx.seats),
            ctx.seed,
            moves,
            dealer=ctx.dealer,
            clock=clock,
            limit=position_seconds(),
            progress=progress,
        )
    except Exception as error:
        # A log this engine no longer replays (rules fixed since), or a planner's fault: the
        # review says it could not be made, and the row is not claimed for ever.  Only the
        # kind of error is logged and kept: a refusal's words may name a seat's tiles.
        log.exception("review of game %s failed", game_id)
        GameReview.objects.filter(game_id=game_id).update(
            status=GameReview.Status.FAILED,
            problem=type(error).__name__,
            cpu_seconds=clock() - started,
            finished_at=timezone.now(),
        )
        return True
    GameReview.objects.filter(game_id=game_id).update(
        status=GameReview.Status.DONE,
        data=review.to_dict(),
        walked=len(moves),
        cpu_seconds=clock() - started,
        finished_at=timezone.now(),
    )
    return True


# --- hints ------------------------------------------------------------------------------------


class HintRefused(Exception):
    """A hint this table or moment does not allow; ``message`` is for the player."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def hint_refusal(game: Game, seats: list[Seat], seat: int | None) -> str | None:
    """Why ``seat`` may not have a hint at this game now (in the active language), or None.
    Hints are for casual play against bots: an unrated table, outside tournaments, where the
    asker is the only person seated."""
    table = game.table
    if seat is None:
        return _("Only a player of this game can ask for a hint.")
    if game.status != Game.Status.PLAYING:
        return _("The game is over: its review shows the best plays.")
    if table.rated:
        return _("Hints are off in rated games.")
    if in_tournament(table.pk):
        return _("Hints are off in tournament games.")
    people = sum(1 for s in seats if s.user_id is not None)  # a seat handed to a bot too
    if people != 1:
        return _("Hints are only given at a table where you play against bots alone.")
    return None


def in_tournament(table_id: int) -> bool:
    # By the relation's name: the games' side knows no tournament module.
    from games.models import Table

    return Table.objects.filter(pk=table_id, tournament_match__isnull=False).exists()


def give_hint(game: Game, seats: list[Seat], seat: int | None) -> tuple[BestPlay, str]:
    """The best play from what ``seat`` sees now, and the game's unit ("tiles" or
    "cards"); counted; raises :class:`HintRefused`."""
    refusal = hint_refusal(game, seats, seat)
    if refusal is not None:
        raise HintRefused(refusal)
    assert seat is not None
    engine = game_services.game_of(game.table)
    state = engine.load(game.state)
    # The seat's own view, nothing more: the planner cannot use what the seat cannot see.
    view = engine.player_view(state, seat)
    reviewer = engine.reviewer()
    if seat not in engine.to_act(state) or not reviewer.decides(view):
        raise HintRefused(_("A hint is given when it is your turn to lay, after drawing."), 409)
    try:
        best = judge(reviewer, view, time.process_time, position_seconds())
    except OutOfTime:
        raise HintRefused(_("No hint could be found in time for this position."), 409) from None
    Hint.objects.get_or_create(game_id=game.pk, seat=seat, version=game.version)
    return best, reviewer.unit


def hint_counts(game_id: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for seat in Hint.objects.filter(game_id=game_id).values_list("seat", flat=True):
        counts[seat] = counts.get(seat, 0) + 1
    return counts
