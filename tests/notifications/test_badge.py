"""The navigation's badge of games waiting: on every page for a logged-in player, in words
("2 games waiting, 1 urgent"), and kept current over /ws/me/ after every move."""

from __future__ import annotations

import re

import pytest
import time_machine
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.sockets import LOGIN_ENDED_CLOSE_CODE
from remi_site.asgi import application
from remi_site.redis_urls import Use
from tests.notifications.conftest import DAY, hours, start_game, until_turn_of

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")


def badge_text(html: str) -> str:
    match = re.search(r'<span id="waiting-badge".*?</span>\s*(?=</li>|$)', html, re.S)
    assert match, "no badge on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(0)).split()).replace(" ,", ",")


@pytest.mark.django_db
def test_every_page_shows_how_many_games_wait_and_how_many_are_urgent(
    client, alice, bob, carol, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        quick = until_turn_of(start_game(carol, bob, move_seconds=3600), bob)
        until_turn_of(start_game(alice, bob, move_seconds=DAY), bob)
    client.force_login(bob)
    for page in ("home", "games:lobby", "accounts:profile"):
        assert badge_text(client.get(reverse(page)).content.decode()) == "2 games waiting"
    with time_machine.travel(quick.updated_at + hours(0.9), tick=False):
        # The cached badge lives until the first turn turns urgent, by Redis's own clock,
        # which time_machine does not move: a new login counts afresh instead.
        client.force_login(bob)
        html = client.get(reverse("home")).content.decode()
    assert badge_text(html) == "⏰ 2 games waiting, 1 urgent"
    assert f'href="/games/{quick.pk}/"' in html  # the link goes to the most urgent one

    client.force_login(carol)  # carol waits for bob: nothing to show, but the slot is there
    assert badge_text(client.get(reverse("home")).content.decode()) == ""
    client.logout()
    assert 'id="waiting-badge"' not in client.get(reverse("home")).content.decode()


def logged_in(user) -> tuple[Client, tuple[bytes, bytes]]:
    """A browser logged in as ``user``, and the cookie header its sockets send."""
    browser = Client()
    browser.force_login(user)
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return browser, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())


def me_socket(*headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, "/ws/me/", headers=[ORIGIN, HOST, *headers])


@pytest.mark.django_db(transaction=True)
def test_the_socket_refuses_anonymous_visitors_and_other_sites():
    async def scenario() -> tuple[bool, bool]:
        anonymous = me_socket()
        anonymous_ok, _ = await anonymous.connect()
        foreign = WebsocketCommunicator(
            application, "/ws/me/", headers=[(b"origin", b"http://evil.example"), HOST]
        )
        foreign_ok, _ = await foreign.connect()
        # A refused consumer still waits on the channel layer until its client goes; left
        # waiting, its read can hang the event loop's shutdown.
        await anonymous.disconnect(timeout=10)
        await foreign.disconnect(timeout=10)
        return anonymous_ok, foreign_ok

    assert async_to_sync(scenario)() == (False, False)


@pytest.mark.django_db(transaction=True)
def test_a_move_updates_the_badge_of_both_players_and_logging_out_closes_it(alice, bob):
    game = until_turn_of(start_game(alice, bob), alice)
    alice_browser, alice_cookie = logged_in(alice)
    _, bob_cookie = logged_in(bob)

    async def scenario() -> tuple[str, str, str, str, int | None]:
        alices, bobs = me_socket(alice_cookie), me_socket(bob_cookie)
        assert (await alices.connect())[0] and (await bobs.connect())[0]
        alice_first, bob_first = await alices.receive_from(5), await bobs.receive_from(5)
        await database_sync_to_async(until_turn_of)(game, bob)  # one turn may be two moves
        alice_after, bob_after = await alices.receive_from(5), await bobs.receive_from(5)
        await sync_to_async(alice_browser.post)("/accounts/logout/")
        closed = await alices.receive_output(timeout=5)
        await bobs.disconnect()
        return alice_first, bob_first, alice_after, bob_after, closed.get("code")

    alice_first, bob_first, alice_after, bob_after, code = async_to_sync(scenario)()
    assert badge_text(alice_first) == "1 game waiting"
    assert badge_text(bob_first) == ""
    for fragment in (alice_first, bob_first, alice_after, bob_after):
        assert 'hx-swap-oob="true"' in fragment
        # Counts and links only: nothing from the game's state can be in it.
        assert "data-tile" not in fragment and "rack" not in fragment
    assert (badge_text(alice_after), badge_text(bob_after)) == ("", "1 game waiting")
    assert code == LOGIN_ENDED_CLOSE_CODE


@pytest.mark.django_db
def test_the_cached_badge_lasts_no_longer_than_until_a_turn_turns_urgent(
    client, bob, carol, redis_server, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        until_turn_of(start_game(carol, bob, move_seconds=100), bob)
    client.force_login(bob)
    ttl = redis_server.client(Use.CACHE).ttl(cache.make_key(f"notifications:waiting:{bob.pk}"))
    assert 0 < ttl <= 80
