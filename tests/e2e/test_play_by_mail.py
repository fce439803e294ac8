"""Issue 11 ("play by mail"), acceptance 6: a correspondence game played by email.

Alice opens a two-seat correspondence table from the lobby form and Bob, who asked on his
profile to be emailed when it is his turn, joins it from the lobby.  Alice makes the opening
discard on her phone and logs out.  A real Celery worker sends Bob one "your turn" email
through Django's SMTP backend to a real SMTP server (aiosmtpd in this process); Bob opens its
link on his phone, logged out there, is sent to the login page, logs in, lands on the game and
plays his turn (draw, discard); then Alice, who asked for turn emails too, gets hers.
Meanwhile the badge of games waiting, on pages Alice and Bob keep open elsewhere (their
profiles on a desktop, logged in with sessions of their own), goes up and down over
``/ws/me/`` without a reload: Bob's when Alice moves and when he does, Alice's when she moves
and when the turn comes back to her.

The deal is replaced by a known position before the worker starts, so the test knows whose
turn it is and every tile it plays; the tasks queued by the real deal then meet the known
position, as a late task meets a game that moved on.
"""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.clocks import seat_clocks
from games.engine.remi.scenario import position
from games.engine.remi.state import OPEN
from games.models import Game, Seat, SeatClock, Table
from games.play import services
from notifications.badge import forget_waiting
from notifications.kinds import Kind
from notifications.models import Notice
from tests.e2e.conftest import (
    PHONE,
    assert_not_reloaded,
    let_log_in_with,
    mark_page,
    off_the_browser_loop,
    open_table_form,
    page_width,
    wait_for_socket,
)
from tests.e2e.game_page import discard, draw, expect_version, rack
from tests.smtp_sink import SMTP_BACKEND, parts_of

pytestmark = pytest.mark.django_db(transaction=True)

TWO_DAYS = 2 * 24 * 3600
# A worker takes a few seconds to start, and the suite runs two at a time on two cores.
MAIL_TIMEOUT_S = 45

# The opener (Alice) holds 15 tiles and opens the discard row with K7; Bob draws B9 from the
# wall and discards R3.
ALICE_RACK = "R1 R2 R4 R6 R8 R10 R12 Y1 Y3 Y5 Y7 Y9 B2 B4 K7"
BOB_RACK = "R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 B1 B3 B5 K2"
WALL = "B9 K11 Y12 Y13"


def known_deal(game_id: int, opener: int) -> None:
    """Replace the dealt position by the known one, ``opener`` to make the opening discard
    at version 0, as though it had been dealt: the deal's clocks go and the opener's starts
    (a clock row is the badge's record of a turn owed)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
        engine = services.game_of(game.table)
        dealt = engine.load(game.state)
        racks = [BOB_RACK, BOB_RACK]
        racks[opener] = ALICE_RACK
        state = position(
            racks=racks, rules=dealt.rules, wall=WALL, phase=OPEN, turn=opener, names=dealt.seats
        )
        SeatClock.objects.filter(game=game).delete()
        game.seat_clocks = {}
        seats = services.table_seats(game.table_id)
        seat_clocks.sync_clocks(game, engine, state, 0, seats, timezone.now())
        Game.objects.filter(pk=game_id).update(
            state=engine.dump(state),
            to_act=[opener],
            phase=OPEN,
            seat_clocks=game.seat_clocks,
            deadline=game.deadline,
        )
    forget_waiting(seat.user_id for seat in seats.values())


def badge(page: Page):
    return page.locator("#waiting-badge")


def expect_waiting(page: Page, game_id: int) -> None:
    """The badge says one game waits, and links to it."""
    link = badge(page).get_by_role("link")
    expect(link).to_have_text("1 game waiting")
    expect(link).to_have_attribute("href", f"/games/{game_id}/")


def expect_nothing_waiting(page: Page) -> None:
    expect(badge(page)).to_be_attached()
    expect(badge(page).get_by_role("link")).to_have_count(0)


def watch_badge(page: Page) -> None:
    """Open the profile (a page with no socket but the badge's) and wait for that socket."""
    page.goto("/profile/")
    wait_for_socket(page)
    mark_page(page)


def turn_on_turn_emails(page: Page) -> None:
    page.goto("/profile/")
    page.get_by_label("Email me when it is my turn in a slow game").check()
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_role("status")).to_contain_text("Your profile was saved.")


def create_correspondence_table(page: Page) -> int:
    """The lobby's Create table form: Remi, two seats, no doublas, two days a move."""
    page.goto("/lobby/")
    open_table_form(page)
    page.locator("#id_seat_count").select_option("2")
    page.locator("#id_bots").select_option("0")
    # Without doublas there is no "ready" round: play starts with the opening discard.
    page.get_by_text("More options").click()  # the rule options are folded there
    page.locator("#id_doubla").uncheck()
    page.get_by_role("radio", name=re.compile("^Correspondence")).check()
    # Choosing the pace swaps in the correspondence times, its usual one chosen: wait for
    # the swap before choosing, or the new select would replace the choice.
    move_time = page.locator("#id_move_seconds")
    expect(move_time).to_have_value(str(24 * 3600))
    move_time.select_option(label="2 days a move")
    page.locator("#create-table-submit").click()
    live = page.locator("#table-live")
    expect(live).to_have_attribute("data-status", "open")
    table_id = int(live.get_attribute("data-table-id") or "")
    table = Table.objects.get(pk=table_id)
    assert (table.pace, table.move_seconds, table.seat_count) == (Table.Pace.SLOW, TWO_DAYS, 2)
    return table_id


def the_game_link(message, site_url: str, game_id: int) -> str:
    """The one link into the game in a turn email, the same in its text and HTML parts."""
    parts = parts_of(message)
    text_links = re.findall(r"Open the game: (\S+)", parts["text/plain"])
    html_links = re.findall(r'<a href="([^"]+)">Open the game</a>', parts["text/html"])
    assert len(text_links) == 1
    assert html_links == text_links
    link = text_links[0]
    assert link.startswith(site_url + "/")
    assert f"/games/{game_id}/" in link
    return link


def test_a_correspondence_game_by_email_with_the_badge_updating_live(
    player, visitor, alice, bob, password, asgi_site, smtp_sink, monkeypatch, request
):
    # The worker that sends the emails is a child process: it reads these when it starts.
    monkeypatch.setenv("EMAIL_BACKEND", SMTP_BACKEND)
    monkeypatch.setenv("EMAIL_HOST", "127.0.0.1")
    monkeypatch.setenv("EMAIL_PORT", str(smtp_sink.port))
    monkeypatch.setenv("SITE_URL", asgi_site.url)
    inbox = smtp_sink

    let_log_in_with(bob, password)  # on his phone, later

    # Bob, on his desktop, asks for turn emails.
    bob_desk = player(bob)
    turn_on_turn_emails(bob_desk)
    bob.refresh_from_db()
    assert bob.email_on_turn

    # Alice opens the table on her phone; Bob joins it from the lobby; Alice starts.
    alice_phone = player(alice, **PHONE)
    table_id = create_correspondence_table(alice_phone)
    bob_desk.goto("/lobby/")
    bob_desk.get_by_role("button", name=f"Join table {table_id}").click()
    expect(bob_desk).to_have_url(re.compile(rf"/tables/{table_id}/$"))
    wait_for_socket(bob_desk, 2)
    start = alice_phone.locator("#start-game")
    expect(start).to_be_enabled()
    start.click()
    expect(alice_phone).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(table_id=table_id)
    game_url = f"/games/{game.pk}/"
    expect(bob_desk).to_have_url(asgi_site.url + game_url)

    alice_seat = Seat.objects.get(table_id=table_id, user=alice).position
    off_the_browser_loop(known_deal, game.pk, alice_seat)
    request.getfixturevalue("celery_worker")

    # On her desktop Alice asks for turn emails too (not before the deal: the real deal,
    # which the known one replaced, may have owed her one), and her badge shows the game
    # waiting for her.  Bob's shows nothing.
    alice_desk = player(alice)
    turn_on_turn_emails(alice_desk)
    watch_badge(alice_desk)
    expect_waiting(alice_desk, game.pk)
    watch_badge(bob_desk)
    expect_nothing_waiting(bob_desk)

    # v0 -> v1: Alice opens the discard row on her phone.
    alice_phone.reload()
    wait_for_socket(alice_phone, 2)
    expect(alice_phone.locator("#game-status .your-turn")).to_have_text("Your turn")
    assert sorted(rack(alice_phone)) == sorted(ALICE_RACK.split())
    discard(alice_phone, "K7")

    # The badges follow, live: Bob's up, Alice's down.
    expect_waiting(bob_desk, game.pk)
    expect_nothing_waiting(alice_desk)
    for page in (bob_desk, alice_desk):
        assert_not_reloaded(page)

    # Alice logs out of her phone (her desktop stays logged in: another session).
    # On a phone the menu is folded behind its button.
    nav = alice_phone.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("button", name="Log out")).to_be_hidden()
    nav.get_by_role("button", name="Menu").tap()
    expect(nav.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "true")
    nav.get_by_role("button", name="Log out").tap()
    # The menu is tapped on the page logging out leads to, once its deferred script has run
    # (a tap before then, or still on the game page, would be lost).
    expect(alice_phone).to_have_url(asgi_site.url + "/")
    alice_phone.wait_for_load_state("domcontentloaded")
    nav.get_by_role("button", name="Menu").tap()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()

    # One email for Bob, linking to the game through the login page.
    [message] = inbox.wait_for(bob.email, 1, timeout=MAIL_TIMEOUT_S)
    assert message["Subject"] == f"Your turn at table {table_id}"
    link = the_game_link(message, asgi_site.url, game.pk)

    # Bob follows the link on his phone, where he is not logged in.
    bob_phone = visitor(**PHONE)
    bob_phone.goto(link)
    expect(bob_phone).to_have_url(re.compile(rf"^{re.escape(asgi_site.url)}/accounts/login/\?"))
    bob_phone.get_by_label("Username or email").fill(bob.username)
    bob_phone.get_by_label("Password").fill(password)
    bob_phone.get_by_role("button", name="Sign In").click()
    expect(bob_phone).to_have_url(asgi_site.url + game_url)
    expect_version(bob_phone, 1)
    expect(bob_phone.locator("#game-status .your-turn")).to_have_text("Your turn")
    expect(bob_phone.locator("#game-row .row-tile")).to_have_attribute("data-tile", "K7")
    assert sorted(rack(bob_phone)) == sorted(BOB_RACK.split())
    expect_waiting(bob_phone, game.pk)
    assert page_width(bob_phone) <= 375, "sideways scroll"

    # v1 -> v3: Bob draws and discards; the turn is Alice's again.
    wait_for_socket(bob_phone, 2)
    draw(bob_phone)
    expect(bob_phone.locator("#game-log")).to_contain_text("You drew B9.")
    discard(bob_phone, "R3")
    expect(bob_phone.locator("#game-status .turn")).to_have_text("Alice's turn")

    # The badges follow, live: Bob's down (on both his devices), Alice's up.
    expect_nothing_waiting(bob_phone)
    expect_nothing_waiting(bob_desk)
    expect_waiting(alice_desk, game.pk)
    for page in (bob_desk, alice_desk):
        assert_not_reloaded(page)

    # Alice's email arrives.  The worker takes tasks in order, so it is past everything
    # Bob's moves queued: Bob still has exactly the one email (his draw, which left the
    # turn his, sent nothing).
    [to_alice] = inbox.wait_for(alice.email, 1, timeout=MAIL_TIMEOUT_S)
    assert the_game_link(to_alice, asgi_site.url, game.pk) == link
    assert len(inbox.to(bob.email)) == 1
    sent = Notice.objects.filter(kind=Kind.TURN, sent_at__isnull=False)
    assert sorted(sent.values_list("user__username", "turn")) == [("alice", "v3"), ("bob", "v1")]

    # The same link, followed where Bob is logged in already, opens the game at once.
    bob_desk.goto(link)
    expect(bob_desk).to_have_url(asgi_site.url + game_url)
    expect(bob_desk.locator("#game-status .turn")).to_have_text("Alice's turn")
