"""Replaying a finished game move by move, from its seed, as a spectator saw it."""

from __future__ import annotations

import random
import re

import pytest
from django.utils.html import escape

from games.engine.remi.randomplay import actor, random_action
from games.engine.remi.state import OVER, State
from games.models import Action, Game
from games.play import services
from games.presenters.remi.text import event_line
from games.tables import lifecycle

HTMX = {"HTTP_HX_REQUEST": "true"}


def play_to_the_end(game: Game, seed: int = 7) -> Game:
    """Random legal moves through services.play until the game is over."""
    rng = random.Random(seed)
    while True:
        game = Game.objects.get(pk=game.pk)
        state = State.from_dict(game.state)
        if state.phase == OVER:
            return game
        seat = actor(state)
        services.play(game.pk, seat, random_action(state, seat, rng), game.version)


@pytest.fixture
def finished(started) -> Game:
    return play_to_the_end(started)


def step_of(html: str) -> tuple[int, int]:
    match = re.search(r"Move (\d+) of (\d+)", html)
    assert match
    return int(match.group(1)), int(match.group(2))


def test_a_finished_game_replays_from_the_deal_to_the_end(client, carol, finished):
    client.force_login(carol)  # a spectator of a public table may watch the replay
    url = f"/games/{finished.pk}/replay/"
    steps = Action.objects.filter(game=finished).count()

    first = client.get(url)
    assert first.status_code == 200
    html = first.content.decode()
    assert step_of(html) == (0, steps)
    assert "The deal:" in html
    assert "Racks at the end" in html
    assert 'data-replay="prev"' in html and 'data-replay="next"' in html

    one = client.get(url, {"step": 1}, **HTMX)
    assert one.status_code == 200
    part = one.content.decode()
    assert part.lstrip().startswith('<div id="replay-step"')  # just the step, for htmx
    assert step_of(part) == (1, steps)
    names = finished.state["seats"]
    first_move = Action.objects.get(game=finished, version=1)
    for data in first_move.events:  # the caption reads the first move as a spectator
        assert escape(event_line(data, names)) in part

    last = client.get(url, {"step": steps}).content.decode()
    assert step_of(last) == (steps, steps)
    assert 'id="game-result"' in last and "Scoring" in last
    # Past the end stays at the end.
    assert step_of(client.get(url, {"step": steps + 50}).content.decode()) == (steps, steps)


def test_each_replay_step_rebuilds_the_same_public_position(client, alice, finished):
    client.force_login(alice)
    url = f"/games/{finished.pk}/replay/"
    steps = Action.objects.filter(game=finished).count()
    final = State.from_dict(finished.state)
    html = client.get(url, {"step": steps}, **HTMX).content.decode()
    assert f"Wall: {len(final.wall)} tile" in html


def test_a_players_replay_log_tells_their_own_draws_and_a_spectators_none(
    client, alice, carol, finished
):
    """The replay is the player's review of their own decisions: their own draws are named
    in its log (as they were during play), another seat's never; a spectator's names none."""
    steps = Action.objects.filter(game=finished).count()
    draws = {
        seat: [
            a.version
            for a in Action.objects.filter(game=finished, seat=seat)
            if any(e.get("kind") == "drew" for e in a.events)
        ]
        for seat in (0, 1)
    }
    assert draws[0] and draws[1], "both players drew in the game"
    url = f"/games/{finished.pk}/replay/"
    client.force_login(alice)  # seat 0
    own = client.get(url, {"step": draws[0][-1]}, **HTMX).content.decode()
    assert "You drew" in own
    others = client.get(url, {"step": draws[1][-1]}, **HTMX).content.decode()
    caption = re.search(r'<p class="replay-caption".*?</p>', others, re.S).group(0)
    assert "You drew" not in caption
    client.force_login(carol)
    for step in (draws[0][-1], draws[1][-1], steps):
        assert "You drew" not in client.get(url, {"step": step}, **HTMX).content.decode()


def test_the_replay_reveals_the_seed_of_the_finished_game_only_on_its_page(client, alice, finished):
    client.force_login(alice)
    seed = finished.state["seed"]
    assert (
        seed
        not in client.get(f"/games/{finished.pk}/replay/", {"step": 3}, **HTMX).content.decode()
    )  # the step swapped in by htmx
    page = client.get(f"/games/{finished.pk}/replay/", {"step": 3}).content.decode()
    assert seed in page and "Verify the deal" in page


def test_a_game_still_being_played_has_no_replay(client, alice, started):
    client.force_login(alice)
    assert client.get(f"/games/{started.pk}/replay/").status_code == 404


def test_a_replay_step_must_be_a_number(client, alice, finished):
    client.force_login(alice)
    response = client.get(f"/games/{finished.pk}/replay/", {"step": "-1"})
    assert response.status_code == 400


def test_a_private_tables_replay_is_hidden_from_outsiders(client, alice, bob, carol):
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False}, is_public=False)
    lifecycle.join_table(table, bob)
    game = play_to_the_end(lifecycle.start_table(table, alice), seed=3)
    client.force_login(carol)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 200


def test_the_last_replay_step_shows_the_table_as_the_game_ended(client, alice, finished):
    client.force_login(alice)
    steps = Action.objects.filter(game=finished).count()
    game_page = client.get(finished.get_absolute_url()).content.decode()
    replayed = client.get(f"/games/{finished.pk}/replay/", {"step": steps}).content.decode()

    def melds(html: str) -> list[str]:
        return re.findall(
            r'class="meld(?: recent)?" data-meld="\d+" aria-pressed="false" aria-label="([^"]+)"',
            html,
        )

    def row(html: str) -> list[str]:
        return re.findall(r'data-row="\d+" data-tile="([^"]+)"', html)

    assert melds(replayed) == melds(game_page)
    assert row(replayed) == row(game_page)


def test_a_log_from_another_engine_version_that_no_longer_replays_says_so(client, alice, finished):
    # A rule change refuses an old move: the replay stops there and names both versions.
    first = Action.objects.filter(game=finished).order_by("version").first()
    Action.objects.filter(pk=first.pk).update(notation="ready")  # no doublas at this table
    Game.objects.filter(pk=finished.pk).update(engine_version=0)
    client.force_login(alice)
    html = client.get(f"/games/{finished.pk}/replay/", {"step": 2}).content.decode()
    assert "can no longer be replayed past this point" in html
    assert "played under rules version 0" in html
