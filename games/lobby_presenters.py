"""What the lobby side shows about tables, built in one place for the pages and the socket.

The views and :mod:`games.lobby_consumers` both render the same partials from what these
functions return, so a live update is the same HTML as a page load.  The cards carry only
what a table shows the public (never the invite code or the series seed), so a template
cannot leak them by accident.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.rules import PRESET_LABELS, PRESETS, UNMELDED_FLAT, Rules
from games.engine.state import PRELUDE
from games.models import Game, Seat, Table

# The lobby lists the newest open tables; a busy site pages them later, not now.
LOBBY_LIMIT = 50
RECENTLY_FINISHED = timedelta(days=14)
FINISHED_LIMIT = 10


@dataclass(frozen=True)
class SeatView:
    position: int
    name: str | None  # None: the seat is free
    bot: str  # the bot's level, "" for a person or a free seat
    user_id: int | None

    @property
    def is_free(self) -> bool:
        return self.name is None


@dataclass(frozen=True)
class TableCard:
    """A table as the public sees it, plus where the viewer sits."""

    id: int
    url: str
    owner_name: str
    status: str
    status_label: str
    is_public: bool
    seat_count: int
    seats: tuple[SeatView, ...]
    preset_label: str
    notes: tuple[str, ...]
    rules: tuple[tuple[str, str], ...]
    series: str
    pace: str
    pace_label: str
    move_seconds: int
    game_url: str | None
    viewer_seat: int | None
    viewer_is_owner: bool

    @property
    def free_seats(self) -> int:
        return sum(1 for seat in self.seats if seat.is_free)

    @property
    def is_full(self) -> bool:
        return self.free_seats == 0

    @property
    def is_open(self) -> bool:
        return self.status == Table.Status.OPEN

    @property
    def can_join(self) -> bool:
        return self.is_open and not self.is_full and self.viewer_seat is None

    @property
    def can_start(self) -> bool:
        return self.is_open and self.is_full and self.viewer_is_owner

    @property
    def follows_game(self) -> bool:
        """Whether a live update should take the viewer to the game: they play in it and did
        not start it (the owner's own Start button already takes them there, and a second
        navigation racing the first would abort it)."""
        return (
            self.game_url is not None and self.viewer_seat is not None and not self.viewer_is_owner
        )


# --- Describing rules and pace ----------------------------------------------------------------


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _rebuilds(value: int | None) -> str:
    if value is None:
        return _("no limit")
    return str(value)


def _unmelded(rules: Rules) -> str:
    if rules.unmelded_penalty == UNMELDED_FLAT:
        return _("loses %(points)d") % {"points": rules.unmelded_flat}
    return _("loses %(points)d + the rack") % {"points": rules.unmelded_rack_base}


def rule_rows(rules: Rules) -> tuple[tuple[str, str], ...]:
    """Every option a table's owner can set, as (option, value) for a definition list."""
    return (
        (_("First meld minimum"), str(rules.first_meld_minimum)),
        (_("First meld may use the previous discard"), _yes_no(rules.first_meld_takes_discard)),
        (_("Doubla"), _yes_no(rules.doubla)),
        (_("A 1 on the rack costs"), str(rules.rack_one_value)),
        (_("A player who never melded"), _unmelded(rules)),
        (_("Going out on a Joly doubles"), _yes_no(rules.joly_discard_doubles)),
        (_("Wall rebuilds"), _rebuilds(rules.max_rebuilds)),
        (_("Series"), series_text(rules)),
    )


def _note(rules: Rules, name: str) -> str:
    """One option, said briefly, for a rules summary."""
    value = getattr(rules, name)
    if name == "first_meld_minimum":
        return _("first meld %(points)d") % {"points": value}
    if name == "first_meld_takes_discard":
        return _("first meld may use the discard") if value else _("first meld from the rack")
    if name == "doubla":
        return _("doubla") if value else _("no doubla")
    if name == "rack_one_value":
        return _("a 1 on the rack costs %(points)d") % {"points": value}
    if name in ("unmelded_penalty", "unmelded_flat", "unmelded_rack_base"):
        return _("never melded: %(penalty)s") % {"penalty": _unmelded(rules)}
    if name == "joly_discard_doubles":
        return _("going out on a Joly doubles") if value else _("going out on a Joly is plain")
    if name == "max_rebuilds":
        if value is None:
            return _("unlimited wall rebuilds")
        return ngettext("%(count)d wall rebuild", "%(count)d wall rebuilds", value) % {
            "count": value
        }
    return f"{name} {value}"


# The series is always said on its own, so it is no "difference from the preset".
_NOT_NOTES = {"series_games", "target_score", "game"}


def rule_notes(preset: str, rules: Rules) -> tuple[str, ...]:
    """Where a table's rules differ from its preset, briefly (empty: the preset as it is)."""
    base = PRESETS.get(preset)
    if base is None:
        return ()
    changed = [
        name
        for name in Rules.__dataclass_fields__
        if name not in _NOT_NOTES and getattr(rules, name) != getattr(base, name)
    ]
    notes: list[str] = []
    for name in changed:
        note = _note(rules, name)
        if note not in notes:  # the three never-melded options say one thing
            notes.append(note)
    return tuple(notes)


def series_text(rules: Rules) -> str:
    games, target = rules.series_games, rules.target_score
    if games is not None and target is not None:
        return ngettext(
            "%(games)d game or %(target)d points",
            "%(games)d games or %(target)d points",
            games,
        ) % {"games": games, "target": target}
    if target is not None:
        return _("to %(target)d points") % {"target": target}
    return ngettext("%(games)d game", "%(games)d games", games or 1) % {"games": games or 1}


def move_time_text(seconds: int) -> str:
    if seconds <= 0:
        return _("no time limit")
    if seconds < 3600:
        minutes = max(1, seconds // 60)
        return ngettext("%(n)d minute a move", "%(n)d minutes a move", minutes) % {"n": minutes}
    if seconds < 2 * 86400:
        hours = seconds // 3600
        return ngettext("%(n)d hour a move", "%(n)d hours a move", hours) % {"n": hours}
    days = seconds // 86400
    return ngettext("%(n)d day a move", "%(n)d days a move", days) % {"n": days}


def pace_text(table: Table) -> str:
    return f"{table.get_pace_display()} · {move_time_text(table.move_seconds)}"


# --- Cards ------------------------------------------------------------------------------------


def _seat_views(table: Table) -> tuple[SeatView, ...]:
    taken = {seat.position: seat for seat in table.seats.all()}
    views = []
    for position in range(table.seat_count):
        seat = taken.get(position)
        if seat is None:
            views.append(SeatView(position, None, "", None))
        else:
            views.append(SeatView(position, seat.display_name, seat.bot, seat.user_id))
    return tuple(views)


def table_card(table: Table, viewer_id: int | None) -> TableCard:
    """``table`` must come from :func:`tables` (seats and users prefetched)."""
    seats = _seat_views(table)
    rules = Rules.from_dict(table.rules)
    owner = next((s.name for s in seats if s.user_id == table.owner_id), None)
    viewer_seat = next(
        (s.position for s in seats if viewer_id is not None and s.user_id == viewer_id), None
    )
    game_id = getattr(table, "current_game_id", None)
    return TableCard(
        id=table.pk,
        url=table.get_absolute_url(),
        owner_name=owner or _("(gone)"),
        status=table.status,
        status_label=table.get_status_display(),
        is_public=table.is_public,
        seat_count=table.seat_count,
        seats=seats,
        preset_label=PRESET_LABELS.get(table.preset, table.preset),
        notes=rule_notes(table.preset, rules),
        rules=rule_rows(rules),
        series=series_text(rules),
        pace=table.pace,
        pace_label=pace_text(table),
        move_seconds=table.move_seconds,
        game_url=reverse("games:game", args=[game_id]) if game_id else None,
        viewer_seat=viewer_seat,
        viewer_is_owner=viewer_id is not None and viewer_id == table.owner_id,
    )


def tables() -> QuerySet[Table]:
    """Tables with what a card needs in two queries: seats with their users, the latest game."""
    latest_game = Game.objects.filter(table=OuterRef("pk")).order_by("-number").values("pk")[:1]
    return Table.objects.annotate(current_game_id=Subquery(latest_game)).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def viewer_id_of(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def open_public_tables(viewer: Any) -> list[TableCard]:
    viewer_id = viewer_id_of(viewer)
    found = tables().filter(status=Table.Status.OPEN, is_public=True)[:LOBBY_LIMIT]
    return [table_card(table, viewer_id) for table in found]


def tables_of(viewer: Any) -> list[TableCard]:
    """The open and playing tables ``viewer`` sits at, private ones included."""
    viewer_id = viewer_id_of(viewer)
    if viewer_id is None:
        return []
    found = tables().filter(
        seats__user_id=viewer_id, status__in=(Table.Status.OPEN, Table.Status.PLAYING)
    )
    return [table_card(table, viewer_id) for table in found]


def visible_table(pk: int, viewer: Any) -> Table | None:
    """The table, if ``viewer`` may look at it: a public table, or a private one they sit at.

    A private table is reached by its invitation link; its number alone shows nothing, so
    guessing numbers does not find private tables."""
    table = tables().filter(pk=pk).first()
    if table is None:
        return None
    viewer_id = viewer_id_of(viewer)
    if table.is_public or any(seat.user_id == viewer_id for seat in table.seats.all()):
        return table
    return None


# --- My games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MyGame:
    card: TableCard
    game_url: str | None
    game_number: int | None  # 1-based, for people
    my_turn: bool
    deadline: datetime | None
    situation: str
    totals: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class MyGames:
    my_turn: list[MyGame]
    waiting: list[MyGame]  # playing, someone else to move (or between games)
    open: list[MyGame]  # waiting for players
    finished: list[MyGame]

    @property
    def empty(self) -> bool:
        return not (self.my_turn or self.waiting or self.open or self.finished)


def _totals(table: Table, card: TableCard) -> tuple[tuple[str, int], ...]:
    # The series keeps per-game scores; only the sums leave this function (not the seed).
    games = (table.series or {}).get("games") or []
    if not games:
        return ()
    return tuple(
        (seat.name or "?", sum(scores[seat.position] for scores in games)) for seat in card.seats
    )


def _my_game(table: Table, card: TableCard, game: Game | None) -> MyGame:
    position = card.viewer_seat
    if table.status == Table.Status.OPEN:
        situation = ngettext(
            "Waiting for %(n)d more player", "Waiting for %(n)d more players", card.free_seats
        ) % {"n": card.free_seats}
        return MyGame(card, None, None, False, None, situation, ())
    if game is None:  # a playing table is dealt as it starts; be calm if not
        return MyGame(card, None, None, False, None, card.status_label, _totals(table, card))
    number = game.number + 1
    if table.status == Table.Status.FINISHED:
        return MyGame(
            card, card.game_url, number, False, None, _("Series over"), _totals(table, card)
        )
    if game.status == Game.Status.FINISHED:
        situation = _("Game %(n)d is over; the next one is waiting to be dealt") % {"n": number}
        return MyGame(card, card.game_url, number, False, None, situation, _totals(table, card))
    phase = getattr(game, "phase", None)
    if phase == PRELUDE:
        ready = json.loads(getattr(game, "ready", None) or "[]")
        my_turn = position is not None and position < len(ready) and not ready[position]
        situation = (
            _("Doublas before play: say when you are ready")
            if my_turn
            else _("Doublas before play: waiting for the others")
        )
    else:
        my_turn = position is not None and game.turn == position
        if my_turn:
            situation = _("Your turn")
        else:
            name = next((s.name for s in card.seats if s.position == game.turn), None)
            situation = _("%(name)s to play") % {"name": name} if name else _("Playing")
    return MyGame(
        card, card.game_url, number, my_turn, game.deadline, situation, _totals(table, card)
    )


def my_games(user: Any) -> MyGames:
    """The tables ``user`` sits at: my turn first (soonest deadline first), then the others'
    turns, then tables waiting for players, then recently finished series."""
    viewer_id = viewer_id_of(user)
    result = MyGames([], [], [], [])
    if viewer_id is None:
        return result
    mine = tables().filter(seats__user_id=viewer_id)
    active = list(mine.filter(status__in=(Table.Status.OPEN, Table.Status.PLAYING)))
    finished = list(
        mine.filter(
            status=Table.Status.FINISHED, updated_at__gte=timezone.now() - RECENTLY_FINISHED
        ).order_by("-updated_at")[:FINISHED_LIMIT]
    )
    game_ids = [t.current_game_id for t in active if t.current_game_id]
    # Only the two state keys the list needs, not whole game states (racks, wall).
    games = {
        game.table_id: game
        for game in Game.objects.filter(pk__in=game_ids)
        .only("id", "table_id", "number", "status", "turn", "deadline")
        .annotate(phase=KT("state__phase"), ready=KT("state__ready"))
    }
    for table in active:
        entry = _my_game(table, table_card(table, viewer_id), games.get(table.pk))
        if entry.my_turn:
            result.my_turn.append(entry)
        elif table.status == Table.Status.OPEN:
            result.open.append(entry)
        else:
            result.waiting.append(entry)
    for table in finished:
        result.finished.append(_my_game(table, table_card(table, viewer_id), None))
    far = timezone.now() + timedelta(days=3650)
    result.my_turn.sort(key=lambda e: e.deadline or far)
    return result


# --- Rendering for the socket -----------------------------------------------------------------


def _language_of(viewer: Any) -> str:
    # A socket has no request for LocaleMiddleware to read: use the player's saved language.
    return getattr(viewer, "preferred_language", "") or settings.LANGUAGE_CODE


def render_lobby(viewer: Any) -> str:
    """The lobby's live parts as out-of-band swaps for its socket: the viewer's own tables
    (nothing for a visitor) and the public table list."""
    context = {
        "tables": open_public_tables(viewer),
        "my_tables": tables_of(viewer),
        "viewer": viewer,
        "oob": True,
    }
    with translation.override(_language_of(viewer)):
        return render_to_string("games/lobby.html#my-tables", context) + render_to_string(
            "games/lobby.html#open-tables", context
        )


def render_table_live(table_id: int, viewer: Any, follow: bool) -> tuple[str, str | None]:
    """The live part of a table page, and the table's status (None: gone or not visible).

    ``follow``: when the table has started and the viewer plays at it, the fragment takes
    them to the game (the page they had open was waiting for the start)."""
    table = visible_table(table_id, viewer)
    card = table_card(table, viewer_id_of(viewer)) if table is not None else None
    context = {"card": card, "viewer": viewer, "oob": True, "follow": follow}
    with translation.override(_language_of(viewer)):
        html = render_to_string("games/table.html#table-live", context)
    return html, card.status if card else None
