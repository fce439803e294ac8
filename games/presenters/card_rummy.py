"""What the card rummies' presentation adapters share: each names its engine, its forms and
sentences modules and its context function; the rest is the same for every card rummy."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _

from games.engine import GameEngine
from games.engine.errors import IllegalAction, InvalidAction
from games.models import Action, Game, Seat
from games.presenters.seat_names import shown_names

from .base import Presentation
from .card_faces import cards
from .examples import card_examples


class CardRummyPresentation(Presentation):
    engine: ClassVar[GameEngine]
    forms_module: ClassVar[ModuleType]  # notation, rule rows and notes, options
    text_module: ClassVar[ModuleType]  # REFUSAL_CODES and refusal_text
    build_context: ClassVar[Callable[..., dict[str, Any]]]
    # The rules page's example melds, in the move notation.
    rules_examples: ClassVar[Mapping[str, str]] = {}

    def rules_context(self) -> dict[str, Any]:
        return {"ex": card_examples(self.rules_examples)}

    def context(
        self,
        game: Game,
        seats: Sequence[Seat],
        seat: int | None,
        *,
        actions: Sequence[Action] | None = None,
        state: Any = None,
        error: str = "",
        notice: str = "",
        replay: bool = False,
    ) -> dict[str, Any]:
        return type(self).build_context(
            game,
            seats,
            seat,
            actions=actions,
            state=state,
            error=error,
            notice=notice,
            replay=replay,
        )

    def notation(self, data: Mapping[str, Any], game: Game) -> str:
        return self.forms_module.notation(data)

    def refusal_text(self, refusal: Exception, game: Game) -> str:
        if isinstance(refusal, IllegalAction | InvalidAction):
            code, params = refusal.code, getattr(refusal, "params", {})
            if isinstance(refusal, IllegalAction) or code in self.text_module.REFUSAL_CODES:
                return self.text_module.refusal_text(code, params)
        return str(refusal)

    def rack_order(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        # The hand is kept sorted by suit and rank; there is no order of one's own to save.
        raise ValueError(_("Cards in hand are kept in suit order."))

    def replay_context(self, final_state: Any) -> dict[str, Any]:
        view = self.engine.player_view(final_state, None)
        return {
            "final_hands": [
                {"name": name, "hand": cards(hand)}
                for name, hand in zip(
                    shown_names(view["names"]), view["final_hands"] or [], strict=True
                )
            ]
        }

    def situation(self, phase: str, my_turn: bool) -> str | None:
        return None

    def rule_rows(self, rules: Any) -> tuple[tuple[str, str], ...]:
        return self.forms_module.rule_rows(rules)

    def rule_notes(self, preset: str, rules: Any) -> tuple[str, ...]:
        return self.forms_module.rule_notes(preset, rules)

    def series_text(self, rules: Any) -> str:
        return self.forms_module.series_text(rules)

    def form_fields(self) -> dict[str, forms.Field]:
        return self.forms_module.rule_form_fields()

    def rule_options(self, rules: Any) -> dict[str, Any]:
        return self.forms_module.rule_options(rules)


def pickup_notation(pile: Sequence[str], cards: Sequence[str]) -> str:
    """A pickup from the spread discard pile, from the cards picked in the pile (from the
    bottom) and in the hand: the deepest pile card is taken with every card above it, and it
    and the other picked cards make a new meld at once."""
    if not pile:
        raise InvalidAction(_("Pick the card to take in the discard pile first."))
    if not cards:
        raise InvalidAction(_("Pick the cards of your hand it makes a new meld with."))
    return f"take {pile[0]} with " + " ".join([*pile, *cards])
