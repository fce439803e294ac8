"""Bot players.  A bot sees exactly what its seat's ``player_view`` shows, nothing more.

Three levels:

* ``easy``   — legal and plausible: draws from the wall, lays down a first meld when it finds
  one, then one meld or addition a turn, and discards an isolated tile, sometimes at random.
* ``normal`` — greedy: every turn it lays down the most points the solver finds, takes the
  previous discard when that lets it lay down more, and discards its least useful tile.
* ``hard``   — plans: besides the exact solver it weighs discard-row pickups (only those
  that leave its rack no longer than a draw would), takes the exposed tile when it can go
  out with it, frees Jolys, holds its first meld back while it is one tile from going out
  all at once, keeps high tiles before its first meld, counts the tiles it has seen to judge
  which tiles are dead, avoids discarding tiles the next player could lay off or take into a
  meld, and near the end keeps the tiles that leave the most draws to go out with.

Each call returns one action; the caller applies it and asks again until the turn passes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..errors import IllegalAction
from ..tiles import COLOURS, JOKER, Tile, full_set, parse_tile, parse_tiles
from .actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Exchange,
    MeldAction,
    OfferDoubla,
    Pick,
    Ready,
    SwapJoly,
    TakeDiscard,
    TakeExposed,
    Undo,
)
from .melds import RUN, SET, Meld, rack_value
from .moves import pick_candidates, swap_candidates
from .rules import Rules
from .solver import POINTS, TILES, Plan, solve
from .state import DRAW, GO_OUT, OPEN, PLAY, PRELUDE, USE_DISCARD, State, TableMeld
from .turns import apply

EASY = "easy"
NORMAL = "normal"
HARD = "hard"
LEVELS = (EASY, NORMAL, HARD)

# Hard holds its first meld back to go out all at once while at most this many tiles would
# stay behind and the wall still has this many tiles to draw.  Holding with three left cost
# more games than the +100 paid for (arena: hard won fewer games than normal).
HOLD_LEFTOVER = 2
HOLD_WALL = 20

# Rebuilds in a row with nothing laid after which every bot discards more freely and frees
# Jolys, so a game that can still be won does not go round for ever.
STALLED_REBUILDS = 2

# What each tile a discard-row pickup leaves on the rack costs, against the points the pickup
# lays: such tiles keep the bot from going out and count against it when another does.  At 4
# the hard bot picked for points and won fewer games than normal; at 20 it still won no more
# hands than normal (its edge was all points); at 60 a pickup must not leave the rack longer
# than a draw would, and the hard bot wins about 3 points of hands more (arena, per seat).
PICK_STUCK_COST = 60

# How much more the hard bot keeps a tile the next player could take from the row and lay
# off on the table, in the units of ``_usefulness`` (a partner on the rack is 1 to 1.5).
FEED_KEEP = 2.5
# ... and a tile the next player could take into a new meld: times the expected number of
# unseen pairs in their rack that make one with it (``_feeding``).  Feeding the next player
# is how a greedy table gets round to going out; the hard bot wins about 1 point of hands
# more with it (arena).
DANGER_KEEP = 4.0
# Once melded with at most this many tiles left after its discard, the hard bot throws the
# tile whose loss leaves the most draws that go out next turn: a tile one draw from a meld
# on the table counts for nothing in ``_usefulness``, which looks at the rack alone.  The
# weight is per share of the unseen tiles that go out (all of them would be 20 units).
NEXT_OUT_KEEP = 20.0
NEXT_OUT_TILES = 4


def visible_state(view: dict[str, Any]) -> State:
    """The position as the seat sees it: its own rack and the public table; every hidden
    tile (other racks, the wall) is simply absent.  Good enough to try actions on."""
    seat = view["seat"]
    players = len(view["names"])
    racks: list[list[Tile]] = [[] for _ in range(players)]
    racks[seat] = parse_tiles(view["rack"])
    melds = []
    for data in view["melds"]:
        tiles = tuple(parse_tiles(data["tiles"]))
        stands = tuple(parse_tiles(data["as"]))
        start = stands[0].number if data["kind"] == RUN else 0
        meld = Meld(data["kind"], tiles, stands, start)
        owners = tuple(data["owners"])
        credits = tuple(o if t.is_joker else None for t, o in zip(tiles, owners, strict=True))
        melds.append(TableMeld(meld, owners, credits, data["by"]))
    turn_number = view["turn_number"]
    melded_on = [
        (turn_number if first else turn_number - 1) if melded else None
        for melded, first in zip(view["has_melded"], view["first_meld_turn"], strict=True)
    ]
    exposed = view["exposed"]
    return State(
        rules=Rules.from_dict(view["rules"]),
        seats=list(view["names"]),
        seed="hidden",
        dealer=view["dealer"],
        first_player=view["first_player"],
        wall=[],
        exposed=parse_tile(exposed) if exposed else None,
        racks=racks,
        discards=parse_tiles(view["discards"]),
        discarded_by=list(view["discarded_by"]),
        melds=melds,
        phase=view["phase"],
        turn=view["turn"],
        turn_number=turn_number,
        melded_on=melded_on,
        acted=[True] * players,
        ready=list(view["ready"]),
        offers=[None] * players,
        requests=[None] * players,
        exchanged=[False] * players,
        declared=list(view["declared"]),
        warned=[False] * players,
        exposed_tile=parse_tile(view["exposed_tile"]) if view["exposed_tile"] else None,
        pending=view["pending"],
        pending_tile=parse_tile(view["pending_tile"]) if view["pending_tile"] else None,
    )


class Bot:
    """Chooses one action at a time for a seat, from that seat's view."""

    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        self.level = level
        self.rng = rng
        self.wall_count = 0  # the view shows the wall as a count; the visible state has none
        self.rack_counts: list[int] = []
        # The wall was rebuilt twice with nothing laid since: tiles the players keep may be
        # the ones someone needs, so play looser to let them move round the table.
        self.stalled = False

    # --- entry point -------------------------------------------------------------------

    def choose(self, view: dict[str, Any]) -> Action:
        can = set(view["can"])
        self.wall_count = view["wall_count"]
        self.rack_counts = list(view["rack_counts"])
        if "declare" in can:
            return Declare()
        phase = view["phase"]
        if phase == PRELUDE:
            return self._prelude(view, can)
        state = visible_state(view)
        seat = view["seat"]
        self.stalled = view.get("idle_rebuilds", 0) >= STALLED_REBUILDS
        if phase == OPEN:
            return Discard(self._discard_choice(state, seat))
        if phase == DRAW:
            return self._start_turn(state, seat, can)
        if phase == PLAY:
            return self._play(state, seat)
        raise ValueError(f"{phase!r} is not a phase a bot acts in")

    # --- doublas ------------------------------------------------------------------------

    def _prelude(self, view: dict[str, Any], can: set[str]) -> Action:
        """Answer every exchange asked of an open offer.  Normal and hard offer one pair that
        helps nothing else on the rack and ask the first other offer for an exchange; one
        doubla a game each, so bots alone never keep the prelude going."""
        seat = view["seat"]
        offers = view["offers"]
        requests = view["requests"]
        mine = offers[seat]
        if mine is not None and "exchange" in can:
            for other, asked in enumerate(requests):
                if asked == seat and offers[other] is not None:
                    return Exchange(other)
        if self.level == EASY or view["exchanged"][seat] or "ready" not in can:
            return Ready()
        if mine is None and "doubla" in can:
            pair = self._spare_pair(parse_tiles(view["rack"]))
            if pair is not None:
                return OfferDoubla(pair, None)
        if mine is not None and requests[seat] is None and "exchange" in can:
            for other, offer in enumerate(offers):
                if other != seat and offer is not None and not view["exchanged"][other]:
                    return Exchange(other)
        return Ready()

    @staticmethod
    def _spare_pair(rack: list[Tile]) -> Tile | None:
        """A pair neither of whose tiles has a partner on the rack: trading it costs nothing."""
        counts = Counter(rack)
        pairs = sorted(t for t, n in counts.items() if n >= 2 and not t.is_joker)
        for tile in pairs:
            rest = list(rack)
            rest.remove(tile)
            if _usefulness(tile, rest, Counter()) < 1.0 and rest.count(tile) == 1:
                return tile
        return None

    # --- starting a turn ---------------------------------------------------------------

    def _start_turn(self, state: State, seat: int, can: set[str]) -> Action:
        rack = state.racks[seat]
        melded = state.melded_on[seat] is not None
        if self.level == EASY:
            return Draw()
        if (
            "exposed" in can
            and state.exposed is not None
            and self._goes_out_with([*rack, state.exposed], state, seat, first=not melded)
        ):
            return TakeExposed()
        baseline = self._placement(rack, state, seat, first=not melded)
        best: tuple[float, Action] = (0.0, Draw())
        if "take" in can and len(state.discards) >= 2:
            taken = state.discards[-1]
            plan = self._placement([*rack, taken], state, seat, first=not melded)
            if (
                plan is not None
                and taken in _plan_tiles(plan)
                and (melded or self._melds_with_discard(state, seat, plan))
            ):
                gain: float = plan.points - (baseline.points if baseline else 0)
                best = max(best, (gain + 0.5, TakeDiscard()), key=lambda b: b[0])
        if self.level == HARD and "pick" in can:
            for pick in self._picks(state, seat):
                gain = self._pick_gain(pick, state, seat, baseline)
                if gain > best[0]:
                    best = (gain, pick)
        return best[1]

    def _picks(self, state: State, seat: int) -> Iterable[Pick]:
        seen = set()
        for pick in pick_candidates(state, seat):
            key = (pick.index, pick.group.tiles)
            if key not in seen:
                seen.add(key)
                yield pick

    def _pick_gain(self, pick: Pick, state: State, seat: int, baseline: Plan | None) -> float:
        try:
            after, _ = apply(state, seat, pick)
        except IllegalAction:
            return 0.0
        meld_points = sum(after.melds[-1].meld.slot_values())
        plan = self._placement(after.racks[seat], after, seat, first=False)
        placed = meld_points + (plan.points if plan else 0)
        # Tiles picked up and not placed stay on the rack, where they cost points if
        # someone else goes out; weigh them against what the pickup lays down.
        stuck = len(after.racks[seat]) - (plan.tiles if plan else 0)
        before = len(state.racks[seat]) - (baseline.tiles if baseline else 0)
        extra = max(0, stuck - before)
        return placed - (baseline.points if baseline else 0) - PICK_STUCK_COST * extra

    # --- during a turn -----------------------------------------------------------------

    def _play(self, state: State, seat: int) -> Action:
        rack = state.racks[seat]
        melded = state.melded_on[seat] is not None
        first_turn = state.melded_on[seat] == state.turn_number
        swaps = self.level == HARD or self.stalled
        if swaps and melded and (not first_turn or state.rules.first_meld_turn_swap):
            swap = self._swap(state, seat)
            if swap is not None:
                return swap
        plan = self._placement(rack, state, seat, first=not melded, may_add=not first_turn)
        if state.pending == GO_OUT:
            # Judge going out exactly as when the exposed tile was taken (most tiles placed),
            # or the bot would put it back and take it again for ever.
            plan = self._placement(rack, state, seat, first=not melded, objective=TILES)
            if plan is None or plan.tiles != len(rack) - 1:
                return Undo()
        if state.pending == USE_DISCARD:
            # The discard was taken on condition that it goes into the first meld this turn:
            # the engine refuses every discard until it does, so the meld is laid now whatever
            # holding back would say, or the tile is put back.
            return self._discard_meld(plan, state, seat) or Undo()
        bound = state.pending == GO_OUT and len(rack) > 1
        if plan is not None and plan.tiles and (bound or self._wants_to_lay(plan, rack, melded)):
            action = self._first_legal(plan, state, seat)
            if action is not None:
                return action
        if bound:
            # Only the last tile may be discarded: a plan the engine refuses puts the tile back.
            return Undo()
        return Discard(self._discard_choice(state, seat))

    def _wants_to_lay(self, plan: Plan, rack: list[Tile], melded: bool) -> bool:
        if self.level == EASY:
            return self.rng.random() < 0.6
        if self.level == NORMAL or melded:
            return True
        # Hard, not yet melded: go out all at once when it can; hold while close to it.
        leftover = len(rack) - plan.tiles
        if leftover <= 1:
            return True
        return not (leftover <= HOLD_LEFTOVER and self.wall_count >= HOLD_WALL)

    def _melds_with_discard(self, state: State, seat: int, plan: Plan) -> bool:
        """Whether taking the previous discard before the first meld leads to a meld this
        bot lays at once.  The take binds the player to meld the tile in the same turn, so it
        is worth taking only if the bot would lay that meld rather than hold it back (hard),
        and only if the engine accepts it: otherwise the bot would put the tile back, find
        the same take best again, and never end its turn."""
        taken = [*state.racks[seat], state.discards[-1]]
        if not self._wants_to_lay(plan, taken, melded=False):
            return False
        try:
            after, _ = apply(state, seat, TakeDiscard())
        except IllegalAction:
            return False
        return self._discard_meld(plan, after, seat) is not None

    def _discard_meld(self, plan: Plan | None, state: State, seat: int) -> Action | None:
        """The first meld that uses the discard just taken on condition (``USE_DISCARD``),
        as an action the engine accepts; None when the plan has none."""
        if plan is None or state.pending_tile not in _plan_tiles(plan):
            return None
        for action in plan.actions():
            try:
                apply(state, seat, action)
            except IllegalAction:
                continue
            return action
        return None

    def _first_legal(self, plan: Plan, state: State, seat: int) -> Action | None:
        actions = plan.actions()
        if self.level == EASY and actions:
            actions = [self.rng.choice(actions)]
        for action in actions:
            if isinstance(action, MeldAction) and self.level == EASY and state.melded_on[seat]:
                action = MeldAction(action.groups[:1])
            try:
                apply(state, seat, action)
            except IllegalAction:
                continue
            return action
        return None

    def _swap(self, state: State, seat: int) -> SwapJoly | None:
        for swap in swap_candidates(state, seat):
            try:
                after, _ = apply(state, seat, swap)
            except IllegalAction:
                continue
            if state.pending == GO_OUT and not self._goes_out_with(
                after.racks[seat], after, seat, first=False
            ):
                # The exposed tile binds the bot to go out this turn.  A swap that uses tiles
                # going out needs would be undone with the tile, and taken again: for ever.
                continue
            return swap
        return None

    # --- judging racks -----------------------------------------------------------------

    def _placement(
        self,
        rack: list[Tile],
        state: State,
        seat: int,
        *,
        first: bool,
        may_add: bool = True,
        objective: str = POINTS,
    ) -> Plan | None:
        return solve(
            rack,
            [m.meld for m in state.melds],
            state.rules,
            first_meld=first,
            may_add=may_add and not first,
            objective=objective,
        )

    def _goes_out_with(self, rack: list[Tile], state: State, seat: int, *, first: bool) -> bool:
        plan = self._placement(rack, state, seat, first=first, objective=TILES)
        return plan is not None and plan.tiles == len(rack) - 1

    def _discard_choice(self, state: State, seat: int) -> Tile:
        rack = state.racks[seat]
        candidates = [t for t in rack if not t.is_joker] or list(rack)
        if self.level == EASY and self.rng.random() < 0.4:
            return self.rng.choice(candidates)
        if self.stalled and self.rng.random() < 0.5:
            return self.rng.choice(candidates)
        seen = self._seen(state, seat) if self.level == HARD else Counter()
        next_seat = (seat + 1) % state.players
        feeds_next = self.level == HARD and state.melded_on[next_seat] is not None
        next_rack = self.rack_counts[next_seat] if self.rack_counts else 0
        # The row is locked to a player with two tiles or fewer: they cannot take it.
        takes_next = feeds_next and next_rack > 2
        unseen = TOTAL_TILES - sum(seen.values())
        share = min(1.0, next_rack / unseen) if unseen > 0 else 0.0

        # Before its first meld a rack costs a flat penalty whatever it holds, and high tiles
        # are what reach the first meld's 50: hard throws the low loose tile, not the high.
        keep_high = self.level == HARD and state.melded_on[seat] is None

        lookahead = (
            NEXT_OUT_KEEP > 0
            and self.level == HARD
            and state.melded_on[seat] is not None
            and len(rack) - 1 <= NEXT_OUT_TILES
        )

        def cost(tile: Tile) -> tuple[float, int]:
            keep = _usefulness(tile, rack, seen)
            if lookahead:
                rest = list(rack)
                rest.remove(tile)
                keep -= NEXT_OUT_KEEP * self._ways_out(rest, state, seen)
            if feeds_next and _extends_table(tile, state):
                keep += FEED_KEEP  # the next player could take it and lay it off
            if takes_next:
                keep += DANGER_KEEP * _feeding(tile, seen, share)
            value = rack_value(tile, state.rules)
            return (keep, value if keep_high else -value)

        return min(candidates, key=lambda t: (cost(t), str(t)))

    def _ways_out(self, rest: list[Tile], state: State, seen: Counter[Tile]) -> float:
        """The share of the unseen tiles that, drawn next turn, let ``rest`` go out."""
        table = [m.meld for m in state.melds]
        on_table = sum(t.is_joker for m in table for t in m.tiles)
        pool = {t: 2 - seen[t] for t in full_set() if not t.is_joker and seen[t] < 2}
        pool[JOKER] = max(0, 2 - seen[JOKER] - on_table)
        total = sum(pool.values())
        if not total:
            return 0.0
        # A tile that fits nothing on the rack or the table can only be the final discard:
        # such a draw goes out exactly when the whole of ``rest`` can be laid.
        whole = solve(rest, table, state.rules, first_meld=False, objective=TILES, keep=0)
        all_laid = whole is not None and whole.tiles == len(rest)
        ways = 0
        for tile, count in pool.items():
            if count <= 0:
                continue
            if _touches(tile, rest) or _extends_table(tile, state):
                plan = solve([*rest, tile], table, state.rules, first_meld=False, objective=TILES)
                out = plan is not None and plan.tiles == len(rest)
            else:
                out = all_laid
            ways += count if out else 0
        return ways / total

    def _seen(self, state: State, seat: int) -> Counter[Tile]:
        seen: Counter[Tile] = Counter(state.racks[seat])
        seen.update(state.discards)
        for table_meld in state.melds:
            seen.update(t for t in table_meld.meld.tiles if not t.is_joker)
        if state.exposed_tile is not None:
            seen[state.exposed_tile] += 1
        return seen


def _plan_tiles(plan: Plan) -> list[Tile]:
    tiles = [t for g in plan.melds for t in g.tiles]
    tiles.extend(t for _, g in plan.additions for t in g.tiles)
    return tiles


def _usefulness(tile: Tile, rack: list[Tile], seen: Counter[Tile]) -> float:
    """How much a tile helps the rest of the rack: partners for a set or a run, counting
    a partner less when both copies of the tile that would complete it are already seen."""
    if tile.is_joker:
        return 100.0
    score = 0.0
    others = Counter(rack)
    others[tile] -= 1
    score += 0.5 * others[tile]  # a spare copy is a weak partner
    for colour in COLOURS:
        if colour != tile.colour and others[Tile(colour, tile.number)]:
            score += 1.0
    for distance in (1, 2):
        for number in (tile.number - distance, tile.number + distance):
            if 1 <= number <= 13 and others[Tile(tile.colour, number)]:
                score += 1.5 if distance == 1 else 0.75
    if score and seen:
        # Dead tiles: both copies of the neighbours already visible elsewhere.
        live = sum(
            2 - min(2, seen[Tile(tile.colour, n)])
            for n in (tile.number - 1, tile.number + 1)
            if 1 <= n <= 13
        )
        if live == 0:
            score *= 0.5
    return score


TOTAL_TILES = len(full_set())


def _touches(tile: Tile, rack: list[Tile]) -> bool:
    """Whether ``tile`` could make a meld with a tile of ``rack``: a Joly, the same number,
    or the same colour at most two apart (the 1 also next to the 13)."""
    if tile.is_joker:
        return True
    for other in rack:
        if other.is_joker or other.number == tile.number:
            return True
        if other.colour == tile.colour:
            for a in (tile.number, 14) if tile.number == 1 else (tile.number,):
                for b in (other.number, 14) if other.number == 1 else (other.number,):
                    if abs(a - b) <= 2:
                        return True
    return False


def _feeding(tile: Tile, seen: Counter[Tile], share: float) -> float:
    """How likely the next player holds two tiles that make a meld with ``tile``: each pair
    of unseen tiles that would, as likely in their rack as its share of the unseen tiles,
    squared."""

    def unseen(colour: str, position: int) -> int:
        number = 1 if position == 14 else position
        if not 1 <= number <= 13:
            return 0
        return max(0, 2 - seen[Tile(colour, number)])

    others = [unseen(c, tile.number) for c in COLOURS if c != tile.colour]
    pairs = sum(a * b for i, a in enumerate(others) for b in others[i + 1 :])
    for position in (tile.number, 14) if tile.number == 1 else (tile.number,):
        for start in (position - 2, position - 1, position):
            near = [n for n in (start, start + 1, start + 2) if n != position]
            pairs += unseen(tile.colour, near[0]) * unseen(tile.colour, near[1])
    return pairs * share * share


def _extends_table(tile: Tile, state: State) -> bool:
    for table_meld in state.melds:
        meld = table_meld.meld
        if meld.kind == SET:
            if tile.number == meld.number and tile not in meld.stands_for:
                return True
        elif tile.colour == meld.colour:
            low = meld.start - 1
            high = meld.start + len(meld.tiles)
            if tile.number in (low, high) or (high == 14 and tile.number == 1):
                return True
    return False


def choose_action(view: dict[str, Any], level: str, rng: random.Random) -> Action:
    """One action for the seat whose view this is."""
    return Bot(level, rng).choose(view)
