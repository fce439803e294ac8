"""Standings with tiebreaks, from finished match results.

Players are ordered by, in turn:

1. **match points**: by finishing place at the table, ``StandingsRules.place_points`` per
   table size (default two points per player beaten: 2/0 at two seats, 4/2/0 at three,
   6/4/2/0 at four); players sharing a place share the points of the places they cover (a
   draw at two seats: 1 each); a bye is worth ``bye_points``;
2. **total game score** over all matches (higher first, or lower with
   ``higher_score_better=False``);
3. **wins**: matches finished alone in first place;
4. **head-to-head** among the players still level after 1-3: two points for each of them a
   player finished ahead of at a shared table, one for each shared place (computed once per
   level group);
5. **opponents' score** (Buchholz): the sum of the final match points of every opponent at
   every table played (an opponent met twice counts twice).

Players level on all five share a rank; the rows keep the order the players were given.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .tables import Player


@dataclass(frozen=True)
class MatchResult:
    """A finished match: ``players`` at the table, each one's finishing ``places`` (1 is
    best; equal numbers for a shared place) and game ``scores`` (the series totals)."""

    players: tuple[Player, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...]

    def __post_init__(self) -> None:
        if not len(self.players) == len(self.places) == len(self.scores) >= 2:
            raise ValueError("a match needs 2 or more players, each with a place and a score")


def _two_per_beaten(size: int) -> tuple[int, ...]:
    return tuple(2 * (size - 1 - i) for i in range(size))


@dataclass(frozen=True)
class StandingsRules:
    """Points by place for each table size, the bye's worth and the score's direction."""

    place_points: Mapping[int, tuple[float, ...]] = field(
        default_factory=lambda: {size: _two_per_beaten(size) for size in (2, 3, 4)}
    )
    bye_points: float = 2
    higher_score_better: bool = True


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    match_points: float
    game_score: float
    wins: int
    head_to_head: float
    opponents_score: float
    played: int
    byes: int


def match_points(result: MatchResult, rules: StandingsRules) -> list[float]:
    """Each seat's points for one match, shared places sharing the places' points."""
    table = rules.place_points[len(result.players)]
    points = []
    for place in result.places:
        better = sum(p < place for p in result.places)
        level = sum(p == place for p in result.places)
        points.append(sum(table[better : better + level]) / level)
    return points


def standings(
    results: Iterable[MatchResult],
    rules: StandingsRules | None = None,
    *,
    players: Sequence[Player] = (),
    byes: Iterable[Player] = (),
) -> list[StandingRow]:
    """The ordered standings (module docstring). ``players`` lists everyone to show (those
    who have not played yet too) and sets the order among equals; players found only in
    ``results`` or ``byes`` follow in order of appearance. ``byes`` lists one entry per bye."""
    rules = rules or StandingsRules()
    results = list(results)
    order: dict[Player, None] = dict.fromkeys(players)
    points: dict[Player, float] = defaultdict(float)
    score: dict[Player, float] = defaultdict(float)
    wins: dict[Player, int] = defaultdict(int)
    played: dict[Player, int] = defaultdict(int)
    bye_count: dict[Player, int] = defaultdict(int)
    for result in results:
        for player, got, place, total in zip(
            result.players, match_points(result, rules), result.places, result.scores, strict=True
        ):
            order.setdefault(player)
            points[player] += got
            score[player] += total
            played[player] += 1
            wins[player] += place == 1 and result.places.count(1) == 1
    for player in byes:
        order.setdefault(player)
        points[player] += rules.bye_points
        bye_count[player] += 1
    opponents = {
        p: sum(points[o] for r in results if p in r.players for o in r.players if o != p)
        for p in order
    }
    sign = 1 if rules.higher_score_better else -1

    def first_three(p: Player) -> tuple[float, float, int]:
        return (points[p], sign * score[p], wins[p])

    level_groups: dict[tuple[float, float, int], list[Player]] = defaultdict(list)
    for p in order:
        level_groups[first_three(p)].append(p)
    head = {}
    for group in level_groups.values():
        head.update(_head_to_head(group, results))

    def key(p: Player) -> tuple[float, ...]:
        return (*first_three(p), head[p], opponents[p])

    ranked = sorted(order, key=key, reverse=True)  # stable: equals keep the given order
    rows: list[StandingRow] = []
    for i, p in enumerate(ranked):
        rank = rows[-1].rank if rows and key(ranked[i - 1]) == key(p) else i + 1
        rows.append(
            StandingRow(
                rank=rank,
                player=p,
                match_points=points[p],
                game_score=score[p],
                wins=wins[p],
                head_to_head=head[p],
                opponents_score=opponents[p],
                played=played[p],
                byes=bye_count[p],
            )
        )
    return rows


def _head_to_head(group: list[Player], results: list[MatchResult]) -> dict[Player, float]:
    members = set(group)
    earned = dict.fromkeys(group, 0.0)
    if len(group) < 2:
        return earned
    for result in results:
        seats = [(p, place) for p, place in zip(result.players, result.places, strict=True)]
        for (a, pa), (b, pb) in combinations(seats, 2):
            if a in members and b in members:
                if pa == pb:
                    earned[a] += 1
                    earned[b] += 1
                else:
                    earned[a if pa < pb else b] += 2
    return earned
