"""The "verify the deal" page of a game and the page that explains the check in plain words.

While a game is played its page shows only the commitment; the seed, and so this check, come
once it is over (games/deals.py says what is checked and why).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from games import deals, presenters
from games.models import Game
from games.play import services
from games.play.views import game_for
from games.presenters.seat_names import shown_names


@require_safe
def deal_explained(request: HttpRequest) -> HttpResponse:
    return render(request, "games/deal_explained.html")


def _hands(verification: deals.Verification, names: list[str]) -> list[dict[str, object]]:
    deal = verification.deal
    if deal is None:
        return []
    return [
        {"name": names[seat] if seat < len(names) else str(seat + 1), "cards": hand}
        for seat, hand in enumerate(deal.hands)
    ]


@require_safe
def verify_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The check, for the revealed seed or one the visitor typed (to see a wrong one fail)."""
    viewing = game_for(request, pk)
    game = viewing.game
    engine = services.game_of(game.table)
    context: dict[str, object] = {
        "game_title": presenters.game_title(engine, game),
        "commitment": game.deal_commitment,
        "game_url": reverse("games:game", args=[pk]),
        "replay_url": reverse("games:game_replay", args=[pk]),
        "explained_url": reverse("games:deal_explained"),
        "finished": game.status == Game.Status.FINISHED,
        "check": None,
        "max_length": deals.MAX_SEED_LENGTH,
    }
    revealed = deals.revealed_seed(game)
    if revealed is None:
        # Still being played: the commitment alone, and no seed is checked against it.
        return render(request, "games/deal.html", context)
    asked = request.GET.get("seed", revealed).strip()
    if not asked or len(asked) > deals.MAX_SEED_LENGTH:
        context.update(revealed=revealed, asked=asked[: deals.MAX_SEED_LENGTH], seed_error=True)
        return render(request, "games/deal.html", context, status=400)
    check = deals.verify(game, asked)
    names = shown_names(engine.ctx(engine.load(game.state)).seats)
    context.update(
        revealed=revealed,
        asked=asked,
        check=check,
        hands=_hands(check, names),
        dealer=names[check.deal.dealer] if check.deal and check.deal.dealer < len(names) else "",
        is_revealed=asked == revealed,
    )
    return render(request, "games/deal.html", context)
