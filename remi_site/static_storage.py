"""Production static files: our own stylesheets and scripts minified by `collectstatic`, then
hashed and compressed (gzip and Brotli) by WhiteNoise as before.

The page budget counts compressed bytes, and compression already squeezes out most repeated
whitespace; what it cannot drop is our comments (they say why, and are many) and the
indentation that differs from line to line. Minifying removes both: about a third of a game
page's compressed style and script (tests/games/test_page_weight.py prints the figures).
The files in `static/` stay as written; only the copies under STATIC_ROOT are minified.
Vendored files, Django's admin and other apps' files are left as their authors ship them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS: dict[str, Callable[[str], str]] = {
    ".css": rcssmin.cssmin,
    ".js": rjsmin.jsmin,
}


# Where our own files are: the site's `static/` and each game plug-in's keep their styles and
# scripts under these.  Everything else (`vendor/`, Django's admin, other apps' files such as
# django-htmx's, which one minifier breaks) is shipped as its authors wrote it.
OURS = ("css/", "js/")


def minifier_for(name: str) -> Callable[[str], str] | None:
    """The minifier for a file of ours, or None for one to copy as it is."""
    if not name.startswith(OURS) or ".min." in name:
        return None
    for suffix, minify in MINIFIERS.items():
        if name.endswith(suffix):
            return minify
    return None


def minify(name: str, text: str) -> str:
    """The text a player downloads for static file `name` (unchanged when not ours)."""
    minifier = minifier_for(name)
    return minifier(text) if minifier else text


class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def post_process(self, paths: dict[str, tuple[Storage, str]], *args: Any, **kwargs: Any) -> Any:
        # Django's hashing reads each file from the storage `paths` names, so the minified
        # copy is written over the collected one first and `paths` pointed at it: the hash,
        # the manifest and WhiteNoise's compressed copies are then all of the minified text.
        if not kwargs.get("dry_run"):
            for name, (source, path) in list(paths.items()):
                if minifier_for(name) is None:
                    continue
                with source.open(path) as original:
                    text = original.read().decode()
                if self.exists(name):
                    self.delete(name)
                self._save(name, ContentFile(minify(name, text).encode()))
                paths[name] = (self, name)
        return super().post_process(paths, *args, **kwargs)
