"""What the game pages keep between renders (issue 15): a card's name per language, and a
tile's or card's face rendered once by the ``face`` tag.  Kept things must never cross
languages, and a kept face must be exactly what the game's own partial draws."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from games.presenters.card_faces import card_view
from games.presenters.card_words import card_name
from games.presenters.remi import presentation as remi
from games.presenters.rummikub import presentation as rummikub


def test_a_card_is_named_in_each_viewers_language_whatever_was_named_before():
    for _ in range(2):  # the second round is served from what the first kept
        with translation.override("ro"):
            assert card_name("QS") == "damă de pică"
            assert card_name("JK", "QS") == "joker în loc de damă de pică"
        with translation.override("en"):
            assert card_name("QS") == "queen of spades"
            assert card_name("JK", "QS") == "joker as queen of spades"
            assert card_name("JK") == "joker"


FACES = [
    ("games/remi/game.html#face", "t", remi.tile_view("R12")),
    ("games/remi/game.html#face", "t", remi.tile_view("J")),
    ("games/remi/game.html#face", "t", remi.tile_view("J", "B4")),
    ("games/rummikub/game.html#face", "t", rummikub.tile_view("K9")),
    ("games/rummikub/game.html#face", "t", rummikub.tile_view("J", "Y3")),
    ("games/basic-rummy/game.html#face", "c", card_view("10H")),
    ("games/basic-rummy/game.html#face", "c", card_view("JK", "5D")),
]


@pytest.mark.parametrize(("partial", "name", "view"), FACES)
def test_the_face_tag_draws_what_the_games_partial_draws(partial, name, view):
    tag = Template(f'{{% load faces %}}{{% face "{partial}" {name}=piece %}}')
    for _ in range(2):  # drawn, then kept
        drawn = tag.render(Context({"piece": view}))
        assert drawn == render_to_string(partial, {name: view})
        assert drawn.count("<span") == 2
    joly = remi.tile_view("J", "B4")
    assert "=B4" in Template('{% load faces %}{% face "games/remi/game.html#face" t=j %}').render(
        Context({"j": joly})
    )
