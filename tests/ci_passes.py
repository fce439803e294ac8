"""Which tests run on only one of ``.ci/run``'s two passes, and why: ``CI_PASS``.

``.ci/run`` runs ``./bin/test`` twice, on the embedded defaults (``CI_PASS=embedded``: SQLite,
an embedded Redis) and on the PostgreSQL and Redis servers (``CI_PASS=servers``).  Most tests
run on both.  The ones below give the same answer on either configuration, or are about one
of them, and are long: each runs on one pass only, so the two passes together stay within
CI's time.  With ``CI_PASS`` unset (``./bin/test`` on its own) every test runs.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

EMBEDDED = "embedded"
SERVERS = "servers"
PASSES = (EMBEDDED, SERVERS)

# (path prefix from the project's root, the one pass it runs on, why that one is enough)
ONE_PASS: tuple[tuple[str, str, str], ...] = (
    ("tests/engine/", EMBEDDED, "the rules engines use neither a database nor Redis"),
    (
        "tests/games/test_hidden_information",
        EMBEDDED,
        "what each viewer is shown is the presenters' work; the database only stores the game",
    ),
    (
        "tests/fuzz/",
        SERVERS,
        "PostgreSQL refuses values SQLite takes (integer ranges, NUL bytes): hostile input is "
        "tried where production stores it",
    ),
    (
        "tests/e2e/",
        SERVERS,
        "the browser sees the same pages either way; production's configuration is the one to "
        "drive them against",
    ),
)
# Run on both passes although a prefix above names them: one whole game in a browser on the
# embedded defaults too, since that is what a newcomer's first ./bin/run serves.
BOTH_PASSES = frozenset({"tests/e2e/test_two_players_live_game.py"})


def chosen_pass(environ: dict[str, str] | os._Environ[str] = os.environ) -> str | None:
    """The pass ``CI_PASS`` names, None when unset; a clear error for anything else."""
    value = environ.get("CI_PASS", "").strip().lower()
    if not value:
        return None
    if value not in PASSES:
        raise ValueError(f"CI_PASS={value!r}: give one of {', '.join(PASSES)}, or leave it unset")
    return value


def pass_of(path: str) -> str | None:
    """The one pass the test file or folder ``path`` (from the project's root) runs on, or
    None when it runs on both."""
    posix = PurePosixPath(path).as_posix()
    if posix in BOTH_PASSES:
        return None
    for prefix, only, _why in ONE_PASS:
        if posix.startswith(prefix) or f"{posix}/" == prefix:
            return only
    return None


def left_out(path: str, running: str | None) -> bool:
    """Whether ``path`` is left out of the ``running`` pass (nothing is when it is None)."""
    only = pass_of(path)
    return running is not None and only is not None and only != running
