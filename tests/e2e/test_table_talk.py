"""Two players and an anonymous spectator at one table: the players' chat arrives live on
the other player's page and never on the spectator's; the tab title says whose turn it is;
at the end, "Play again" seats the same players at a new table and the other player's page
links to it at once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Route, expect

from games.models import Game, Table
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.games.clock_helpers import discard_last
from tests.games.playing import play_out

pytestmark = pytest.mark.django_db(transaction=True)

YOUR_TURN = re.compile(r"^\(1\) Your turn · ")


def one_game_match(alice, bob) -> Game:
    table = lifecycle.create_table(
        alice, game_type="remi", seat_count=2, options={"doubla": False, "series_games": 1}
    )
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def test_two_players_talk_watch_the_turn_and_play_again(player, visitor, alice, bob):
    game = off_the_browser_loop(one_game_match, alice, bob)
    (mover,) = game.to_act
    pages = [player(alice), player(bob)]
    spectator = visitor()
    for page in pages:
        page.goto(f"/games/{game.pk}/")
        wait_for_socket(page, 3)  # the game's, the chat's and the badge's
    spectator.goto(f"/games/{game.pk}/")
    wait_for_socket(spectator, 1)
    expect(spectator.locator("#game-chat")).to_have_count(0)  # visitors read no chat

    # Whose turn: the tab says it to the one who must move, and only to them.
    expect(pages[mover]).to_have_title(YOUR_TURN)
    assert not YOUR_TURN.match(pages[1 - mover].title())

    # The players' chat, live.
    pages[0].locator("#chat-text").fill("Hello <Bob>")
    pages[0].get_by_role("button", name="Send").click()
    expect(pages[1].locator("#chat-lines")).to_contain_text("Alice: Hello <Bob>")
    expect(pages[0].locator("#chat-text")).to_have_value("")
    pages[1].get_by_role("button", name="Good luck!").click()
    expect(pages[0].locator("#chat-lines")).to_contain_text("bob: Good luck!")
    # Enter in the box sends what was typed, not the first quick phrase.
    pages[1].locator("#chat-text").fill("Thanks, you too")
    pages[1].locator("#chat-text").press("Enter")
    expect(pages[0].locator("#chat-lines")).to_contain_text("bob: Thanks, you too")
    expect(pages[1].locator("#chat-text")).to_have_value("")

    # The mover plays; the turn, and the title, go to the other player.
    off_the_browser_loop(discard_last, game, mover)
    expect(pages[1 - mover]).to_have_title(YOUR_TURN)
    expect(pages[mover]).not_to_have_title(YOUR_TURN)
    assert "Hello" not in spectator.content() and "Good luck" not in spectator.content()

    # The match ends; Alice asks to play again and both land at one new table.
    off_the_browser_loop(play_out, game)
    expect(pages[0].locator("#play-again")).to_be_visible()
    pages[0].locator("#play-again").click()
    expect(pages[0]).to_have_url(re.compile(r"/tables/\d+/$"))
    new = Table.objects.get(rematch_of=game.table)
    assert sorted(new.seats.values_list("user__username", flat=True)) == ["alice", "bob"]
    link = pages[1].get_by_role("link", name="Go to the table to play again")
    expect(link).to_have_attribute("href", f"/tables/{new.pk}/")


def test_text_typed_while_a_quick_phrase_is_on_its_way_is_kept(player, alice, bob):
    """What the player types while a quick phrase is on its way stays in the box when the
    answer comes (it used to redraw the box empty, as it was sent), and Enter sends it."""
    game = off_the_browser_loop(one_game_match, alice, bob)
    alices, bobs = player(alice), player(bob)
    for page in (alices, bobs):
        page.goto(f"/games/{game.pk}/")
        wait_for_socket(page, 3)
    held: list[Route] = []

    def hold_back(route: Route) -> None:
        held.append(route)

    bobs.route(f"**/games/{game.pk}/chat/", hold_back)

    bobs.get_by_role("button", name="Good luck!").click()
    for _ in range(750):  # the phrase's request, kept back; the page's events come in meanwhile
        if held:
            break
        bobs.wait_for_timeout(20)
    assert held, "the quick phrase was not posted"
    box = bobs.locator("#chat-text")
    box.fill("Thanks, you too")
    held[0].continue_()
    bobs.unroute(f"**/games/{game.pk}/chat/", hold_back)
    expect(alices.locator("#chat-lines")).to_contain_text("bob: Good luck!")
    expect(bobs.locator("#chat-form.htmx-request")).to_have_count(0)
    expect(box).to_have_value("Thanks, you too")

    box.press("Enter")
    expect(alices.locator("#chat-lines")).to_contain_text("bob: Thanks, you too")
    expect(box).to_have_value("")
