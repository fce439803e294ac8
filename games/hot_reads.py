"""The reads every move and every socket's snapshot make, their SQL compiled once per
connection (``remi_site.prepared_queries``): a game with its table, a table's seats, the
log's latest actions."""

from __future__ import annotations

from games.models import Action, Game, Seat
from remi_site.prepared_queries import Prepared

# By key alone: no order (the model's own would join the table's to sort one row).
_GAME = Prepared(lambda pk: Game.objects.select_related("table").filter(pk=pk).order_by(), 1)
_GAME_LOCKED = Prepared(
    lambda pk: Game.objects.select_for_update().select_related("table").filter(pk=pk).order_by(),
    1,
)
_SEATS = Prepared(lambda table_id: Seat.objects.of_table(table_id), 1)

# Higher than any version a game reaches: "up to any version".
_ANY_VERSION = 2_000_000_000

# How many actions of the log a page shows: enough to follow a round of four players.
LOG_ACTIONS = 40
# What the log shows of an action (not its notation: a seat's secret part).
_LOG_FIELDS = ("version", "seat", "events", "cause", "created_at")
_UP_TO = Prepared(
    lambda game_id, up_to: (
        Action.objects.filter(game_id=game_id, version__lte=up_to)
        .order_by("-version")
        .only(*_LOG_FIELDS)[:LOG_ACTIONS]
    ),
    2,
)
_BETWEEN = Prepared(
    lambda game_id, up_to, after: (
        Action.objects.filter(game_id=game_id, version__lte=up_to, version__gt=after)
        .order_by("-version")
        .only(*_LOG_FIELDS)[:LOG_ACTIONS]
    ),
    3,
)


def game_with_table(game_id: int, *, lock: bool = False) -> Game | None:
    """The game with its table (one query), or None.  ``lock`` reads its row for update, in
    the caller's transaction."""
    found = (_GAME_LOCKED if lock else _GAME)(game_id)
    return found[0] if found else None


def table_seats(table_id: int) -> list[Seat]:
    """A table's seats with their users, by position (one query)."""
    return _SEATS(table_id)


def latest_actions(
    game_id: int, up_to: int | None = None, after: int | None = None
) -> list[Action]:
    """The game's last ``LOG_ACTIONS`` actions of versions up to ``up_to`` (all, when None)
    and after ``after``, oldest first (one query)."""
    top = _ANY_VERSION if up_to is None else up_to
    found = _UP_TO(game_id, top) if after is None else _BETWEEN(game_id, top, after)
    found.reverse()
    return found
