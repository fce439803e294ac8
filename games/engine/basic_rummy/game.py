"""Basic Rummy on the game protocol: a thin adapter over the engine's own functions."""

from __future__ import annotations

import random

from ..cards import Card, sort_key
from ..core.events import Event
from ..core.hidden import deal_hidden_again
from ..core.protocol import Deal, GameEngine, Outcome, Traits
from ..core.review import Reviewer
from .actions import Action, Discard, Draw, parse_action
from .bots import LEVELS, choose
from .randomplay import random_action
from .rules import PRESET_LABELS, PRESETS, Rules
from .scoring import card_points, final_result
from .state import BLOCKED, DRAW, State
from .turns import MAX_PLAYERS, MIN_PLAYERS, apply, may_discard, new_game
from .view import legal_verbs, player_view


class BasicRummyGame(GameEngine[State, Action, Rules, Event]):
    key = "basic-rummy"
    label = "Basic Rummy (cards)"
    aliases = ("rummy", "traditional-rummy")
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    presets = PRESETS
    preset_labels = PRESET_LABELS
    bot_levels = LEVELS
    # 1: the rules as first put online (docs/rules.md, "Basic Rummy").
    engine_version = 1
    traits = Traits(hidden_info=True, has_prelude=False)
    state_type = State
    rules_type = Rules
    new_game = staticmethod(new_game)
    apply = staticmethod(apply)
    parse_action = staticmethod(parse_action)
    legal = staticmethod(legal_verbs)
    player_view = staticmethod(player_view)
    choose = staticmethod(choose)
    random_action = staticmethod(random_action)

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        breakdown = []
        for seat, score in enumerate(result.scores):
            if seat == result.winner:
                won = score - result.bonus
                base = won // 2 if result.rummy else won
                part = {"others_hands": base, "rummy": won - base, "out_bonus": result.bonus}
                breakdown.append({**{k: v for k, v in part.items() if v}, "total": score})
            elif score:
                breakdown.append({"own_hand": score, "total": score})
            else:
                breakdown.append({"total": score})
        return Outcome(
            termination=result.reason,
            winners=() if result.winner is None else (result.winner,),
            scores=result.scores,
            breakdown=tuple(breakdown),
            details={"hand_values": list(result.hand_values), "rummy": result.rummy},
        )

    def unfinished_scores(self, state: State) -> tuple[int, ...]:
        # Basic Rummy's hand that ends with nobody out is block rummy's (004, "Scoring"):
        # every player loses the points left in hand, nobody wins any.
        if state.result is not None:
            return state.result.scores
        return final_result(state.hands, state.rules, BLOCKED).scores

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """Out of time: draw from the stock; after drawing, throw the highest card that may
        be thrown (melding is the player's choice, so the timer never melds)."""
        if state.over or seat != state.turn:
            return None
        if state.phase == DRAW:
            return Draw()
        hand = state.hands[seat]
        allowed = [c for c in hand if may_discard(state, hand, c)]
        return Discard(max(allowed, key=lambda c: (card_points(c, state.rules), sort_key(c))))

    def reviewer(self) -> Reviewer:
        from .review import BasicRummyReviewer  # the planners load with the first review

        return BasicRummyReviewer()

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Hidden from ``seat``: the other hands, the stock's order and — unless the pile is
        spread — the cards under the discard pile's top.  A card just taken from the pile is
        public, so it stays in its taker's hand."""
        new = state.copy()
        buried = [] if state.rules.deep_pickup else state.discard[:-1]
        hands = [list(h) for h in state.hands]
        kept: Card | None = None
        if state.taken is not None and state.turn != seat and state.taken in hands[state.turn]:
            kept = state.taken
            hands[state.turn].remove(kept)
        hands, pile = deal_hidden_again(hands, [*state.stock, *buried], seat, rng)
        if kept is not None:
            hands[state.turn].append(kept)
        new.hands = [h if s == seat else sorted(h, key=sort_key) for s, h in enumerate(hands)]
        new.stock = pile[: len(state.stock)]
        new.discard = [*pile[len(state.stock) :], *state.discard[len(buried) :]]
        return new

    def deal_of(self, state: State) -> Deal:
        return Deal(
            hands=tuple(tuple(str(c) for c in hand) for hand in state.hands),
            face_up=tuple(str(c) for c in state.discard[:1]),
            # The stock is drawn from its end.
            stock=tuple(str(c) for c in reversed(state.stock)),
            dealer=state.dealer,
        )

    def series_limits(
        self, rules: Rules, players: int | None = None
    ) -> tuple[int | None, int | None]:
        return rules.limits_for(players)


GAME = BasicRummyGame()
