"""Compile the site's translation catalogues (locale/<lang>/LC_MESSAGES/*.po) into .mo files.

Django reads only compiled .mo files, and its own ``compilemessages`` needs GNU gettext's
msgfmt. polib compiles in pure Python instead, so a fresh checkout runs in Romanian and
Hungarian with nothing installed beyond requirements.txt. ``./bin/run`` and the test suite
call :func:`compile_catalogues`; ``python -m remi_site.catalogues`` does the same by hand.
Fuzzy entries are left out, as msgfmt does: a guess is not a translation.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import polib

from remi_site.paths import BASE_DIR

LOCALE_DIR = BASE_DIR / "locale"


def catalogue_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_catalogue(po_path: Path) -> Path:
    """Write the .mo beside ``po_path`` and return its path."""
    mo_path = po_path.with_suffix(".mo")
    catalogue = polib.pofile(str(po_path))
    for entry in catalogue.fuzzy_entries():
        catalogue.remove(entry)
    # Written to a temporary file and renamed: a process starting meanwhile (a test worker, a
    # second site process) reads the old catalogue or the new one, never half of one.
    handle, temporary = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
    os.close(handle)
    try:
        catalogue.save_as_mofile(temporary)
        os.replace(temporary, mo_path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return mo_path


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every catalogue whose .mo is missing or older than its .po; return those."""
    compiled = []
    for po_path in catalogue_files(locale_dir):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        compiled.append(compile_catalogue(po_path))
    return compiled


if __name__ == "__main__":
    for path in compile_catalogues():
        print(f"compiled {path.relative_to(BASE_DIR)}", file=sys.stderr)
