"""What every game's presentation shares: who may see a game, the log's latest actions, and
the adapter each game provides (:class:`Presentation`), registered in
``games.presenters.PRESENTERS`` under the same key as its engine in ``games.engine.GAMES``.

A presentation turns its engine's ``player_view`` into template context, a posted form into
the engine's notation, and the engine's codes into sentences.  Its templates are named
``games/<key>/...`` (in the plug-in's own ``templates`` folder, ``games.plugins``) with the
partial names the views and the socket ask for (``updates``, ``controls``; the replay's
``step``), its script ``js/...`` in the plug-in's ``static`` folder (its own, ``<key>.js``, or
one it shares with the plug-in it builds on).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from django_stubs_ext import StrOrPromise

from games.engine import GameEngine
from games.engine.core.series import Series
from games.hot_reads import game_with_table, latest_actions, table_seats
from games.models import Action, Game, Seat, Table
from games.presenters.seat_names import shown_names
from remi_site.cached_reverse import cached_reverse, cached_reverses

T = TypeVar("T")


@dataclass(frozen=True)
class Viewing:
    """A game as one user may see it: their seat, or None for a spectator."""

    game: Game
    seats: list[Seat]
    seat: int | None

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def viewable_game(game_id: int, user: Any, *, lock: bool = False) -> Viewing | None:
    """The game and the user's seat, or None when the user may not see it.

    Players of the table see their game; anyone, logged in or not (``user`` None or
    anonymous), may watch a public table; a private table is for its players only.  Two
    queries: the game with its table, the seats.  ``lock`` reads the game's row for update
    (in the caller's transaction), as ``services.play_locked`` needs it.
    """
    user_id = user.pk if user is not None and user.is_authenticated else None
    game = read_game(game_id, lock=lock)
    if game is None:
        return None
    # The users come along for the clocks' notes (who is on vacation): same one query.
    seats = table_seats(game.table_id)
    seat = next((s.position for s in seats if user_id is not None and s.user_id == user_id), None)
    if seat is None and not game.table.is_public:
        return None
    return Viewing(game, seats, seat)


def read_game(game_id: int, *, lock: bool = False) -> Game | None:
    """The game with its table (one query, its SQL made once: ``games.hot_reads``), or
    None."""
    return game_with_table(game_id, lock=lock)


def recent_actions(
    game: Game, *, up_to: int | None = None, after: int | None = None
) -> list[Action]:
    """The last ``LOG_ACTIONS`` actions, oldest first (one query); only those of versions up
    to ``up_to`` and after ``after``, when given."""
    return latest_actions(game.pk, up_to, after)


def read_once_each(form: forms.Form) -> bool:
    """Validate ``form`` and also refuse a field a page sends once (the version, the meld
    to lay off on) that came more than once: a forged form, not to be read by its last copy
    while the first said something else.  Whether the form may be used."""
    valid = form.is_valid()
    getlist = getattr(form.data, "getlist", None)
    if getlist is None:
        return valid
    for name, field in form.fields.items():
        if not isinstance(field, forms.MultipleChoiceField) and len(getlist(name)) > 1:
            form.add_error(name, _("It was sent more than once."))
            valid = False
    return valid


def form_problem(form: forms.Form) -> str:
    """One sentence from a form's errors, for the error area."""
    parts = []
    for field, errors in form.errors.items():
        name = "" if field == "__all__" else f"{field}: "
        parts.append(name + " ".join(str(e) for e in errors))
    return _("That move could not be read (%(problems)s).") % {"problems": "; ".join(parts)}


def series_context(engine: GameEngine, game: Game, over: bool) -> dict[str, Any] | None:
    """Series totals from the table, and where the next game is once this one is over.
    Alike for every viewer: made once per game object while the game is under way (the caller
    reads it, never writes).  Once it is over, the next game or a rematch table may be made
    without a new version: then it is asked afresh."""
    if over:
        return _series_context(engine, game, over)
    return once_per_game(game, ("series",), lambda: _series_context(engine, game, over))


def _series_context(engine: GameEngine, game: Game, over: bool) -> dict[str, Any] | None:
    data = game.table.series
    if not data:
        return None
    series = Series.load(engine, data)
    games_total, target = engine.series_limits(series.rules, len(series.seats))
    next_url = rematch_url = None
    if over and series.over:
        rematch = Table.objects.filter(rematch_of_id=game.table_id).values_list("pk", flat=True)
        if (rematch_pk := rematch.first()) is not None:
            rematch_url = cached_reverse("games:table", rematch_pk)
    if over and not series.over:
        # Only a finished game needs this, so an ordinary render stays at its three queries.
        next_pk = (
            Game.objects.filter(table_id=game.table_id, number=game.number + 1)
            .values_list("pk", flat=True)
            .first()
        )
        if next_pk is not None:
            next_url = cached_reverse("games:game", next_pk)
    return {
        "games_played": len(series.games),
        "games_total": games_total,
        "target": target,
        "totals": [
            {"name": name, "total": total}
            for name, total in zip(shown_names(series.seats), series.totals, strict=True)
        ],
        "over": series.over,
        "next_url": next_url,
        "rematch_url": rematch_url,
        "rematch_action": cached_reverse("games:table_rematch", game.table_id),
        # An organiser's table (a tournament's) is not played again by its players.
        "rematch_allowed": not game.table.arranged,
    }


def game_title(engine: GameEngine, game: Game) -> str:
    """How a game is named on its page, its replay and in the admin: "Table 5 · game 2 of 3"
    (a game's id is only in its URL, and ``number`` counts from 0)."""
    total = getattr(engine.load_rules(game.table.rules), "series_games", None)
    if total and total > 1:
        return _("Table %(table)d · game %(number)d of %(total)d") % {
            "table": game.table_id,
            "number": game.ordinal,
            "total": total,
        }
    return _("Table %(table)d · game %(number)d") % {
        "table": game.table_id,
        "number": game.ordinal,
    }


GAME_PAGES = ("game", "game_act", "game_rack", "game_next", "game_replay")


def game_urls(game: Game) -> dict[str, str]:
    pk = game.pk
    urls = dict(
        zip(
            ("game", "act", "rack", "next", "replay"),
            cached_reverses(tuple(f"games:{page}" for page in GAME_PAGES), pk),
            strict=True,
        )
    )
    urls["table"] = cached_reverse("games:table", game.table_id)
    urls["ws"] = f"/ws/games/{pk}/"
    return urls


def once_per_game(game: Game, key: tuple[Any, ...], make: Callable[[], T]) -> T:
    """What ``make`` gives for this very ``game`` object at its version: the viewers of one
    version share one object (``games.play.live_views.Snapshot``), so the parts of their contexts
    that are the same for everyone (in a language: ``key`` holds what else it depends on)
    are made once.  A move changes the version, so nothing made before it is served after."""
    memo = game.__dict__.setdefault("_once_per_game", {})
    full = (game.version, translation.get_language(), *key)
    if full not in memo:
        memo[full] = make()
    return memo[full]


class Presentation(ABC):
    """One game's presentation adapter.  ``key`` matches the engine's key."""

    key: ClassVar[str]
    # The game's name and its presets' names in the viewer's language (the engine's labels
    # are English: it knows no Django); a preset not named here shows the engine's label.
    label: ClassVar[StrOrPromise]
    preset_labels: ClassVar[Mapping[str, StrOrPromise]] = {}
    template: ClassVar[str]  # the game page; partials "updates" and "controls"
    # The replay page, written once for every game (partial "step"); it takes from the
    # game page ``template`` the partials "status", "result", "log", each of ``board_parts``
    # and the replay's own "replay_title", "replay_rack" and "replay_final".
    replay_template: ClassVar[str] = "games/replay.html"
    board_parts: ClassVar[tuple[str, ...]]
    # The game's class on the page's outer element, and the style sheets it adds.
    page_class: ClassVar[str] = ""
    stylesheets: ClassVar[tuple[str, ...]] = ()
    rule_options_template: ClassVar[str]  # the new-table form's rule options
    script: ClassVar[str]  # under static/
    action_form: ClassVar[type[forms.Form]]  # what the game page posts to make a move
    # The rule options a table's owner may change, named as the engine's rules fields.
    rule_fields: ClassVar[tuple[str, ...]]
    # A game whose turn is composed on a private draft before it is submitted (the tile
    # rummy's whole-table plays) says so; its template then has the partials "draft" (the
    # drafting seat's answer) and "arranging" (the note the other seats get).
    drafts: ClassVar[bool] = False
    # The parts of ``updates`` that every viewer sees alike (no "you", no seat's own
    # controls): rendered once per version and language from a spectator's context and
    # sent to every seat as they are.  The tests check each seat's own render is the same.
    public_parts: ClassVar[frozenset[str]] = frozenset()

    def refusal_text(self, refusal: Exception, game: Game) -> str:
        """The sentence a player reads for a refused move.  Engines that speak in codes
        override this to word the code in the viewer's language."""
        return str(refusal)

    def draft(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        """What to save as ``Seat.rack_order`` for the draft the player posted (only when
        ``drafts``); raises ``ValueError`` (said for the player) when it is not exactly the
        tiles of their rack and the table, or it is not their turn."""
        raise ValueError("This game has no draft.")

    def replay_page(self) -> dict[str, Any]:
        """What the shared replay page needs to take this game's parts by name."""
        return {
            "page_template": self.template,
            "board_parts": self.board_parts,
            "replay_class": self.page_class,
            "stylesheets": self.stylesheets,
            "script": self.script,
        }

    def rules_context(self) -> dict[str, Any]:
        """What the game's rules page (``rules/<key>.html``) draws beside its words: the
        example melds under ``ex`` (``games.presenters.examples``) and any numbers the engine
        defines that the page quotes."""
        return {}

    def meld_total(self, text: str, game: Game, seat: int) -> tuple[int, int] | None:
        """What a selection (the page's meld groups) is worth toward the seat's first melds,
        and the points needed; None when the game counts no such thing or the seat has
        melded already."""
        return None

    @abstractmethod
    def context(
        self,
        game: Game,
        seats: Sequence[Seat],
        seat: int | None,
        *,
        actions: Sequence[Action] | None = None,
        state: Any = None,
        error: str = "",
        notice: str = "",
        replay: bool = False,
    ) -> dict[str, Any]:
        """Everything the templates need for ``seat`` (None: a spectator), built from the
        engine's ``player_view`` only.  ``state`` replaces the game's current state (the
        replay's earlier positions); ``actions`` are the log's, oldest first."""

    @abstractmethod
    def notation(self, data: Mapping[str, Any], game: Game) -> str:
        """The engine's notation for the cleaned ``action_form`` data; a selection that
        cannot make the move raises the engine's ``InvalidAction``."""

    @abstractmethod
    def rack_order(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        """What to save as ``Seat.rack_order`` for the order posted by the player; raises
        ``ValueError`` (said for the player) when it is not exactly their rack."""

    @abstractmethod
    def replay_context(self, final_state: Any) -> dict[str, Any]:
        """What the replay page shows beside the step: the end of the game."""

    @abstractmethod
    def situation(self, phase: str, my_turn: bool) -> str | None:
        """A line for lists of games ("my games") in a phase the game names itself (its
        prelude); None for the usual "your turn" / "X to play"."""

    @abstractmethod
    def rule_rows(self, rules: Any) -> tuple[tuple[str, str], ...]:
        """Every option a table's owner can set, as (option, value), for a table card."""

    @abstractmethod
    def rule_notes(self, preset: str, rules: Any) -> tuple[str, ...]:
        """Where ``rules`` differ from ``preset``, briefly (empty: the preset as it is)."""

    @abstractmethod
    def series_text(self, rules: Any) -> str:
        """How long a series under ``rules`` lasts, said briefly."""

    @abstractmethod
    def form_fields(self) -> dict[str, forms.Field]:
        """The new-table form's fields for ``rule_fields``."""

    @abstractmethod
    def rule_options(self, rules: Any) -> dict[str, Any]:
        """The ``rule_fields`` as ``rules`` sets them (the form's initial values)."""
