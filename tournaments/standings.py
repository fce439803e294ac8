"""A tournament's standings, from its finished matches and byes by ``formats.standings``.

The rows are kept on the tournament (``Tournament.standings``) and rewritten in the same
transaction as every result that changes them, so the pages read them without recomputing;
``refresh_standings`` is also what the organiser's "recompute" runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments import formats
from tournaments.models import Match, Registration, Tournament
from tournaments.models import Round as RoundRow

# The columns of a row, in the order the page shows the tiebreaks.
COLUMNS = (
    "rank",
    "player",
    "match_points",
    "game_score",
    "wins",
    "head_to_head",
    "opponents_score",
    "played",
    "byes",
)


def match_results(tournament: Tournament) -> list[formats.MatchResult]:
    return [
        formats.MatchResult(tuple(m.players), tuple(m.places), tuple(m.scores))
        for m in Match.objects.filter(tournament=tournament, status=Match.Status.FINISHED)
        .exclude(places=None)
        .order_by("round__number", "index")
        # A finished match has a result, which sets both.
        if m.places is not None and m.scores is not None
    ]


def all_byes(tournament: Tournament) -> list[int]:
    byes: list[int] = []
    for round_byes in (
        tournament.round_set.exclude(status=RoundRow.Status.PROPOSED)
        .order_by("number")
        .values_list("byes", flat=True)
    ):
        byes.extend(round_byes)
    return byes


def everyone(tournament: Tournament) -> list[int]:
    """Every registered player (withdrawn too: their results stand), seeds first."""
    registered = list(
        tournament.registrations.order_by("created_at", "pk").values_list("user_id", flat=True)
    )
    seeds = [p for p in tournament.seeding if p in set(registered)]
    return seeds + [p for p in registered if p not in set(seeds)]


def current_rows(
    tournament: Tournament, players: Sequence[int] | None = None
) -> list[formats.StandingRow]:
    """The standings now; ``players`` (default: everyone registered) lists who is shown and
    orders equals."""
    shown = list(players) if players is not None else everyone(tournament)
    rows = formats.standings(match_results(tournament), players=shown, byes=all_byes(tournament))
    if players is None:
        return rows
    wanted = set(shown)
    return [row for row in rows if row.player in wanted]


def row_dict(row: formats.StandingRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in COLUMNS}


def refresh_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Recompute and keep the standings (the caller's transaction holds the tournament)."""
    withdrawn = set(
        tournament.registrations.filter(status=Registration.Status.WITHDRAWN).values_list(
            "user_id", flat=True
        )
    )
    rows = []
    for row in current_rows(tournament):
        data = row_dict(row)
        data["withdrawn"] = row.player in withdrawn
        rows.append(data)
    tournament.standings = rows
    Tournament.objects.filter(pk=tournament.pk).update(standings=rows)
    return rows
