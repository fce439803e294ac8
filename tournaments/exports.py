"""Standings and pairings as rows: CSV downloads for the organiser and the rows of the
admin's confirmation pages."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import Match, Round, Tournament
from tournaments.ratings import ratings_of
from tournaments.standings import COLUMNS


def _names(user_ids: list[int]) -> dict[int, str]:
    return {pk: u.public_name for pk, u in get_user_model().objects.in_bulk(user_ids).items()}


def pairing_rows(round_: Round) -> list[dict[str, Any]]:
    """Each table of a round: its number and its players in seat order with ratings."""
    matches = list(round_.matches.exclude(status=Match.Status.DROPPED).order_by("index"))
    ids = [p for m in matches for p in m.players]
    names = _names(ids)
    ratings = ratings_of(ids, round_.tournament.game_type)
    return [
        {
            "number": m.index + 1,
            "players": [
                (names.get(p, "?"), str(ratings[p].shown) if p in ratings else "1000?")
                for p in m.players
            ],
        }
        for m in matches
    ]


def result_rows(match: Match, result: Any) -> dict[str, Any]:
    """A match and a result of it (the match's own, or a proposal: a mapping with places and
    scores) as rows of name, place, score."""
    if isinstance(result, Mapping):
        places, scores = result.get("places"), result.get("scores")
    else:
        places, scores = result.places, result.scores
    names = _names(match.players)
    rows = [
        {
            "name": names.get(p, "?"),
            "place": places[i] if places else "",
            "score": scores[i] if scores else "",
        }
        for i, p in enumerate(match.players)
    ]
    return {"match": str(match), "rows": rows}


def _csv_response(filename: str) -> tuple[HttpResponse, Any]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response)


def standings_csv(tournament: Tournament) -> HttpResponse:
    response, out = _csv_response(f"{slugify(tournament.name) or 'tournament'}-standings.csv")
    rows = tournament.standings
    names = _names([row["player"] for row in rows])
    out.writerow([*COLUMNS, "name", "withdrawn"])
    for row in rows:
        out.writerow(
            [*(row[c] for c in COLUMNS), names.get(row["player"], "?"), row.get("withdrawn")]
        )
    return response


def pairings_csv(tournament: Tournament) -> HttpResponse:
    response, out = _csv_response(f"{slugify(tournament.name) or 'tournament'}-pairings.csv")
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("round")
        .order_by("round__number", "index")
    )
    names = _names([p for m in matches for p in m.players])
    out.writerow(["round", "table", "seat", "player_id", "name", "status", "place", "score"])
    for m in matches:
        for seat, player in enumerate(m.players):
            out.writerow(
                [
                    m.round.number,
                    m.index + 1,
                    seat + 1,
                    player,
                    names.get(player, "?"),
                    m.status,
                    m.places[seat] if m.places else "",
                    m.scores[seat] if m.scores else "",
                ]
            )
    for round_ in tournament.round_set.order_by("number"):
        for player in round_.byes:
            out.writerow([round_.number, "", "", player, names.get(player, "?"), _("bye"), "", ""])
    return response
