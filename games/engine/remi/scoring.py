"""Scoring one game (rule 15 of the issue; source: 'Scoring')."""

from __future__ import annotations

from .melds import rack_value
from .rules import NO_WINNER_RACK, UNMELDED_FLAT, Rules
from .state import Result, State, TableMeld


def melded_points(melds: list[TableMeld], seat: int, rules: Rules) -> int:
    """Value of the tiles ``seat`` laid on the table: each numbered tile its meld value, each
    Joly the seat first melded worth ``melded_joly_value``; a Joly re-melded by someone else
    is worth nothing to them (they score the tiles they gave for it instead)."""
    total = 0
    for table_meld in melds:
        values = table_meld.meld.slot_values()
        for tile, owner, credit, value in zip(
            table_meld.meld.tiles, table_meld.owners, table_meld.credits, values, strict=True
        ):
            if tile.is_joker:
                if credit == seat:
                    total += rules.melded_joly_value
            elif owner == seat:
                total += value
    return total


def rack_points(state: State, seat: int) -> int:
    return sum(rack_value(t, state.rules) for t in state.racks[seat])


def _pays_unmelded_penalty(state: State, seat: int, winner: int | None) -> bool:
    if state.melded_on[seat] is not None:
        return False
    # With no winner the source has everyone score "the tiles they have put down less the
    # tiles they have left": by default a player who never melded just loses the rack.
    return winner is not None or state.rules.no_winner_unmelded != NO_WINNER_RACK


def score_game(state: State, winner: int | None, joly_out: bool) -> Result:
    rules = state.rules
    all_at_once = winner is not None and state.melded_on[winner] == state.turn_number
    scores = []
    breakdown = []
    for seat in range(state.players):
        melded = melded_points(state.melds, seat, rules)
        rack = rack_points(state, seat)
        parts = {"melded": melded, "rack": -rack}
        if seat == winner:
            parts = {"melded": melded, "win": rules.winner_bonus}
            if all_at_once:
                parts["all_at_once"] = rules.all_at_once_bonus
        elif _pays_unmelded_penalty(state, seat, winner):
            if rules.unmelded_penalty == UNMELDED_FLAT:
                parts = {"never_melded": -rules.unmelded_flat}
            else:
                parts = {"never_melded": -rules.unmelded_rack_base, "rack": -rack}
        if state.declared[seat]:
            parts["twin"] = rules.twin_bonus
        total = sum(parts.values())
        if seat == winner and joly_out and rules.joly_discard_doubles:
            parts["doubled"] = total
            total *= 2
        parts["total"] = total
        scores.append(total)
        breakdown.append(parts)
    return Result(
        winner=winner,
        reason="out" if winner is not None else "wall",
        scores=tuple(scores),
        breakdown=tuple(breakdown),
        joly_out=joly_out,
        all_at_once=all_at_once,
    )
