"""Writing in a table's chat, muting, and what each reader may see.

Players talk in the players' room and spectators in theirs; while the game is played each
side reads only its own room, and once it is over both are shown to everyone (and kept with
the game for its replay).  A refused message says why and saves nothing."""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from chat.models import MAX_LENGTH, ChatBan, ChatMessage, ChatMute, Room
from chat.phrases import PHRASES
from games.models import Game
from games.play.news import publish

log = logging.getLogger(__name__)

# At most this many messages per player in any window of this many seconds.
RATE_MESSAGES = 5
RATE_SECONDS = 10


class ChatRefused(ValueError):
    """A message that cannot be posted, said for the player."""


@dataclass(frozen=True)
class Reader:
    """Who reads a game's chat: a user, their seat at the table (None for a spectator), and
    whether the game is over."""

    user_id: int
    seat: int | None
    over: bool

    @property
    def room(self) -> str:
        return Room.PLAYERS if self.seat is not None else Room.SPECTATORS

    @property
    def rooms(self) -> tuple[str, ...]:
        return (Room.PLAYERS, Room.SPECTATORS) if self.over else (self.room,)


def reader_of(game: Game, user_id: int, seat: int | None) -> Reader:
    return Reader(user_id=user_id, seat=seat, over=game.status != Game.Status.PLAYING)


def chat_group(game_id: int) -> str:
    return f"chat-{game_id}"


def clean_text(text: str) -> str:
    """One line of printable text: runs of whitespace and control characters become one space."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _within_rate(user_id: int) -> bool:
    window = int(time.time() // RATE_SECONDS)
    key = f"chat:rate:{user_id}:{window}"
    try:
        cache.add(key, 0, timeout=RATE_SECONDS * 2)
        return cache.incr(key) <= RATE_MESSAGES
    except Exception:  # the limit needs the cache; without it, chat still works
        log.warning("chat rate limit unavailable", exc_info=True)
        return True


def post(game: Game, reader: Reader, *, text: str = "", phrase: str = "") -> ChatMessage:
    if ChatBan.objects.filter(user_id=reader.user_id).exists():
        raise ChatRefused(_("A moderator has closed the chat to you."))
    if phrase:
        if phrase not in PHRASES:
            raise ChatRefused(_("There is no such quick phrase."))
        text = ""
    else:
        text = clean_text(text)
        if not text:
            raise ChatRefused(_("Write a message first, or pick a quick phrase."))
        if len(text) > MAX_LENGTH:
            raise ChatRefused(
                _("A message has at most %(most)d characters; this one has %(length)d.")
                % {"most": MAX_LENGTH, "length": len(text)}
            )
    if not _within_rate(reader.user_id):
        raise ChatRefused(
            _(
                "Slow down: at most %(messages)d messages in %(seconds)d seconds. "
                "Your message is kept: send it again in a moment."
            )
            % {"messages": RATE_MESSAGES, "seconds": RATE_SECONDS}
        )
    message = ChatMessage.objects.create(
        game=game, author_id=reader.user_id, room=reader.room, text=text, phrase=phrase
    )
    transaction.on_commit(
        lambda: publish(chat_group(game.pk), {"type": "chat.posted", "id": message.pk})
    )
    return message


def muted_by(user_id: int) -> set[int]:
    return set(ChatMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))


def may_read(message: ChatMessage, reader: Reader, muted: set[int]) -> bool:
    return (
        message.removed_at is None
        and message.room in reader.rooms
        and message.author_id not in muted
    )


def readable(game: Game, reader: Reader) -> QuerySet[ChatMessage]:
    """The messages ``reader`` sees, oldest first (one query)."""
    return (
        ChatMessage.objects.filter(game=game, room__in=reader.rooms, removed_at__isnull=True)
        .exclude(author__in=ChatMute.objects.filter(user_id=reader.user_id).values("muted"))
        .select_related("author")
    )


def lines_of(game: Game, reader: Reader, author_id: int) -> list[int]:
    """The ids of ``author_id``'s lines in ``game`` that ``reader`` may see: never a line of
    the other room while the game is played."""
    return list(
        ChatMessage.objects.filter(
            game=game, author_id=author_id, room__in=reader.rooms, removed_at__isnull=True
        ).values_list("pk", flat=True)
    )


def mute(game: Game, reader: Reader, other_id: int) -> list[int]:
    """Mute a writer whose lines ``reader`` sees in ``game``; the ids of those lines, which
    leave the reader's page.  Anyone else (a user who does not exist, one who is not at the
    table, one who wrote only in the other room) gets the same empty answer and no mute, so
    the answer tells nothing about who exists or what the other room says."""
    if reader.user_id == other_id:
        raise ChatRefused(_("You cannot mute yourself."))
    lines = lines_of(game, reader, other_id)
    if lines:
        ChatMute.objects.get_or_create(user_id=reader.user_id, muted_id=other_id)
    return lines


def unmute(user_id: int, other_id: int) -> None:
    ChatMute.objects.filter(user_id=user_id, muted_id=other_id).delete()


def remove(messages: QuerySet[ChatMessage], now) -> int:
    """A moderator removes messages: every page showing them drops them at once."""
    removed = list(messages.filter(removed_at__isnull=True).values_list("pk", "game_id"))
    messages.filter(pk__in=[pk for pk, _ in removed]).update(removed_at=now)
    for pk, game_id in removed:
        transaction.on_commit(
            functools.partial(publish, chat_group(game_id), {"type": "chat.removed", "id": pk})
        )
    return len(removed)
