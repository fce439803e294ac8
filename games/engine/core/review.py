"""The review of a finished game: for each turn of each seat, what it played against the best
play its game's own exact planner finds, from the position that seat saw.

Shared by every game: the walk over the move history, the turns, the time limit, the flags
and the per-seat summary live here and ask only the game's :class:`Reviewer` (its
``GameEngine.reviewer()``), never a game's name.  A reviewer reads a seat's ``player_view``
and nothing else, so a best play can only use what that seat could see: its own rack or hand,
the public table, the discards.  The same function answers a hint during play.

Figures (see docs/review.md):

* a turn's ``played`` and ``best`` are :class:`Measure` s: the tiles or cards laid from the
  rack or hand onto the table in that turn, and their points;
* ``missed`` is what the best play would have laid beyond what was laid (never below zero);
* a seat's ``accuracy`` is the share, in percent, of the pieces the best plays would have
  laid that the seat did lay, summed over its turns (100 when no turn could lay anything).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .budget import OutOfTime, Stop, deadline

JSON = dict[str, Any]

# Review format, stored with each review: bump it when a figure changes meaning.
REVIEW_VERSION = 1

# Kinds of best play (codes; the presentation words them).
FIRST_MELD = "first_meld"  # the seat had not opened: the best play opens
REARRANGE = "rearrange"  # the best play moves tiles of the table's melds to other melds
LAY_OFF = "lay_off"  # the best play only adds to melds on the table
MELD = "meld"  # new melds (and maybe additions)
NOTHING = "nothing"  # nothing can be laid
PLAYED = "played"  # the play made laid more than any plan found: it stands as the best


@dataclass(frozen=True, slots=True)
class Measure:
    """Tiles or cards laid onto the table, and their points (each game's own scale)."""

    pieces: int = 0
    points: int = 0

    def __sub__(self, other: Measure) -> Measure:
        return Measure(self.pieces - other.pieces, self.points - other.points)

    def key(self) -> tuple[int, int]:
        return (self.pieces, self.points)

    def to_dict(self) -> JSON:
        return {"pieces": self.pieces, "points": self.points}


@dataclass(frozen=True, slots=True)
class BestPlay:
    """A play from one position: what it lays (``measure``), the actions in the game's
    notation, the rack or hand codes it places (to highlight), its kind, and whether the
    planner proved it best (``exact``) or it is the best found within the time limit."""

    measure: Measure
    actions: tuple[str, ...] = ()
    placed: tuple[str, ...] = ()
    kind: str = NOTHING
    exact: bool = True
    # What the planner says about the play beyond its measure (a first meld's points).
    params: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> JSON:
        return {
            "measure": self.measure.to_dict(),
            "actions": list(self.actions),
            "placed": list(self.placed),
            "kind": self.kind,
            "exact": self.exact,
            "params": dict(self.params),
        }


class Reviewer(ABC):
    """What a game tells the review, all from one seat's ``player_view`` (JSON)."""

    # "tiles" or "cards": what a measure's pieces are (the presentation words it).
    unit: ClassVar[str]

    @abstractmethod
    def decides(self, view: JSON) -> bool:
        """Whether the view's seat is about to choose what to lay (its draw done): the
        position a turn is judged from."""

    @abstractmethod
    def table(self, view: JSON) -> Measure:
        """What lies on the public table (every seat's view shows the same)."""

    @abstractmethod
    def position(self, view: JSON) -> JSON:
        """The position as the seat saw it, in the game's notation: ``rack`` (its own tiles or
        cards), ``table`` (the melds) and ``discards`` (the public discard row or pile)."""

    @abstractmethod
    def best(self, view: JSON, stop: Stop) -> BestPlay:
        """The best play by the game's objective from the position ``view`` shows; raises
        ``OutOfTime`` when ``stop`` says so before the planner is done (a planner that can
        stop with the best it found returns it with ``exact=False`` instead)."""

    def fallback(self, view: JSON, stop: Stop) -> BestPlay | None:
        """A cheaper plan, tried when :meth:`best` ran out of time (None: none)."""
        return None


@dataclass(frozen=True, slots=True)
class TurnReview:
    seat: int
    step: int  # moves made before the position (the replay's step that shows it)
    turn_number: int
    position: JSON
    played: Measure
    played_actions: tuple[str, ...]
    best: BestPlay
    seconds: float  # the clock's time spent judging it

    @property
    def missed(self) -> Measure:
        gap = self.best.measure - self.played
        return Measure(max(0, gap.pieces), max(0, gap.points))

    @property
    def flag(self) -> str | None:
        """The kind of what was missed, when the turn left something on the rack that the
        best play would have laid; None otherwise."""
        return self.best.kind if self.missed.pieces > 0 else None

    def to_dict(self) -> JSON:
        return {
            "seat": self.seat,
            "step": self.step,
            "turn_number": self.turn_number,
            "position": self.position,
            "played": self.played.to_dict(),
            "played_actions": list(self.played_actions),
            "best": self.best.to_dict(),
            "missed": self.missed.to_dict(),
            "flag": self.flag,
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    turns: int
    laid: Measure  # what the seat laid, each turn counted up to that turn's best
    best: Measure  # what the best plays would have laid
    flagged: int
    inexact: int  # turns judged by a best-found play (the time limit ran out)

    @property
    def accuracy(self) -> int:
        if self.best.pieces <= 0:
            return 100
        return round(100 * self.laid.pieces / self.best.pieces)

    def to_dict(self) -> JSON:
        return {
            "seat": self.seat,
            "turns": self.turns,
            "laid": self.laid.to_dict(),
            "best": self.best.to_dict(),
            "missed_points": self.best.points - self.laid.points,
            "flagged": self.flagged,
            "inexact": self.inexact,
            "accuracy": self.accuracy,
        }


@dataclass(frozen=True, slots=True)
class Review:
    game: str
    unit: str
    seats: int
    turns: tuple[TurnReview, ...]
    limit: float

    def summary(self) -> list[SeatSummary]:
        return [summarise(seat, self.turns) for seat in range(self.seats)]

    def to_dict(self) -> JSON:
        return {
            "version": REVIEW_VERSION,
            "game": self.game,
            "unit": self.unit,
            "limit": self.limit,
            "turns": [t.to_dict() for t in self.turns],
            "summary": [s.to_dict() for s in self.summary()],
        }


def summarise(seat: int, turns: Sequence[TurnReview]) -> SeatSummary:
    mine = [t for t in turns if t.seat == seat]
    laid = Measure()
    best = Measure()
    for turn in mine:
        # A play can lay more than a best found within the time limit; counted up to the
        # best, so a seat's figure never passes 100.
        counted = turn.played if turn.played.key() <= turn.best.measure.key() else turn.best.measure
        laid = Measure(laid.pieces + counted.pieces, laid.points + counted.points)
        best = Measure(
            best.pieces + turn.best.measure.pieces, best.points + turn.best.measure.points
        )
    return SeatSummary(
        seat=seat,
        turns=len(mine),
        laid=laid,
        best=best,
        flagged=sum(t.flag is not None for t in mine),
        inexact=sum(not t.best.exact for t in mine),
    )


def judge(
    reviewer: Reviewer,
    view: JSON,
    clock: Callable[[], float],
    limit: float,
) -> BestPlay:
    """The best play from ``view`` within ``limit`` seconds of ``clock`` for the exact
    planner (and as long again for the fallback); raises ``OutOfTime`` when neither found a
    plan.  What a hint answers, and what the review compares each turn with."""
    try:
        return reviewer.best(view, deadline(clock, limit))
    except OutOfTime:
        found = reviewer.fallback(view, deadline(clock, limit))
        if found is None:
            raise
        return BestPlay(found.measure, found.actions, found.placed, found.kind, False, found.params)


@dataclass(slots=True)
class _OpenTurn:
    seat: int
    step: int
    turn_number: int
    view: JSON
    table: Measure
    actions: list[str] = field(default_factory=list)


def review_game(
    engine: Any,
    rules: Any,
    seats: Sequence[str],
    seed: str,
    moves: Sequence[tuple[int, str]],
    *,
    dealer: int | None,
    clock: Callable[[], float],
    limit: float,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Replay ``moves`` (``(seat, notation)``, the game's log) from the deal and judge every
    turn in which a seat chose what to lay.  ``clock`` and ``limit`` bound each position
    (see :func:`judge`); ``progress(done, total)`` hears how far the walk is."""
    state = engine.new_game(rules, list(seats), seed, dealer=dealer)
    return review_from(engine, state, moves, clock=clock, limit=limit, progress=progress)


def review_from(
    engine: Any,
    state: Any,
    moves: Sequence[tuple[int, str]],
    *,
    clock: Callable[[], float],
    limit: float,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """:func:`review_game` from any position ``state`` (a scenario's), ``moves`` on from it."""
    reviewer: Reviewer = engine.reviewer()
    seats = engine.ctx(state).seats
    open_turns: dict[int, _OpenTurn] = {}
    done: list[TurnReview] = []

    def close(turn: _OpenTurn, now: Any) -> None:
        after = reviewer.table(engine.player_view(now, turn.seat))
        started = clock()
        try:
            best = judge(reviewer, turn.view, clock, limit)
        except OutOfTime:
            best = BestPlay(Measure(), tuple(turn.actions), (), PLAYED, False)
        played = after - turn.table
        if played.key() > best.measure.key():
            # The play made beat the plan: a plan found within the time limit, or a kind of
            # play the planner does not search (Remi's Joly swaps).  It stands as the best.
            best = BestPlay(played, tuple(turn.actions), (), PLAYED, best.exact)
        done.append(
            TurnReview(
                seat=turn.seat,
                step=turn.step,
                turn_number=turn.turn_number,
                position=reviewer.position(turn.view),
                played=played,
                played_actions=tuple(turn.actions),
                best=best,
                seconds=clock() - started,
            )
        )

    total = len(moves)
    current: set[int] = set()  # seats whose open turn holds the position they decide in
    for step, (seat, notation) in enumerate(moves):
        turn_number = engine.ctx(state).turn_number
        if seat not in current and seat in engine.to_act(state):
            view = engine.player_view(state, seat)
            if reviewer.decides(view):
                # The turn's first decision, or a new one after the seat took back its draw
                # and drew again (its rack changed): the play is judged from the last.
                open_turns[seat] = _OpenTurn(seat, step, turn_number, view, reviewer.table(view))
                current.add(seat)
        state, _ = engine.apply(state, seat, notation)
        if seat in open_turns:
            open_turns[seat].actions.append(str(notation))
        still = engine.ctx(state).turn_number == turn_number and seat in engine.to_act(state)
        if not still or not reviewer.decides(engine.player_view(state, seat)):
            current.discard(seat)
        after_number = engine.ctx(state).turn_number
        for waiting in [t for t in open_turns.values() if t.turn_number != after_number]:
            close(waiting, state)
            del open_turns[waiting.seat]
        if progress is not None:
            progress(step + 1, total)
    for waiting in list(open_turns.values()):
        close(waiting, state)
    done.sort(key=lambda t: t.step)
    return Review(engine.key, reviewer.unit, len(seats), tuple(done), limit)
