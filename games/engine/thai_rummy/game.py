"""Thai Rummy on the game protocol: a thin adapter over the engine's own functions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..card_actions import Action, Discard, Draw
from ..cards import sort_key
from ..core.events import Event
from ..core.hidden import deal_hidden_again
from ..core.protocol import Deal, GameEngine, Outcome, Traits
from ..core.review import Reviewer
from .actions import Pass, parse_action
from .bots import LEVELS, choose
from .randomplay import random_action
from .rules import PRESET_LABELS, PRESETS, Rules
from .scoring import card_points, final_result
from .state import DRAW, PASSED, State
from .turns import MAX_PLAYERS, MIN_PLAYERS, apply, fitting_meld, loser, new_game
from .view import legal_verbs, player_view


class ThaiRummyGame(GameEngine[State, Action, Rules, Event]):
    key = "thai-rummy"
    label = "Thai Rummy (cards)"
    aliases = ("thai",)
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    presets = PRESETS
    preset_labels = PRESET_LABELS
    bot_levels = LEVELS
    # 1: the rules as first put online (docs/rules.md, "Thai Rummy").
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
            part = {
                "shown": result.shown[seat],
                "in_hand": -result.in_hand[seat] if seat != result.winner else 0,
                "out_bonus": result.bonus if seat == result.winner else 0,
                "doubled": int(result.doubled[seat]),
                "penalties": -result.penalties[seat],
            }
            breakdown.append({**{k: v for k, v in part.items() if v}, "total": score})
        # The winner is the player who went out; when all passed nobody went out, and the
        # series (500 "after going out") must tell the two apart, so there is none.
        return Outcome(
            termination=result.reason,
            winners=() if result.winner is None else (result.winner,),
            scores=result.scores,
            breakdown=tuple(breakdown),
            details={"doubled": list(result.doubled), "went_out": result.winner},
        )

    def unfinished_scores(self, state: State) -> tuple[int, ...]:
        # Thai Rummy's hand that ends with nobody out is the one where every player passed
        # on an empty stock: shown cards count for their owner, the hand against, doubled
        # for a player who showed nothing, and the -50s already charged stand.
        if state.result is not None:
            return state.result.scores
        return final_result(
            rules=state.rules,
            reason=PASSED,
            hands=state.hands,
            displayed=state.displayed,
            shown=state.shown,
            shown_before=state.shown_before,
            penalties=state.penalties,
        ).scores

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """Out of time: draw from the stock (pass when it is gone); after drawing, throw the
        highest card that fits no meld on the table, if there is one (melding is the
        player's choice, so the timer never melds)."""
        if state.over or seat != state.turn:
            return None
        if state.phase == DRAW:
            return Draw() if state.stock else Pass()
        hand = state.hands[seat]
        return Discard(
            max(
                hand,
                key=lambda c: (
                    fitting_meld(c, state.table, state.rules) is None,
                    card_points(c),
                    sort_key(c),
                ),
            )
        )

    def reviewer(self) -> Reviewer:
        from .review import ThaiRummyReviewer  # the planners load with the first review

        return ThaiRummyReviewer()

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Hidden from ``seat``: the other hands and the stock's order (the pile is spread
        face up and the displayed cards are on the table)."""
        new = state.copy()
        hands, pile = deal_hidden_again(state.hands, state.stock, seat, rng)
        new.hands = [h if s == seat else sorted(h, key=sort_key) for s, h in enumerate(hands)]
        new.stock = pile
        return new

    def deal_of(self, state: State) -> Deal:
        return Deal(
            hands=tuple(tuple(str(c) for c in hand) for hand in state.hands),
            # The top stock card that starts the pile.
            face_up=tuple(str(c) for c in state.discard[:1]),
            # The stock is drawn from its end.
            stock=tuple(str(c) for c in reversed(state.stock)),
            dealer=state.dealer,
        )

    def series_limits(
        self, rules: Rules, players: int | None = None
    ) -> tuple[int | None, int | None]:
        return rules.series_games, rules.target_score

    def series_over(
        self,
        rules: Rules,
        players: int,
        games: Sequence[Sequence[int]],
        winners: Sequence[Sequence[int]],
    ) -> bool:
        """Over at once when a total falls to -500 (its player loses); otherwise when the
        player who went out of the last hand has 500 or more (500 without going out is not
        enough), or after ``series_games`` hands."""
        totals = [sum(scores[i] for scores in games) for i in range(players)]
        if rules.series_games is not None and len(games) >= rules.series_games:
            return True
        if rules.target_score is None:
            return rules.series_games is None and bool(games)
        if any(total <= -rules.target_score for total in totals):
            return True
        if not games or len(winners) < len(games):
            return False
        went_out = winners[-1]
        return len(went_out) == 1 and totals[went_out[0]] >= rules.target_score

    def next_dealer(self, finished: State, dealer: int, players: int) -> int:
        """The loser of a hand deals the next."""
        return loser(finished)


GAME = ThaiRummyGame()
