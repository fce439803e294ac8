"""At an unrated table against a bot, the player whose turn it is to lay sees a Hint button in
the game page's controls (loaded into them after the page), taps it on a phone, and reads the
best play in its place, counted."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.play import services
from reviews.models import Hint
from tests.e2e.conftest import PHONE, page_width
from tests.games.test_reviews import against_bots, to_decision

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hint_on_a_phone_at_a_table_against_a_bot(alice, player, asgi_site):
    game = to_decision(against_bots(alice, "basic-rummy"), 0)
    page = player(alice, **PHONE)
    page.goto(f"{asgi_site.url}/games/{game.pk}/")
    button = page.locator("#game-controls [data-hint]")
    expect(button).to_be_visible()
    button.tap()
    engine = services.game_of(game.table)
    view = engine.player_view(engine.load(game.state), 0)
    best = engine.reviewer().best(view, lambda: False)
    count = best.measure.pieces
    said = (
        f"Best play: lay {count} card{'s' if count != 1 else ''}."
        if count
        else "Nothing can be laid now"
    )
    answer = page.locator("#game-controls .hint-answer")
    expect(answer).to_contain_text(said)
    expect(answer.locator("[data-piece]")).to_have_count(len(best.placed))
    assert Hint.objects.filter(game=game, seat=0).count() == 1
    assert page_width(page) <= 375
