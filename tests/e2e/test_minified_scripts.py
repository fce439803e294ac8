"""Our scripts as production serves them (minified by `collectstatic`: remi_site/
static_storage.py) still parse in Chromium. The browser tests run on the files as written, so
a minifier that broke a template literal or a regular expression would otherwise reach
players unseen."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from playwright.sync_api import Page

from remi_site.static_storage import minifier_for, minify


def our_scripts() -> list[tuple[str, Path]]:
    """Every script `collectstatic` minifies, by its static name: the site's own and each
    game plug-in's (found by the same finders)."""
    found = {}
    for finder in finders.get_finders():
        for name, storage in finder.list([]):
            if name.endswith(".js") and minifier_for(name) is not None:
                found.setdefault(name, Path(storage.path(name)))
    return sorted(found.items())


SCRIPTS = our_scripts()

# `new Function` parses a classic script's text as a function body without running it, and
# throws the SyntaxError a <script> of that text would raise.
PARSE = "text => { try { new Function(text); return null; } catch (e) { return String(e); } }"


def test_there_are_scripts_to_check():
    names = [name for name, _ in SCRIPTS]
    assert {"js/game-shell.js", "js/site.js", "js/remi.js", "js/rummikub.js"} <= set(names)


@pytest.mark.parametrize(("name", "script"), SCRIPTS, ids=[name for name, _ in SCRIPTS])
def test_the_minified_script_parses(page: Page, name: str, script: Path):
    source = script.read_text()
    served = minify(name, source)
    assert len(served) < len(source)
    assert page.evaluate(PARSE, served) is None
    # The check itself can fail: a cut-off script does not parse.
    assert page.evaluate(PARSE, served[: len(served) // 2]) is not None
