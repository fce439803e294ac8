"""Issue 15: parts of a game page rendered once for the data they show (``{% reuse %}``).

A part is served from the store only when every value it reads is equal, in the same
language, time zone and switches; a part whose output could depend on anything else is
refused; the check the tests run under catches a part served stale."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template import Context, Template, TemplateSyntaxError
from django.test import override_settings
from django.utils import translation
from django.utils.functional import lazy
from django.utils.safestring import SafeString, mark_safe

from games import plugins
from games.engine import GAMES, get_game
from games.play import live_views, services
from games.play.page_parts import render_parts
from games.presenters import fragment_reuse
from games.presenters.fragment_reuse import STORE, ReuseMismatch, Store, frozen, names_read
from games.tables import lifecycle


@pytest.fixture(autouse=True)
def _empty_store():
    STORE.clear()
    yield
    STORE.clear()


def part(source: str) -> Template:
    return Template("{% load i18n reuse %}{% reuse %}" + source + "{% endreuse %}")


def test_equal_values_are_served_from_the_store_and_other_values_rendered():
    template = part("{% for t in tiles %}[{{ t }}]{% endfor %}")

    assert template.render(Context({"tiles": [1, 2]})) == "[1][2]"
    assert (STORE.hits, STORE.misses) == (0, 1)
    assert template.render(Context({"tiles": [1, 2]})) == "[1][2]"
    assert (STORE.hits, STORE.misses) == (1, 1)
    assert template.render(Context({"tiles": [1, 3]})) == "[1][3]"
    assert (STORE.hits, STORE.misses) == (1, 2)


def test_the_names_a_part_reads_are_found_in_every_kind_of_node_it_allows():
    template = part(
        "{% for t in rack %}{{ t.label|default:fallback }}{% endfor %}"
        "{% if over and not replay %}x{% elif seat == turn %}y{% endif %}"
        "{% blocktranslate count count=n %}{{ count }} tile{% plural %}{{ count }} tiles"
        "{% endblocktranslate %}"
        "{% with a=b.c %}{{ a }}{% endwith %}{% translate 'Table' %}"
        "{% include 'games/includes/meld_total.html' with points=p needed=q url=u %}"
    )
    reuse_node = template.nodelist[-1]

    read = names_read(reuse_node.nodelist, "here")

    # The locals (t, count, a) and the included template's own names count too: a name too
    # many only costs a reuse, a name too few would serve a stale part.
    assert set(read) == {
        "rack", "t", "fallback", "over", "replay", "seat", "turn", "n", "count",
        "b", "a", "p", "q", "u", "points", "needed", "url", "tiles", "done",
    }  # fmt: skip


@pytest.mark.parametrize(
    "source",
    [
        "{{ deadline|timeuntil }}",
        "{{ when|timesince }}",
        '{% now "Y" %}',
        "{% cycle 'a' 'b' %}",
        "{% load chat %}{% chat_panel %}",
        "{% include name %}",
    ],
)
def test_a_part_that_could_depend_on_more_than_its_names_is_refused(source):
    with pytest.raises(TemplateSyntaxError, match="cannot be reused"):
        Template("{% load reuse %}{% reuse %}" + source + "{% endreuse %}").render(Context({}))


def test_a_part_reading_something_that_is_not_plain_data_is_rendered_each_time():
    person = get_user_model()(username="ana")
    template = part("{{ person.username }}")

    assert template.render(Context({"person": person})) == "ana"
    assert template.render(Context({"person": person})) == "ana"
    assert (STORE.hits, STORE.unkeyed) == (0, 2)


def test_safe_text_and_plain_text_are_told_apart():
    template = part("{{ x }}")

    assert template.render(Context({"x": "<b>"})) == "&lt;b&gt;"
    assert template.render(Context({"x": mark_safe("<b>")})) == "<b>"


def test_lazy_safe_text_and_plain_text_are_told_apart():
    template = part("{{ x }}")
    lazy_safe = lazy(lambda: mark_safe("<b>"), SafeString)()

    assert template.render(Context({"x": "<b>"})) == "&lt;b&gt;"
    assert template.render(Context({"x": lazy_safe})) == "<b>"


def test_true_and_one_are_told_apart():
    template = part("{{ x }}")

    assert template.render(Context({"x": True})) == "True"
    assert template.render(Context({"x": 1})) == "1"


def test_the_language_is_part_of_the_key():
    template = part("{% translate 'Your turn' %}")

    with translation.override("en"):
        english = template.render(Context({}))
    with translation.override("ro"):
        romanian = template.render(Context({}))

    assert english == "Your turn"
    assert romanian != english
    assert STORE.hits == 0


@dataclass(frozen=True)
class Tile:
    number: int
    colour: str


def test_dataclasses_key_by_their_fields():
    assert frozen(Tile(5, "red")) == frozen(Tile(5, "red"))
    assert frozen(Tile(5, "red")) != frozen(Tile(5, "blue"))
    assert frozen({"a": [Tile(1, "x")]}) == frozen({"a": [Tile(1, "x")]})
    assert frozen([1]) != frozen((1,))


def test_an_immutable_views_stand_in_is_kept_with_it_and_equals_a_fresh_ones():
    from games.presenters.remi.presentation import TileView, tile_view

    with translation.override("en"):
        drawn = tile_view("R5")
        assert tile_view("R5") is drawn  # the presenter makes it once per language
        kept = frozen(drawn)
        assert frozen(drawn) is kept
        twin = TileView(drawn.code, drawn.colour, drawn.letter, drawn.number, drawn.label)
        assert twin is not drawn and frozen(twin) == kept
        assert frozen(tile_view("R6")) != kept
        # Lazy text is not what the class declares: such a view is keyed afresh each time.
        lazy_label = lazy(lambda: drawn.label, str)()
        odd = TileView(drawn.code, drawn.colour, drawn.letter, drawn.number, lazy_label)
        assert frozen(odd) == kept and frozen(odd) is not frozen(odd)


def test_only_frozen_dataclasses_of_text_numbers_and_flags_are_immutable():
    @dataclass
    class Loose:
        code: str

    @dataclass(frozen=True)
    class Holder:
        codes: list[str]

    for cls in (Loose, Holder):
        with pytest.raises(TypeError):
            fragment_reuse.immutable(cls)


class Dial:
    """A value whose rendering reads something besides its fields: what a key must not miss."""

    hand = "left"


@dataclass(frozen=True)
class Clock:
    @property
    def hand(self) -> str:
        return Dial.hand


def test_the_check_catches_a_part_served_stale():
    template = part("{{ clock.hand }}")
    with override_settings(FRAGMENT_REUSE_CHECK=True):
        assert template.render(Context({"clock": Clock()})) == "left"
        Dial.hand = "right"
        try:
            with pytest.raises(ReuseMismatch, match="served a stale part"):
                template.render(Context({"clock": Clock()}))
        finally:
            Dial.hand = "left"


def test_the_store_drops_the_least_recently_used_parts_beyond_its_size():
    store = Store(max_characters=2 * (5 + fragment_reuse.KEY_CHARACTERS))
    store.put("a", mark_safe("12345"))
    store.put("b", mark_safe("12345"))
    assert store.get("a") == "12345"  # "a" is now the most recent
    store.put("c", mark_safe("12345"))

    assert store.get("b") is None
    assert store.get("a") == "12345"
    assert store.get("c") == "12345"
    assert len(store) == 2


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", list(GAMES))
def test_every_games_page_reuses_its_parts_and_renders_each_viewer_as_before(game_type, alice, bob):
    table = lifecycle.create_table(alice, game_type=game_type, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    engine = get_game(game_type)
    rng = random.Random(1)
    for _ in range(6):
        game.refresh_from_db()
        seat = min(game.to_act)
        action = engine.random_action(engine.load(game.state), seat, rng)
        services.play(game.pk, seat, str(action), game.version)
    snapshot = live_views.read_snapshot(game.pk)
    viewers = [0, 1, None]

    with override_settings(FRAGMENT_REUSE_CHECK=True):  # every part served is also rendered
        first = {viewer: live_views.render_updates(snapshot, viewer) for viewer in viewers}
        misses = STORE.misses
        again = {viewer: live_views.render_updates(snapshot, viewer) for viewer in viewers}

    assert again == first
    assert STORE.misses == misses  # the second round came whole from the store
    assert STORE.hits > 0
    # Each viewer still has a page of its own.
    assert len(set(first.values())) == len(viewers)


def test_the_module_marks_the_face_tag_pure():
    from games.templatetags.faces import face

    assert face in fragment_reuse.PURE_TAGS


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_sockets_parts_are_keyed_by_the_language_they_are_rendered_in(game_type, alice, bob):
    # render_parts reads the language once for all its fragments: a render in Romanian
    # right after one in English must not be served the English fragments.
    table = lifecycle.create_table(alice, game_type=game_type, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    snapshot = live_views.read_snapshot(game.pk)
    rendered = {}
    with override_settings(FRAGMENT_REUSE_CHECK=True):
        for language in ("en", "ro", "en"):
            with translation.override(language):
                context = live_views.viewer_context(snapshot, 0)
                rendered.setdefault(language, []).append(
                    "".join(html for _, html in render_parts(snapshot.template, context))
                )
    assert rendered["en"][0] == rendered["en"][1]
    assert rendered["ro"][0] != rendered["en"][0]
    assert "Jucători" in rendered["ro"][0] and "Jucători" not in rendered["en"][0]


def test_no_game_template_switches_the_language_inside_a_render():
    # Which is what lets render_parts read the language once for every fragment's key.
    folders = [Path(settings.BASE_DIR) / "templates", *plugins.template_dirs()]
    pages = [p for folder in folders for p in (folder / "games").rglob("*.html")]
    assert any(p.name == "game.html" for p in pages)
    switching = [p for p in pages if "{% language" in p.read_text()]
    assert switching == []
