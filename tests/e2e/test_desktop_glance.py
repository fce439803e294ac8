"""Issue 30, fault 2 on a desktop, and on a crowded table: at 1280 by 800, a Remi deal with
a 36-tile discard row drew the rack from y = 712 down, so a desktop player scrolled to reach
the rack and the move buttons.  At the start of alice's turn in the most crowded position a
fixed deal brings her (the longest discard row or pile, the most melds, her rack more than a
last tile), the first screen shows, with nothing scrolled and nothing covered by the dock:
whose turn it is, the clock, the newest discard, the stock (and Remi's exposed tile), the
whole rack and every move button she can press.  For every game of the registry, at 1280 x
800 and at 375 x 740, a seated player in English, Romanian and Hungarian and a spectator.
Screenshots go to ``var/test-artifacts/phone-glance/`` (``<game>-crowded-<size>-...``)."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import pytest

from games.engine import GAMES
from games.models import Game
from games.play import services
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop
from tests.e2e.test_phone_glance import (
    GLANCE,
    LEVELS,
    MEASURE,
    MOVES,
    PHONE,
    RACK,
    artefact,
    open_at_its_turn,
    shown,
)
from tests.games.clock_helpers import correspondence_game

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def crowding(melds: int, discards: int | None, rack: int) -> int:
    """How much a position puts on the screen, in tiles: each discard one in the row or
    pile, each meld about two (a few tiles and a gap), the rack its own."""
    return (discards or 0) + 2 * melds + rack


# A table that filled: this much at least on alice's most crowded turn (a 36-tile Remi row
# and a full rack is 50; Thai Rummy's pile of a dozen cards, four melds and a hand, 30).
CROWDED = 30


def turns_of_alice(game: Game, stop_at: int | None = None) -> tuple[int, int] | Game:
    """Plays a correspondence game with the bots (alice by the hard one, bob by the easy
    one, a fixed random order) to its end, or to alice's ``stop_at``-th turn to draw.  To
    the end, it returns which of her turns was the most crowded, her rack more than a last
    tile (ties: the first), and how crowded; stopped, the game there."""
    engine = GAMES[game.table.game_type]
    rng = random.Random(0)
    turn, best, most = 0, 0, -1
    for _ in range(2000):  # far more moves than any game of the four takes
        game = Game.objects.select_related("table").get(pk=game.pk)
        state = engine.load(game.state)
        if engine.is_over(state):
            break
        acting = engine.to_act(state)
        if acting == {0} and "draw" in engine.legal(state, 0):
            if turn == stop_at:
                return game
            melds, discards, rack = shown(engine.player_view(state, 0))
            if rack >= 2 and crowding(melds, discards, rack) > most:
                best, most = turn, crowding(melds, discards, rack)
            turn += 1
        seat = min(acting)
        action = engine.choose(engine.player_view(state, seat), LEVELS[seat], rng)
        services.play(game.pk, seat, str(action), game.version)
    assert stop_at is None, f"alice's turn {stop_at} never came"
    return best, most


def crowded(key: str, alice, bob) -> tuple[int, bool, tuple[int, int | None, int]]:
    """The most crowded turn of alice's in the first of a fixed list of deals where the table
    fills: found by playing the deal to its end, then reached by playing it again the same
    way (the bots draw on a seeded random order).  Returns the game's id, whether the game
    discards, and what alice sees then: (melds, discards, rack)."""
    for attempt in range(6):
        seed = f"crowded/{key}/{attempt}"
        with mock.patch.object(lifecycle, "new_series_seed", return_value=seed):
            trial = correspondence_game(alice, bob, game_type=key)
            again = correspondence_game(alice, bob, game_type=key)
        found = turns_of_alice(trial)
        trial.table.delete()  # alice's limit of open tables
        assert isinstance(found, tuple)
        best, most = found
        if most < CROWDED:
            again.table.delete()
            continue
        game = turns_of_alice(again, stop_at=best)
        assert isinstance(game, Game)
        engine = GAMES[key]
        seen = shown(engine.player_view(engine.load(game.state), 0))
        return game.pk, seen[1] is not None, seen
    pytest.fail(f"{key}: no deal filled the table")


def in_sight(box: dict[str, Any], width: int, height: int) -> bool:
    return (
        box["left"] >= 0
        and box["top"] >= 0
        and box["right"] <= width
        and box["bottom"] <= height
        and box["uncovered"]
    )


CASES = [("player", language) for language in ("en", "ro", "hu")] + [("spectator", "en")]


@pytest.mark.parametrize(("who", "language"), CASES)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("key", list(GAMES))
def test_a_crowded_turn_on_one_screen(
    site_context, asgi_site, alice, bob, carol, key, size, who, language
):
    game_id, discarding, position = off_the_browser_loop(crowded, key, alice, bob)
    viewer = alice if who == "player" else carol
    device = SIZES[size]
    width, height = device["viewport"]["width"], device["viewport"]["height"]

    page = open_at_its_turn(site_context(**device), asgi_site, game_id, viewer, language, who)
    seen = page.evaluate(MEASURE, [GLANCE, RACK, MOVES])
    page.screenshot(path=artefact(f"{key}-crowded-{size}-{who}-{language}"))
    where = f"{key}, {size}, {who}, {language}, (melds, discards, rack) = {position}"
    assert seen["scrolled"] == [0, 0], f"{where}: the page scrolled to {seen['scrolled']}"
    assert seen["width"] <= width, f"{where}: the page is {seen['width']} px wide"
    for name, boxes in seen["found"].items():
        if name == "pile top" and not discarding:  # Rummikub
            continue
        assert boxes, f"{where}: no {name} on the page"
        for box in boxes:
            assert in_sight(box, width, height), f"{where}: the {name} is not in sight: {box}"
    if who == "spectator":
        assert not seen["rack"] and not seen["moves"], f"{where}: a spectator has a rack"
        return
    assert seen["rack"], f"{where}: no rack"
    hidden = [box["text"] for box in seen["rack"] if not in_sight(box, width, height)]
    assert not hidden, f"{where}: rack tiles out of sight: {hidden}"
    assert seen["moves"], f"{where}: no move button"
    for box in seen["moves"]:
        assert in_sight(box, width, height), f"{where}: {box['text']!r} is not in sight: {box}"
