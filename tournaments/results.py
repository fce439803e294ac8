"""A match's result: read from its table's finished series, or decided by a declared rule
when the round's deadline passes first (adjudication).

Places come from the series totals, higher first, equal totals sharing a place — the same
reading of scores the ratings use (``rating_maths.places_from_scores``), for every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from games.engine import get_game
from games.models import Game, Table
from tournaments.models import Match
from tournaments.rating_maths import places_from_scores


@dataclass(frozen=True)
class Result:
    places: tuple[int, ...]
    scores: tuple[float, ...]


def series_totals(table: Table) -> list[float]:
    """Each seat's total over the games of the series finished so far."""
    seats = table.seat_count
    games = (table.series or {}).get("games", [])
    return [float(sum(scores[i] for scores in games)) for i in range(seats)]


def finished_result(table: Table) -> Result:
    totals = series_totals(table)
    return Result(tuple(places_from_scores(totals)), tuple(totals))


def ranked_places(keys: Sequence[tuple[float, ...]]) -> tuple[int, ...]:
    """Places (1 best, equal keys share) from sort keys, larger better."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


# --- Adjudication ---------------------------------------------------------------------------

FORFEIT = "forfeit"
POSITION = "position"

RULE_LABELS = {
    FORFEIT: _(
        "Forfeit: the players whose move the game is waiting for (their clock ran out) "
        "finish below the others; each group in the order of the series totals so far."
    ),
    POSITION: _("The game's own scoring of the current position, as if it ended now."),
}


def rules_for(game_type: str) -> list[str]:
    """The adjudication rules the game allows, the usual one first.  Every game of the
    registry scores an unfinished position (``GameEngine.unfinished_scores``), so both."""
    get_game(game_type)  # an unknown game is refused here, not at confirmation
    return [FORFEIT, POSITION]


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def adjudicated_result(match: Match, rule: str) -> Result:
    """What ``rule`` makes of ``match``'s table as it stands."""
    table = match.seated_table
    totals = series_totals(table)
    game = current_game(table)
    playing = game if game is not None and game.status == Game.Status.PLAYING else None
    if rule == POSITION:
        engine = get_game(table.game_type)
        if playing is not None:
            extra = engine.unfinished_scores(engine.load(playing.state))
            totals = [t + float(e) for t, e in zip(totals, extra, strict=True)]
        return Result(tuple(places_from_scores(totals)), tuple(totals))
    if rule != FORFEIT:
        raise ValueError(f"unknown adjudication rule {rule!r}")
    owing = set(playing.to_act) if playing is not None else set()
    keys = [(0.0 if seat in owing else 1.0, total) for seat, total in enumerate(totals)]
    return Result(ranked_places(keys), tuple(totals))


def forfeit_result(match: Match, forfeiting: int) -> Result:
    """``forfeiting`` (a user id) finishes last; the others by their series totals."""
    totals = series_totals(match.table) if match.table else [0.0] * len(match.players)
    keys = [
        (0.0 if p == forfeiting else 1.0, t) for p, t in zip(match.players, totals, strict=True)
    ]
    return Result(ranked_places(keys), tuple(totals))
