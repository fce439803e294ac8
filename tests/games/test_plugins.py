"""Games are plug-ins: every registered game has its presentation (templates, script, form
options), and the site's shared layers name no game — they dispatch through the registries.
Adding a game is its engine package, its presentation adapter and one line of the settings."""

from __future__ import annotations

import ast
import re
from importlib import import_module
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.template.loader import get_template
from django.urls import reverse

from games import plugins
from games.engine import GAMES
from games.models import Table
from games.presenters import PRESENTERS, presenter_for
from games.tables.forms import TableForm
from tests.plugins.ownership import shared_files

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"

# The layers above the engine that every game goes through: every module of ``games`` that
# no game owns (found on disk, tests/plugins/ownership.py), but the engine's shared core and
# the presentation helpers shared by a family of games (tiles, cards), which the conformance
# check of tests/plugins covers.
ABOVE_THE_PRESENTATION = [
    path.relative_to(GAMES_DIR).as_posix()
    for path in shared_files()
    if path.is_relative_to(GAMES_DIR)
    and not path.relative_to(GAMES_DIR).as_posix().startswith(("engine/", "presenters/"))
]
SHARED_MODULES = (*ABOVE_THE_PRESENTATION, "presenters/__init__.py", "presenters/base.py")

# What a shared module may import from the engine: the registry and the shared core.
ALLOWED_ENGINE_IMPORTS = ("games.engine", "games.engine.core")


def _imports(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("module", SHARED_MODULES)
def test_shared_modules_never_name_a_game(module: str) -> None:
    tree = ast.parse((GAMES_DIR / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip().lower()
            for key in GAMES:
                assert text != key, f"{module}:{node.lineno} names the game {key!r}"
                assert f"/{key}/" not in text, f"{module}:{node.lineno} names {key!r}'s files"
        if isinstance(node, ast.Compare):
            compared = ast.unparse(node)
            assert "game_type" not in compared, f"{module}:{node.lineno} branches on the game"


@pytest.mark.parametrize("module", SHARED_MODULES)
def test_shared_modules_reach_engines_only_through_the_registry(module: str) -> None:
    tree = ast.parse((GAMES_DIR / module).read_text(encoding="utf-8"))
    for name in _imports(tree):
        if name.startswith("games.engine"):
            assert name in ALLOWED_ENGINE_IMPORTS or name.startswith("games.engine.core."), (
                f"{module} imports {name}"
            )
        for key in GAMES:
            assert not name.startswith(f"games.presenters.{key}"), f"{module} imports {name}"


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_has_a_presentation_with_its_templates_and_script(key: str) -> None:
    presentation = presenter_for(key)
    assert presentation.key == key
    assert presentation.template.startswith(f"games/{key}/")
    source = get_template(presentation.template).template.source
    for partial in ("updates", "controls"):
        assert f"partialdef {partial}" in source
    # The replay page is shared: it takes the game's parts from its page by name.
    assert "partialdef step" in get_template(presentation.replay_template).template.source
    page = presentation.replay_page()["page_template"]
    replay_parts = ("status", "result", "log", "replay_title", "replay_rack", "replay_final")
    for partial in (*replay_parts, *presentation.board_parts):
        get_template(f"{page}#{partial}")
    get_template(presentation.rule_options_template)
    assert presentation.script.startswith("js/")
    assert finders.find(presentation.script)
    assert f"static '{presentation.script}'" in source  # the page loads it


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_brings_its_rule_options_and_presets_to_the_new_table_form(key: str) -> None:
    game = GAMES[key]
    presentation = presenter_for(key)
    form = TableForm(initial={"game_type": key})
    assert form.game is game
    assert [name for name, _ in form.fields["preset"].choices] == list(game.presets)
    options = game.dump_rules(game.presets[game.default_preset])
    for name in presentation.rule_fields:
        assert name in form.fields
        assert name in options  # the form's options are the engine's own rule fields
    seats = [n for n, _ in form.fields["seat_count"].choices]
    assert seats == list(range(game.min_seats, game.max_seats + 1))


def test_choosing_another_game_redraws_the_form_with_its_rules(client, alice):
    client.force_login(alice)
    html = client.get(reverse("games:table_create")).content.decode()
    select = re.search(r'<select name="game_type"[^>]*>', html)
    assert select is not None
    assert 'hx-select="#table-form"' in select.group(0)
    preset = re.search(r'<select name="preset"[^>]*>', html)
    assert preset is not None and 'hx-include="[name=&#x27;game_type&#x27;]"' in preset.group(0)


def test_the_registries_agree_and_table_choices_come_from_the_engine_registry() -> None:
    assert list(PRESENTERS) == list(GAMES)
    field = Table._meta.get_field("game_type")
    assert list(field.choices) == [(game.key, game.label) for game in GAMES.values()]
    assert field.get_default() == next(iter(GAMES))


def test_a_plugin_is_refused_without_the_plugin_it_builds_on(settings) -> None:
    # Thai Rummy's page includes Basic Rummy's parts and loads its script (REQUIRES).
    builds_on = {p: getattr(import_module(p), "REQUIRES", ()) for p in settings.REMI_GAMES}
    builds_on = {p: required for p, required in builds_on.items() if required}
    assert builds_on
    before = (list(GAMES), list(PRESENTERS), plugins.template_dirs(), plugins.static_dirs())
    for required in builds_on.values():
        without = [p for p in settings.REMI_GAMES if p not in required]
        with pytest.raises(ImproperlyConfigured, match=f"builds on {required[0]}"):
            plugins.load(without)
        # A refused list changes nothing.
        after = (list(GAMES), list(PRESENTERS), plugins.template_dirs(), plugins.static_dirs())
        assert after == before
