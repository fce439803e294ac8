"""Issue 28: a game page's update as parts.  Parts every viewer sees alike are rendered once
per version and language from a spectator's view and shared; each socket is sent only the
parts that changed since what it was itself last sent — and the page they add up to is always
the whole current position, for every game, after reconnects, late news and a rack arranged
over HTTP."""

from __future__ import annotations

import itertools
import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import presenters
from games.engine import GAMES, get_game
from games.models import Game
from games.play import live_views, news, services
from games.play.page_parts import part_names, render_parts
from games.tables import lifecycle
from tests.conftest import make_user
from tests.games.socket_pages import SocketPage, frame_parts, whole
from tests.games.test_game_consumer import session_cookie, socket
from tests.scale import examples

# Random games per game type (each played to its end or MOVES moves): 2 as CI runs it, scaled
# by TEST_SCALE (tests/scale.py).
PARTS_GAMES = examples(2)
MOVES = 200
CHECK_EVERY = 4  # versions between two checks (and always the last one)
LOCALES = [("en", None), ("ro", None)]
HTMX = {"HTTP_HX_REQUEST": "true"}
# One number per example: hypothesis runs every example (and replays a failing one) in the
# same test transaction, so names made from the seed alone met again and broke it.
EXAMPLE = itertools.count()


def seated(game_type: str, players: int, tag: str) -> Game:
    users = [make_user(f"{tag}-{n}") for n in range(players)]
    table = lifecycle.create_table(users[0], game_type=game_type, seat_count=players)
    for user in users[1:]:
        lifecycle.join_table(table, user)
    return lifecycle.start_table(table, users[0])


def check_version(game_id: int, views: live_views.SharedViews) -> None:
    snapshot = live_views.read_snapshot(game_id)
    assert snapshot is not None
    game = snapshot.game
    template = snapshot.template
    alike = presenters.presenter_for(game.table.game_type).public_parts
    assert alike <= set(part_names(template)), "a public part the page does not have"
    for locale in LOCALES:
        english = locale[0] == "en"
        with translation.override(locale[0]):
            spectator = dict(render_parts(template, live_views.viewer_context(snapshot, None)))
            for seat in [None, *range(len(snapshot.seats))]:
                context = live_views.viewer_context(snapshot, seat)
                own = render_parts(template, context)
                for name, html in own:
                    if name in alike:
                        assert html == spectator[name], f"{name} differs for seat {seat}"
                if not english:
                    continue
                # The parts, one by one, are the page's whole update, byte for byte.
                whole = live_views.render_updates(snapshot, seat)
                assert "".join(html for _, html in own) == whole
                # What the shared render hands this seat is what its own render would be.
                shared = views.rendered(snapshot, seat, locale)
                assert shared.version == game.version
                assert shared.parts == own


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", list(GAMES))
@settings(
    max_examples=PARTS_GAMES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_the_parts_alike_for_all_are_what_each_seat_would_render(game_type, seed, players):
    engine = get_game(game_type)
    game = seated(game_type, players, f"parts{next(EXAMPLE)}")
    views = live_views.SharedViews(seconds=60.0)
    rng = random.Random(seed)
    for _ in range(MOVES):
        game.refresh_from_db()
        if game.version % CHECK_EVERY == 0:
            check_version(game.pk, views)
        if not game.to_act:
            break
        seat = min(game.to_act)
        action = engine.random_action(engine.load(game.state), seat, rng)
        services.play(game.pk, seat, action, game.version)
    game.refresh_from_db()
    check_version(game.pk, views)


pytestmark_sockets = pytest.mark.django_db(transaction=True)


def play_first(game: Game, version: int) -> None:
    game.refresh_from_db()
    engine = get_game(game.table.game_type)
    seat = min(game.to_act)
    action = engine.random_action(engine.load(game.state), seat, random.Random(version))
    services.play(game.pk, seat, action, version)


def arranged(game: Game, user, seat: int) -> int:
    """The seat's rack reversed, as its page posts a new order."""
    client = Client()
    client.force_login(user)
    game.refresh_from_db()
    rack = list(reversed(game.state["racks"][seat].split()))
    return client.post(f"/games/{game.pk}/rack/", {"order": " ".join(rack)}, **HTMX).status_code


@pytestmark_sockets
def test_a_socket_sends_only_what_changed_and_its_page_is_always_whole(alice, bob, started):
    """Through the real channel layer: frames after the first carry fewer parts, yet the page
    they add up to is the whole position; a late message changes nothing; a new socket
    (a reconnect) is sent every part; a rack arranged over HTTP makes the next frame whole."""
    other = 1 - started.state["first_player"]
    cookie = session_cookie((alice, bob)[other])
    names = part_names(presenters.presenter_for("remi").template)

    def whole_now() -> dict[str, str]:
        snapshot = live_views.read_snapshot(started.pk)
        assert snapshot is not None
        return whole(live_views.render_updates(snapshot, other))

    async def scenario() -> None:
        ws = socket(started, cookie, "?version=0")
        assert (await ws.connect())[0]
        assert await ws.receive_nothing(timeout=0.3)
        page = SocketPage()
        sent: list[list[str]] = []
        for version in range(4):
            await database_sync_to_async(play_first)(started, version)
            frame = await ws.receive_from(timeout=5)
            sent.append(page.apply(frame))
            assert page.shown() == await database_sync_to_async(whole_now)()
        every = sent[0]  # the first frame: the socket knew nothing of the page
        assert len(every) == len(names)
        assert all(len(ids) < len(every) for ids in sent[1:]), sent
        assert "game-status" in sent[-1]  # the status names the version: always sent

        # News older than what was sent (a message that waited behind a newer one): nothing.
        group = news.group_name(started.pk)
        await get_channel_layer().group_send(group, {"type": "game.updated", "version": 2})
        assert await ws.receive_nothing(timeout=0.3)

        # The rack arranged over HTTP: the page shows an order the socket never sent.
        assert await database_sync_to_async(arranged)(started, (alice, bob)[other], other) == 204
        await database_sync_to_async(play_first)(started, 4)
        frame = await ws.receive_from(timeout=5)
        assert [key for key, _ in frame_parts(frame)] == every
        await ws.disconnect()

        # A reconnect (a new socket, the page one version behind): every part, at once.
        again = socket(started, cookie, "?version=4")
        assert (await again.connect())[0]
        frame = await again.receive_from(timeout=5)
        assert whole(frame) == await database_sync_to_async(whole_now)()
        await again.disconnect()

    async_to_sync(scenario)()


@pytestmark_sockets
def test_parts_rendered_in_the_moves_hop_serve_however_late_the_news_comes(started):
    """A busy process may hear of a move seconds after its hop rendered the viewers' parts:
    they are not rendered again for it (not aged out), but a rack order saved since is."""
    views = live_views.SharedViews(seconds=0.0)
    snapshot = live_views.read_snapshot(started.pk)
    assert snapshot is not None
    version = snapshot.game.version
    made = views.rendered(snapshot, 0, live_views.ENGLISH)
    renders = views.renders
    late = async_to_sync(views.updates)(started.pk, version, 0, live_views.ENGLISH)
    assert late is made and views.renders == renders
    views.forget_seat(started.pk, 0)
    again = async_to_sync(views.updates)(started.pk, version, 0, live_views.ENGLISH)
    assert again is not made and again.parts == made.parts and views.renders == renders + 1
