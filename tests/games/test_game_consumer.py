"""The game WebSocket, through the real Redis channel layer and the session login: each
socket gets its own seat's view after a move, and never anything of another rack."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.models import Game
from games.play import live_views, news, page_tabs, services
from games.play.consumers import GameConsumer
from games.play.spectators import SPECTATORS
from games.presenters.remi.presentation import tile_view
from remi_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")  # a browser always says which site it asked for


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()  # one per user: logging another user in would end the first session
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


def socket(
    game: Game, cookie: tuple[bytes, bytes] | None, query: str = ""
) -> WebsocketCommunicator:
    headers = [ORIGIN, HOST] + ([cookie] if cookie else [])
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/{query}", headers=headers)


def rack_section(html: str) -> str:
    match = re.search(r'<section id="game-rack".*?</section>', html, re.S)
    assert match, "no rack in the message"
    return match.group(0)


def rack_tiles(html: str) -> list[str]:
    return re.findall(r'data-tile="([^"]+)"', rack_section(html))


def top_level_ids(html: str) -> list[str]:
    return re.findall(r'^  <section id="([^"]+)"[^>]*hx-swap-oob="true"', html, re.M)


def test_each_seat_receives_its_own_rack_after_a_move_and_never_the_other(alice, bob, started):
    first = started.state["first_player"]
    cookies = [session_cookie(alice), session_cookie(bob)]

    async def scenario() -> list[str]:
        sockets = [socket(started, cookie, "?version=0") for cookie in cookies]
        for ws in sockets:
            connected, _ = await ws.connect()
            assert connected
            assert await ws.receive_nothing(timeout=0.3)  # the page is up to date
        tile = started.state["racks"][first].split()[0]
        await database_sync_to_async(services.play)(started.pk, first, f"discard {tile}", 0)
        received = [await ws.receive_from(timeout=5) for ws in sockets]
        for ws in sockets:
            assert await ws.receive_nothing(timeout=0.3)  # one move, one message
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    racks = [r.split() for r in Game.objects.get(pk=started.pk).state["racks"]]
    for seat, html in enumerate(received):
        assert sorted(rack_tiles(html)) == sorted(racks[seat])
        assert 'class="game-status" data-version="1"' in html
        assert {"game-status", "game-rack", "game-controls", "game-log"} <= set(top_level_ids(html))
        # The other rack is nowhere in this seat's rack section, nor are tiles only it holds
        # anywhere else (tiles also on the table or in the row may show there legitimately).
        other = racks[1 - seat]
        state = Game.objects.get(pk=started.pk).state
        # The exposed tile is public too: it shows whoever holds its twin.
        public = set(racks[seat]) | set(state["discards"].split()) | {state["exposed"]}
        mine = rack_section(html)
        for tile in set(other) - set(racks[seat]):
            assert f'data-tile="{tile}"' not in mine
        for tile in set(other) - public:
            assert f'data-tile="{tile}"' not in html
            if tile != "J":  # "Joly" is also a button's word
                label = tile_view(tile).label  # "blue 5": how a tile is named to people
                assert not re.search(rf"\b{label}\b(?!\d)", html)


def test_a_spectator_socket_gets_the_public_view_without_a_rack(carol, started):
    cookie = session_cookie(carol)

    async def scenario() -> str:
        ws = socket(started, cookie, "?version=0")
        connected, _ = await ws.connect()
        assert connected
        first = started.state["first_player"]
        tile = started.state["racks"][first].split()[0]
        await database_sync_to_async(services.play)(started.pk, first, f"discard {tile}", 0)
        html = await ws.receive_from(timeout=5)
        await ws.disconnect()
        return html

    html = async_to_sync(scenario)()
    assert rack_tiles(html) == []
    assert "You are watching this game." in html


def test_a_socket_behind_the_game_is_sent_the_current_view_at_once(alice, started):
    first = started.state["first_player"]
    tile = started.state["racks"][first].split()[0]
    services.play(started.pk, first, f"discard {tile}", 0)
    cookie = session_cookie(alice)

    async def scenario() -> tuple[str, bool]:
        behind = socket(started, cookie, "?version=0")
        assert (await behind.connect())[0]
        html = await behind.receive_from(timeout=5)
        await behind.disconnect()
        current = socket(started, cookie, "?version=1")
        assert (await current.connect())[0]
        quiet = await current.receive_nothing(timeout=0.3)
        await current.disconnect()
        return html, quiet

    html, quiet = async_to_sync(scenario)()
    assert 'class="game-status" data-version="1"' in html
    assert quiet


def test_old_and_repeated_events_are_skipped(alice, started):
    cookie = session_cookie(alice)

    async def scenario() -> bool:
        ws = socket(started, cookie, "?version=0")
        assert (await ws.connect())[0]
        layer = get_channel_layer()
        group = news.group_name(started.pk)
        await layer.group_send(group, {"type": "game.updated", "version": 0})
        await layer.group_send(group, {"type": "game.updated", "version": "junk"})
        quiet = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return quiet

    assert async_to_sync(scenario)()


def test_the_page_that_made_a_move_is_not_sent_it_again_but_every_other_page_is(
    alice, bob, started
):
    """The act answer already showed the mover's page its new position (games.play.page_tabs)."""
    first = started.state["first_player"]
    mover, opponent = (alice, bob) if first == 0 else (bob, alice)
    mover_client = Client()
    mover_client.force_login(mover)
    name = settings.SESSION_COOKIE_NAME
    cookie = (b"cookie", f"{name}={mover_client.cookies[name].value}".encode())
    tile = started.state["racks"][first].split()[0]
    opponent_cookie = session_cookie(opponent)

    async def scenario() -> tuple[str, str, str, bool, str]:
        this_page = socket(started, cookie, "?version=0&tab=page-one-0123")
        other_tab = socket(started, cookie, "?version=0&tab=page-two-0123")
        # An opponent's page giving the mover's page name: it changes nothing for them.
        rival = socket(started, opponent_cookie, "?version=0&tab=page-one-0123")
        for ws in (this_page, other_tab, rival):
            assert (await ws.connect())[0]
        answer = await database_sync_to_async(mover_client.post)(
            f"/games/{started.pk}/act/",
            {"version": 0, "verb": "notation", "notation": f"discard {tile}"},
            HTTP_HX_REQUEST="true",
            HTTP_X_REMI_TAB="page-one-0123",
        )
        on_other_tab = await other_tab.receive_from(timeout=5)
        on_rival = await rival.receive_from(timeout=5)
        skipped = await this_page.receive_nothing(timeout=0.5)
        # The next move, the opponent's, reaches the page that made the first one.
        game = await database_sync_to_async(Game.objects.get)(pk=started.pk)
        played = await database_sync_to_async(services.play)(
            started.pk, 1 - first, "draw", game.version
        )
        print("PLAYED", played.game.version, game.version, played.events)
        print("OTHER", (await other_tab.receive_from(timeout=5))[:100])
        next_move = await this_page.receive_from(timeout=5)
        for ws in (this_page, other_tab, rival):
            await ws.disconnect()
        return answer.content.decode(), on_other_tab, on_rival, skipped, next_move

    answer, on_other_tab, on_rival, skipped, next_move = async_to_sync(scenario)()
    assert 'class="game-status" data-version="1"' in answer
    assert 'class="game-status" data-version="1"' in on_other_tab
    assert 'class="game-status" data-version="1"' in on_rival
    assert skipped, "the page that made the move was sent it a second time"
    assert 'class="game-status" data-version="2"' in next_move


def test_a_page_name_not_in_the_form_of_one_is_ignored():
    assert page_tabs.valid_tab("page-one-0123") == "page-one-0123"
    for forged in ("", "short", "x" * 33, "has space12", "évidemment", None):
        assert page_tabs.valid_tab(forged) == ""


def test_garbage_frames_do_not_break_the_socket(alice, started):
    cookie = session_cookie(alice)

    async def scenario() -> str:
        ws = socket(started, cookie, "?version=0")
        assert (await ws.connect())[0]
        await ws.send_to(text_data="not json {")
        await ws.send_to(text_data="x" * 1_000_000)
        await ws.send_to(bytes_data=b"\x00\xff" * 1000)
        await ws.send_to(text_data='{"type": "game.updated", "version": 99}')
        # Each is answered with a sentence in the error area, and changes nothing.
        for _ in range(4):
            refusal = await ws.receive_from(timeout=5)
            assert 'id="game-error"' in refusal and "could not read that move" in refusal
        assert await ws.receive_nothing(timeout=0.3)
        assert (await Game.objects.aget(pk=started.pk)).version == 0
        first = started.state["first_player"]
        tile = started.state["racks"][first].split()[0]
        await database_sync_to_async(services.play)(started.pk, first, f"discard {tile}", 0)
        html = await ws.receive_from(timeout=5)  # still alive and serving
        await ws.disconnect()
        return html

    assert 'class="game-status" data-version="1"' in async_to_sync(scenario)()


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_a_socket_without_access_is_refused(carol, private_game, who):
    cookie = session_cookie(carol) if who == "outsider" else None

    async def scenario() -> bool:
        ws = socket(private_game, cookie)
        connected, _ = await ws.connect()
        await ws.disconnect()
        return connected

    assert not async_to_sync(scenario)()


def test_an_unknown_game_socket_is_refused(alice, db):
    cookie = session_cookie(alice)

    async def scenario() -> bool:
        ws = WebsocketCommunicator(application, "/ws/games/987654/", headers=[ORIGIN, HOST, cookie])
        connected, _ = await ws.connect()
        await ws.disconnect()
        return connected

    assert not async_to_sync(scenario)()


def test_a_consumer_render_makes_a_bounded_number_of_queries(
    alice, started, django_assert_max_num_queries
):
    # Measured: 3 (the game with its table, the seats, the log's actions).
    consumer = GameConsumer()
    consumer.game_id = started.pk
    consumer.seat = 0
    with django_assert_max_num_queries(4):
        rendered = consumer._render(-1)
    assert rendered is not None
    assert rendered.version == 0
    assert consumer._render(0) is None  # nothing newer: one query, nothing rendered


def test_spectators_share_one_render_and_each_seat_gets_its_own(alice, bob, carol, started):
    """Issue 15: the sockets of one process read a version once and render it once per seat
    and once for all the spectators — and a render only ever goes to its own seat's sockets."""
    first = started.state["first_player"]
    # alice and bob in two tabs each, carol and two anonymous visitors watching.
    cookies = [session_cookie(alice), session_cookie(bob), session_cookie(carol)]
    who = [0, 0, 1, 1, None, None, None]
    headers = [cookies[0], cookies[0], cookies[1], cookies[1], cookies[2], None, None]

    async def scenario() -> tuple[list[str], int, int]:
        sockets = [socket(started, cookie, "?version=0") for cookie in headers]
        for ws in sockets:
            assert (await ws.connect())[0]
        # The three spectators are one member of the game's group, through this process.
        assert SPECTATORS.count(started.pk) == 3
        renders, reads = live_views.SHARED.renders, live_views.SHARED.reads
        tile = started.state["racks"][first].split()[0]
        await database_sync_to_async(services.play)(started.pk, first, f"discard {tile}", 0)
        received = [await ws.receive_from(timeout=5) for ws in sockets]
        for ws in sockets:
            assert await ws.receive_nothing(timeout=0.2)
            await ws.disconnect()
        assert SPECTATORS.count(started.pk) == 0
        return received, live_views.SHARED.renders - renders, live_views.SHARED.reads - reads

    received, renders, reads = async_to_sync(scenario)()
    assert (renders, reads) == (3, 1)  # alice's seat, bob's, the spectators'; one read
    state = Game.objects.get(pk=started.pk).state
    racks = [r.split() for r in state["racks"]]
    for seat, html in zip(who, received, strict=True):
        assert 'title="Moves played">v1<' in html
        if seat is None:
            assert rack_tiles(html) == []
            assert "You are watching this game." in html
            assert html == received[4]
        else:
            assert 'class="game-status" data-version="1"' in html
            assert sorted(rack_tiles(html)) == sorted(racks[seat])
            public = set(racks[seat]) | set(state["discards"].split()) | {state["exposed"]}
            for tile in set(racks[1 - seat]) - public:
                assert f'data-tile="{tile}"' not in html
    assert received[0] == received[1] and received[2] == received[3]
    assert received[0] != received[2]


def test_a_shared_snapshot_is_read_again_once_it_is_old(alice, started):
    """A render reused only for a few seconds: what a version does not change (a rack's
    order) is never stale for longer."""
    views = live_views.SharedViews(seconds=0.0)
    first = views.snapshot(started.pk, 0)
    again = views.snapshot(started.pk, 0)
    assert first is not None and again is not None and again is not first
    assert views.reads == 2
    kept = live_views.SharedViews(seconds=60.0)
    assert kept.snapshot(started.pk, 0) is kept.snapshot(started.pk, 0)
    assert kept.snapshot(987654, 0) is None
