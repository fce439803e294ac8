"""Play by mail through the real stack: a deadline passes, the real worker's bot plays the
turn, the other player sees it live, and the player who ran out of time got one email whose
link opens the game.

Nothing of ours is replaced: daphne, a Celery worker and Celery beat run as child processes
on the test database and Redis (``clock_stack``), mail goes through Django's SMTP backend to
a real SMTP server (aiosmtpd).  Correspondence paces are hours or days, so the test moves the
one deadline in the database, to a minute and then two seconds from now; what fires it is the
real beat sweep, or the on-time task it queues, in the real worker.
"""

from __future__ import annotations

import html
import re
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from email.message import Message
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from websockets.sync.client import ClientConnection, connect

from games.clocks import seat_clocks
from games.models import Action, Game, SeatClock, Table
from games.play import services
from notifications.kinds import Kind
from notifications.models import Notice
from tests.games.clock_helpers import correspondence_game, fresh, live_clock
from tests.notifications.conftest import opt_in
from tests.smtp_sink import text_part

pytestmark = [
    pytest.mark.stack,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_deal"),
]

HOUR = 3600
SHORT = timedelta(seconds=2)
REMINDER_SWEEP = "notifications.tasks.sweep_reminders"


def seat_of(game: Game, user) -> int:
    return game.table.seats.get(user=user).position


def play_turn_by_hand(game: Game, seat: int) -> None:
    """The seat plays its turn itself: the engine's safe moves (draw, discard), made as
    the player through ``services.play`` (what the act view calls)."""
    engine = services.game_of(game.table)
    while seat in (game := fresh(game)).to_act:
        action = engine.timeout_action(engine.load(game.state), seat)
        services.play(game.pk, seat, action, game.version)


def set_deadline(clock: SeatClock, deadline: datetime, *, allowance: int) -> None:
    """Move a running turn's deadline, its start moving with it (as if the player had
    been thinking since), as the clock's own code would have written it."""
    SeatClock.objects.filter(pk=clock.pk).update(
        started_at=deadline - timedelta(seconds=allowance),
        deadline=deadline,
        due_at=deadline,
        eta_at=None,  # no on-time task queued yet for this deadline: the sweep queues one
    )
    seat_clocks.refresh_game_deadlines([clock.game_id])


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # urllib then raises the 3xx as an HTTPError, which get() answers


def get(url: str, *, cookie: str = "", follow: bool = True) -> tuple[int, str, str, str]:
    """(status, final URL, Location header, body) of a GET, as a browser would see it."""
    opener = urllib.request.build_opener(*([] if follow else [NoRedirects()]))
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.url, "", response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, url, error.headers.get("Location", ""), error.read().decode()


def link_in(message: Message, base_url: str) -> str:
    links = re.findall(rf"{re.escape(base_url)}/\S+", text_part(message))
    game_links = [link for link in links if "next=" in link]
    assert len(game_links) == 1, links
    return game_links[0]


def receive_version(socket: ClientConnection, version: int, *, timeout: float) -> str:
    """Every message the game socket sends up to the one for ``version`` (or later), within
    ``timeout`` seconds, put together: a frame carries only the parts that changed, so the
    log entry of a move is in the frame of that move's version, not in later ones."""
    deadline = timezone.now() + timedelta(seconds=timeout)
    seen = []
    messages = []
    while (left := (deadline - timezone.now()).total_seconds()) > 0:
        try:
            message = socket.recv(timeout=left)
        except TimeoutError:
            break
        messages.append(message)
        found = re.search(r'class="version"[^>]*>v(\d+)<', message)
        seen.append(found.group(1) if found else "?")
        if found and int(found.group(1)) >= version:
            return "".join(messages)
    pytest.fail(f"Bob's socket got no update for v{version} in {timeout}s (got {seen})")


def test_a_missed_deadline_is_played_by_the_worker_seen_live_and_mailed_once(
    clock_stack, smtp_sink, alice, bob
):
    clock_stack.start()
    game = correspondence_game(alice, bob, move_seconds=HOUR, on_timeout=Table.OnTimeout.AUTOPLAY)
    alice_seat, bob_seat = seat_of(game, alice), seat_of(game, bob)
    # Whoever was dealt the first move plays until it is Bob's turn; his move then gives
    # Alice a whole turn (draw, then discard), which is the one her clock will play.
    while fresh(game).to_act != [bob_seat]:
        play_turn_by_hand(game, fresh(game).to_act[0])
    opt_in(alice)
    opt_in(bob)

    url = clock_stack.url
    ws_url = f"{url.replace('http://', 'ws://')}/ws/games/{game.pk}/?version={fresh(game).version}"
    with connect(
        ws_url, origin=url, additional_headers={"Cookie": session_cookie(bob)}, open_timeout=10
    ) as bob_socket:
        play_turn_by_hand(game, bob_seat)
        turn_began = fresh(game).version
        alices_turn = clock_stack.wait_for(
            lambda: smtp_sink.to(alice.email), what="Alice's 'your turn' email"
        )[0]

        # Alice does not move, and her hour runs out: a minute before the end (her turn
        # is urgent, so the reminder sweep takes it up: the badge, no email, she did not
        # ask for one), then two seconds.
        clock = live_clock(game, alice_seat)
        set_deadline(clock, timezone.now() + timedelta(minutes=1), allowance=HOUR)
        reminder = clock_stack.wait_for(
            lambda: Notice.objects.filter(
                kind=Kind.REMINDER, user=alice, game=game, sent_at__isnull=False
            ).first(),
            what="the reminder sweep to take up Alice's urgent turn",
        )
        assert not reminder.emailed
        due = timezone.now() + SHORT
        set_deadline(clock, due, allowance=HOUR)

        clock = clock_stack.wait_for(
            lambda: SeatClock.objects.filter(
                game=game, seat=alice_seat, turn=turn_began, ended_at__isnull=False
            ).first(),
            what="the clock to play Alice's turn",
        )
        game = fresh(game)
        update = receive_version(bob_socket, game.version, timeout=15)

    # The bot played Alice's whole turn once, after her deadline and not before.
    played = list(Action.objects.filter(game=game, version__gt=turn_began).order_by("version"))
    assert played and {a.seat for a in played} == {alice_seat}, played
    assert {a.cause for a in played} == {Action.Cause.AUTOPLAY}
    assert [a.notation.split()[0] for a in played][-1] == "discard"
    assert all(a.created_at >= due for a in played)
    assert clock.timed_out
    assert game.table.seats.get(position=alice_seat).timeouts_in_row == 1
    assert game.to_act == [bob_seat] and game.flagged_at is None

    # Bob's page got the move live, with the log saying the clock played it.
    assert "time ran out: a bot played this move for them" in html.unescape(update)

    # The move the clock made is Bob's turn: his email says so.
    bobs_turn = clock_stack.wait_for(
        lambda: smtp_sink.to(bob.email), what="Bob's 'your turn' email after the timeout"
    )
    assert len(bobs_turn) == 1 and f"/games/{game.pk}/" in link_in(bobs_turn[0], url)

    # Two more reminder sweeps (Alice's turn was urgent) and nothing more for Alice.
    reminder_sweeps = len(clock_stack.finished_tasks(REMINDER_SWEEP))
    clock_stack.wait_for(
        lambda: len(clock_stack.finished_tasks(REMINDER_SWEEP)) >= reminder_sweeps + 2,
        what="two more reminder sweeps",
    )
    assert smtp_sink.to(alice.email) == [alices_turn]
    assert alices_turn["Subject"] == f"Your turn at table {game.table_id}"

    # Its link opens the game: through the login page for Alice's browser, which goes
    # straight on to the game when she is logged in.
    link = link_in(alices_turn, url)
    game_path = f"/games/{game.pk}/"
    status, final_url, _, page = get(link, cookie=session_cookie(alice))
    assert status == 200 and urlsplit(final_url).path == game_path
    assert f'ws-connect="/ws/games/{game.pk}/' in page

    status, final_url, _, page = get(link)
    assert status == 200 and urlsplit(final_url).path == "/accounts/login/"
    assert f'name="next" value="{game_path}"' in page
    # Straight to the game without logging in: a public table's game is there to watch,
    # and its "Log in" link comes back to it.
    status, _, _, page = get(f"{url}{game_path}", follow=False)
    assert status == 200 and "You are watching this game." in page
    assert f'href="/accounts/login/?next={game_path}"' in page
