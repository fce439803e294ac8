"""No page, partial or socket frame of a card rummy's hand (Basic Rummy, Thai Rummy) shows
another seat's hand, the stock or a card someone else drew.

Three players and a spectator, each with their own client and a real WebSocket on the game.
Random moves (draws, takes, melds, lay-offs, discards) are posted through the act view.
After every move each viewer loads the game page and its htmx partial and checks them
structurally (the HTML parsed, each drawn card read from its ``data-card``):

- the hand section is exactly the viewer's own hand;
- every card drawn anywhere is within the viewer's hand, the table and the visible discards;
- and, the strongest check, with every hidden card dealt again behind their back (other hands,
  the stock, the buried discards, the secret cards of other seats' log events) the viewer's
  page renders byte for byte the same.

Every socket frame is checked the same way against the position of its version.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.engine import GameEngine, get_game
from games.models import Action, Game, Seat
from games.tables import lifecycle
from remi_site.asgi import application
from tests.conftest import make_user
from tests.games.review_walk import check_review_endpoints_in_play
from tests.games.test_game_consumer import session_cookie
from tests.games.test_hidden_information import Node, normalised, parse, version_of

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}
# The series seed the test deals from: it never shows, nor the game's seed while it is played.
SERIES_SEED = "hidden-card-rummy-1"
ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")
MOVES = 40


def cards_in(node: Node) -> Counter[str]:
    return Counter(
        n.attrs["data-card"]
        for n in node.find(lambda n: "card" in n.classes and "data-card" in n.attrs)
    )


CARD_GAMES = ("basic-rummy", "thai-rummy")


def allowed(state: Any, seat: int | None) -> Counter[str]:
    shown = Counter(str(c) for m in state.table for c in m.cards)
    # Thai Rummy also shows the table's cards in front of the player who placed each one.
    shown.update(str(c) for cards in getattr(state, "displayed", ()) for c in cards)
    # Thai Rummy's pile is always spread; Basic Rummy's only with the rummy 500 pickup.
    spread = getattr(state.rules, "deep_pickup", True)
    visible = state.discard if spread else state.discard[-1:]
    shown.update(str(c) for c in visible)
    if state.over:
        shown.update(str(c) for hand in state.hands for c in hand)
        if getattr(state, "face_down", None) is not None:
            shown[str(state.face_down)] += 1
    elif seat is not None:
        shown.update(str(c) for c in state.hands[seat])
    return shown


def check_html(html: str, state: Any, seat: int | None) -> None:
    root = parse(html)
    assert SERIES_SEED not in html, f"seat {seat} is shown the series' seed"
    if not state.over:
        assert state.seed not in html, f"seat {seat} is shown the deal's seed"
    shown = cards_in(root)
    assert not shown - allowed(state, seat), f"seat {seat} is shown {shown - allowed(state, seat)}"
    hand = root.by_id("game-rack")
    if hand is not None and seat is not None and not state.over:
        assert cards_in(hand) == Counter(str(c) for c in state.hands[seat])
    elif hand is not None:
        assert not cards_in(hand)


def check_pages(game_id: int, viewers: dict[int | None, Client], rng: random.Random) -> None:
    game = Game.objects.select_related("table").get(pk=game_id)
    GAME = get_game(game.table.game_type)
    state = GAME.load(game.state)
    url = f"/games/{game_id}/"
    check_review_endpoints_in_play(game_id, viewers.items())
    for seat, client in viewers.items():
        page = client.get(url).content.decode()
        partial = client.get(url, **HTMX).content.decode()
        for html in (page, partial):
            check_html(html, state, seat)
        assert version_of(page) == version_of(partial) == game.version
        # The "verify the deal" page, asked with the true seed while the game is played:
        # the commitment alone.
        deal = client.get(f"/games/{game_id}/deal/", {"seed": state.seed}).content.decode()
        assert game.deal_commitment and game.deal_commitment in deal
        if not state.over:
            assert state.seed not in deal and SERIES_SEED not in deal
        # Deal every hidden card again and change other seats' secrets: the same page.
        actions = [
            a
            for a in Action.objects.filter(game_id=game_id)
            if any(e.get("secret") and e.get("seat") != seat for e in a.events)
        ]
        originals = [a.events for a in actions]
        for a in actions:
            a.events = [
                {**e, "secret": {"card": "KS" if e["secret"].get("card") != "KS" else "2C"}}
                if e.get("secret") and e.get("seat") != seat
                else e
                for e in a.events
            ]
        Action.objects.bulk_update(actions, ["events"])
        scrambled = GAME.dump(GAME.resample_hidden(state, seat, rng))
        Game.objects.filter(pk=game_id).update(state=scrambled)
        try:
            assert normalised(client.get(url).content.decode()) == normalised(page)
            assert normalised(client.get(url, **HTMX).content.decode()) == normalised(partial)
        finally:
            Game.objects.filter(pk=game_id).update(state=game.state)
            for a, events in zip(actions, originals, strict=True):
                a.events = events
            Action.objects.bulk_update(actions, ["events"])


def _move_seed(GAME: GameEngine, start: Any) -> str:
    """A seed for the random moves whose first ``MOVES`` actions meld and lay off (found by
    playing them on the engine alone, so the pages are checked with melds on the table)."""
    for attempt in range(200):
        seed = f"moves-{attempt}"
        rng, state, seen = random.Random(seed), start, set()
        for _ in range(MOVES):
            if state.over:
                break
            state, events = GAME.apply(
                state, state.turn, GAME.random_action(state, state.turn, rng)
            )
            seen.update(e.code for e in events)
        if {"melded", "laid-off", "took"} <= seen:
            return seed
    raise AssertionError("no move seed melds and lays off")


@pytest.mark.parametrize("key", CARD_GAMES)
def test_no_page_partial_or_frame_shows_another_hand(monkeypatch, alice, bob, carol, key):
    GAME = get_game(key)
    monkeypatch.setattr(lifecycle, "new_series_seed", lambda: SERIES_SEED)
    dave = make_user("dave")
    table = lifecycle.create_table(alice, game_type=key, seat_count=3)
    lifecycle.join_table(table, bob)
    lifecycle.join_table(table, carol)
    game = lifecycle.start_table(table, alice)
    users = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    clients: dict[int | None, Client] = {}
    for seat, user in [*users.items(), (None, dave)]:
        clients[seat] = Client()
        clients[seat].force_login(user)
    cookies = {seat: session_cookie(user) for seat, user in [*users.items(), (None, dave)]}
    states: dict[int, Any] = {0: GAME.load(game.state)}
    rng = random.Random(f"hidden-{key}")
    moves = random.Random(_move_seed(GAME, states[0]))

    def move() -> tuple[int, bool]:
        current = Game.objects.get(pk=game.pk)
        state = GAME.load(current.state)
        if state.over:
            return current.version, True
        action = GAME.random_action(state, state.turn, moves)
        response = clients[state.turn].post(
            f"/games/{game.pk}/act/",
            {"version": current.version, "verb": "notation", "notation": str(action)},
            **HTMX,
        )
        assert response.status_code == 200
        after = Game.objects.get(pk=game.pk)
        assert after.version == current.version + 1, response.content[:300]
        states[after.version] = GAME.load(after.state)
        check_pages(game.pk, clients, rng)
        return after.version, False

    async def drain(sockets: dict, version: int) -> None:
        for seat, ws in sockets.items():
            while not await ws.receive_nothing(timeout=0.2):
                frames[seat].append((version, await ws.receive_from()))

    async def scenario() -> None:
        sockets = {}
        for seat, cookie in cookies.items():
            ws = WebsocketCommunicator(
                application, f"/ws/games/{game.pk}/?version=0", headers=[ORIGIN, HOST, cookie]
            )
            connected, _ = await ws.connect()
            assert connected
            sockets[seat] = ws
        try:
            for _ in range(MOVES):
                version, over = await sync_to_async(move)()
                await drain(sockets, version)
                if over:
                    break
        finally:
            for ws in sockets.values():
                await ws.disconnect()

    frames: dict[int | None, list[tuple[int, str]]] = {seat: [] for seat in clients}
    async_to_sync(scenario)()

    for seat, got in frames.items():
        assert got, f"seat {seat} got no frame"
        for _version, html in got:
            check_html(html, states[version_of(html)], seat)
    codes = Counter(
        e["code"] for events in Action.objects.values_list("events", flat=True) for e in events
    )
    assert codes["drew"] and codes["took"] and codes["melded"] and codes["laid-off"], codes
