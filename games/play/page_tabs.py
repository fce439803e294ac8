"""Which open page made a move, so that page's own socket is not sent the move again.

A move made through ``act`` is answered with the mover's new position, and the same position
used to reach that page a second time over its socket: one full render of the mover's seat per
move spent on news the page already had.  Each game page gives itself a random name as it
loads (static/js/game-shell.js; the server's HTML stays the same for every load), sends the
name with its moves (a header) and opens its socket with it.  The
move's announcement says which page was answered, and only that page's socket skips it: the
mover's other tabs, devices and every other seat are sent the move as before.

The name is not a secret and grants nothing: only a socket of the seat that moved skips, so a
name given by another seat's page is no use, and the pages of one seat are one person's.
"""

from __future__ import annotations

import re

from django.http import HttpRequest

HEADER = "X-Remi-Tab"
_FORM = re.compile(r"[A-Za-z0-9_-]{8,32}")


def valid_tab(text: str | None) -> str:
    """``text`` if it has the form of a page's name, else ""."""
    return text if text and _FORM.fullmatch(text) else ""


def answered_tab(request: HttpRequest) -> str:
    """The name of the page a request came from ("" when it sent none or a malformed one)."""
    return valid_tab(request.headers.get(HEADER))
