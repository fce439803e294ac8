"""The next round of a tournament, from what the database holds, by the pure formats.

Players are user ids.  A round robin's schedule is searched for once, when the field is
fixed, and kept (``Tournament.schedule``); a knockout rebuilds its bracket from the field as
it stood at the start (``Tournament.seeding``), so every round comes from one schedule;
Swiss pairs each round afresh from the standings and the tables played so far.  Withdrawn
players are left out: a table of a schedule that loses players plays with those left, and a
player left alone sits the round out.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from tournaments import formats
from tournaments.models import Match, Registration, Tournament
from tournaments.models import Round as RoundRow
from tournaments.ratings import ratings_of
from tournaments.standings import current_rows


@dataclass(frozen=True)
class Pairing:
    """What a round will be: tables of user ids in seat order, and who sits it out.  A
    table of fewer than two players is a walkover: nobody plays, its players sit out."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def user_id(player: Hashable) -> int:
    """A player as the formats give it back: the user id this module gave them (the formats
    type a player as any hashable value, which they only compare and hand back)."""
    return cast(int, player)


def user_ids(players: Iterable[Hashable]) -> tuple[int, ...]:
    return tuple(user_id(p) for p in players)


def active_players(tournament: Tournament) -> list[int]:
    """User ids still playing, in registration order."""
    return list(
        tournament.registrations.filter(status=Registration.Status.ACTIVE)
        .order_by("created_at", "pk")
        .values_list("user_id", flat=True)
    )


def seeded(tournament: Tournament, players: Sequence[int]) -> list[int]:
    """``players`` best rated first in the tournament's game (registration order among
    equals and unrated players)."""
    ratings = ratings_of(list(players), tournament.game_type)
    return sorted(players, key=lambda p: -(ratings[p].mu if p in ratings else 0.0))


def round_count(tournament: Tournament) -> int:
    """How many rounds the tournament has (0 before its field is fixed, but for a Swiss,
    whose count the organiser sets).  Round robin and knockout count theirs once, when the
    field is fixed (``scheduled_rounds``), and keep the number in ``rounds``."""
    return tournament.rounds or 0


def scheduled_rounds(tournament: Tournament) -> int:
    """The rounds the format needs for the fixed field (a Swiss: as many as set)."""
    seeds = tournament.seeding
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds or 0
    if len(seeds) < 2:
        return 0
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return len(round_robin_schedule(tournament))
    return len(_bracket(tournament).rounds)


def round_robin_schedule(tournament: Tournament) -> list[formats.Round]:
    """The round robin's schedule for the fixed field: the one kept on the tournament, or
    (the first time) searched for and kept (the caller saves ``schedule``)."""
    if not tournament.schedule:
        searched = formats.round_robin(tournament.seeding, tournament.seat_count)
        tournament.schedule = [
            {"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in searched
        ]
    return [
        formats.Round(tuple(tuple(t) for t in r["tables"]), tuple(r["byes"]))
        for r in tournament.schedule
    ]


def next_pairing(tournament: Tournament, number: int) -> Pairing:
    """Round ``number`` (from 1) of ``tournament`` for the players still in it."""
    active = set(active_players(tournament))
    if tournament.format == Tournament.Format.SWISS:
        return _swiss(tournament, [p for p in tournament.seeding if p in active])
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = round_robin_schedule(tournament)[number - 1]
        return _without_withdrawn(planned.tables, planned.byes, active)
    return _knockout(tournament, number, active)


def _without_withdrawn(
    tables: Sequence[Sequence[Hashable]], byes: Sequence[Hashable], active: set[int]
) -> Pairing:
    """The tables (every one, so a knockout's table numbers hold) with only the players
    still in; one left short of two players is a walkover (``services`` seats nobody)."""
    kept = tuple(user_ids(p for p in table if p in active) for table in tables)
    return Pairing(kept, user_ids(p for p in byes if p in active))


def _history(tournament: Tournament) -> list[formats.Round]:
    rounds = []
    for round_ in tournament.round_set.exclude(status=RoundRow.Status.PROPOSED).order_by("number"):
        played = round_.matches.exclude(status=Match.Status.DROPPED).order_by("index")
        rounds.append(
            formats.Round(tables=tuple(tuple(m.players) for m in played), byes=tuple(round_.byes))
        )
    return rounds


def _swiss(tournament: Tournament, players: list[int]) -> Pairing:
    rows = current_rows(tournament, players)
    order = [row.player for row in rows]
    scores = {row.player: row.match_points for row in rows}
    paired = formats.swiss_round(order, scores, _history(tournament), tournament.seat_count)
    return Pairing(tuple(user_ids(t) for t in paired.tables), user_ids(paired.byes))


def _bracket(tournament: Tournament) -> formats.Bracket:
    seeds = list(tournament.seeding)
    # The seeding is already best first; falling numbers keep that order.
    return formats.knockout(
        seeds,
        [float(-i) for i in range(len(seeds))],
        tournament.seat_count,
        advance=tournament.advance,
    )


def finishing_order(match: Match, seeding: Sequence[int] = ()) -> list[int]:
    """A match's players best first, by the knockout's declared tiebreak: place, then game
    score (the series total; an overridden result may share a place at different scores),
    then seed (``seeding``, best first: the rating order the field was fixed in). Seat
    order never decides. A walkover (no result) keeps the seed order too."""
    seed = {player: i for i, player in enumerate(seeding)}
    seats = range(len(match.players))

    def key(i: int) -> tuple[float, float, int]:
        player = match.players[i]
        place = match.places[i] if match.places is not None else 0
        score = match.scores[i] if match.scores is not None else 0.0
        return (place, -score, seed.get(player, len(seed)))

    return [match.players[i] for i in sorted(seats, key=key)]


def _knockout(tournament: Tournament, number: int, active: set[int]) -> Pairing:
    bracket = _bracket(tournament)
    earlier = {
        (m.round.number, m.index): m
        for m in Match.objects.filter(tournament=tournament, round__number__lt=number)
        .select_related("round")
        .exclude(round__status=RoundRow.Status.PROPOSED)
    }
    tables = []
    for table in bracket.rounds[number - 1]:
        seated: list[Hashable] = []
        for slot in table.slots:
            if slot.player is not None:
                seated.append(slot.player)
                continue
            assert slot.source is not None  # a slot without its player has its source
            source_round, source_table, place = slot.source
            feeder = earlier.get((source_round + 1, source_table))
            order = finishing_order(feeder, tournament.seeding) if feeder else []
            if place < len(order):
                seated.append(order[place])
        tables.append(seated)
    byes = bracket.byes if number == 1 else ()
    return _without_withdrawn(tables, byes, active)


def bracket_of(tournament: Tournament) -> formats.Bracket | None:
    """The knockout bracket, once the field is fixed."""
    if tournament.format != Tournament.Format.KNOCKOUT or len(tournament.seeding) < 2:
        return None
    return _bracket(tournament)
