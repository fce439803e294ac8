"""The "your turn" email: after a move makes it a person's turn in a slow game, once."""

from __future__ import annotations

import pytest

from games.engine import GAMES
from games.models import Table
from games.tables import lifecycle
from notifications.kinds import Kind
from notifications.models import Notice
from notifications.tasks import send_turn_email
from tests.notifications.conftest import (
    DAY,
    opt_in,
    play_timeout_move,
    seat_user,
    start_game,
    until_turn_of,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_move_that_makes_it_your_turn_emails_you_once(
    game_type, alice, bob, eager_celery, mailoutbox, django_capture_on_commit_callbacks
):
    opt_in(alice)
    opt_in(bob)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, game_type=game_type)
    first = seat_user(game, min(game.to_act))
    assert [m.to for m in mailoutbox] == [[first.email]]
    mailoutbox.clear()

    # A turn may take several actions (a card rummy's timeout draws, then discards): the
    # actions that keep the turn with the same player email nobody.
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            game = play_timeout_move(game)
        if seat_user(game, min(game.to_act)) != first:
            break
        assert mailoutbox == []
    waiting = {seat_user(game, seat).email for seat in game.to_act}
    assert waiting and first.email not in waiting
    assert [m.to for m in mailoutbox] == [sorted(waiting)]
    message = mailoutbox[0]
    link = f"http://localhost:8000/accounts/login/?next=/games/{game.pk}/"
    assert link in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert f'href="{link}"' in html
    assert message.subject == f"Your turn at table {game.table_id}"


def test_the_same_turn_is_never_emailed_twice(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    opt_in(bob)
    with django_capture_on_commit_callbacks(execute=False):
        game = until_turn_of(start_game(alice, bob), bob)
    bob_seat = game.to_act[0]
    assert send_turn_email(game.pk, bob_seat, game.version) == "sent"
    # A duplicate message, or Celery delivering the task again after it succeeded.
    assert send_turn_email(game.pk, bob_seat, game.version) == "already sent"
    assert send_turn_email.apply((game.pk, bob_seat, game.version)).get() == "already sent"
    assert len(mailoutbox) == 1
    notice = Notice.objects.get(kind=Kind.TURN)
    assert (notice.game_id, notice.seat, notice.turn, notice.emailed) == (
        game.pk,
        bob_seat,
        f"v{game.version}",
        True,
    )


def test_no_email_without_opting_in_in_live_games_or_for_a_turn_already_played(
    alice, bob, eager_celery, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        slow = until_turn_of(start_game(alice, bob), bob)
    assert mailoutbox == []  # nobody opted in

    opt_in(alice)
    opt_in(bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_timeout_move(start_game(alice, bob, pace=Table.Pace.LIVE, move_seconds=60))
    assert mailoutbox == []  # live games never email

    bob_seat = slow.to_act[0]
    with django_capture_on_commit_callbacks(execute=False):
        later = play_timeout_move(slow)  # Bob moved before the (late) task ran
    assert send_turn_email(slow.pk, bob_seat, slow.version) == "stale"
    assert later.version == slow.version + 1
    assert mailoutbox == []


@pytest.mark.parametrize(
    "on_timeout,promise",
    [
        (Table.OnTimeout.MOVE, "or the table plays a safe move for you."),
        (Table.OnTimeout.AUTOPLAY, "or a bot plays the turn for you."),
    ],
)
def test_the_email_says_what_the_table_does_when_the_clock_runs_out(
    alice, bob, eager_celery, mailoutbox, django_capture_on_commit_callbacks, on_timeout, promise
):
    """Issue 30, fault 5: it promised the safe move at a table where a bot plays the turn."""
    opt_in(alice)
    opt_in(bob)
    table = lifecycle.create_table(
        alice, seat_count=2, pace=Table.Pace.SLOW, move_seconds=DAY, options={"doubla": False}
    )
    Table.objects.filter(pk=table.pk).update(on_timeout=on_timeout)
    lifecycle.join_table(table, bob)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.start_table(Table.objects.get(pk=table.pk), alice)
    (message,) = mailoutbox
    assert promise in " ".join(message.body.split())
    assert promise in " ".join(message.alternatives[0][0].split())
