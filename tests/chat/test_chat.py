"""Table chat over HTTP: players and spectators each in their own room during play, both
rooms for everyone once the game is over and in the replay; quick phrases; refusals that say
why, keep what was typed and save nothing; mutes; moderation in the admin."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from chat import services
from chat.models import ChatBan, ChatMessage, ChatMute
from games.models import Game
from games.presenters import PRESENTERS
from games.tables import lifecycle
from tests.conftest import make_user
from tests.games.conftest import two_player_game
from tests.games.playing import play_out

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob) -> Game:
    return two_player_game(alice, bob)


def say(client, game: Game, **data):
    return client.post(f"/games/{game.pk}/chat/", data, **HTMX)


def page(client, game: Game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def test_players_and_spectators_talk_in_separate_rooms_until_the_game_ends(
    client, alice, bob, carol, game
):
    client.force_login(alice)
    assert say(client, game, text="Hi Bob").status_code == 200
    client.force_login(carol)
    assert say(client, game, text="Go Alice!").status_code == 200
    assert [(m.author, m.room) for m in ChatMessage.objects.order_by("pk")] == [
        (alice, "players"),
        (carol, "spectators"),
    ]
    client.force_login(bob)
    html = page(client, game)
    assert "Hi Bob" in html and "Go Alice!" not in html and 'id="chat-heading">Players' in html
    client.force_login(carol)
    html = page(client, game)
    assert "Go Alice!" in html and "Hi Bob" not in html and 'id="chat-heading">Spectators' in html

    play_out(game)
    for user in (bob, carol):
        client.force_login(user)
        html = page(client, game)
        assert "Hi Bob" in html and "Go Alice!" in html
    # Kept with the game: its replay shows both rooms, read-only.
    html = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "Hi Bob" in html and "Go Alice!" in html and 'id="chat-form"' not in html


def test_a_quick_phrase_is_kept_by_its_code(client, bob, game):
    client.force_login(bob)
    response = say(client, game, phrase="good-game", text="half a sentence")
    message = ChatMessage.objects.get()
    assert (message.phrase, message.text) == ("good-game", "")
    # The line being typed was not sent with the phrase: it stays in the box, which the answer
    # leaves alone (only an old refusal goes); tests/e2e/test_table_talk.py types meanwhile.
    assert response["HX-Reswap"] == "none"
    answer = response.content.decode()
    assert 'id="chat-text"' not in answer
    assert answer == '<p id="chat-error" class="chat-error" role="alert" hx-swap-oob="true"></p>'
    assert "Good game" in page(client, game)


def test_text_is_escaped_and_squeezed_to_one_line(client, alice, game):
    client.force_login(alice)
    say(client, game, text="  <script>alert(1)</script>\n\n\tnice\x00 ")
    assert ChatMessage.objects.get().text == "<script>alert(1)</script> nice"
    html = page(client, game)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; nice" in html and "<script>alert" not in html


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"text": "   "}, "Write a message first"),
        ({"text": "x" * 201}, "at most 200 characters; this one has 201"),
        ({"phrase": "rude"}, "There is no such quick phrase."),
    ],
)
def test_a_refused_message_says_why_keeps_the_text_and_saves_nothing(
    client, alice, game, data, said
):
    client.force_login(alice)
    response = say(client, game, **data)
    html = response.content.decode()
    assert response.status_code == 200 and said in html
    if data.get("text", "").strip():
        assert f'value="{data["text"]}"' in html  # what was typed stays in the box
    assert not ChatMessage.objects.exists()


def test_the_form_also_posts_without_its_script(alice, game):
    """Submitted by the browser itself (no script yet, or none at all), the form still posts
    the message, with its CSRF token, and lands back on the game's page."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    html = page(browser, game)
    form = re.search(r'<form id="chat-form"[^>]*>', html).group(0)
    assert f'action="/games/{game.pk}/chat/"' in form and 'method="post"' in form
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = browser.post(
        f"/games/{game.pk}/chat/", {"csrfmiddlewaretoken": token, "text": "Plain and simple"}
    )
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["Plain and simple"]


def test_a_flood_is_slowed_down(client, alice, game):
    client.force_login(alice)
    for n in range(services.RATE_MESSAGES):
        assert "Slow down" not in say(client, game, text=f"message {n}").content.decode()
    html = say(client, game, text="one too many").content.decode()
    assert "Slow down: at most 5 messages in 10 seconds" in html
    assert 'value="one too many"' in html
    assert ChatMessage.objects.count() == services.RATE_MESSAGES


def test_a_banned_user_reads_but_cannot_write(client, alice, game):
    ChatBan.objects.create(user=alice, reason="insults")
    client.force_login(alice)
    assert (
        "A moderator has closed the chat to you." in say(client, game, text="hi").content.decode()
    )
    assert not ChatMessage.objects.exists()
    html = page(client, game)
    assert 'id="chat-lines"' in html and 'id="chat-form"' not in html


def test_strangers_and_visitors_cannot_write(client, carol, alice, bob):
    private = two_player_game(alice, bob, is_public=False)
    client.force_login(carol)
    assert say(client, private, text="hello").status_code == 404
    client.logout()
    response = say(client, private, text="hello")
    assert response.status_code in (302, 403) or "login" in response.get("HX-Redirect", "")
    assert not ChatMessage.objects.exists()


def test_muting_hides_a_writer_from_the_muter_only(client, alice, bob, carol, game):
    client.force_login(bob)
    say(client, game, text="from bob")
    client.force_login(alice)
    say(client, game, text="from alice")
    bob_line = ChatMessage.objects.get(author=bob).pk
    response = client.post(f"/games/{game.pk}/chat/mute/{bob.pk}/", **HTMX)
    # The muted writer's lines leave the page at once.
    assert response.content.decode() == f'<li id="chat-{bob_line}" hx-swap-oob="delete"></li>'
    assert ChatMute.objects.filter(user=alice, muted=bob).exists()
    assert "from bob" not in page(client, game) and "from alice" in page(client, game)
    client.force_login(bob)
    assert "from alice" in page(client, game)
    client.force_login(alice)
    client.post(f"/games/{game.pk}/chat/mute/{bob.pk}/", {"unmute": "1"}, **HTMX)
    assert "from bob" in page(client, game)


def test_nobody_mutes_themselves(client, alice, game):
    client.force_login(alice)
    response = client.post(f"/games/{game.pk}/chat/mute/{alice.pk}/", **HTMX)
    assert response.status_code == 400 and b"cannot mute yourself" in response.content
    assert not ChatMute.objects.exists()


def test_muting_someone_not_at_the_table_answers_as_for_nobody(client, alice, bob, game):
    # Whether a user exists is nobody's business: a number that is no user, a user who is
    # not at the table and a player who has not written get the same empty answer.
    client.force_login(alice)
    answers = [
        client.post(f"/games/{game.pk}/chat/mute/{other}/", **HTMX)
        for other in (999999, make_user("dave").pk, bob.pk)
    ]
    assert [(a.status_code, a.content) for a in answers] == [(200, b"")] * 3
    assert not ChatMute.objects.exists()


def test_a_spectator_muting_a_player_learns_nothing_of_the_players_room(
    client, alice, bob, carol, game
):
    client.force_login(bob)
    say(client, game, text="players only")
    client.force_login(carol)
    response = client.post(f"/games/{game.pk}/chat/mute/{bob.pk}/", **HTMX)
    # Bob's line is in the players' room: a spectator's answer names none of it, exactly as
    # for a player who never wrote.
    assert (response.status_code, response.content) == (200, b"")
    assert not ChatMute.objects.exists()
    # Once the game is over both rooms are everyone's, and so is muting their writers.
    play_out(game)
    line = ChatMessage.objects.get(author=bob).pk
    response = client.post(f"/games/{game.pk}/chat/mute/{bob.pk}/", **HTMX)
    assert response.content.decode() == f'<li id="chat-{line}" hx-swap-oob="delete"></li>'
    assert ChatMute.objects.filter(user=carol, muted=bob).exists()


def test_a_moderator_removes_messages_and_bans_from_the_admin(client, alice, bob, game, carol):
    client.force_login(alice)
    say(client, game, text="something rude")
    message = ChatMessage.objects.get()
    carol.is_staff = True
    carol.save()
    carol.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["view_chatmessage", "change_chatmessage", "add_chatban", "view_chatban"]
        )
    )
    client.force_login(carol)
    response = client.post(
        "/admin/chat/chatmessage/",
        {"action": "remove_messages", "_selected_action": [message.pk]},
        follow=True,
    )
    assert "1 message(s) removed." in response.content.decode()
    message.refresh_from_db()
    assert message.removed_at is not None and message.removed_at <= timezone.now()
    client.force_login(bob)
    assert "something rude" not in page(client, game)

    client.force_login(carol)
    response = client.post("/admin/chat/chatban/add/", {"user": alice.pk, "reason": "insults"})
    assert response.status_code == 302
    assert ChatBan.objects.get(user=alice).banned_by == carol


@pytest.mark.parametrize("game_type", sorted(PRESENTERS))
def test_every_games_page_carries_the_chat(client, alice, bob, game_type):
    options = {"doubla": False} if game_type == "remi" else {}
    table = lifecycle.create_table(alice, game_type=game_type, seat_count=2, options=options)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(bob)
    say(client, game, phrase="good-luck")
    html = page(client, game)
    assert 'id="game-chat"' in html and "Good luck!" in html
    assert f'ws-connect="/ws/games/{game.pk}/chat/"' in html
