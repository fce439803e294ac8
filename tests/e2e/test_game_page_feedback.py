"""Issue 13, faults 3, 4, 8, 9 and 10, in the browser: what the game page tells the player.

3. A request that fails (network down, server error) says so and keeps the selection; a
   dropped socket says it is reconnecting, and the page catches up once it is back.
4. Move numbers in the log are drawn inside the log's box (a list marker outside it lost the
   first digit of "12").
8. The "Type a move" box keeps its text and focus after a refusal; the refusal goes once the
   next move is being built.
9. "Take exposed" looks secondary and asks first.
10. Unavailable actions are quiet (no fill, dashed outline), available ones solid.

Alice plays a two-seat Remi table against Bob: a dozen real moves fill the log, then her rack
is set from notation for a turn that starts with the exposed tile R3 on offer.  The tile rummy
and the card rummies' pages are checked for the same behaviour at the end.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from games.engine.basic_rummy import GAME as BASIC_RUMMY
from games.engine.basic_rummy.scenario import position as basic_rummy_position
from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.engine.rummikub import GAME as RUMMIKUB
from games.engine.rummikub.scenario import position as rummikub_position
from games.models import Game
from games.play import services
from games.tables import lifecycle
from tests.e2e.conftest import PHONE, off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import button, cut_the_socket, expect_version, moves_sent, select_tile

pytestmark = pytest.mark.django_db(transaction=True)

ALICE_RACK = "R1 R2 K5 K6 B9 Y11 Y12"  # R3 (the exposed tile) would not let her go out
YELLOW = "rgb(249, 168, 37)"
WHITE = "rgb(255, 255, 255)"
NO_FILL = "rgba(0, 0, 0, 0)"


def _deal_and_play(alice, bob) -> Game:
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    first = game.state["first_player"]
    version = 0
    services.play(game.pk, first, f"discard {game.state['racks'][first].split()[0]}", version)
    version, seat = 1, 1 - first
    # Draw and discard in turn until the log's numbers have two digits and Alice is to draw.
    while version < 12 or seat != 0:
        services.play(game.pk, seat, "draw", version)
        rack = Game.objects.get(pk=game.pk).state["racks"][seat].split()
        services.play(game.pk, seat, f"discard {rack[0]}", version + 1)
        version, seat = version + 2, 1 - seat
    state = scenario.position(
        racks=[ALICE_RACK, "K1 K2 K3 B4 B5"],
        rules=REMI.with_options(doubla=False),
        wall="B7 B8 B10 K12 Y4",
        exposed="R3",
        melded=[0],
        turn=0,
        names=["Alice", "bob"],
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[0])
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def alices_turn(alice, bob) -> Game:
    return off_the_browser_loop(_deal_and_play, alice, bob)


def open_game(page: Page, game: Game) -> None:
    page.goto(game.get_absolute_url())
    wait_for_socket(page)
    expect_version(page, game.version)


def open_game_without_its_socket(page: Page, game: Game) -> None:
    """The game page with its socket refused: its moves go by HTTP, the path these tests'
    failures are about."""
    cut_the_socket(page)
    page.goto(game.get_absolute_url())
    expect_version(page, game.version)


def style(page: Page, selector: str, prop: str, pseudo: str | None = None) -> str:
    return page.locator(selector).first.evaluate(
        "(el, [prop, pseudo]) => getComputedStyle(el, pseudo).getPropertyValue(prop)",
        [prop, pseudo],
    )


# --- 4. The log's numbers -------------------------------------------------------------------


def test_two_digit_move_numbers_are_drawn_inside_the_log(player, alice, alices_turn):
    page = player(alice, **PHONE)
    open_game(page, alices_turn)
    entry = "#game-log li[value='12']"
    # The number is the entry's own first box, not a marker hung outside the scrolling log.
    assert style(page, entry, "content", "::before") == '"12."'
    assert style(page, "#game-log .log", "list-style-type") == "none"
    inside = page.locator(entry).evaluate(
        """li => {
          const log = li.closest(".log").getBoundingClientRect();
          const box = li.getBoundingClientRect();
          return box.left >= log.left && box.right <= log.right + 0.5;
        }"""
    )
    assert inside


# --- 10. Available and unavailable actions --------------------------------------------------


def test_unavailable_actions_are_quiet_and_available_ones_solid(player, alice, alices_turn):
    page = player(alice)
    open_game(page, alices_turn)
    draw, discard = button(page, "Draw"), button(page, "Discard")
    expect(draw).to_be_enabled()
    expect(discard).to_be_disabled()
    assert style(page, "#game-controls button[value='draw']", "background-color") == YELLOW
    assert style(page, "#game-controls button[value='discard']", "background-color") == NO_FILL
    assert style(page, "#game-controls button[value='discard']", "border-top-style") == "dashed"
    assert style(page, "#game-controls button[value='discard']", "opacity") == "1"


# --- 9. Take exposed ------------------------------------------------------------------------


def test_take_exposed_is_secondary_and_asks_before_it_binds_the_player(player, alice, alices_turn):
    page = player(alice)
    open_game(page, alices_turn)
    take = button(page, "Take exposed")
    assert style(page, "#game-controls button[value='exposed']", "background-color") == WHITE
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    asked: list[str] = []

    def say_no(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", say_no)
    take.click()
    assert asked and "meld all your other tiles" in asked[0]
    # "No" sent nothing: the same click, answered yes, is what moves (bounded by its wait).
    page.once("dialog", lambda dialog: dialog.accept())
    page.keyboard.press("e")  # the shortcut asks too
    expect_version(page, alices_turn.version + 1)
    assert [move["verb"] for move in moves_sent(page)] == ["exposed"]  # over the socket
    assert posts == []
    expect(page.locator("#game-rack .rack-tile[data-tile='R3']")).to_have_count(1)


# --- 3. Failed requests and a dropped socket ------------------------------------------------


def test_a_failed_request_says_so_and_keeps_the_selection(player, alice, alices_turn):
    page = player(alice)
    open_game_without_its_socket(page, alices_turn)
    select_tile(page, "B9")
    expect(page.locator("#game-selection")).to_have_text("B9")

    page.route("**/act/", lambda route: route.abort("internetdisconnected"))
    button(page, "Draw").click()
    expect(page.locator("#game-error")).to_have_text(
        "Could not reach the server: check your connection and try again. Your selection is kept."
    )
    expect(page.locator("#game-selection")).to_have_text("B9")
    page.unroute("**/act/")

    page.route("**/act/", lambda route: route.fulfill(status=500, body="Server Error"))
    button(page, "Draw").click()
    expect(page.locator("#game-error")).to_contain_text("(error 500)")
    expect(page.locator("#game-selection")).to_have_text("B9")
    page.unroute("**/act/")

    button(page, "Draw").click()  # trying again works, and the redraw clears the message
    expect_version(page, alices_turn.version + 1)
    expect(page.locator("#game-error")).to_have_text("")


def test_a_dropped_socket_says_it_is_reconnecting_and_catches_up(player, alice, alices_turn):
    page = player(alice)
    sockets: list[WebSocketRoute] = []
    refused = {"now": False}

    def through(ws: WebSocketRoute) -> None:
        if refused["now"]:
            ws.close(code=1011)  # the server is away: the page keeps trying
            return
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws/games/"), through)
    open_game(page, alices_turn)
    note = page.locator("#game-connection")
    expect(note).to_be_hidden()

    refused["now"] = True
    sockets[-1].close(code=1006)
    expect(note).to_be_visible()
    expect(note).to_contain_text("Connection lost: reconnecting")
    # A move made while the page is cut off (from another tab, say)...
    off_the_browser_loop(services.play, alices_turn.pk, 0, "draw", alices_turn.version)
    refused["now"] = False
    # ...is on the page once the socket is back, without a reload.
    expect(note).to_be_hidden()
    expect_version(page, alices_turn.version + 1)


# --- 8. The typed move ----------------------------------------------------------------------


def test_a_refused_typed_move_stays_in_the_box_with_the_focus(player, alice, alices_turn):
    page = player(alice)
    open_game(page, alices_turn)
    page.locator("#game-controls summary", has_text="Type a move").click()
    box = page.locator("#notation-input")
    box.fill("discard B9")  # a discard before drawing: refused
    box.press("Enter")
    expect(page.locator("#game-error")).to_have_text(
        "Start your turn by drawing a tile or taking from the discard row."
    )
    expect(page.locator("#game-controls details.notation")).to_have_attribute("open", "")
    expect(box).to_have_value("discard B9")
    expect(box).to_be_focused()

    # The next change clears the old refusal: typing...
    box.press("Backspace")
    expect(page.locator("#game-error")).to_have_text("")
    box.fill("discard B9")
    box.press("Enter")
    expect(page.locator("#game-error")).not_to_have_text("")
    # ...or choosing a tile.
    select_tile(page, "Y11")
    expect(page.locator("#game-error")).to_have_text("")

    # A move that goes in empties the box and leaves it open for the next one.
    box.fill("draw")
    box.press("Enter")
    expect_version(page, alices_turn.version + 1)
    expect(page.locator("#notation-input")).to_have_value("")
    expect(page.locator("#game-controls details.notation")).to_have_attribute("open", "")


# --- The same page behaviour in the tile rummy -----------------------------------------------


def _tile_rummy_game(alice, bob) -> Game:
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = rummikub_position(
        names=["alice", "bob"], racks=["R6 R7 K2 B5", "Y1 Y2 Y9 B13"], stock="K7 K8 K9"
    )
    Game.objects.filter(pk=game.pk).update(state=RUMMIKUB.dump(state), to_act=[0])
    return Game.objects.get(pk=game.pk)


def test_the_tile_rummy_page_keeps_a_refused_typed_move_and_reports_a_failed_request(
    player, alice, bob
):
    game = off_the_browser_loop(_tile_rummy_game, alice, bob)
    page = player(alice)
    open_game_without_its_socket(page, game)
    page.locator("#game-controls summary", has_text="Type a move").click()
    box = page.locator("#notation-input")
    box.fill("play R6 R7 R8")
    box.press("Enter")
    expect(page.locator("#game-error")).to_have_text("Not on your rack: R8.")
    expect(box).to_have_value("play R6 R7 R8")
    expect(box).to_be_focused()

    page.route("**/act/", lambda route: route.abort("internetdisconnected"))
    page.locator("#draw-button").click()
    expect(page.locator("#game-error")).to_contain_text("Could not reach the server")
    page.unroute("**/act/")
    page.locator("#draw-button").click()
    expect_version(page, game.version + 1)


# --- The same page behaviour in the card rummies ---------------------------------------------


def _card_rummy_game(alice, bob) -> Game:
    table = lifecycle.create_table(alice, game_type="basic-rummy", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = basic_rummy_position(
        ["5H 6H 7H 9S 9D 9C 2C KC", "2D 4S 6C 8D JS QD KH"],
        stock="4C 10D 9H 3S 8H",
        discard="QC",
        turns_taken=0,
    )
    state.seats = list(BASIC_RUMMY.load(game.state).seats)
    Game.objects.filter(pk=game.pk).update(state=BASIC_RUMMY.dump(state), to_act=[0])
    return Game.objects.get(pk=game.pk)


def test_the_card_rummy_page_keeps_a_refused_typed_move_and_reports_a_failed_request(
    player, alice, bob
):
    game = off_the_browser_loop(_card_rummy_game, alice, bob)
    page = player(alice)
    open_game_without_its_socket(page, game)
    error = page.locator("#game-error")
    page.locator("#game-controls summary", has_text="Type a move").click()
    box = page.locator("#notation-input")
    box.fill("discard KC")  # before drawing: refused
    box.press("Enter")
    expect(error).not_to_have_text("")
    expect(box).to_have_value("discard KC")
    expect(box).to_be_focused()

    # Picking a card is building the next move: the old refusal goes.
    page.locator('#game-rack .hand-card[data-card="KC"]').click()
    expect(error).to_have_text("")

    page.route("**/act/", lambda route: route.abort("internetdisconnected"))
    page.locator("#draw-button").click()
    expect(error).to_contain_text("Could not reach the server")
    expect(page.locator('#game-rack .hand-card[data-card="KC"] input')).to_be_checked()
    page.unroute("**/act/")
    page.route("**/act/", lambda route: route.fulfill(status=500, body="Server Error"))
    page.locator("#draw-button").click()
    expect(error).to_contain_text("(error 500)")
    page.unroute("**/act/")

    page.locator("#draw-button").click()
    expect_version(page, game.version + 1)
    # A draw uses no picked card: the one picked ahead is still picked for the discard.
    expect(page.locator('#game-rack .hand-card[data-card="KC"] input')).to_be_checked()
    page.locator("#discard-button").click()
    expect_version(page, game.version + 2)
    expect(page.locator('#game-rack .hand-card[data-card="KC"]')).to_have_count(0)
