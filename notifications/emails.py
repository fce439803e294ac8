"""The notification emails: plain text and HTML, in the player's language and time zone,
each with a one-click way out (a link in the text, RFC 8058 headers for mail clients)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games.clocks.seat_clocks import PendingTurn
from games.game_names import game_label
from games.models import Game, Table
from notifications.kinds import Kind
from notifications.links import absolute, game_link, my_games_link
from notifications.unsubscribe_tokens import make_token
from notifications.zones import zone_of


@dataclass(frozen=True)
class GameLine:
    """One game as an email names it: what is played where, and a link into it."""

    game_id: int
    game_label: str
    table_id: int
    number: int  # 1-based, within the table's series
    link: str
    deadline: datetime | None = None
    urgent: bool = False
    # The table's choice when the clock runs out: its bot plays the turn, or the safe move.
    bot_plays: bool = False


def game_lines(turns: Sequence[PendingTurn]) -> list[GameLine]:
    """The games of ``turns``, in the same order (one query)."""
    games = {
        game.pk: game
        for game in Game.objects.filter(pk__in=[t.game_id for t in turns])
        .select_related("table")
        .only("id", "number", "table__id", "table__game_type", "table__on_timeout")
    }
    lines = []
    for turn in turns:
        game = games.get(turn.game_id)
        if game is None:
            continue
        lines.append(
            GameLine(
                game_id=game.pk,
                game_label=game_label(game.table.game_type),
                table_id=game.table_id,
                number=game.number + 1,
                link=game_link(game.pk),
                deadline=turn.deadline,
                urgent=turn.urgent,
                bot_plays=game.table.on_timeout == Table.OnTimeout.AUTOPLAY,
            )
        )
    return lines


def unsubscribe_link(user_id: int, kind: str) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[make_token(user_id, kind)]))


def build_email(
    user, kind: str, context: dict, template: str | None = None
) -> EmailMultiAlternatives:
    """The email of ``kind`` for ``user``, rendered from ``templates/email/<kind>*`` (or
    ``<template>.txt``, ``.html`` and ``_subject.txt``: another app's notice of a kind,
    which the kind's unsubscribe link turns off with the rest)."""
    template = template or f"email/{kind}"
    unsubscribe = unsubscribe_link(user.pk, kind)
    language = user.preferred_language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(zone_of(user)):
        context = {
            **context,
            "user": user,
            "kind": kind,
            "kind_label": Kind(kind).label,
            "unsubscribe_url": unsubscribe,
            "profile_url": absolute(reverse("accounts:profile")),
            "my_games_url": my_games_link(),
        }
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        text = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[user.email],
        headers={
            # RFC 8058: a mail client's "unsubscribe" button POSTs to this URL at once.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message
