"""The tile rummy on the game protocol: a thin adapter over the engine's own functions.

The state keeps the framework's data (seats, seed, shuffle counter, turn number) among its
own fields, which the protocol's default ``ctx`` reads.  There is no dealer in this game:
:meth:`RummikubGame.dealer_of` says the seat before the first player stands for it, and naming
a dealer (a series passing the start round the table) makes the seat after it start.
"""

from __future__ import annotations

import random

from ..core.hidden import deal_hidden_again
from ..core.protocol import Deal, GameEngine, Outcome, Traits
from ..core.review import Reviewer
from .actions import Action, parse_action
from .bots import LEVELS, choose
from .events import Event
from .randomplay import random_action
from .rules import PRESET_LABELS, PRESETS, Rules
from .scoring import final_result
from .state import BLOCKED, State
from .timeout import timeout_action
from .turns import MAX_PLAYERS, MIN_PLAYERS, apply, new_game
from .view import legal_verbs, player_view


class RummikubGame(GameEngine[State, Action, Rules, Event]):
    key = "rummikub"
    label = "Tile rummy (Rummikub style)"
    aliases = ("tile-rummy", "lami")
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    presets = PRESETS
    preset_labels = PRESET_LABELS
    bot_levels = LEVELS
    # 1: the rules as first put online (docs/rules.md, "Tile rummy").
    engine_version = 1
    traits = Traits(hidden_info=True, has_prelude=False)
    state_type = State
    rules_type = Rules
    new_game = staticmethod(new_game)
    apply = staticmethod(apply)
    parse_action = staticmethod(parse_action)
    timeout_action = staticmethod(timeout_action)
    legal = staticmethod(legal_verbs)
    player_view = staticmethod(player_view)
    choose = staticmethod(choose)
    random_action = staticmethod(random_action)

    def dealer_of(self, state: State) -> int:
        # No dealer in this game: the seat before the first player stands for one.
        return (state.first_player - 1) % state.players

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        breakdown = tuple(
            {"others_racks": score, "total": score}
            if seat == result.winner
            else {"own_rack": score, "total": score}
            for seat, score in enumerate(result.scores)
        )
        return Outcome(
            termination=result.reason,
            winners=() if result.winner is None else (result.winner,),
            scores=result.scores,
            breakdown=breakdown,
            details={"rack_totals": list(result.rack_totals)},
        )

    def unfinished_scores(self, state: State) -> tuple[int, ...]:
        # Rummikub's game that ends with nobody out is the blocked one ("Winning the game"):
        # the lowest rack total takes the others' totals, unless it is shared; everyone
        # else loses their own.
        if state.result is not None:
            return state.result.scores
        return final_result(state.racks, state.rules, BLOCKED).scores

    def reviewer(self) -> Reviewer:
        from .review import RummikubReviewer  # the planners load with the first review

        return RummikubReviewer()

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        # Hidden from ``seat``: every other rack and the stock's order.  Pour them together
        # and deal them back in the same sizes.
        new = state.copy()
        new.racks, new.stock = deal_hidden_again(state.racks, state.stock, seat, rng)
        return new

    def deal_of(self, state: State) -> Deal:
        return Deal(
            hands=tuple(tuple(str(t) for t in rack) for rack in state.racks),
            face_up=(),
            # The stock is drawn from its end.
            stock=tuple(str(t) for t in reversed(state.stock)),
            dealer=(state.first_player - 1) % len(state.seats),
        )


GAME = RummikubGame()
