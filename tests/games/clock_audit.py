"""Reading back what the clocks did to a game, from its action log and its clock rows alone.

Each action belongs to a turn of its seat: the seat's clock row with the latest ``turn``
(the version the turn began at) below the action's version.  A turn the clock played more
than once shows as an action of the seat's *next* turn made before that turn's deadline, or
as a turn ended twice; a missed one as a turn whose deadline passed long ago and still runs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from games.models import Action, Game, Seat, SeatClock
from games.play.services import CLOCK_CAUSES

# Remi's actions that end a seat's turn (the prelude's "ready" ends the seat's part of it).
TURN_ENDS = frozenset({"discard", "ready"})


@dataclass
class Turn:
    clock: SeatClock
    actions: list[Action] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"game {self.clock.game_id} seat {self.clock.seat} turn {self.clock.turn}"

    @property
    def ends(self) -> list[Action]:
        return [a for a in self.actions if a.notation.split()[0] in TURN_ENDS]


def turns_of(game: Game) -> list[Turn]:
    turns = [Turn(clock) for clock in SeatClock.objects.filter(game=game).order_by("turn")]
    by_seat: dict[int, list[Turn]] = defaultdict(list)
    for turn in turns:
        by_seat[turn.clock.seat].append(turn)
    for action in Action.objects.filter(game=game).order_by("version"):
        earlier = [t for t in by_seat[action.seat] if t.clock.turn < action.version]
        if not earlier:
            raise AssertionError(f"{action} belongs to no turn of seat {action.seat}")
        earlier[-1].actions.append(action)
    return turns


def clock_only_problems(game: Game, *, overdue_before: datetime) -> list[str]:
    """What is wrong with the record of a game in which the clock made every move: each
    turn played once, by the clock, after its deadline, and counted once on the seat.  A
    turn still running whose deadline is before ``overdue_before`` was missed."""
    problems = []
    timed_out: Counter[int] = Counter()
    for turn in turns_of(game):
        clock, notations = turn.clock, [a.notation for a in turn.actions]
        # Counted on the turn's first move by the clock, so also for a turn half played.
        timed_out[clock.seat] += clock.timed_out
        if {a.cause for a in turn.actions} - CLOCK_CAUSES:
            problems.append(f"{turn.label}: moves the clock did not make: {notations}")
        if any(a.created_at < clock.deadline for a in turn.actions):
            problems.append(f"{turn.label}: played before its deadline {clock.deadline}")
        if clock.ended_at is None:
            if turn.ends:
                problems.append(f"{turn.label}: ended but its clock runs: {notations}")
            if clock.deadline < overdue_before:
                problems.append(f"{turn.label}: missed, due {clock.deadline}: {notations}")
            continue
        if not clock.timed_out or len(turn.ends) != 1:
            problems.append(f"{turn.label}: timed out {clock.timed_out}, played {notations}")
    counted = dict(
        Seat.objects.filter(table=game.table_id).values_list("position", "timeouts_in_row")
    )
    if counted != {seat: timed_out[seat] for seat in counted}:
        problems.append(f"game {game.pk}: timeouts counted {counted}, turns timed out {timed_out}")
    return problems
