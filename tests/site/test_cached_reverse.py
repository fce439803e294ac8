"""A remembered address is the address reverse gives, wherever the site is mounted."""

from __future__ import annotations

from django.urls import clear_script_prefix, reverse, set_script_prefix

from remi_site.cached_reverse import cached_reverse


def test_it_gives_what_reverse_gives():
    assert (
        cached_reverse("games:game_act", 41)
        == reverse("games:game_act", args=[41])
        == ("/games/41/act/")
    )
    assert cached_reverse("games:game_act", 42) == "/games/42/act/"
    assert cached_reverse("games:rules_game", "remi") == reverse("games:rules_game", args=["remi"])
    assert cached_reverse("games:deal_explained") == reverse("games:deal_explained")


def test_a_site_mounted_elsewhere_gets_its_own_addresses():
    assert cached_reverse("games:game", 7) == "/games/7/"
    set_script_prefix("/remi/")
    try:
        assert cached_reverse("games:game", 7) == "/remi/games/7/"
    finally:
        clear_script_prefix()
    assert cached_reverse("games:game", 7) == "/games/7/"
