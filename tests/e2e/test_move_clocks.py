"""Issue 30, fault 1: a move clock reads as a clock at every length.  A day's correspondence
clock read "1439:58 left" (minutes and seconds); it now reads hours and minutes, or days and
hours, in the page's language, m:ss under an hour, and a live clock's last seconds are marked
urgent.  One script draws every game's clocks."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import GAMES
from games.models import Game, SeatClock
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.games.clock_helpers import correspondence_game

pytestmark = pytest.mark.django_db(transaction=True)


def a_day_a_move(key: str, alice, bob) -> Game:
    options = {"doubla": False} if key == "remi" else {}
    return correspondence_game(alice, bob, game_type=key, options=options)


def in_romanian(user) -> None:
    user.preferred_language = "ro"
    user.save(update_fields=["preferred_language"])


def deadline_in(game: Game, seconds: int) -> None:
    """The running clock of the game ends ``seconds`` from now (its row, and the game's
    brief of it that pages read)."""
    deadline = timezone.now() + timedelta(seconds=seconds)
    SeatClock.objects.filter(game=game, ended_at__isnull=True).update(deadline=deadline)
    game = Game.objects.get(pk=game.pk)
    briefs = {
        seat: {**brief, "deadline": deadline.isoformat()} if brief.get("deadline") else brief
        for seat, brief in game.seat_clocks.items()
    }
    Game.objects.filter(pk=game.pk).update(deadline=deadline, seat_clocks=briefs)


@pytest.mark.parametrize("key", list(GAMES))
def test_a_days_clock_reads_hours_and_minutes_in_the_players_language(player, alice, bob, key):
    game = off_the_browser_loop(a_day_a_move, key, alice, bob)
    page = player(alice)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    clock = page.locator("#game time[data-deadline]").first
    expect(clock).to_have_text(re.compile(r"^23 hr 5\d min left$"))

    off_the_browser_loop(deadline_in, game, 3 * 24 * 3600 + 5 * 3600 + 120)
    page.reload()
    expect(clock).to_have_text(re.compile(r"^3 days 5 hr left$"))

    off_the_browser_loop(in_romanian, alice)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ro")
    expect(clock).to_have_text(re.compile(r"^mai sunt 3 zile 5 ore$"))
    assert not re.search(r"\d{3,}:\d\d", page.locator("#game").inner_text())


def test_the_last_hour_reads_minutes_and_seconds_and_the_last_seconds_are_urgent(
    player, alice, bob
):
    game = off_the_browser_loop(a_day_a_move, "remi", alice, bob)
    off_the_browser_loop(deadline_in, game, 25 * 60)
    page = player(alice)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    clock = page.locator("#game time[data-deadline]").first
    expect(clock).to_have_text(re.compile(r"^2[45]:\d\d left$"))
    expect(clock).not_to_have_class(re.compile("urgent"))

    off_the_browser_loop(deadline_in, game, 8)
    page.reload()
    expect(clock).to_have_text(re.compile(r"^0:0\d left$"))
    expect(clock).to_have_class(re.compile("urgent"))
