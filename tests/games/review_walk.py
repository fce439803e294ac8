"""The hidden-information walk's part for the review and the hint (reviews/), for every game.

During play, for every viewer: no review exists (each review URL answers 404), and the hint
(the tables of these walks have several people) is refused with no tile or card in the
answer and nothing counted.  After the end, for every viewer: each turn the review shows a
player holds exactly that player's own rack at that step, a spectator sees none, and the
pages do not change when the other seats' turns in the stored review are changed.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.test import Client

from games.models import Action, Game
from games.play import services
from reviews import services as review_services
from reviews.models import GameReview, Hint

REVIEW_URLS = ("review/", "review/step/?step=0", "review/hints/")
# Anything a page could name a tile or card by: the attributes the game pages and the review
# draw them with.
DRAWN = re.compile(r'data-(?:tile|card|piece)="([^"]+)"')


# The walks check these endpoints at every this many versions of the game (each check is a
# handful of requests per viewer; the answers do not depend on the position).
EVERY = 10


def check_review_endpoints_in_play(game_id: int, viewers: Iterable[tuple[int | None, Client]]):
    """No review of a game being played, and no hint at a table of several people."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.PLAYING or game.version % EVERY:
        return
    for seat, client in viewers:
        for url in REVIEW_URLS:
            response = client.get(f"/games/{game_id}/{url}")
            assert response.status_code == 404, (seat, url, response.status_code)
        offered = client.get(f"/games/{game_id}/hint/")
        assert offered.status_code == 204 and not offered.content, (seat, "a hint button")
        refused = client.post(f"/games/{game_id}/hint/")
        assert refused.status_code == 403, (seat, refused.status_code)
        assert not DRAWN.search(refused.content.decode()), (seat, "a hint names a tile")
    assert not GameReview.objects.filter(game_id=game_id).exists()
    assert not Hint.objects.filter(game_id=game_id).exists()


def racks_by_step(game: Game) -> list[Any]:
    """The position after each number of moves, from the deal."""
    engine = services.game_of(game.table)
    final = engine.load(game.state)
    ctx = engine.ctx(final)
    state = engine.new_game(engine.rules_of(final), list(ctx.seats), ctx.seed, dealer=ctx.dealer)
    states = [state]
    for seat, notation in (
        Action.objects.filter(game=game).order_by("version").values_list("seat", "notation")
    ):
        state, _ = engine.apply(state, seat, notation)
        states.append(state)
    return states


def own_rack(game: Game, state: Any, seat: int) -> Counter[str]:
    engine = services.game_of(game.table)
    return Counter(engine.reviewer().position(engine.player_view(state, seat))["rack"])


def turns_shown(html: str) -> dict[int, Counter[str]]:
    """Per turn on a review page (by its step), the pieces drawn in it."""
    shown = {}
    for match in re.finditer(r'<li class="review-turn[^"]*" data-step="(\d+)".*?</li>', html, re.S):
        shown[int(match.group(1))] = Counter(DRAWN.findall(match.group(0)))
    return shown


def check_review_after_end(game_id: int, viewers: Iterable[tuple[int | None, Client]]) -> int:
    """Every viewer's review page and every step of the replay's toggle; the count of turns
    checked."""
    # The Remi walk imports this module: its page normaliser is read at call time.
    from tests.games.test_hidden_information import normalised

    viewers = list(viewers)
    game = Game.objects.select_related("table").get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    review_services.review_for(game)
    review_services.compute(game_id)
    row = GameReview.objects.get(game=game)
    assert row.status == GameReview.Status.DONE
    states = racks_by_step(game)
    checked = 0
    rng = random.Random(game_id)
    for index, (seat, client) in enumerate(viewers):
        page = client.get(f"/games/{game_id}/review/").content.decode()
        shown = turns_shown(page)
        mine = [t for t in row.data["turns"] if t["seat"] == seat]
        assert sorted(shown) == sorted(t["step"] for t in mine), seat
        for step, pieces in shown.items():
            assert pieces == own_rack(game, states[step], seat), (seat, step)
            checked += 1
        if seat is None:
            assert not DRAWN.search(page), "a spectator's review names a tile"
        steps = {}
        # The steps of the viewer's own turns, and every other step for one viewer in turn
        # (as the replay's walk does).
        own_steps = {t["step"] for t in mine}
        for step in range(len(states)):
            if step not in own_steps and step % len(viewers) != index:
                continue
            html = client.get(f"/games/{game_id}/review/step/?step={step}").content.decode()
            drawn = Counter(DRAWN.findall(html))
            if seat is None:
                assert not drawn, ("spectator", step)
            elif drawn:
                assert drawn == own_rack(game, states[step], seat), (seat, step)
            steps[step] = html
        # The other seats' turns changed behind the viewer's back: the same pages.
        original = row.data
        scrambled = {
            **original,
            "turns": [
                t
                if t["seat"] == seat
                else {**t, "position": {**t["position"], "rack": rng.sample(["R1", "KS"], 2)}}
                for t in original["turns"]
            ],
        }
        GameReview.objects.filter(pk=row.pk).update(data=scrambled)
        try:
            again = client.get(f"/games/{game_id}/review/").content.decode()
            assert normalised(again) == normalised(page), seat
            for step in sorted(rng.sample(sorted(steps), min(5, len(steps)))):
                html = client.get(f"/games/{game_id}/review/step/?step={step}").content.decode()
                assert normalised(html) == normalised(steps[step]), (seat, step)
        finally:
            GameReview.objects.filter(pk=row.pk).update(data=original)
        counts = client.get(f"/games/{game_id}/review/hints/").content.decode()
        assert not DRAWN.search(counts)
    return checked
