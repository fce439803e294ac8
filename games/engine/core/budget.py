"""A time limit for one search, without the engine reading a clock itself.

The engine does no I/O, so it never asks the time: the caller (the review task, the hint
endpoint, a test) hands in ``stop``, a function that answers True once the search should
give up.  The exact solvers call it now and then and raise :class:`OutOfTime` when it says
so; what they found by then is what the caller falls back on ("best found").
"""

from __future__ import annotations

from collections.abc import Callable

Stop = Callable[[], bool]


class OutOfTime(Exception):
    """A search was told to stop before it could prove its answer best."""


def never() -> bool:
    """The ``stop`` of a search with no time limit."""
    return False


def deadline(clock: Callable[[], float], seconds: float) -> Stop:
    """A ``stop`` that answers True once ``seconds`` have passed on ``clock`` (the caller's
    ``time.process_time`` or ``time.monotonic``) from now."""
    until = clock() + seconds
    return lambda: clock() >= until


def check(stop: Stop) -> None:
    """Raise :class:`OutOfTime` when ``stop`` says so."""
    if stop():
        raise OutOfTime
