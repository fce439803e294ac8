"""A socket's snapshot reads only the log's new rows once it holds an older one
(``live_views.log_since``), and a viewer's log list is last version's with the new entries put
in front (``presenters.log_entries``): both must read exactly as a fresh read and a fresh
wording would, for every game of the registry, every seat and the spectators."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import presenters
from games.engine import GAMES
from games.models import Action, Game
from games.play import live_views
from games.presenters import log_entries as log_module
from games.tables import lifecycle
from tests.games.playing import play_random

pytestmark = pytest.mark.django_db

MOVES = 55  # more than a page's log holds, so the oldest entries drop out


def started(key: str, users: list) -> Game:
    table = lifecycle.create_table(users[0], game_type=key, seat_count=2)
    lifecycle.join_table(table, users[1])
    return lifecycle.start_table(table, users[0])


def worded(entries: list[dict]) -> list[tuple]:
    return [(e["version"], e["seat"], tuple(e["lines"]), str(e["html"])) for e in entries]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_log_read_since_a_snapshot_and_reworded_reads_as_a_fresh_one(key, alice, bob):
    game = started(key, [alice, bob])
    live_views.SHARED.clear()
    assert live_views.SHARED.snapshot(game.pk, game.version) is not None
    presentation = presenters.presenter_for(key)
    before: dict[int | None, list[dict]] = {}
    for n in range(MOVES):
        if game.status != Game.Status.PLAYING:
            break
        game = play_random(game.pk, seed=n)
        with CaptureQueriesContext(connection) as queries:
            snapshot = live_views.SHARED.snapshot(game.pk, game.version)
        assert snapshot is not None and snapshot.game.version == game.version
        log_sql = [q["sql"] for q in queries if "games_action" in q["sql"]]
        assert len(log_sql) == 1 and log_sql[0].count('"version" >') == 1  # only newer rows

        fresh = presenters.recent_actions(game)
        assert [(a.version, a.seat, a.events) for a in snapshot.actions] == [
            (a.version, a.seat, a.events) for a in fresh
        ]
        assert len(snapshot.actions) == min(game.version, presenters.LOG_ACTIONS)
        for seat in (None, 0, 1):
            with translation.override("en"):
                kept = presentation.context(
                    snapshot.game, snapshot.seats, seat, actions=snapshot.actions
                )["log"]
                log_module._kept.clear()  # the rows read again are worded afresh
                again = presentation.context(game, snapshot.seats, seat, actions=fresh)["log"]
            assert worded(kept) == worded(again)
            assert str(kept.html) == "".join(
                f"{log_module.ENTRY_BEFORE}{e['html']}{log_module.ENTRY_AFTER}" for e in again
            )
            if seat in before:  # the entries of the version before are handed on, not redone
                assert all(a is b for a, b in zip(kept[1:], before[seat], strict=False))
            before[seat] = kept


def event_text(event: dict, names: list[str], seat: int | None) -> str:
    return f"{seat}: {event['kind']}"


def test_a_list_is_only_handed_out_for_the_very_actions_it_was_worded_from(alice, bob):
    game = started("remi", [alice, bob])
    for n in range(3):
        game = play_random(game.pk, seed=n)
    actions = presenters.recent_actions(game)
    names = ["alice", "bob"]
    first = log_module.log_entries(actions, names, 0, event_text)
    # The same objects: the same list.  Equal rows read again (other objects): a new list.
    assert log_module.log_entries(actions, names, 0, event_text) is first
    again = log_module.log_entries(presenters.recent_actions(game), names, 0, event_text)
    assert again is not first and worded(again) == worded(first)
    # Another seat never gets this seat's list.
    other = log_module.log_entries(actions, names, 1, event_text)
    assert other is not first and other[0]["lines"][0].startswith("1: ")
    # One more action: the list grows at its front and keeps the entries it had.
    game = play_random(game.pk, seed=9)
    newest = Action.objects.get(game=game, version=game.version)
    grown = log_module.log_entries([*actions, newest], names, 0, event_text)
    assert [e["version"] for e in grown] == [game.version, *[e["version"] for e in first]]
    assert all(a is b for a, b in zip(grown[1:], first, strict=True))
