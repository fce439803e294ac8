"""Multiplayer ratings from a game's finishing order (pure: no Django).

A rating is openskill's Plackett-Luce belief about a player's skill: ``mu`` (the estimate)
and ``sigma`` (how unsure it is).  Players see ``mu`` on a familiar scale (1,000 for a new
player) and a provisional mark until they have played a few rated games, when ``sigma`` has
come down enough for the number to mean something.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, permutations, product

from openskill.models import PlackettLuce

# Shown rating = SCALE * mu: openskill's default mu of 25 reads as 1,000.
SCALE = 40
PROVISIONAL_GAMES = 5

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return round(SCALE * self.mu)


NEW_PLAYER = Skill(_MODEL.mu, _MODEL.sigma)


def places_from_scores(scores: Sequence[float]) -> list[int]:
    """Finishing places (1 = best) from game scores, higher scores better; equal scores
    share a place (standard competition ranking: 1, 2, 2, 4)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Every player's skill after one game in which they finished at ``places``.

    Tied players share: the update is the mean over every strict order the tie allows.
    openskill's own tie handling is not used because it can give a lone third place the
    same update as two players tied for first."""
    if len(skills) != len(places):
        raise ValueError("one place per player")
    if len(skills) < 2:
        raise ValueError("a rated game needs at least two players")
    orders = _strict_orders(places)
    totals = [[0.0, 0.0] for _ in skills]
    for ranks in orders:
        for total, new in zip(totals, _rate_strict(skills, ranks), strict=True):
            total[0] += new.mu
            total[1] += new.sigma
    return [Skill(mu / len(orders), sigma / len(orders)) for mu, sigma in totals]


def _rate_strict(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def _strict_orders(places: Sequence[int]) -> list[list[int]]:
    """Every ranking without ties that keeps ``places``' order between untied players (a
    table has at most four players, so at most 24)."""
    groups: dict[int, list[int]] = {}
    for player, place in enumerate(places):
        groups.setdefault(place, []).append(player)
    orders = []
    for arrangement in product(*(permutations(groups[p]) for p in sorted(groups))):
        ranks = [0] * len(places)
        for rank, player in enumerate(chain.from_iterable(arrangement), start=1):
            ranks[player] = rank
        orders.append(ranks)
    return orders
