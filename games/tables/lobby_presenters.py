"""What the lobby side shows about tables, built in one place for the pages and the socket.

The views and :mod:`games.tables.lobby_consumers` both render the same partials from what these
functions return, so a live update is the same HTML as a page load.  The cards carry only
what a table shows the public (never the invite code or the series seed), so a template
cannot leak them by accident.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import get_game
from games.engine.core.numbers import parse_natural
from games.game_names import preset_label
from games.models import Game, Seat, Table
from games.presenters import presenter_for

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _LatestGame(TypedDict):
    current_game_id: int | None


# A table with the pk of its latest game (None before the first deal): _with_latest_game.
TableWithGame: TypeAlias = "WithAnnotations[Table, _LatestGame]"

# The lobby lists open tables newest first, this many to a page.
LOBBY_PAGE_SIZE = 20
# Larger page numbers are not read as numbers at all (the first page is shown).
MAX_PAGE_NUMBER = 1_000_000
RECENTLY_FINISHED = timedelta(days=14)
FINISHED_LIMIT = 10


@dataclass(frozen=True)
class SeatView:
    position: int
    name: str | None  # None: the seat is free
    bot: str  # the bot's level, "" for a person or a free seat
    user_id: int | None
    rating: str = ""  # the person's rating in the table's game, "1043" or "1000?" (provisional)

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
    rated: bool
    seat_count: int
    seats: tuple[SeatView, ...]
    preset_label: str
    notes: tuple[str, ...]
    series: str
    pace: str
    pace_label: str
    move_seconds: int
    game_url: str | None
    viewer_seat: int | None
    viewer_is_owner: bool
    # Whose table it is: with the seats' user ids, what makes a card seen by nobody into the
    # card a given viewer sees (:func:`seen_by`).
    owner_id: int | None = None
    # The table's rules as the engine loads them, worded by :attr:`rules` when shown.
    game_type: str = ""
    loaded_rules: Any = None

    @property
    def rules(self) -> tuple[tuple[str, str], ...]:
        """Every option the owner set, as (option, value) in the active language.  Only a
        table's own page shows them, so they are worded there, not with every card a lobby
        refresh makes (a third of its read's CPU)."""
        return presenter_for(self.game_type).rule_rows(self.loaded_rules)

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


def move_time_text(seconds: int) -> str:
    if seconds <= 0:
        return _("no time limit")
    if seconds < 60:
        return ngettext("%(n)d second a move", "%(n)d seconds a move", seconds) % {"n": seconds}
    if seconds < 3600:
        minutes = max(1, seconds // 60)
        return ngettext("%(n)d minute a move", "%(n)d minutes a move", minutes) % {"n": minutes}
    if seconds < 2 * 86400:
        hours = seconds // 3600
        return ngettext("%(n)d hour a move", "%(n)d hours a move", hours) % {"n": hours}
    days = seconds // 86400
    return ngettext("%(n)d day a move", "%(n)d days a move", days) % {"n": days}


def pace_text(table: Table) -> str:
    text = f"{table.get_pace_display()} · {move_time_text(table.move_seconds)}"
    if table.pace == Table.Pace.SLOW and table.weekends_off:
        text += " · " + _("no clock on weekends")
    return text


# --- Cards ------------------------------------------------------------------------------------


def rating_text(user: Any, game_type: str) -> str:
    """The user's rating in ``game_type`` as a seat shows it (ratings prefetched by
    :func:`tables`); "" for a player who has none yet."""
    if user is None:
        return ""
    rating = {r.game_type: r for r in user.ratings.all()}.get(game_type)
    if rating is None:
        return ""
    return f"{rating.shown}?" if rating.provisional else str(rating.shown)


def _seat_views(table: Table) -> tuple[SeatView, ...]:
    taken = {seat.position: seat for seat in table.seats.all()}
    views = []
    for position in range(table.seat_count):
        seat = taken.get(position)
        if seat is None:
            views.append(SeatView(position, None, "", None))
        else:
            rating = "" if seat.bot else rating_text(seat.user, table.game_type)
            views.append(SeatView(position, seat.display_name, seat.bot, seat.user_id, rating))
    return tuple(views)


def table_card(table: Table, viewer_id: int | None) -> TableCard:
    """``table`` must come from :func:`tables` (seats and users prefetched)."""
    seats = _seat_views(table)
    game = get_game(table.game_type)
    presentation = presenter_for(table.game_type)
    rules = game.load_rules(table.rules)
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
        rated=table.rated,
        seat_count=table.seat_count,
        seats=seats,
        preset_label=preset_label(table.game_type, table.preset),
        notes=presentation.rule_notes(table.preset, rules),
        series=presentation.series_text(rules),
        pace=table.pace,
        pace_label=pace_text(table),
        move_seconds=table.move_seconds,
        game_url=reverse("games:game", args=[game_id]) if game_id else None,
        viewer_seat=viewer_seat,
        viewer_is_owner=viewer_id is not None and viewer_id == table.owner_id,
        owner_id=table.owner_id,
        game_type=table.game_type,
        loaded_rules=rules,
    )


def seat_of(card: TableCard, viewer_id: int | None) -> int | None:
    """Where ``viewer_id`` sits at the card's table (None: nowhere, or a visitor)."""
    if viewer_id is None:
        return None
    return next((s.position for s in card.seats if s.user_id == viewer_id), None)


def seen_by(card: TableCard, viewer_id: int | None) -> TableCard:
    """The card as ``viewer_id`` sees it, from the same card as anyone else sees it: where
    they sit and whether the table is theirs are the only things that differ."""
    return replace(
        card,
        viewer_seat=seat_of(card, viewer_id),
        viewer_is_owner=viewer_id is not None and viewer_id == card.owner_id,
    )


def _with_latest_game() -> QuerySet[TableWithGame]:
    latest_game = Game.objects.filter(table=OuterRef("pk")).order_by("-number").values("pk")[:1]
    return Table.objects.annotate(current_game_id=Subquery(latest_game))


def _seats_and_ratings() -> tuple[Any, ...]:
    return (Prefetch("seats", queryset=Seat.objects.select_related("user")), "seats__user__ratings")


def tables() -> QuerySet[TableWithGame]:
    """Tables with what a card needs in three queries: seats with their users, the users'
    ratings, the latest game."""
    return _with_latest_game().prefetch_related(*_seats_and_ratings())


def viewer_id_of(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


@dataclass(frozen=True)
class LobbyPage:
    """One page of the open public tables, and what the page links need."""

    cards: list[TableCard]
    number: int
    page_count: int
    table_count: int
    first_index: int  # 1-based positions of the first and last table shown
    last_index: int
    # Page numbers for the links; None where a run of numbers is left out.
    link_numbers: list[int | None]

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.page_count

    @property
    def previous_number(self) -> int:
        return self.number - 1

    @property
    def next_number(self) -> int:
        return self.number + 1


def page_number_of(raw: object) -> int:
    """The lobby page asked for; anything that is not a page number means the first page."""
    return parse_natural(raw, maximum=MAX_PAGE_NUMBER) or 1


def open_public_tables(viewer: Any, page_number: int = 1) -> LobbyPage:
    """Page ``page_number`` of the open public tables (the last page if there are fewer)."""
    page = open_public_pages([page_number])[page_number]
    viewer_id = viewer_id_of(viewer)
    return replace(page, cards=[seen_by(card, viewer_id) for card in page.cards])


def open_public_pages(page_numbers: Iterable[int]) -> dict[int, LobbyPage]:
    """The pages asked for by number, as nobody in particular sees them: one count for all,
    and one read of each page actually shown (a number past the end shows the last page)."""
    return lobby_lists(page_numbers, live=False)[0]


def lobby_lists(
    page_numbers: Iterable[int], live: bool = True
) -> tuple[dict[int, LobbyPage], list[TableCard]]:
    """The lobby's pages asked for by number and its "live now" list, as nobody in particular
    sees them, in five queries for all: the count, each page shown, the live games, and the
    seats and ratings of all their tables at once."""
    found = _with_latest_game().filter(status=Table.Status.OPEN, is_public=True)
    paginator = Paginator(found.order_by("-created_at", "-pk"), LOBBY_PAGE_SIZE)
    shown: dict[int, tuple[Any, list[Table]]] = {}
    number_of = {}
    for asked in page_numbers:
        page = paginator.get_page(asked)
        shown.setdefault(page.number, (page, list(page.object_list)))
        number_of[asked] = page.number
    playing = list(_live_tables()) if live else []
    prefetch_related_objects(
        [*(t for _, page_tables in shown.values() for t in page_tables), *playing],
        *_seats_and_ratings(),
    )
    pages = {
        number: LobbyPage(
            cards=[table_card(table, None) for table in page_tables],
            number=number,
            page_count=paginator.num_pages,
            table_count=paginator.count,
            first_index=page.start_index(),
            last_index=page.end_index(),
            link_numbers=[
                n if isinstance(n, int) else None
                for n in paginator.get_elided_page_range(number, on_each_side=1, on_ends=1)
            ],
        )
        for number, (page, page_tables) in shown.items()
    }
    return (
        {asked: pages[number] for asked, number in number_of.items()},
        [table_card(table, None) for table in playing],
    )


# The lobby's "live now" list shows this many games, the most recently active first.
LIVE_LIMIT = 12


def live_public_games(viewer: Any, limit: int = LIVE_LIMIT) -> list[TableCard]:
    """Public tables whose series is being played, most recently active first: anyone, a
    visitor too, may watch their game (a private table never appears)."""
    viewer_id = viewer_id_of(viewer)
    found = _live_tables(limit).prefetch_related(*_seats_and_ratings())
    return [table_card(table, viewer_id) for table in found]


def _live_tables(limit: int = LIVE_LIMIT) -> QuerySet[TableWithGame]:
    return (
        _with_latest_game()
        .filter(status=Table.Status.PLAYING, is_public=True, current_game_id__isnull=False)
        .order_by("-updated_at", "-pk")[:limit]
    )


def tables_of(viewer: Any) -> list[TableCard]:
    """The open and playing tables ``viewer`` sits at, private ones included."""
    viewer_id = viewer_id_of(viewer)
    if viewer_id is None:
        return []
    return tables_of_each([viewer_id]).get(viewer_id, [])


def tables_of_each(viewer_ids: Iterable[int]) -> dict[int, list[TableCard]]:
    """:func:`tables_of` for several viewers at once (three queries for all), by viewer id;
    a viewer who sits at no open or playing table is left out."""
    wanted = set(viewer_ids)
    if not wanted:
        return {}
    found = tables().filter(
        pk__in=Seat.objects.filter(user_id__in=wanted).values("table_id"),
        status__in=(Table.Status.OPEN, Table.Status.PLAYING),
    )
    each: dict[int, list[TableCard]] = {}
    for table in found:
        card = table_card(table, None)
        for seat in card.seats:
            if seat.user_id in wanted:
                each.setdefault(seat.user_id, []).append(seen_by(card, seat.user_id))
    return each


def visible_table(pk: int, viewer: Any) -> Table | None:
    """The table, if ``viewer`` may look at it: a public table, or a private one they sit at.

    A private table is reached by its invitation link; its number alone shows nothing, so
    guessing numbers does not find private tables."""
    table = tables().filter(pk=pk).first()
    if table is None:
        return None
    if table.is_public:
        return table
    viewer_id = viewer_id_of(viewer)
    # A visitor has no id, and neither has a bot's seat: compared as they were, a visitor
    # "sat" at every private table with a bot at it.
    if viewer_id is not None and any(seat.user_id == viewer_id for seat in table.seats.all()):
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
    # A finished series: its last game's replay, and who won it (the highest total; several
    # names when it is shared).
    replay_url: str | None = None
    winners: tuple[str, ...] = ()


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


def _series_winners(totals: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """Who won a finished series: every game of the registry scores so that the highest total
    is best (a series played to a target ends when someone reaches it)."""
    if not totals:
        return ()
    best = max(total for _, total in totals)
    return tuple(name for name, total in totals if total == best)


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
        totals = _totals(table, card)
        return MyGame(
            card,
            card.game_url,
            number,
            False,
            None,
            _("Series over"),
            totals,
            replay_url=reverse("games:game_replay", args=[game.pk]),
            winners=_series_winners(totals),
        )
    if game.status == Game.Status.FINISHED:
        situation = _("Game %(n)d is over; the next one is waiting to be dealt") % {"n": number}
        return MyGame(card, card.game_url, number, False, None, situation, _totals(table, card))
    # Who acts is the engine's to_act, saved with the game; the game's presentation words
    # a phase of its own (Remi's prelude), the rest is the same for every game.
    to_act = game.to_act or []
    my_turn = position is not None and position in to_act
    worded = presenter_for(table.game_type).situation(game.phase, my_turn)
    if worded is not None:
        situation = worded
    elif my_turn:
        situation = _("Your turn")
    else:
        names = [s.name for s in card.seats if s.position in to_act and s.name]
        situation = _("%(name)s to play") % {"name": ", ".join(names)} if names else _("Playing")
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
    game_ids = [t.current_game_id for t in active + finished if t.current_game_id]
    # Only the two state keys the list needs, not whole game states (racks, wall).
    games = {
        game.table_id: game
        for game in Game.objects.filter(pk__in=game_ids).only(
            "id", "table_id", "number", "status", "to_act", "phase", "deadline"
        )
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
        # The last game stands for a finished series: its page shows the result; its replay.
        entry = _my_game(table, table_card(table, viewer_id), games.get(table.pk))
        result.finished.append(entry)
    far = timezone.now() + timedelta(days=3650)
    result.my_turn.sort(key=lambda e: e.deadline or far)
    return result


# --- Rendering for the socket -----------------------------------------------------------------


def _language_of(viewer: Any) -> str:
    # The player's saved language; else the one already active: the socket's, which
    # remi_site/socket_locale.py takes from the handshake's cookie and browser languages.
    return (
        getattr(viewer, "preferred_language", "")
        or translation.get_language()
        or settings.LANGUAGE_CODE
    )


def render_lobby(viewer: Any, page_number: int = 1) -> str:
    """The lobby's live parts as out-of-band swaps for its socket: the viewer's own tables
    (nothing for a visitor) and the page of the public table list the viewer is on."""
    context = {
        "page": open_public_tables(viewer, page_number),
        "my_tables": tables_of(viewer),
        "live_games": live_public_games(viewer),
        "viewer": viewer,
        "oob": True,
    }
    with translation.override(_language_of(viewer)):
        return "".join(
            render_to_string(f"games/lobby.html#{part}", context)
            for part in ("my-tables", "open-tables", "live-games")
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
