"""The beat sweep of correspondence rounds: a reminder before a round's deadline to the
players of its unfinished matches, and at the deadline a flag for the organiser to
adjudicate (the admin lists flagged rounds; nothing is decided without them).

Each step is claimed with a conditional update of the round's row, so a second beat or a
retried task does it once."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from notifications.claims import claim, mark_sent, release
from notifications.emails import build_email
from notifications.kinds import Kind
from notifications.links import absolute, game_link
from notifications.models import Notice
from notifications.preferences import wants_email
from tournaments import live
from tournaments.models import AuditEntry, Match, Round, Tournament

log = logging.getLogger(__name__)

# A round's players are reminded this long before its deadline (or in the last fifth of a
# shorter round).
REMIND_BEFORE = timedelta(days=1)


def _unfinished(round_: Round) -> list[Match]:
    return list(round_.matches.filter(status=Match.Status.PLAYING).select_related("table"))


def _remind_at(round_: Round, deadline: datetime) -> datetime:
    length = deadline - (round_.started_at or deadline)
    return deadline - min(REMIND_BEFORE, length / 5)


def send_reminders(round_: Round) -> int:
    """Email the people of the round's unfinished matches (those who want reminders)."""
    sent = 0
    tournament = round_.tournament
    for match in _unfinished(round_):
        game = Game.objects.filter(table=match.table).order_by("-number").first()
        people = get_user_model().objects.filter(pk__in=match.players, seats__table=match.table)
        for user in people:
            if not wants_email(user, Kind.REMINDER):
                continue
            context = {
                "tournament": tournament,
                "round": round_,
                "link": game_link(game.pk) if game else absolute(reverse("games:my_games")),
                "tournament_link": absolute(tournament.get_absolute_url()),
            }
            try:
                build_email(
                    user, Kind.REMINDER, context, template="tournaments/email/round_reminder"
                ).send()
            except Exception:  # one refused address must not stop the others
                log.exception("could not remind %s of round %s", user.pk, round_.pk)
                continue
            sent += 1
    return sent


@shared_task(ignore_result=True)
def sweep_round_deadlines() -> tuple[int, int]:
    """Remind before deadlines, flag rounds past them; returns (reminded, flagged)."""
    now = timezone.now()
    reminded = flagged = 0
    due = Round.objects.filter(status=Round.Status.PLAYING, deadline__isnull=False).filter(
        Q(reminded_at__isnull=True) | Q(needs_adjudication=False)
    )
    for round_ in due.select_related("tournament"):
        deadline = round_.deadline
        if deadline is None or not _unfinished(round_):  # None only to the type checker
            continue
        if round_.reminded_at is None and now >= _remind_at(round_, deadline):
            claimed = Round.objects.filter(pk=round_.pk, reminded_at__isnull=True).update(
                reminded_at=now
            )
            if claimed:
                reminded += send_reminders(round_)
        if not round_.needs_adjudication and now >= deadline:
            with transaction.atomic():
                claimed = Round.objects.filter(pk=round_.pk, needs_adjudication=False).update(
                    needs_adjudication=True
                )
                if claimed:
                    AuditEntry.objects.create(
                        tournament=round_.tournament,
                        kind=AuditEntry.Kind.ADJUDICATION,
                        what=_(
                            "Round %(n)d's deadline passed with %(open)d match(es) "
                            "unfinished: to adjudicate."
                        )
                        % {"n": round_.number, "open": len(_unfinished(round_))},
                    )
                    live.changed_after_commit(round_.tournament_id)
            flagged += bool(claimed)
    return reminded, flagged


@shared_task(ignore_result=True)
def send_round_started(notice_id: int) -> str:
    """Email a round-start notice (``services.confirm_round``) to a player who wants "your
    turn" emails; the notice's row makes it go once, however often the task runs."""
    notice = Notice.objects.select_related("user", "game").filter(pk=notice_id).first()
    if notice is None or notice.game is None:
        return "gone"
    user = notice.user
    if not wants_email(user, Kind.TURN):
        mark_sent(notice, emailed=False)
        return "not wanted"
    claimed = claim(
        kind=notice.kind, user=user, game=notice.game, seat=notice.seat, turn=notice.turn
    )
    if claimed is None:
        return "already sent"
    tournament = Tournament.objects.filter(pk=notice.params.get("tournament_id")).first()
    context = {
        "round_number": notice.params.get("round"),
        "tournament_name": notice.params.get("tournament", ""),
        "link": game_link(notice.game.pk),
        "tournament_link": absolute(tournament.get_absolute_url()) if tournament else "",
    }
    message = build_email(user, Kind.TURN, context, template="tournaments/email/round_started")
    try:
        message.send()
    except Exception:
        release(claimed)
        raise
    mark_sent(claimed, emailed=True)
    return "sent"
