"""Which static files `collectstatic` minifies (remi_site/static_storage.py): our own styles
and scripts, the site's and each game plug-in's; never another author's file, which a
minifier may break (it broke django-htmx's `htmx-4.js`, which is collected beside ours)."""

from __future__ import annotations

import pytest

from remi_site.static_storage import minifier_for, minify


@pytest.mark.parametrize(
    "name", ["js/game-shell.js", "js/remi.js", "js/a-plug-in-game.js", "css/site.css"]
)
def test_our_styles_and_scripts_are_minified(name):
    assert minifier_for(name) is not None
    assert minify(name, "a  =  1;  // why\n") != "a  =  1;  // why\n"


@pytest.mark.parametrize(
    "name",
    [
        "django_htmx/htmx-4.js",
        "account/js/account.js",
        "admin/js/core.js",
        "vendor/htmx/htmx.min.js",
        "js/library.min.js",
        "favicon.svg",
    ],
)
def test_other_authors_files_are_shipped_as_written(name):
    assert minifier_for(name) is None
    assert minify(name, "a  =  1;  // why\n") == "a  =  1;  // why\n"
