"""One setting for how many random examples every property and fuzz test tries: ``TEST_SCALE``.

Each test states its count for CI; the setting multiplies them all.

- ``ci`` (the default): what ``.ci/run`` runs, sized so the whole run stays well under its time;
- ``quick``: a twentieth, for a glance while developing
  (``TEST_SCALE=quick ./bin/test tests/engine``);
- ``full``: ten times CI's, for a nightly run or before a release (``./bin/test-full``);
- a number: that multiple of CI's counts (``TEST_SCALE=3``).

Every count stays at least 1, so no test silently tries nothing.
"""

from __future__ import annotations

import os

LEVELS = {"quick": 0.05, "ci": 1.0, "full": 10.0}


def parse(text: str) -> float:
    """The multiplier ``text`` names; a clear error for anything else."""
    name = text.strip().lower() or "ci"
    if name in LEVELS:
        return LEVELS[name]
    try:
        value = float(name)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        levels = ", ".join(LEVELS)
        raise ValueError(f"TEST_SCALE={text!r}: give one of {levels}, or a positive number")
    return value


SCALE = parse(os.environ.get("TEST_SCALE", "ci"))


def examples(ci: int) -> int:
    """How many examples a test whose CI count is ``ci`` tries at this scale."""
    return max(1, round(ci * SCALE))
