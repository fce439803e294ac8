"""Building and dealing the wall the way a Romanian table does.

The 106 tiles make 15 stacks of seven and one spare.  The spare is turned up (the *exposed*
tile); its number counts stacks from one end of the wall.  On that stack the exposed tile
replaces the top tile, which goes on top of the next stack (now eight tiles).  That stack goes
to the player after the dealer, who starts with 15 tiles; then each player in turn takes the
next stack until all have two.  Drawing continues with the stacks after the dealt ones,
wrapping round, and the six tiles under the exposed tile come last.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..tiles import Tile, full_set

STACKS = 15
STACK_HEIGHT = 7


@dataclass(frozen=True, slots=True)
class Deal:
    exposed: Tile
    racks: list[list[Tile]]  # racks[i] for the i-th player after the dealer (racks[0] plays first)
    wall: list[Tile]  # in draw order


def shuffled_tiles(rng: random.Random) -> list[Tile]:
    tiles = full_set()
    rng.shuffle(tiles)
    return tiles


def deal(tiles: list[Tile], players: int) -> Deal:
    """Deal a shuffled set of 106 tiles whose last tile (the spare) is numbered."""
    spare = tiles[-1]
    if spare.is_joker:
        raise ValueError("the spare tile must be numbered; reshuffle first")
    # A stack's top is its first element.
    stacks = [list(tiles[i * STACK_HEIGHT : (i + 1) * STACK_HEIGHT]) for i in range(STACKS)]
    marked = spare.number - 1  # counted from one end of the wall, starting at one
    lifted = stacks[marked].pop(0)
    following = (marked + 1) % STACKS
    stacks[following].insert(0, lifted)
    racks: list[list[Tile]] = [[] for _ in range(players)]
    for k in range(2 * players):
        racks[k % players].extend(stacks[(following + k) % STACKS])
    wall: list[Tile] = []
    for k in range(2 * players, STACKS - 1):
        wall.extend(stacks[(following + k) % STACKS])
    wall.extend(stacks[marked])  # the six under the exposed tile
    return Deal(spare, racks, wall)
