"""Remi Etalat on the game protocol: a thin adapter over the engine's own functions.

Remi's stored state predates the split of framework data from game data, so :meth:`ctx`
reads the framework's part out of it rather than the state holding a ``Ctx`` itself.
"""

from __future__ import annotations

import random

from ..core.hidden import deal_hidden_again
from ..core.protocol import Deal, GameEngine, Outcome, Traits
from ..core.review import Reviewer
from .actions import Action, parse_action
from .bots import LEVELS, choose_action
from .events import Event
from .legal import legal_verbs
from .randomplay import random_action
from .rules import PRESET_LABELS, PRESETS, Rules
from .scoring import score_game
from .state import OVER, PRELUDE, State
from .timeout import timeout_action
from .turns import MAX_PLAYERS, MIN_PLAYERS, apply, new_game
from .view import player_view


class RemiGame(GameEngine[State, Action, Rules, Event]):
    key = "remi"
    label = "Remi Etalat"
    aliases = ("remi-etalat", "rummy-tiles-ro")
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    presets = PRESETS
    preset_labels = PRESET_LABELS
    bot_levels = LEVELS
    # 1: the rules as first put online (docs/rules.md).
    # 2: readings of Romanian printed rules (issue 16): several doublas, a Joly freed in the
    #    first-meld turn, no end while a tile can be laid, the rack scored with no winner.
    # 3: the doubla's label split as printed (2-9 low; 10-13 and 1 high), an option; the
    #    safety cap on idle rebuilds on by default (10).
    engine_version = 3
    traits = Traits(
        hidden_info=True,
        has_prelude=True,
        prelude_phase=PRELUDE,
        # The twin may be declared by anyone before their first turn; in the prelude a seat
        # that said it is ready may still offer a doubla or answer an exchange.
        out_of_turn=frozenset({"declare", "doubla", "exchange"}),
    )
    state_type = State
    rules_type = Rules
    new_game = staticmethod(new_game)
    apply = staticmethod(apply)
    parse_action = staticmethod(parse_action)
    player_view = staticmethod(player_view)
    timeout_action = staticmethod(timeout_action)
    choose = staticmethod(choose_action)
    random_action = staticmethod(random_action)

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        if state.phase == PRELUDE:
            return frozenset(seat for seat, ready in enumerate(state.ready) if not ready)
        return frozenset({state.turn})

    def legal(self, state: State, seat: int | None) -> frozenset[str]:
        return frozenset(legal_verbs(state, seat))

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if state.phase != OVER or result is None:
            return None
        return Outcome(
            termination=result.reason,
            winners=() if result.winner is None else (result.winner,),
            scores=result.scores,
            breakdown=result.breakdown,
            details={"joly_out": result.joly_out, "all_at_once": result.all_at_once},
        )

    def unfinished_scores(self, state: State) -> tuple[int, ...]:
        # Remi's game without a winner is the one whose wall runs dry (rule 15): melded
        # tiles count for their owner, the rack against, a seat that never melded pays the
        # penalty, a declared twin keeps its bonus.
        outcome = self.outcome(state)
        if outcome is not None:
            return outcome.scores
        return score_game(state, None, joly_out=False).scores

    def reviewer(self) -> Reviewer:
        from .review import RemiReviewer  # the planners load with the first review

        return RemiReviewer()

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        # Hidden from ``seat``: every other rack and the wall.  Pour them together and deal
        # them back in the same sizes.  Another seat's doubla on offer stays secret in the
        # view whatever its rack now holds, so it is left as it is.
        new = state.copy()
        new.racks, new.wall = deal_hidden_again(state.racks, state.wall, seat, rng)
        return new

    def deal_of(self, state: State) -> Deal:
        exposed = state.exposed_tile or state.exposed
        return Deal(
            hands=tuple(tuple(str(t) for t in rack) for rack in state.racks),
            face_up=(str(exposed),) if exposed is not None else (),
            # The wall is drawn from its front.
            stock=tuple(str(t) for t in state.wall),
            dealer=state.dealer,
        )


GAME = RemiGame()
