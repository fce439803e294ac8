"""What the tournament pages show, built in one place for the views and the socket, so a
live update is the same HTML as a page load.

Only public facts go in: names, ratings, places and totals, whose turn it is at a table, the
table's link.  Never a game's state: a tournament page cannot show a rack, because nothing
of a state reaches its templates."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import get_game
from games.game_names import game_label, preset_label
from games.models import Game, Table
from games.presenters import presenter_for
from games.tables.lifecycle import checked_rules
from games.tables.lobby_presenters import move_time_text
from tournaments import pairing
from tournaments.models import Match, Registration, Round, Tournament
from tournaments.ratings import ratings_of
from tournaments.results import series_totals

LISTED = {
    "upcoming": (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED),
    "running": (Tournament.Status.RUNNING,),
    "finished": (Tournament.Status.FINISHED, Tournament.Status.CANCELLED),
}


@dataclass(frozen=True)
class PlayerLine:
    user_id: int
    name: str
    rating: str
    withdrawn: bool


@dataclass(frozen=True)
class SeatLine:
    name: str
    total: str
    place: int | None
    to_play: bool


@dataclass(frozen=True)
class TableLine:
    number: int
    status: str
    status_label: str
    url: str | None
    game_number: int | None
    seats: tuple[SeatLine, ...]
    adjudicated: bool
    overridden: bool
    viewer_plays: bool
    player_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class RoundLine:
    number: int
    status: str
    status_label: str
    deadline: Any
    tables: tuple[TableLine, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: str
    match_points: float
    game_score: float
    wins: int
    head_to_head: float
    opponents_score: float
    played: int
    byes: int
    withdrawn: bool
    is_viewer: bool
    player_id: int | None = None


def viewer_id_of(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def listed(kind: str) -> list[Tournament]:
    return list(Tournament.objects.filter(status__in=LISTED[kind]).order_by("-created_at")[:50])


def visible(tournament_id: int) -> Tournament | None:
    """A tournament the public may see (drafts are the organiser's)."""
    return (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .filter(pk=tournament_id)
        .select_related("organiser")
        .first()
    )


def _names(user_ids: list[int]) -> dict[int, str]:
    return {pk: u.public_name for pk, u in get_user_model().objects.in_bulk(user_ids).items()}


def _rating_texts(user_ids: list[int], game_type: str) -> dict[int, str]:
    ratings = ratings_of(user_ids, game_type)
    texts = {}
    for pk in user_ids:
        rating = ratings.get(pk)
        if rating is None:
            texts[pk] = "1000?"
        else:
            texts[pk] = f"{rating.shown}?" if rating.provisional else str(rating.shown)
    return texts


def rules_summary(tournament: Tournament) -> dict[str, Any]:
    """The rules as the page states them: game, preset, options, series, pace, format."""
    game = get_game(tournament.game_type)
    presentation = presenter_for(game.key)
    options = {
        **(tournament.options or {}),
        "series_games": tournament.games_per_match,
        "target_score": tournament.target_score,
    }
    _game, preset, rules = checked_rules(
        game.key, tournament.preset or None, options, tournament.seat_count
    )
    pace = Table(pace=tournament.pace).get_pace_display()
    return {
        "game": game_label(game.key),
        "preset": preset_label(game.key, preset),
        "rows": presentation.rule_rows(rules),
        "series": presentation.series_text(rules),
        "pace": f"{pace} · {move_time_text(tournament.move_seconds)}",
        "format": tournament.get_format_display(),
        "seats": tournament.seat_count,
        "rounds": tournament.rounds,
    }


def _table_line(match: Match, game: Game | None, names: dict[int, str], viewer: int | None):
    table = match.table
    totals = series_totals(table) if table else [0.0] * len(match.players)
    owing = set(game.to_act) if game is not None and game.status == Game.Status.PLAYING else set()
    finished = match.status == Match.Status.FINISHED
    seats = tuple(
        SeatLine(
            name=names.get(p, "?"),
            total=f"{(match.scores[i] if finished and match.scores else totals[i]):g}",
            place=match.places[i] if finished and match.places else None,
            to_play=i in owing,
        )
        for i, p in enumerate(match.players)
    )
    if finished:
        status, label = "finished", _("Finished")
    elif table is not None and table.status == Table.Status.PLAYING:
        status, label = "playing", _("Playing")
    else:
        status, label = match.status, match.get_status_display()
    return TableLine(
        number=match.index + 1,
        status=status,
        status_label=label,
        url=reverse("games:game", args=[game.pk]) if game is not None else None,
        game_number=game.number + 1 if game is not None else None,
        seats=seats,
        adjudicated=match.adjudicated,
        overridden=match.overridden,
        viewer_plays=viewer in match.players,
        player_ids=tuple(match.players),
    )


def round_lines(tournament: Tournament, viewer: int | None) -> list[RoundLine]:
    """The rounds being played or played, newest first (a pairing the organiser has not
    confirmed is not public)."""
    rounds = list(tournament.round_set.exclude(status=Round.Status.PROPOSED).order_by("-number"))
    latest_game = Game.objects.filter(table=OuterRef("table")).order_by("-number").values("pk")[:1]
    matches = list(
        Match.objects.filter(round__in=rounds)
        .exclude(status=Match.Status.DROPPED)
        .select_related("table")
        .annotate(game_id=Subquery(latest_game))
        .order_by("index")
    )
    games = Game.objects.in_bulk([m.game_id for m in matches if m.game_id])
    ids = [p for m in matches for p in m.players] + [p for r in rounds for p in r.byes]
    names = _names(ids)
    lines = []
    for round_ in rounds:
        tables = tuple(
            _table_line(m, games.get(m.game_id), names, viewer)
            for m in matches
            if m.round_id == round_.pk
        )
        lines.append(
            RoundLine(
                number=round_.number,
                status=round_.status,
                status_label=round_.get_status_display(),
                deadline=round_.deadline,
                tables=tables,
                byes=tuple(names.get(p, "?") for p in round_.byes),
            )
        )
    return lines


def standing_lines(tournament: Tournament, viewer: int | None) -> list[StandingLine]:
    rows = tournament.standings or []
    names = _names([row["player"] for row in rows])
    return [
        StandingLine(
            rank=row["rank"],
            name=names.get(row["player"], "?"),
            match_points=row["match_points"],
            game_score=row["game_score"],
            wins=row["wins"],
            head_to_head=row["head_to_head"],
            opponents_score=row["opponents_score"],
            played=row["played"],
            byes=row["byes"],
            withdrawn=row.get("withdrawn", False),
            is_viewer=row["player"] == viewer,
            player_id=row["player"],
        )
        for row in rows
    ]


def player_lines(tournament: Tournament) -> list[PlayerLine]:
    registrations = list(tournament.registrations.select_related("user"))
    ratings = _rating_texts([r.user_id for r in registrations], tournament.game_type)
    lines = [
        PlayerLine(
            user_id=r.user_id,
            name=r.user.public_name,
            rating=ratings[r.user_id],
            withdrawn=r.status == Registration.Status.WITHDRAWN,
        )
        for r in registrations
    ]
    return sorted(lines, key=lambda line: (line.withdrawn, line.name.lower()))


def bracket_rounds(tournament: Tournament) -> list[list[list[str]]]:
    """A knockout's bracket as names: rounds of tables of slot labels (a player, or where
    the slot's player comes from)."""
    bracket = pairing.bracket_of(tournament)
    if bracket is None:
        return []
    names = _names(list(tournament.seeding))
    played = {
        (m.round.number, m.index): m
        for m in Match.objects.filter(tournament=tournament).select_related("round")
    }
    rounds = []
    for r, tables in enumerate(bracket.rounds):
        drawn = []
        for t, table in enumerate(tables):
            match = played.get((r + 1, t))
            if match is not None and match.players:
                drawn.append([names.get(p, "?") for p in match.players])
                continue
            slots = []
            for slot in table.slots:
                if slot.player is not None:
                    slots.append(names.get(pairing.user_id(slot.player), "?"))
                else:
                    assert slot.source is not None  # a slot without its player has its source
                    source_round, source_table, place = slot.source
                    slots.append(
                        _("place %(place)d of round %(r)d table %(t)d")
                        % {"place": place + 1, "r": source_round + 1, "t": source_table + 1}
                    )
            drawn.append(slots)
        rounds.append(drawn)
    return rounds


@dataclass(frozen=True)
class LiveFacts:
    """The page's live part as nobody in particular sees it: read once, shared by every
    viewer (:func:`context_for` marks one viewer's own lines)."""

    tournament: Tournament
    players: list[PlayerLine]
    rounds: list[RoundLine]
    standings: list[StandingLine]
    bracket: list[list[list[str]]]

    @cached_property
    def involved(self) -> frozenset[int]:
        """The users who see the part differently from a stranger: registered, ranked or
        seated at one of its tables."""
        return frozenset(
            [p.user_id for p in self.players]
            + [row.player_id for row in self.standings if row.player_id is not None]
            + [pid for r in self.rounds for t in r.tables for pid in t.player_ids]
        )


def live_facts(tournament: Tournament) -> LiveFacts:
    return LiveFacts(
        tournament=tournament,
        players=player_lines(tournament),
        rounds=round_lines(tournament, None),
        standings=standing_lines(tournament, None),
        bracket=bracket_rounds(tournament),
    )


def context_for(facts: LiveFacts, viewer_id: int | None, logged_in: bool) -> dict[str, Any]:
    """The live part's context for a viewer: ``viewer_id`` None for anyone who is not
    involved (:attr:`LiveFacts.involved`), who sees only whether they may register."""
    tournament = facts.tournament
    registered = next((p for p in facts.players if p.user_id == viewer_id), None)
    rounds, standings = facts.rounds, facts.standings
    if viewer_id is not None:
        rounds = [
            replace(
                r,
                tables=tuple(replace(t, viewer_plays=viewer_id in t.player_ids) for t in r.tables),
            )
            for r in rounds
        ]
        standings = [replace(row, is_viewer=row.player_id == viewer_id) for row in standings]
    return {
        "tournament": tournament,
        "players": facts.players,
        "rounds": rounds,
        "standings": standings,
        "bracket": facts.bracket,
        "viewer_registered": registered is not None and not registered.withdrawn,
        "can_register": tournament.registration_open and logged_in,
    }


def live_context(tournament: Tournament, viewer: Any) -> dict[str, Any]:
    """The page's live part for ``viewer``: everything but the rules."""
    viewer_id = viewer_id_of(viewer)
    return context_for(live_facts(tournament), viewer_id, viewer_id is not None)


def page_context(tournament: Tournament, viewer: Any) -> dict[str, Any]:
    return {**live_context(tournament, viewer), "rules": rules_summary(tournament)}


def _language_of(viewer: Any) -> str:
    from django.conf import settings

    # The player's saved language; else the socket's (remi_site/socket_locale.py).
    return (
        getattr(viewer, "preferred_language", "")
        or translation.get_language()
        or settings.LANGUAGE_CODE
    )


def render_live(tournament_id: int, viewer: Any) -> str:
    """One viewer's live part as an out-of-band swap ("" if it is gone), as their page's
    socket is sent it (``tournaments.consumers`` shares it between viewers alike)."""
    tournament = visible(tournament_id)
    if tournament is None:
        return ""
    with translation.override(_language_of(viewer)):
        context = {**live_context(tournament, viewer), "oob": True}
        return render_to_string("tournaments/detail.html#live", context)


def read_live(tournament_id: int) -> LiveFacts | None:
    """What the page's sockets show, read once for all of them (None: gone)."""
    tournament = visible(tournament_id)
    return live_facts(tournament) if tournament is not None else None


def render_live_for(facts: LiveFacts, viewer_id: int | None, logged_in: bool) -> str:
    """The live part as an out-of-band swap, in the active language and time zone."""
    context = {**context_for(facts, viewer_id, logged_in), "oob": True}
    return render_to_string("tournaments/detail.html#live", context)
