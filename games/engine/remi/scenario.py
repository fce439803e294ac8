"""Build a position from notation, for scenario tests and bot puzzles.

    state = position(
        racks=["R1 R2 R3 K5 B5 Y5 R9", "K1 K2 K3"],
        wall="B7 B8",
        discards="Y9 K4",
        melds=[("R5 R6 R7", 1)],
        melded=[1],
        turn=0,
        phase="draw",
    )

Positions built here need not hold all 106 tiles; they are for checking one rule at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import parse_tile, parse_tiles
from .actions import Group
from .melds import classify
from .rules import REMI, Rules
from .state import DRAW, State, TableMeld
from .turns import _new_table_meld


def position(
    racks: Sequence[str],
    *,
    rules: Rules = REMI,
    wall: str = "",
    exposed: str | None = "K13",
    discards: str = "",
    discarded_by: Sequence[int] | None = None,
    melds: Sequence[tuple[str, int]] = (),
    melded: Sequence[int] = (),
    turn: int = 0,
    phase: str = DRAW,
    acted: bool = True,
    names: Sequence[str] | None = None,
    seed: str = "scenario",
) -> State:
    players = len(racks)
    names = list(names) if names else ["Ana", "Bogdan", "Cristi", "Dana"][:players]
    row = parse_tiles(discards)
    table: list[TableMeld] = []
    for text, owner in melds:
        group = Group.of(text)
        table.append(_new_table_meld(classify(group.tiles, rules, group.designations()), owner))
    turn_number = 10
    return State(
        rules=rules,
        seats=names,
        seed=seed,
        dealer=(turn - 1) % players,
        first_player=turn,
        wall=parse_tiles(wall),
        exposed=parse_tile(exposed) if exposed else None,
        racks=[parse_tiles(r) for r in racks],
        discards=row,
        discarded_by=list(discarded_by)
        if discarded_by is not None
        else [(turn - len(row) + i) % players for i in range(len(row))],
        melds=table,
        phase=phase,
        turn=turn,
        turn_number=turn_number,
        melded_on=[turn_number - 1 if s in melded else None for s in range(players)],
        acted=[acted] * players,
        ready=[True] * players,
        offers=[None] * players,
        requests=[None] * players,
        exchanged=[False] * players,
        declared=[False] * players,
        warned=[False] * players,
        exposed_tile=parse_tile(exposed) if exposed else None,
    )
