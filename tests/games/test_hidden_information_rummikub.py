"""No page, partial or socket frame of a tile rummy game shows another seat's rack or draft.

Three players and a spectator, each with their own client and a real WebSocket on the game.
Before every move the player to move posts a draft of their turn (some rack tiles laid out as
a new meld), so there is always a private draft on the server; then they make a random move
(plays, penalties, draws) through the act view.  After every move each viewer loads the game
page and its htmx partial and checks them structurally (the HTML parsed, each drawn tile read
from its face):

- the rack section is exactly the viewer's own rack (the draft's rack for the drafting seat);
- the other viewers' table section is exactly the public table, never the draft;
- every tile drawn anywhere is within the viewer's own tiles and the public table;
- and, the strongest check, with every hidden tile dealt again behind their back (other racks,
  the stock, the secret tiles of other seats' log events) and every other seat's draft
  replaced, the viewer's page renders byte for byte the same.

Every socket frame is checked the same way against the position of its version; the note that
someone is arranging carries no tile at all.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.engine.rummikub import GAME
from games.engine.rummikub.state import State
from games.models import Action, Game, Seat
from games.tables import lifecycle
from remi_site.asgi import application
from tests.conftest import make_user
from tests.games.review_walk import check_review_endpoints_in_play
from tests.games.test_game_consumer import session_cookie
from tests.games.test_hidden_information import (
    Node,
    drawn_tile,
    is_tile,
    normalised,
    parse,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}
# The series seed the test deals from: it never shows, nor the game's seed while it is played.
SERIES_SEED = "hidden-rummikub-1"
ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")
MOVES = 24


def tiles_in(node: Node) -> Counter[str]:
    # Labels name jokers the tile rummy's way ("joker"), so read codes from the faces only.
    found: Counter[str] = Counter()
    for tile in node.find(is_tile):
        found[_face(tile)] += 1
    return found


def _face(node: Node) -> str:
    nums = node.find(lambda n: "tile-num" in n.classes)
    letters = node.find(lambda n: "tile-letter" in n.classes)
    assert len(nums) == 1 and len(letters) == 1, "a tile without its face"
    number, letter = nums[0].text().strip(), letters[0].text().strip()
    code = "J" if number == "J" else f"{letter}{number}"
    if "data-tile" in node.attrs:
        assert node.attrs["data-tile"] == code
    return code


def public_table(state: State) -> Counter[str]:
    return Counter(str(t) for meld in state.table for t in meld.tiles)


def own(state: State, seat: int | None) -> Counter[str]:
    if state.over:
        return Counter(str(t) for rack in state.racks for t in rack)
    return Counter(str(t) for t in state.racks[seat]) if seat is not None else Counter()


def check_html(html: str, state: State, seat: int | None, draft_rack: list[str] | None) -> None:
    root = parse(html)
    assert SERIES_SEED not in html, f"seat {seat} is shown the series' seed"
    if not state.over:
        assert state.seed not in html, f"seat {seat} is shown the deal's seed"
    allowed = own(state, seat) + public_table(state)
    shown = tiles_in(root)
    assert not shown - allowed, f"seat {seat} is shown {shown - allowed}"
    rack = root.by_id("game-rack")
    if rack is not None and seat is not None and not state.over:
        expected = draft_rack if draft_rack is not None else [str(t) for t in state.racks[seat]]
        assert sorted(tiles_in(rack).elements()) == sorted(expected)
    elif rack is not None:
        assert not tiles_in(rack)
    table = root.by_id("game-table")
    if table is not None and not (seat == state.turn and not state.over):
        assert tiles_in(table) == public_table(state), "the table is not the public one"
    # Each numbered tile's label names that tile and no other (jokers are labelled "joker",
    # which the shared reader, written for Remi's Joly, does not know).
    for node in root.find(lambda n: is_tile(n) and "tile-joker" not in n.classes):
        drawn_tile(node)


def scramble(game: Game, seat: int | None, rng: random.Random) -> dict[str, Any]:
    state = GAME.load(game.state)
    return GAME.dump(GAME.resample_hidden(state, seat, rng))


def check_pages(game_id: int, viewers: list[tuple[int | None, Client]], drafts: dict) -> None:
    rng = random.Random(game_id)
    game = Game.objects.select_related("table").get(pk=game_id)
    state: State = GAME.load(game.state)
    url = f"/games/{game_id}/"
    check_review_endpoints_in_play(game_id, viewers)
    for seat, client in viewers:
        page = client.get(url).content.decode()
        partial = client.get(url, **HTMX).content.decode()
        draft_rack = drafts.get(seat) if seat == state.turn else None
        for html in (page, partial):
            check_html(html, state, seat, draft_rack)
        assert version_of(page) == version_of(partial) == game.version
        # The "verify the deal" page, asked with the true seed while the game is played:
        # the commitment alone.
        deal = client.get(f"/games/{game_id}/deal/", {"seed": state.seed}).content.decode()
        assert game.deal_commitment and game.deal_commitment in deal
        if not state.over:
            assert state.seed not in deal and SERIES_SEED not in deal

        # Deal every hidden tile again, change other seats' secrets and drafts: same page.
        actions = [
            a
            for a in Action.objects.filter(game_id=game_id)
            if any(e.get("secret") and e.get("seat") != seat for e in a.events)
        ]
        originals = [a.events for a in actions]
        for a in actions:
            a.events = [
                {**e, "secret": {"tiles": ["K13"] * len(e["secret"].get("tiles", ()))}}
                if e.get("secret") and e.get("seat") != seat
                else e
                for e in a.events
            ]
        Action.objects.bulk_update(actions, ["events"])
        seats = list(Seat.objects.filter(table_id=game.table_id))
        orders = {s.pk: s.rack_order for s in seats}
        for s in seats:
            if s.position != seat:
                s.rack_order = {"game": game_id, "version": game.version, "melds": [["R1"]]}
        Seat.objects.bulk_update(seats, ["rack_order"])
        Game.objects.filter(pk=game_id).update(state=scramble(game, seat, rng))
        try:
            assert normalised(client.get(url).content.decode()) == normalised(page)
            assert normalised(client.get(url, **HTMX).content.decode()) == normalised(partial)
        finally:
            Game.objects.filter(pk=game_id).update(state=game.state)
            for a, events in zip(actions, originals, strict=True):
                a.events = events
            Action.objects.bulk_update(actions, ["events"])
            for s in seats:
                s.rack_order = orders[s.pk]
            Seat.objects.bulk_update(seats, ["rack_order"])


def post_a_draft(client: Client, game: Game, state: State, rng: random.Random) -> list[str]:
    """Lay some rack tiles out as a new meld (valid or not); return the draft's rack."""
    rack = [str(t) for t in state.racks[state.turn]]
    rng.shuffle(rack)
    laid, kept = rack[:3], rack[3:]
    melds = [" ".join(str(t) for t in meld.tiles) for meld in state.table] + [" ".join(laid)]
    response = client.post(
        f"/games/{game.pk}/draft/",
        {"version": game.version, "table": " | ".join(melds), "rack": " ".join(kept)},
        **HTMX,
    )
    assert response.status_code == 200
    check_html(response.content.decode(), state, state.turn, kept)
    return kept


def test_no_page_partial_or_frame_shows_another_rack_or_draft(monkeypatch, alice, bob, carol):
    # A fixed deal and fixed random moves: the game checked always has plays, penalties and
    # draws (asserted at the end).
    monkeypatch.setattr(lifecycle, "new_series_seed", lambda: SERIES_SEED)
    dave = make_user("dave")
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=3)
    lifecycle.join_table(table, bob)
    lifecycle.join_table(table, carol)
    game = lifecycle.start_table(table, alice)
    users = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    clients: dict[int | None, Client] = {}
    for seat, user in [*users.items(), (None, dave)]:
        clients[seat] = Client()
        clients[seat].force_login(user)
    viewers = list(clients.items())
    cookies = {seat: session_cookie(user) for seat, user in [*users.items(), (None, dave)]}
    states: dict[int, State] = {0: GAME.load(game.state)}
    rng = random.Random("hidden-rummikub")

    def before_move() -> tuple[int, bool]:
        """The mover drafts; every viewer checks its pages.  (version, game over)"""
        current = Game.objects.select_related("table").get(pk=game.pk)
        state = GAME.load(current.state)
        if state.over:
            return current.version, True
        drafts = {state.turn: post_a_draft(clients[state.turn], current, state, rng)}
        check_pages(game.pk, viewers, drafts)
        return current.version, False

    def move() -> int:
        current = Game.objects.get(pk=game.pk)
        state = GAME.load(current.state)
        action = GAME.random_action(state, state.turn, rng)
        response = clients[state.turn].post(
            f"/games/{game.pk}/act/",
            {"version": current.version, "verb": "notation", "notation": str(action)},
            **HTMX,
        )
        assert response.status_code == 200
        after = Game.objects.get(pk=game.pk)
        assert after.version == current.version + 1, response.content[:300]
        states[after.version] = GAME.load(after.state)
        check_pages(game.pk, viewers, {})
        return after.version

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
                version, over = await sync_to_async(before_move)()
                if over:
                    break
                await drain(sockets, version)
                await drain(sockets, await sync_to_async(move)())
        finally:
            for ws in sockets.values():
                await ws.disconnect()

    frames: dict[int | None, list[tuple[int, str]]] = {seat: [] for seat in clients}
    async_to_sync(scenario)()

    kinds = Counter()
    for seat, got in frames.items():
        assert got, f"seat {seat} got no frame"
        for version, html in got:
            if 'id="game-status"' not in html:
                # The arranging note: a name, never a tile.
                assert "arranging the table" in html
                assert not tiles_in(parse(html)) and "data-tile" not in html
                assert seat != states[version].turn
                kinds["arranging"] += 1
                continue
            frame_version = version_of(html)
            check_html(html, states[frame_version], seat, None)
            kinds["update"] += 1
    assert kinds["arranging"] and kinds["update"]
    codes = Counter(
        e["code"] for events in Action.objects.values_list("events", flat=True) for e in events
    )
    assert codes["played"] and codes["penalty"] and codes["drew"], codes
