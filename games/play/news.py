"""What a committed change tells the pages watching it: messages to the channel layer's groups
(a game's sockets, the lobby's), sent after commit; several published together go in one hop.

Chat, the badge, tournaments and the table lifecycle publish here too; nothing here knows
what the messages say.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


LOBBY_GROUP = "lobby"


# Messages published inside ``publishing_together``, sent when it ends.
_together: ContextVar[list[tuple[str, dict]] | None] = ContextVar("publish_together", default=None)


@contextmanager
def publishing_together() -> Iterator[None]:
    """What is published inside goes to the channel layer at the end, in order, in one hop
    from this thread to the event loop (each hop costs a thread switch and a loop wake-up,
    and a move used to make three)."""
    if _together.get() is not None:
        yield  # already gathering: the outer block sends
        return
    token = _together.set([])
    try:
        yield
    finally:
        messages = _together.get() or []
        _together.reset(token)
        _send(messages)


def publish(group: str, message: dict) -> None:
    gathering = _together.get()
    if gathering is not None:
        gathering.append((group, message))
    else:
        _send([(group, message)])


def _send(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    # The site's layer sends them all in two round trips to Redis (remi_site.channel_layer);
    # another layer (the in-memory one a test may use) group by group.
    send = getattr(layer, "group_send_many", None)
    try:
        async_to_sync(send or functools.partial(_group_send_each, layer))(messages)
    except Exception:  # a lost notification must never undo a saved move
        log.exception("could not publish %s", [m.get("type") for _, m in messages])


async def _group_send_each(layer: Any, messages: list[tuple[str, dict]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # one group that fails does not keep the others from their news
            log.exception("could not publish %s to %s", message.get("type"), group)
