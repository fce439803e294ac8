"""Build a position from notation, for scenario tests and bot puzzles.

    state = position(
        racks=["R1 R2 R3 K5 B5 Y5 R9", "K1 K2 K3"],
        table=["R5 R6 R7", "K9 Y9 J=B9"],
        stock="B7 B8",
        melded=[0, 1],
        turn=0,
    )

The stock is drawn from its end (the last tile written is drawn first).  Positions built here
need not hold all 106 tiles; they are for checking one rule at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import parse_tiles
from .actions import Group
from .melds import classify
from .rules import RUMMIKUB, Rules
from .state import State


def position(
    racks: Sequence[str],
    *,
    rules: Rules = RUMMIKUB,
    table: Sequence[str] = (),
    stock: str = "",
    melded: Sequence[int] = (),
    turn: int = 0,
    passes: int = 0,
    names: Sequence[str] | None = None,
    seed: str = "scenario",
) -> State:
    players = len(racks)
    names = list(names) if names else ["Ana", "Bogdan", "Cristi", "Dana"][:players]
    melds = []
    for text in table:
        group = Group.of(text)
        melds.append(classify(group.tiles, rules, group.designations()))
    return State(
        rules=rules,
        seats=names,
        seed=seed,
        stock=parse_tiles(stock),
        racks=[parse_tiles(r) for r in racks],
        table=melds,
        turn=turn,
        first_player=turn,
        turn_number=10,
        melded=[s in melded for s in range(players)],
        passes=passes,
    )
