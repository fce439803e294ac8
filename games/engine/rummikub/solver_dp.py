"""The solver's dynamic programme over the numbers 1..13 (after van Rijn, Takes and Vis,
"The complexity of Rummikub problems", 2015), extended with jokers and a first-meld total.

Tiles are counted, not named: ``table[c][n]`` copies of colour ``c`` number ``n`` must end up
in melds, ``rack[c][n]`` more may.  Walking up the numbers, the state records for every
colour how many of its runs are open with length 1, 2 and 3-or-more (a run of 3+ may stop
or go on, shorter ones must go on), how many jokers are spent, and, for a first meld, the
melds' total so far (capped at the minimum: more is no better).  At each number every copy
in use either extends an open run, starts a run, or joins a set of that number; the sets
of a number are checked as a whole once all four colours are decided.  Nothing limits how
many runs of a colour are open at once except the copies (real and jokers) there are, so
every arrangement of the tiles into melds is some path through the states: the programme
is exact.

The states are searched depth first with every answer kept (``_Search``), walking up and
down the numbers in turn (``run``).  A state is packed into one integer (7 bits a colour,
then jokers, set tally and total), so the kept answers are a plain ``dict``; options are
always tried in the same order and only a strictly better plan replaces the best so far,
so ties are always broken the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, NamedTuple

from ..core.budget import OutOfTime, Stop, never
from .solver_sets import sets_feasible

COLOURS = 4
NUMBERS = range(1, 14)
# A cell's lock code: locked runs starting there, plus LOCK_ENDS times those ending there.
LOCK_ENDS = 4

_COLOUR_BITS = 7
_COLOUR_MASK = (1 << _COLOUR_BITS) - 1
_JOKER_SHIFT = COLOURS * _COLOUR_BITS  # 28
_TALLY_SHIFT = _JOKER_SHIFT + 2  # set tally: 5 * pairs + singles, < 25
_TALLY_BITS = 5
_TOTAL_SHIFT = _TALLY_SHIFT + _TALLY_BITS
_TALLY_MASK = ((1 << _TALLY_BITS) - 1) << _TALLY_SHIFT


def _code(ones: int, twos: int, longs: int) -> int:
    return ones | twos << 2 | longs << 4


def _decode(code: int) -> tuple[int, int, int]:
    return code & 3, code >> 2 & 3, code >> 4


def _dominating(code: int) -> tuple[int, ...]:
    """The codes one step better than ``code``: with one more open run of 3+, or one open
    run longer.  Whatever the rest of a plan does from ``code``, it can do from these,
    the better run taking the place of its partner (a run of 3+ may stop anywhere) and
    an extra run of 3+ going on where the plan starts a run, or stopping."""
    ones, twos, longs = _decode(code)
    found = []
    if longs < 3:
        found.append(_code(ones, twos, longs + 1))
        if ones:
            found.append(_code(ones - 1, twos, longs + 1))
        if twos:
            found.append(_code(ones, twos - 1, longs + 1))
    if ones and twos < 3:
        found.append(_code(ones - 1, twos + 1, longs))
    return tuple(found)


_DOMINATING = [_dominating(code) for code in range(1 << _COLOUR_BITS)]

# The jokers a number's sets may take, most first, by set tally (5 * pairs + singles).
_SET_JOKERS = [
    tuple(extra for extra in (2, 1, 0) if sets_feasible(*divmod(tally, 5), extra))
    for tally in range(25)
]
# For a set tally and the jokers left: the one number of jokers its sets can take, or
# _NO_WAY (none) or _SEVERAL (a choice to search).
_NO_WAY = -1
_SEVERAL = -2
_ONLY_SET_JOKERS = [
    [
        _NO_WAY if not fits else fits[0] if len(fits) == 1 else _SEVERAL
        for fits in ([extra for extra in _SET_JOKERS[tally] if extra <= left] for left in range(3))
    ]
    for tally in range(25)
]


class Step(NamedTuple):
    """What one colour does at one number: ``real`` copies used (``rack`` of them from the
    rack), ``jokers`` standing in that colour's runs, ``to_sets`` real copies given to the
    number's sets, ``go_on`` runs of 3+ that continue and ``start`` new runs.  Where a
    locked run begins, ``absorbed`` lists the open runs they take in (1 a run of length 1,
    2 of length 2, 3 of 3+), at most one each.  The search keeps a step as a plain tuple
    of these fields (see ``_options``) and makes a ``Step`` of the ones a plan takes."""

    real: int
    rack: int
    jokers: int
    to_sets: int
    go_on: int
    start: int
    absorbed: tuple[int, ...] = ()


# A step's fields as the search keeps them: a plain tuple of ints, which the garbage
# collector stops following (the solver keeps many; a full collection in a process with a
# large heap costs far more than a solve).
# (Final, so that the type checker reads ``step[_RACK]`` as the field's own type.)
_REAL: Final = 0
_RACK: Final = 1
_JOKERS: Final = 2
_TO_SETS: Final = 3
PlainStep = tuple[int, int, int, int, int, int, tuple[int, ...]]
# An option as the search reads it: state bits, jokers, half jokers charged, rack gain, and
# its bound for 0 to 4 half jokers left (see ``_Search``).
PreparedOption = tuple[int, ...]


@cache
def _options(
    code: int, table: int, rack: int, number: int, lock: int = 0
) -> tuple[tuple[int, int, PlainStep], ...]:
    """Every way one colour can use its copies of ``number``: (new state code, set tally
    increment, step).  Runs may start only where they can still reach length 3 (up to 11),
    so no run of length 1 or 2 is ever open past 13.  Two bits per count suffice: three
    runs of one colour and one length would need nine copies at three numbers in a row, and
    there are only six real ones and two jokers.

    ``lock`` marks a locked run (a table meld held together by its joker, whose tiles are
    not in the counts): ``lock % LOCK_ENDS`` of them begin here (each may take in one open
    run, which then needs nothing more), ``lock // LOCK_ENDS`` end here (from the next
    number on each is an open run of 3+ like any other)."""
    found: list[tuple[int, int, PlainStep]] = []
    takes: set[tuple[tuple[int, ...], int, int, int]] = {((), *_decode(code))}
    for _ in range(lock % LOCK_ENDS):
        takes |= {
            (
                tuple(sorted((*absorbed, kind))),
                ones - (kind == 1),
                twos - (kind == 2),
                longs - (kind == 3),
            )
            for absorbed, ones, twos, longs in takes
            for kind, have in ((1, ones), (2, twos), (3, longs))
            if have
        }
    ending = lock // LOCK_ENDS
    for absorbed, ones, twos, longs in sorted(takes):
        must = ones + twos
        for real in range(table, table + rack + 1):
            for to_sets in range(min(real, 2) + 1):
                for jokers in range(3):
                    in_runs = real - to_sets + jokers
                    for go_on in range(longs + 1):
                        start = in_runs - must - go_on
                        if start < 0 or (start and number > 11) or start > 3:
                            continue
                        if start and go_on < longs:
                            # Ending a run of 3+ while starting another is never better
                            # than going on with it: the open run can do all the new one
                            # could.
                            continue
                        if twos + go_on + ending > 3:
                            continue
                        step = (real, real - table, jokers, to_sets, go_on, start, absorbed)
                        tally = 5 if to_sets == 2 else to_sets
                        found.append((_code(start, ones, twos + go_on + ending), tally, step))
    # The search tries the options that place the most rack tiles first.
    found.sort(key=lambda o: (-o[2][_RACK], o[2][_JOKERS]))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Solution:
    score: int
    jokers_used: int
    steps: dict[tuple[int, int], Step]  # (number, colour) -> step
    set_jokers: dict[int, int]  # number -> jokers in that number's sets


_FAIL = -(1 << 60)
_HOPELESS = _FAIL // 2
# States each search may visit in the first round, before the per-colour bound is used.
# With the sets sub-steps skipped whenever there is nothing to choose, 500 rather than 1000
# visits a quarter fewer states on the bench's seeds 0-2 and 7-22% fewer on the slowest
# positions (the few that then take the bound sooner cost little more).
LOOSE_ROUND = 500
# The rounds with the bound: the first one's states, and how many times the round's budget
# the favoured search gets (the other gets that fraction of it; see ``run``).  Measured on
# other seeds than the bench's: 3 to 16 all help, more a little more, but the larger it is
# the more a wrong choice costs.
FIRST_TIGHT = 200
FAVOUR = 6


def run(
    table: list[list[int]],
    rack: list[list[int]],
    table_jokers: int,
    rack_jokers: int,
    weight: list[list[int]],
    joker_weight: int,
    minimum: int = 0,
    locks: tuple[tuple[int, int, int], ...] = (),
    stop: Stop = never,
) -> tuple[Solution | None, bool]:
    """The best score reachable, with the steps that reach it (``None`` when no arrangement
    uses every table tile and, with ``minimum``, reaches that first-meld total), and whether
    those steps walk the numbers downwards.  ``locks`` are locked runs (colour, first
    number, last number) whose tiles are not in the counts: each must end up inside one run.

    Runs read the same both ways, so the programme can walk up from 1 or down from 13.  A
    position is often hard one way and easy the other (the tiles that are hard to fit come
    early or late), so both searches take turns with a budget of states that grows by half
    each round, and the first to finish answers.  The first round in which one of them
    shows that not all the rack fits, the one that took fewer states to show it is
    favoured: ``FAVOUR`` times the budget, the other a ``FAVOUR``-th, since the states of
    the search that loses the race are wasted.  (Which one showed it first in turn says
    little: the other may have needed a fraction of the states had it had its turn.)
    Budgets count states, not time: the answer never depends on the machine.  ``stop``
    (see ``core.budget``) is asked before each round: a caller with a time limit gets
    ``OutOfTime`` rather than an answer that would depend on the machine."""
    # Locked runs are on the table too: rack tiles may fit next to them.
    present = [list(row) for row in table]
    for c, low, high in locks:
        for n in range(low, high + 1):
            present[c][n] += 1
    rack = _placeable(present, rack, table_jokers + rack_jokers)
    up = [[0] * 14 for _ in range(COLOURS)]
    down = [[0] * 14 for _ in range(COLOURS)]
    for c, low, high in locks:
        up[c][low] += 1
        up[c][high] += LOCK_ENDS
        down[c][14 - high] += 1
        down[c][14 - low] += LOCK_ENDS

    def flip(rows: list[list[int]]) -> list[list[int]]:
        return [[row[0], *row[:0:-1]] for row in rows]

    searches = [
        (
            _Search(
                table, rack, table_jokers, rack_jokers, weight, joker_weight, minimum, False, up
            ),
            False,
        ),
        (
            _Search(
                flip(table),
                flip(rack),
                table_jokers,
                rack_jokers,
                flip(weight),
                joker_weight,
                minimum,
                True,
                down,
            ),
            True,
        ),
    ]
    # What one search learns about the best score holds for the other: a demand one has
    # shown cannot be met is not asked again.
    need = searches[0][0].need
    # The per-colour bound costs more than it saves on most positions (its tables take
    # longer to fill than the search takes): the first round goes without it.
    tight = LOOSE_ROUND == 0
    budget = FIRST_TIGHT if tight else LOOSE_ROUND
    favoured: _Search | None = None
    while True:
        if stop():
            for search, _ in searches:
                search.release()  # its closures hold cycles: free them as a finished one does
            raise OutOfTime
        # Each round both searches get their turn before either hears what the other
        # found, so that both may show, each by itself, that not every rack tile fits:
        # the one that took fewer states to do so is favoured (see ``_Search.proved_at``).
        proofs: list[tuple[int, int]] = []
        for order, (search, downwards) in enumerate(searches):
            search.tight = tight
            share = budget
            if favoured is not None:
                share = budget * FAVOUR if search is favoured else budget // FAVOUR
            started = search.expanded
            if not tight:
                search.need = min(search.need, need)
            if search.advance(share):
                for done, _ in searches:
                    done.release()
                return search.result, downwards
            if search.proved_at is not None and search.proved_at >= started:
                proofs.append((search.proved_at - started, order))
                if not tight:
                    need = min(need, search.need)
                    if favoured is None:
                        favoured = search
        if proofs and favoured is None:
            favoured = searches[min(proofs)[1]][0]
        need = min(need, *(search.need for search, _ in searches))
        for search, _ in searches:
            search.need = need
        budget = budget * 3 // 2 if tight else FIRST_TIGHT
        tight = True


class _OutOfBudget(Exception):
    pass


class _Search:
    """One direction's depth-first search (branch and bound) over the programme's states.

    A state is given the score its future must reach to matter (``need``); a child is not
    visited when an upper bound on what it can reach says it would fall short: every rack
    tile still to come, or once ``tight`` is set, each colour solved on its own (see
    ``_colour_bounds``).  Each state's answer is kept: its exact best future, or when it
    fell short, an upper bound on it, which later visits with a lower ``need`` can still
    use.  The first pass asks for every placeable rack tile; when that fails, the search
    looks for the best plan, with each plan found raising the demand on the rest.  Options are tried
    placing the most rack tiles first, so the first complete plan is usually the best and
    the bound proves it at once.  The kept answers survive running out of budget, so a
    search resumed with a larger one does not start over.

    With the tight bound a state is also judged by the states that dominate it (see
    ``_dominating``): when one of those is known to fall short, so does this one.  And a
    number's sets sub-step is skipped when there is nothing to choose there (no copies go
    to sets, or their sets can take only one number of the jokers left), which the walk
    that reads the plan back knows."""

    def __init__(
        self,
        table: list[list[int]],
        rack: list[list[int]],
        table_jokers: int,
        rack_jokers: int,
        weight: list[list[int]],
        joker_weight: int,
        minimum: int,
        downwards: bool,
        locks: list[list[int]],
    ) -> None:
        self.result: Solution | None = None
        self.expanded = 0
        self.limit = 0
        # When the search showed, by itself, that not every rack tile fits (see ``run``).
        self.proved_at: int | None = None
        self.tight = False
        jokers = table_jokers + rack_jokers
        self.jokers = jokers
        # The numbers' face values, for the first-meld total (walking down, step n is 14 - n).
        face = [14 - n if downwards else n for n in range(15)]
        # The sub-steps: (number, colour) for a colour's copies, (number, -1) for the sets.
        order = [(n, c) for n in NUMBERS for c in (*range(COLOURS), -1)]
        last = len(order)
        # What the rack can still add from each sub-step on, at best: the cheap bound.
        ahead = [0] * (last + 1)
        ahead[last] = rack_jokers * joker_weight
        for i in range(last - 1, -1, -1):
            n, c = order[i]
            ahead[i] = ahead[i + 1] + (rack[c][n] * weight[c][n] if c >= 0 else 0)
        charges = set_charges(table, rack)
        moves = []
        for n, c in order:
            if c >= 0:
                moves.append(
                    (
                        c * _COLOUR_BITS,
                        table[c][n],
                        rack[c][n],
                        weight[c][n],
                        n,
                        locks[c][n],
                        charges[c][n],
                    )
                )
            else:
                moves.append((-1, 0, 0, 0, n, 0, (0, 0, 0)))
        offsets = [move[0] for move in moves]
        numbers = [move[4] for move in moves]
        # Keyed by state << 7 | sub-step (there are 65 sub-steps).
        low_bits = (1 << _JOKER_SHIFT) - 1

        def finish(key: int) -> int:
            for c in range(COLOURS):
                if (key >> (c * _COLOUR_BITS)) & 0b1111:  # runs of length 1 or 2 still open
                    return _FAIL
            spent = key >> _JOKER_SHIFT & 3
            if spent < table_jokers or (minimum and key >> _TOTAL_SHIFT < minimum):
                return _FAIL
            return (spent - table_jokers) * joker_weight

        alone, known_alone = _colour_bounds(table, rack, weight, charges, locks)
        spare_jokers = rack_jokers * joker_weight
        # Which number each colour's code has reached at a sub-step: colours already done
        # at this number look from the next one.
        reach = [[n + 1 if c < 0 or o < c else n for o in range(COLOURS)] for n, c in order]
        loose_others = [(ahead[i + 1],) * _SHARES for i in range(last)]

        # Bounds depend on the state only through the colours' codes, so states that share
        # the other colours' codes share them: kept by those codes << 7 | sub-step.
        shared_known: dict[int, tuple[int, ...]] = {}
        others_mask = [
            low_bits & ~(_COLOUR_MASK << (c * _COLOUR_BITS)) if c >= 0 else low_bits
            for _, c in order
        ]

        def shared(i: int, key: int, skip: int) -> tuple[int, ...]:
            """The best the colours but ``skip`` can add from sub-step ``i`` on, each on
            its own (see _colour_bounds), with 0 to 4 half jokers shared out among them the
            best way, plus every rack joker."""
            at = reach[i]
            total: tuple[int, ...] | None = None
            # Most colours gain nothing from jokers: their bounds simply add up.
            flat = spare_jokers
            for c in range(COLOURS):
                if c == skip:
                    continue
                code = key >> (c * _COLOUR_BITS) & _COLOUR_MASK
                values = known_alone.get((c * 16 + at[c]) * 64 + code) or alone(c, at[c], code)
                if values[0] == values[MAX_HALVES]:
                    flat += values[0]
                else:
                    total = values if total is None else _share(total, values)
            if total is None:
                return (flat,) * _SHARES
            t0, t1, t2, t3, t4 = total
            return (t0 + flat, t1 + flat, t2 + flat, t3 + flat, t4 + flat)

        # A colour's options at a sub-step depend only on its code there, so they are
        # prepared once per (code << 7 | sub-step): the bits each adds to the state (new
        # code, jokers, set tally), its jokers, the half jokers it is charged (its runs'
        # jokers, and its share of its sets' ones, see ``set_charges``), its rack gain, and
        # its bound for 0 to 4 half jokers left to the colour: the gain plus, when tight,
        # ``alone`` after it.  Plain
        # tuples of ints, so that the garbage collector has nothing to follow in them.
        loose_moves: dict[int, tuple[PreparedOption, ...]] = {}
        tight_moves: dict[int, tuple[PreparedOption, ...]] = {}
        steps_at: dict[int, tuple[PlainStep, ...]] = {}

        def prepare(at: int) -> tuple[PreparedOption, ...]:
            offset, t, r, w, number, lock, charge = moves[at & 127]
            prepared, steps_at[at] = _prepared(at >> 7, t, r, number, lock, offset, w, charge)
            loose_moves[at] = prepared
            return prepared

        def prepare_tight(at: int) -> tuple[PreparedOption, ...]:
            offset, _, _, _, number, _, _ = moves[at & 127]
            colour = offset // _COLOUR_BITS
            later = (colour * 16 + number + 1) * 64
            found = []
            for bits, used, halves, gain, *_ in loose_moves.get(at) or prepare(at):
                new = bits >> offset & _COLOUR_MASK
                m0, m1, m2, m3, m4 = known_alone.get(later + new) or alone(colour, number + 1, new)
                found.append(
                    (
                        bits,
                        used,
                        halves,
                        gain,
                        gain + m0,
                        gain + m1,
                        gain + m2,
                        gain + m3,
                        gain + m4,
                    )
                )
            prepared = tuple(found)
            tight_moves[at] = prepared
            return prepared

        set_jokers = _SET_JOKERS
        only_set_jokers = _ONLY_SET_JOKERS
        total_mask = ~(((1 << 64) - 1) << _TOTAL_SHIFT)
        # Each state's answer, packed in one int: its score (exact, or an upper bound when it
        # fell short) times 2, plus 1 when exact; for exact ones, what they chose: the
        # child's state << 10 plus the option's index (the sets' jokers at a sets sub-step).
        memo: dict[int, int] = {}
        choices: dict[int, int] = {}
        # Whether the next sub-step is a number's sets that may be skipped when there is
        # nothing to choose there (with a first-meld total to keep, the sets sub-step also
        # adds it up).
        skips_sets = [c == COLOURS - 1 and not minimum for _, c in order]
        # The colour whose code the step into sub-step i set (the last colour before it).
        decided_shift = [-1] + [
            ((c if c >= 0 else COLOURS) - 1) % COLOURS * _COLOUR_BITS for _, c in order[1:]
        ]
        dominance = not any(any(row) for row in locks)

        def search(i: int, key: int, need: int) -> int:
            if i == last:
                return finish(key)
            # A stuck state's score is near _FAIL plus small gains: never a plan.
            if need <= _HOPELESS:
                need = _HOPELESS + 1
            here = key << 7 | i
            known = memo.get(here)
            if known is not None and (known & 1 or known >> 1 < need):
                return known >> 1
            tight = self.tight
            if dominance and tight:
                shift = decided_shift[i]
                if shift >= 0:
                    code = key >> shift & _COLOUR_MASK
                    for better in _DOMINATING[code]:
                        found = memo.get((key ^ (code ^ better) << shift) << 7 | i)
                        if found is not None and found >> 1 < need:
                            # This state can do no better than one that falls short.
                            memo[here] = found & ~1
                            return found >> 1
            self.expanded += 1
            if self.expanded > self.limit:
                raise _OutOfBudget
            offset = offsets[i]
            sets_next = skips_sets[i]
            spent = key >> _JOKER_SHIFT & 3
            left = jokers - spent
            halves_left = 2 * left
            best = _FAIL
            choice = 0
            # Each child is judged here before it is visited: its colour's bound plus
            # the others', the jokers left shared out the best way.
            if tight:
                at = (key & others_mask[i]) << 7 | i
                others = shared_known.get(at)
                if others is None:
                    others = shared(i, key, offset // _COLOUR_BITS if offset >= 0 else -1)
                    shared_known[at] = others
            else:
                # Until the search proves hard, the bound is simply every rack tile to come.
                others = loose_others[i]
            if offset < 0:
                tally = key >> _TALLY_SHIFT & 31
                codes = key & low_bits
                for extra in set_jokers[tally]:
                    if extra > left:
                        continue
                    ceiling = others[2 * (left - extra)]
                    if ceiling < need or ceiling <= best:
                        if ceiling > best:
                            best = ceiling
                        continue
                    k = codes | (spent + extra) << _JOKER_SHIFT
                    if minimum:
                        pairs, singles = divmod(tally, 5)
                        gained = face[numbers[i]] * (2 * pairs + singles + extra)
                        k |= min(minimum, (key >> _TOTAL_SHIFT) + gained) << _TOTAL_SHIFT
                    v = search(i + 1, k, best + 1 if best >= need else need)
                    if v > best:
                        best, choice = v, k << 10 | extra
            else:
                at = (key >> offset & _COLOUR_MASK) << 7 | i
                base = key & ~(_COLOUR_MASK << offset)
                if minimum:
                    base &= total_mask
                o0, o1, o2, o3, o4 = others
                if tight:
                    options = tight_moves.get(at) or prepare_tight(at)
                else:
                    options = loose_moves.get(at) or prepare(at)
                index = -1
                for bits, used, halves, gain, g0, g1, g2, g3, g4 in options:
                    index += 1
                    free = halves_left - halves
                    if free < 0:
                        continue
                    if g0 == g4:  # jokers do this colour no good from here
                        ceiling = g0 + others[free]
                    elif free == 0:
                        ceiling = g0 + o0
                    elif free == 1:
                        ceiling = max(g0 + o1, g1 + o0)
                    elif free == 2:
                        ceiling = max(g0 + o2, g1 + o1, g2 + o0)
                    elif free == 3:
                        ceiling = max(g0 + o3, g1 + o2, g2 + o1, g3 + o0)
                    else:
                        ceiling = max(g0 + o4, g1 + o3, g2 + o2, g3 + o1, g4 + o0)
                    if ceiling < need or ceiling <= best:
                        if ceiling > best:
                            best = ceiling
                        continue
                    k = base + bits
                    if minimum:
                        # Copies given to sets count when the sets are made.
                        step = steps_at[at][index]
                        in_runs = step[_REAL] - step[_TO_SETS] + used
                        total = key >> _TOTAL_SHIFT
                        k |= min(minimum, total + face[numbers[i]] * in_runs) << _TOTAL_SHIFT
                    ahead_step = 1
                    child = k
                    if sets_next:
                        # The number's sets sub-step is skipped when there is nothing to
                        # choose there: no copies for its sets, or only one number of
                        # jokers they can take (which the walk reading the plan knows).
                        tally = k >> _TALLY_SHIFT & 31
                        if tally:
                            now = k >> _JOKER_SHIFT & 3
                            only = only_set_jokers[tally][jokers - now]
                            if only == _NO_WAY:
                                continue
                            if only != _SEVERAL:
                                child = k & low_bits | (now + only) << _JOKER_SHIFT
                                ahead_step = 2
                        else:
                            ahead_step = 2
                    v = (
                        search(i + ahead_step, child, (best + 1 if best >= need else need) - gain)
                        + gain
                    )
                    if v > best:
                        best, choice = v, k << 10 | index
            if best >= need:
                memo[here] = best * 2 + 1
                choices[here] = choice
            else:
                memo[here] = best * 2
            return best

        self.memo = memo
        self.choices = choices
        self.steps_at = steps_at
        # The search and the per-colour bound call themselves through their closures: left
        # alone, those cycles (and all they hold) would wait for a full garbage collection,
        # which in a process with a large heap costs more than most solves, and would land
        # inside some later solve.  ``release`` breaks them instead.
        self.recursive = [search, alone]
        # Tables of several kinds, which ``release`` only ever clears.
        self.tables: list[dict[int, Any]] = [
            memo,
            choices,
            steps_at,
            known_alone,
            shared_known,
            loose_moves,
            tight_moves,
        ]
        self.order = order
        # None once released.
        self.search: Callable[[int, int, int], int] | None = search
        self.need = ahead[0]

    def release(self) -> None:
        """Free the search's tables (the result is kept)."""
        for table in self.tables:
            table.clear()
        for function in self.recursive:
            for cell in function.__closure__ or ():
                cell.cell_contents = None
        self.recursive.clear()
        self.search = None

    def advance(self, budget: int) -> bool:
        """Search on with ``budget`` more new states; whether the answer is found."""
        search = self.search
        assert search is not None, "a released search cannot advance"
        self.limit = self.expanded + budget
        try:
            while True:
                top = search(0, 0, self.need)
                if top <= _HOPELESS:
                    return True  # no plan at all
                if top >= self.need:
                    break
                # No plan reaches the bound: search for the best plan, whatever it is.
                if self.proved_at is None:
                    self.proved_at = self.expanded
                self.need = _HOPELESS + 1
        except _OutOfBudget:
            return False
        steps: dict[tuple[int, int], Step] = {}
        set_jokers: dict[int, int] = {}
        key = 0
        for i, (n, c) in enumerate(self.order):
            here = key << 7 | i
            if c < 0 and here not in self.memo:
                # Skipped: nothing to choose at this number's sets (see ``search``).
                tally = key >> _TALLY_SHIFT & 31
                spent = key >> _JOKER_SHIFT & 3
                extra = _ONLY_SET_JOKERS[tally][self.jokers - spent] if tally else 0
                set_jokers[n] = extra
                key = key & ((1 << _JOKER_SHIFT) - 1) | (spent + extra) << _JOKER_SHIFT
                continue
            assert self.memo[here] & 1
            choice = self.choices[here]
            what = choice & 1023
            if c < 0:
                set_jokers[n] = what
            else:
                code = key >> (c * _COLOUR_BITS) & _COLOUR_MASK
                steps[n, c] = Step(*self.steps_at[code << 7 | i][what])
            key = choice >> 10
        self.result = Solution(top, key >> _JOKER_SHIFT & 3, steps, set_jokers)
        return True


@cache
def _loose_options(
    code: int, table: int, rack: int, number: int, charge: tuple[int, int, int], lock: int
) -> tuple[tuple[int, int, int], ...]:
    """The options of one colour alone, where sets only need room and their jokers' charge
    (see ``set_charges``): (new code, half jokers, rack tiles placed), keeping for each new
    code and half-joker count the one placing the most."""
    most: dict[tuple[int, int], int] = {}
    for new, _, step in _options(code, table, rack, number, lock):
        halves = 2 * step[_JOKERS] + charge[step[_TO_SETS]]
        if halves <= MAX_HALVES:
            key = (new, halves)
            most[key] = max(most.get(key, 0), step[_RACK])
    # An option spending more jokers for no more tiles than another is never better.
    return tuple(
        (new, halves, placed)
        for (new, halves), placed in most.items()
        if not any(most.get((new, fewer), -1) >= placed for fewer in range(halves))
    )


# Bounds are kept for 0 to 4 half jokers (two jokers) left to spend.
MAX_HALVES = 4
_SHARES = MAX_HALVES + 1
# More than any position's jokers: the charge of sets that cannot be made.
_NO_SET = 2 * MAX_HALVES


def _joker_charge(others: int) -> int:
    """The least share of a set's jokers, in half jokers, that one real tile of it bears
    when ``others`` other colours could join it: a set's jokers shared out equally among
    its real tiles.  Two others make a set of three real tiles (no joker); one makes two
    real tiles and a joker (half each); none leaves one real tile with two jokers."""
    return 0 if others >= 2 else 1 if others == 1 else 4


def set_charges(table: list[list[int]], rack: list[list[int]]) -> list[list[tuple[int, int, int]]]:
    """``charges[c][n][q]``: the least jokers (in halves) that ``q`` copies of colour ``c``
    going to sets of number ``n`` bear, judged by which other colours have copies there (on
    the table or the rack).  Charging each real tile its equal share of its set's jokers
    counts every joker in a set once in all, so the colours' bounds may add their charges
    up against the jokers there are: this keeps, say, two rack pairs that could each make a
    set only with a joker from both counting on the same joker."""
    charges = []
    for c in range(COLOURS):
        row = []
        for n in range(14):
            pairs = singles = 0
            for o in range(COLOURS):
                if o != c:
                    copies = table[o][n] + rack[o][n]
                    pairs += copies >= 2
                    singles += copies == 1
            row.append(_charges_for(pairs, singles))
        charges.append(row)
    return charges


@cache
def _charges_for(pairs: int, singles: int) -> tuple[int, int, int]:
    """``set_charges`` for a colour whose number has ``pairs`` other colours with two
    copies and ``singles`` with one."""
    # Two sets: a colour with two copies joins both, one with a single copy one.
    two = min(
        _joker_charge(pairs + first) + _joker_charge(pairs + singles - first)
        for first in range(singles + 1)
    )
    return (0, _joker_charge(pairs + singles), min(two, _NO_SET))


def _share(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """The best of two bounds (indexed by half jokers left) with the half jokers shared out
    between them."""
    a0, a1, a2, a3, a4 = first
    b0, b1, b2, b3, b4 = second
    # Mostly a colour gains nothing from jokers: then the other's bound, raised.
    if a0 == a4:
        return (a0 + b0, a0 + b1, a0 + b2, a0 + b3, a0 + b4)
    if b0 == b4:
        return (a0 + b0, a1 + b0, a2 + b0, a3 + b0, a4 + b0)
    # Unrolled: the bounds of all the states are made of these.
    return (
        a0 + b0,
        max(a0 + b1, a1 + b0),
        max(a0 + b2, a1 + b1, a2 + b0),
        max(a0 + b3, a1 + b2, a2 + b1, a3 + b0),
        max(a0 + b4, a1 + b3, a2 + b2, a3 + b1, a4 + b0),
    )


def _colour_bounds(
    table: list[list[int]],
    rack: list[list[int]],
    weight: list[list[int]],
    charges: list[list[tuple[int, int, int]]],
    locks: list[list[int]],
) -> tuple[Callable[[int, int, int], tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """``alone(c, n, code)[h]``: the most the rack tiles of colour ``c`` from number ``n`` on
    can add, from that colour's run state ``code`` with ``h`` half jokers for its runs (two
    a joker) and its share of its sets' jokers (``charges``, see ``set_charges``), if a
    tile could join a set wherever the other colours have copies.  Each colour's part of
    any real plan is a plan of this looser problem, and the colours' charges add up to no
    more than the jokers there are, so summing over the colours (sharing out the half
    jokers) bounds the future; a table tile that cannot be used
    even so makes it hopeless (below _FAIL / 2).  Worked out on demand; the answers found
    so far are returned too, keyed ``(c * 16 + n) * 64 + code``, for quick lookups."""
    known: dict[int, tuple[int, ...]] = {}
    ended = (0,) * _SHARES
    stuck = (_FAIL,) * _SHARES
    # Each cell's counts as ``_loose_options`` takes them, and its weight.
    cells = [
        [(table[c][n], rack[c][n], n, charges[c][n], locks[c][n], weight[c][n]) for n in range(14)]
        for c in range(COLOURS)
    ]

    def alone(c: int, n: int, code: int) -> tuple[int, ...]:
        if n == 14:
            return ended if code & 0b1111 == 0 else stuck
        key = (c * 16 + n) * 64 + code
        found = known.get(key)
        if found is not None:
            return found
        t, r, _, charge, lock, w = cells[c][n]
        after = key - code + 64
        best = [_FAIL] * _SHARES
        for new, halves, placed in _loose_options(code, t, r, n, charge, lock):
            gain = placed * w
            later = known.get(after + new) or alone(c, n + 1, new)
            first = later[0]
            if first == later[MAX_HALVES]:
                # Jokers do the rest no good: the pass below carries this one upwards.
                if gain + first > best[halves]:
                    best[halves] = gain + first
                continue
            for k in range(halves, _SHARES):
                value = gain + later[k - halves]
                if value > best[k]:
                    best[k] = value
        # More jokers never hurt: the colour may leave one unused.
        b0, b1, b2, b3, b4 = best
        if b0 > b1:
            b1 = b0
        if b1 > b2:
            b2 = b1
        if b2 > b3:
            b3 = b2
        if b3 > b4:
            b4 = b3
        found = (b0, b1, b2, b3, b4)
        known[key] = found
        return found

    return alone, known


@cache
def _prepared(
    code: int,
    table: int,
    rack: int,
    number: int,
    lock: int,
    offset: int,
    weight: int,
    charge: tuple[int, int, int],
) -> tuple[tuple[PreparedOption, ...], tuple[PlainStep, ...]]:
    """A colour's options as the search reads them (see ``_Search``), and their steps: the
    same for every position with the same counts, so kept across solves."""
    options = _options(code, table, rack, number, lock)
    prepared = tuple(
        (
            new << offset | step[_JOKERS] << _JOKER_SHIFT | tally << _TALLY_SHIFT,
            step[_JOKERS],
            2 * step[_JOKERS] + charge[step[_TO_SETS]],
            *(step[_RACK] * weight,) * (_SHARES + 1),
        )
        for new, tally, step in options
    )
    return prepared, tuple(step for _, _, step in options)


def _placeable(table: list[list[int]], rack: list[list[int]], jokers: int) -> list[list[int]]:
    """The rack without tiles that fit in no meld at all: a tile fits in some meld exactly
    when it fits in a meld of three (any longer run or set holds a three-tile one around it),
    which is quick to check against what the table and rack hold."""

    def have(c: int, n: int) -> bool:
        return 1 <= n <= 13 and table[c][n] + rack[c][n] > 0

    kept = [list(row) for row in rack]
    for c in range(COLOURS):
        for n in NUMBERS:
            if not rack[c][n]:
                continue
            others = sum(1 for o in range(COLOURS) if o != c and have(o, n))
            if others + jokers >= 2:
                continue
            if any(
                sum(1 for m in range(start, start + 3) if m != n and not have(c, m)) <= jokers
                for start in range(max(1, n - 2), min(n, 11) + 1)
            ):
                continue
            kept[c][n] = 0
    return kept
