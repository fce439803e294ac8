"""Our scripts as production serves them (minified by `collectstatic`: remi_site/
static_storage.py) still parse in Chromium. The browser tests run on the files as written, so
a minifier that broke a template literal or a regular expression would otherwise reach
players unseen."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from remi_site.static_storage import minify

SCRIPTS = sorted(Path("static/js").glob("*.js"))

# `new Function` parses a classic script's text as a function body without running it, and
# throws the SyntaxError a <script> of that text would raise.
PARSE = "text => { try { new Function(text); return null; } catch (e) { return String(e); } }"


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_the_minified_script_parses(page: Page, script: Path):
    source = script.read_text()
    served = minify(f"js/{script.name}", source)
    assert len(served) < len(source)
    assert page.evaluate(PARSE, served) is None
    # The check itself can fail: a cut-off script does not parse.
    assert page.evaluate(PARSE, served[: len(served) // 2]) is not None
